"""What builders on the library met (issue 48 B2): the command line takes installed map names
everywhere, record files are named as the docs say, and a parse error on a board without wild
locomotives says so."""

from __future__ import annotations

import pytest

from ttr_rules import cli


@pytest.mark.parametrize("name", ["europe", "Nordic"])
def test_validate_map_takes_an_installed_name(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["validate-map", name]) == 0
    assert capsys.readouterr().out.startswith(f"ok: {name}: GameMap('{name.lower()}'")


def test_validate_map_names_the_installed_maps_for_an_unknown_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["validate-map", "atlantis"]) == 1
    assert "no map named 'atlantis'; available maps: europe" in capsys.readouterr().out
