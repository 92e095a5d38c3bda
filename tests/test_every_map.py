"""Every installed map through the surfaces a user reaches first (the integration sweep of the
boards added together: Switzerland, India, Legendary Asia and the ticket-deck variants). Each
check is cheap and parametrised over ``available_maps()``, so a map added later is covered."""

from __future__ import annotations

import pytest

from ttr_rules import available_maps, load_map
from ttr_rules.cli import main


@pytest.mark.parametrize("map_name", available_maps())
def test_simulate_defaults_to_a_player_count_the_map_takes(
    map_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --players, four players, or the nearest count the board seats (Nordic and
    Switzerland stop at three): `ttr simulate --map nordic` refused its own default."""
    rules = load_map(map_name).rules
    expected = min(max(4, rules.min_players), rules.max_players)
    status = main(["simulate", "--map", map_name, "--games", "1", "--quiet"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert out.startswith(f"1 games of {expected} players on {map_name} ")
