"""``BalanceStats``: the aggregates of a balance report, checked by hand on three scripted
games, mergeable in any split, and consistent with real games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ttr_rules import PlayerScore, load_map
from ttr_rules.sim import (
    BalanceStats,
    GameResult,
    TunnelCounts,
    game_specs,
    run_games,
    wilson_interval,
)
from ttr_rules.sim.report import write_report

NO_TUNNELS = TunnelCounts()


def _score(
    player: int,
    total: int,
    *,
    routes: int = 0,
    express: int = 0,
    stations: tuple[tuple[str, int | None], ...] = (),
    completed: int = 0,
    failed: int = 0,
) -> PlayerScore:
    bonus = 4 * (3 - len(stations))
    return PlayerScore(
        player=player,
        route_points=routes,
        ticket_points=total - routes - bonus - express,
        tickets_completed=completed,
        tickets_failed=failed,
        station_bonus=bonus,
        longest_path=express,
        express_bonus=express,
        total=total,
        station_routes=stations,
    )


def _game(
    seed: int,
    scores: tuple[PlayerScore, ...],
    winners: tuple[int, ...],
    owners: tuple[int | None, ...],
    tickets: tuple[tuple[int, ...], ...],
    completed: tuple[tuple[int, ...], ...],
    *,
    turns: int,
    termination: str = "trains",
    tunnels: TunnelCounts = NO_TUNNELS,
) -> GameResult:
    return GameResult(
        seed=seed,
        map="tiny",
        agents=("greedy", "random"),
        scores=scores,
        winners=winners,
        decisions=2 * turns,
        turns=turns,
        termination=termination,
        route_owner=owners,
        tickets=tickets,
        completed=completed,
        tunnels=tunnels,
    )


# Three scripted two-player games on a map of 4 routes and 3 tickets.
GAMES = (
    # Seat 0 wins 50 to 30, holds the Express, claims routes 0 and 1; seat 1 claims route 3
    # and builds one station (used on route 0). Tickets: 0 kept and completed by seat 0; 1 kept
    # and failed by seat 1. One tunnel attempt, paid with 2 extra cards.
    _game(
        1,
        (_score(0, 50, routes=20, express=10, completed=1), _score(1, 30, stations=(("A", 0),))),
        (0,),
        (0, 0, None, 1),
        ((0,), (1,)),
        ((0,), ()),
        turns=40,
        tunnels=TunnelCounts(attempts=1, paid=1, extra_cards=2),
    ),
    # Seat 1 wins 25 to 20 and alone holds the Express.
    # Routes 1 (seat 1) and 2 (seat 0). Tickets: 2 kept by both, completed by seat 1 only.
    _game(
        2,
        (_score(0, 20), _score(1, 25, express=10, completed=1)),
        (1,),
        (None, 1, 0, None),
        ((2,), (2,)),
        ((), (2,)),
        turns=50,
        tunnels=TunnelCounts(attempts=2, free=1, declined=1),
    ),
    # A tie at 10 after every tie-breaker: both win, both hold the Express; every player
    # passed. Seat 0 built two stations, one used on route 3.
    _game(
        3,
        (
            _score(0, 10, express=10, stations=(("B", 3), ("C", None))),
            _score(1, 10, express=10),
        ),
        (0, 1),
        (1, None, None, 0),
        ((), (0,)),
        ((), ()),
        turns=40,
        termination="passes",
    ),
)


def test_three_scripted_games_by_hand() -> None:
    stats = BalanceStats.of(GAMES, routes=4, tickets=3)
    assert stats.games == 3
    assert stats.ties == 1
    assert stats.wins == [2, 2]  # seat 0: games 1 and 3; seat 1: games 2 and 3
    assert stats.express == [2, 2]
    assert stats.express_shared == 1
    assert stats.express_winner_won == 3
    assert stats.stations_built == [2, 1]
    assert stats.stations_used == 2
    assert stats.station_hist == {0: 4, 1: 1, 2: 1}  # six player-games
    assert stats.score_sum == [80, 65]
    assert stats.score_sq == [2500 + 400 + 100, 900 + 625 + 100]
    assert stats.mean_scores() == [80 / 3, 65 / 3]
    assert stats.margin == {20: 1, 5: 1, 0: 1}
    assert stats.turns == {40: 2, 50: 1}
    assert stats.decisions == {80: 2, 100: 1}
    assert stats.terminations == {"trains": 2, "passes": 1}
    assert stats.route_claims == [2, 2, 1, 2]
    # route 0: winners in games 1 and 3; route 1: games 1 and 2; route 2: the loser of
    # game 2; route 3: the loser of game 1, a winner of game 3
    assert stats.route_claims_by_winner == [2, 2, 0, 1]
    assert stats.claim_rates() == [2 / 3, 2 / 3, 1 / 3, 2 / 3]
    assert stats.ticket_kept == [2, 1, 2]
    assert stats.ticket_completed == [1, 0, 1]
    assert stats.completion_rates() == [0.5, 0.0, 0.5]
    assert stats.tunnels == {"attempts": 3, "free": 1, "paid": 1, "declined": 1, "extra_cards": 2}
    assert stats.parts["express_bonus"] == [20, 20]
    assert stats.parts["tickets_completed"] == [1, 1]
    assert stats.parts["station_bonus"] == [12 + 12 + 4, 8 + 12 + 12]
    rate, low, high = stats.win_rates()[0]
    assert rate == 2 / 3
    assert (low, high) == wilson_interval(2, 3)
    assert low < rate < high


def test_merging_any_split_gives_the_whole() -> None:
    whole = BalanceStats.of(GAMES, routes=4, tickets=3)
    for cut in (1, 2):
        left = BalanceStats.of(GAMES[:cut], routes=4, tickets=3)
        right = BalanceStats.of(GAMES[cut:], routes=4, tickets=3)
        assert left.merge(right) == whole
        assert right.merge(left) == whole
    reversed_order = BalanceStats.of(reversed(GAMES), routes=4, tickets=3)
    assert reversed_order == whole
    assert left.games == 2  # merge changed neither operand


def test_raw_aggregates_round_trip_through_json() -> None:
    stats = BalanceStats.of(GAMES, routes=4, tickets=3)
    data = json.loads(json.dumps(stats.to_dict()))
    assert BalanceStats.from_dict(data) == stats
    assert BalanceStats.from_dict(data).to_dict() == stats.to_dict()


def test_other_games_are_refused() -> None:
    stats = BalanceStats.of(GAMES, routes=4, tickets=3)
    row = run_games(game_specs(1, players=2))
    with pytest.raises(ValueError, match="do not aggregate"):
        stats.add(next(iter(row)))
    with pytest.raises(ValueError, match="no results"):
        BalanceStats.of([], routes=4, tickets=3)


def test_aggregates_agree_with_real_games() -> None:
    europe = load_map("europe")
    rows = list(run_games(game_specs(4, players=3, seed=30)))
    stats = BalanceStats.of(rows, routes=len(europe.routes), tickets=len(europe.tickets))
    assert stats.games == 4
    assert sum(stats.route_claims) == sum(
        owner is not None for r in rows for owner in r.route_owner
    )
    assert sum(stats.ticket_kept) == sum(len(t) for r in rows for t in r.tickets)
    assert sum(stats.ticket_completed) == sum(s.tickets_completed for r in rows for s in r.scores)
    assert sum(stats.wins) >= 4
    assert sum(stats.turns.values()) == 4


def test_named_bonuses_are_counted_merged_and_reported(tmp_path: Path) -> None:
    nordic = load_map("nordic")
    rows = list(run_games(game_specs(6, map="nordic", players=3, seed=5, agents=["greedy"] * 3)))
    stats = BalanceStats.of(rows, routes=len(nordic.routes), tickets=len(nordic.tickets))
    holders = [[dict(s.bonuses).get("globetrotter", 0) > 0 for s in r.scores] for r in rows]
    counts = stats.bonuses["globetrotter"]
    assert counts["holders"] == [sum(h[seat] for h in holders) for seat in range(3)]
    assert counts["shared"] == sum(sum(h) > 1 for h in holders)
    assert counts["winner_won"] == sum(
        any(h[seat] and seat in r.winners for seat in range(3))
        for h, r in zip(holders, rows, strict=True)
    )
    halves = [
        BalanceStats.of(part, len(nordic.routes), len(nordic.tickets))
        for part in (rows[:2], rows[2:])
    ]
    assert halves[0].merge(halves[1]) == stats
    assert BalanceStats.from_dict(json.loads(json.dumps(stats.to_dict()))) == stats
    page = write_report(stats, nordic, tmp_path).read_text(encoding="utf-8")
    assert "Globetrotter bonus" in page and "European Express" not in page


def test_aggregates_without_named_bonuses_still_load_and_bad_ones_are_refused() -> None:
    data = BalanceStats.of(GAMES, routes=4, tickets=3).to_dict()
    assert data.pop("bonuses") == {}
    assert BalanceStats.from_dict(data).bonuses == {}  # written before bonuses were counted
    bad = {"globetrotter": {"holders": [4, 0], "shared": 0, "winner_won": 0}}
    with pytest.raises(ValueError, match=r"^bonuses.globetrotter.holders: expected counts"):
        BalanceStats.from_dict({**data, "bonuses": bad})
    with pytest.raises(ValueError, match=r"^bonuses.x: expected holders, shared and winner_won"):
        BalanceStats.from_dict({**data, "bonuses": {"x": []}})
