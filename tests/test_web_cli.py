"""``ttr serve`` and the laziness of the web package."""

from __future__ import annotations

import subprocess
import sys
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ttr_rules.cli import build_parser
from ttr_rules.web import create_app


def test_serve_defaults_to_this_machine_only() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.data) == ("127.0.0.1", 8000, None)
    args = build_parser().parse_args(["serve", "--port", "9000", "--data", "games"])
    assert (args.port, args.data) == (9000, "games")


def test_importing_the_library_or_the_web_package_loads_no_web_framework() -> None:
    code = (
        "import sys, ttr_rules, ttr_rules.web\n"
        "assert not {'fastapi', 'uvicorn', 'starlette', 'sse_starlette'} & set(sys.modules)\n"
        "from ttr_rules.web import app\n"
        "assert 'fastapi' in sys.modules and callable(app)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_board_svg_has_clickable_routes_and_no_hidden_cards() -> None:
    with TestClient(create_app()) as client:
        created = client.post("/api/games", json={"players": 2, "seed": 3}).json()
        token = created["seats"][0]["token"]
        own = client.get(
            f"/api/games/{created['id']}/board.svg", headers={"Authorization": f"Bearer {token}"}
        )
        public = client.get(f"/api/games/{created['id']}/board.svg?legend=false&size=600")
    assert own.status_code == 200 and own.headers["content-type"].startswith("image/svg+xml")
    assert own.text.startswith("<svg") and 'data-route="57"' in own.text
    assert public.status_code == 200 and 'data-city="Berlin"' in public.text
