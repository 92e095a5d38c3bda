"""What builders on the library met (issue 48 B2): the command line takes installed map names
everywhere, record files are named as the docs say, and a parse error on a board without wild
locomotives says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ttr_rules import (
    AmbiguousActionError,
    ClaimRoute,
    Color,
    GameMap,
    InvalidActionError,
    Rules,
    cli,
    parse_action,
    scenario,
)
from ttr_rules.sim.runner import record_name


@pytest.mark.parametrize("name", ["europe", "Nordic"])
def test_validate_map_takes_an_installed_name(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["validate-map", name]) == 0
    counts = "1.0, 47 cities, 101 routes, 46 tickets" if name == "europe" else "1.0, 39 cities"
    assert capsys.readouterr().out.startswith(f"ok: {name}: {name.lower()} {counts}")


def test_validate_map_names_the_installed_maps_for_an_unknown_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["validate-map", "atlantis"]) == 1
    assert "no map named 'atlantis'; available maps: europe" in capsys.readouterr().out


DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_record_files_are_named_as_the_docs_and_the_help_say(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        cli.main(["simulate", "--games", "2", "--seed", "41", "--quiet", "--record", str(tmp_path)])
        == 0
    )
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == [record_name(41), record_name(42)] == ["game-000041.json", "game-000042.json"]
    capsys.readouterr()
    assert cli.main(["simulate", "--help"]) == 0
    shown = capsys.readouterr().out
    mentions = re.findall(
        r"game-[^\s`'\")]*\.json",
        shown + "".join(page.read_text(encoding="utf-8") for page in sorted(DOCS.glob("*.md"))),
    )
    assert mentions and all(re.fullmatch(r"game-\d{6}\.json", m) for m in mentions), mentions


def _luzern_zug(rules: Rules) -> GameMap:
    tracks = [("Luzern", "Zug", 1, Color.RED), ("Luzern", "Zug", 1, Color.BLUE)]
    return GameMap.create(
        "lz", ["Luzern", "Zug", "Bern"], [*tracks, ("Bern", "Luzern", 2, None)], [], rules=rules
    )


def test_a_claim_on_a_board_without_wild_locomotives_says_so() -> None:
    board = _luzern_zug(Rules(wild_locomotives=("tunnel", "ferry")))
    state = scenario(board, 2, hands=[{Color.LOCOMOTIVE: 3, Color.RED: 1}, {}])
    with pytest.raises(InvalidActionError) as error:
        parse_action("claim Luzern-Zug L", state)
    assert not isinstance(error.value, AmbiguousActionError)
    assert str(error.value) == (
        "no track of Luzern-Zug takes 1L: Luzern-Zug red 1, Luzern-Zug blue 1 "
        "(locomotives are wild only on tunnel, ferry routes; this one is plain)"
    )
    assert parse_action("claim Luzern-Zug red", state) == ClaimRoute(0, Color.RED, 0)
    # Where locomotives are wild, both tracks take them and the text stays ambiguous.
    with pytest.raises(AmbiguousActionError):
        parse_action("claim Luzern-Zug L", scenario(_luzern_zug(Rules()), 2))


def test_a_claim_without_a_payment_suggests_only_payments_the_board_takes() -> None:
    tame = scenario(_luzern_zug(Rules(wild_locomotives=("tunnel", "ferry"))), 2)
    with pytest.raises(InvalidActionError, match=r"write one, e\.g\. 'red'$"):
        parse_action("claim Luzern-Zug", tame)
    wild = scenario(_luzern_zug(Rules()), 2)
    with pytest.raises(InvalidActionError, match=r"write one, e\.g\. 'red' or '1L'$"):
        parse_action("claim Luzern-Zug", wild)
