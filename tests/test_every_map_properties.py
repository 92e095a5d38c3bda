"""The engine-wide properties of random games, on every installed map and ticket-deck variant
(``ttr maps``: each board and each deck played on it): cards and tickets are conserved, trains
never go negative and every invariant holds, every legal action applies, the notation and the
JSON of states, views and actions read back, and the scores add up, the winners' totals the
best. The same properties as tests/test_engine_random_games.py, tests/test_notation.py,
tests/test_serialization.py and tests/test_scoring_properties.py check on Europe; the games
are hypothesis draws (``ttr_rules.testing.strategies.games``), few per map, so that they stay
fast (``HYPOTHESIS_PROFILE=thorough`` plays more)."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttr_rules import (
    GameMap,
    GameState,
    PlayerView,
    apply_action,
    final_scores,
    format_action,
    from_json,
    legal_actions,
    load_map,
    observe,
    parse_action,
    to_json,
    winners,
)
from ttr_rules.actions import Action
from ttr_rules.game import full_deck
from ttr_rules.maps import map_groups
from ttr_rules.testing import card_census, check_invariants
from ttr_rules.testing.strategies import games

#: Every playable map, board by board: each board and each ticket-deck variant played on it.
MAPS = [name for _, names in map_groups() for name in names]
#: Whole games per map in the ci profile (the profile's own count in the others): the first
#: is a 2-player game, the second one of more players as the rules allow.
EXAMPLES = 2
#: Every this many positions of a game, all legal actions are applied and the state and views
#: are read back from JSON (every position would be slow; the first and the last always are).
SAMPLE = 40

_FEW = settings(
    max_examples=EXAMPLES if settings().max_examples <= 25 else settings().max_examples,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@cache
def board(name: str) -> GameMap:
    return load_map(name)


def test_every_shipped_board_and_variant_is_played() -> None:
    groups = dict(map_groups())
    assert {"europe", "usa", "nordic", "switzerland", "india", "legendary-asia"} <= set(groups)
    assert set(groups["europe"]) >= {"europe-1912", "europe-1912-big-cities", "europe-1912-mega"}
    assert set(groups["usa"]) >= {"usa-1910", "usa-big-cities", "usa-mega"}
    assert all(
        board(name).board in ("", group) for group, names in groups.items() for name in names
    )


def check_conservation(state: GameState) -> None:
    """Cards and tickets are all somewhere, once; trains never go below zero."""
    assert card_census(state) == Counter(full_deck(state.rules))
    held = [t for p in state.players for t in p.tickets + p.offered]
    tickets = held + list(state.ticket_deck) + list(state.ticket_box)
    assert sorted(tickets) == list(range(len(state.map.tickets)))
    assert all(p.trains >= 0 for p in state.players)
    check_invariants(state)


def check_doors(state: GameState) -> None:
    """Every legal action applies and leaves ``state`` as it was; the state and each seat's
    view read back from their JSON."""
    before = to_json(state)
    for action in legal_actions(state):
        apply_action(state, action)
    assert to_json(state) == before
    assert from_json(before, GameState) == state
    for seat in range(state.num_players):
        view = observe(state, seat)
        assert from_json(to_json(view), PlayerView) == view


def check_action_texts(state: GameState, action: Action) -> None:
    """The action taken reads back from its notation (by names and by ids) and its JSON."""
    assert parse_action(format_action(action, state.map), state) == action
    assert parse_action(str(action), state) == action
    assert from_json(to_json(action), Action) == action


def check_scores(state: GameState) -> None:
    """Every score breakdown adds up, route points are the claim table's, and the winners
    hold the best total (E76, U27)."""
    rules, routes = state.rules, state.map.routes
    scores = final_scores(state)
    assert [s.player for s in scores] == list(range(state.num_players))
    for score, player in zip(scores, state.players, strict=True):
        parts = score.route_points + score.ticket_points + score.station_bonus
        assert score.total == parts + score.express_bonus + sum(p for _, p in score.bonuses)
        owned = [routes[r] for r in state.routes_of(score.player)]
        assert score.route_points == sum(rules.claim_points(r.length, r.mountain) for r in owned)
        assert score.mountain_points == sum(r.mountain for r in owned) * rules.mountain_points
        assert score.tickets_completed + score.tickets_failed == len(player.tickets)
        unused = rules.stations_per_player - len(player.stations)
        assert score.station_bonus == rules.station_bonus * unused
        if "express" not in rules.bonuses:
            assert score.express_bonus == 0
    best = max(s.total for s in scores)
    assert winners(state) and all(scores[w].total == best for w in winners(state))


@pytest.mark.parametrize("map_name", MAPS)
@_FEW
@given(data=st.data())
def test_random_games_keep_every_property(map_name: str, data: st.DataObject) -> None:
    game = data.draw(games(board(map_name)), label="game")
    positions = list(game.positions())
    for index, state in enumerate(positions):
        check_conservation(state)
        if index < len(game.actions):
            check_action_texts(state, game.actions[index])
        if index % SAMPLE == 0 or index == len(positions) - 1:
            check_doors(state)
            check_scores(state)
    assert game.final.is_terminal and not legal_actions(game.final)
