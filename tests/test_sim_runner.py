"""``ttr_rules.sim``: game specs, one game's result, and the three backends of ``run_games``
(same seeds → same rows whatever the backend, the worker count or the batching)."""

from __future__ import annotations

import itertools
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from ttr_rules import final_scores, load_map, load_map_file, read_record, replay, winners
from ttr_rules.sim import AgentSpec, GameResult, GameSpec, game_specs, play_spec, run_games
from ttr_rules.sim.interrupts import uninterrupted

ALPINE = Path(__file__).parents[1] / "examples/custom_map_plugin/src/ttr_rules_alpine/alpine.json"


def _specs(n: int = 6, seed: int = 11) -> list[GameSpec]:
    return list(game_specs(n, seed=seed, players=2))


@pytest.fixture(scope="module")
def serial_rows() -> list[GameResult]:
    return list(run_games(_specs()))


def test_a_result_is_a_function_of_its_spec(serial_rows: list[GameResult]) -> None:
    again = [play_spec(s) for s in _specs()]
    assert again == serial_rows
    assert [r.seed for r in serial_rows] == list(range(11, 17))
    assert len({r.totals for r in serial_rows}) > 1  # different seeds, different games


def test_a_result_agrees_with_the_scoring_of_its_game(serial_rows: list[GameResult]) -> None:
    spec = attrs.evolve(_specs()[0], record=True)
    result = play_spec(spec)
    assert result.record is not None
    end = replay(result.record)
    assert result.scores == final_scores(end)
    assert result.winners == winners(end)
    assert result.route_owner == end.route_owner
    assert result.decisions == len(result.record.actions)
    assert result.turns == end.turn
    assert attrs.evolve(result, record=None) == serial_rows[0]
    for row in serial_rows:
        for seat, score in enumerate(row.scores):
            assert set(row.completed[seat]) <= set(row.tickets[seat])
            assert len(row.completed[seat]) == score.tickets_completed
            assert len(row.tickets[seat]) == score.tickets_completed + score.tickets_failed
        t = row.tunnels
        assert t.attempts == t.free + t.paid + t.declined
        assert row.termination in ("trains", "passes")


def test_process_backend_gives_the_serial_rows(serial_rows: list[GameResult]) -> None:
    for batch_size in (1, 4):
        rows = list(run_games(_specs(), backend="process", workers=2, batch_size=batch_size))
        assert rows == serial_rows


def test_unordered_results_are_the_same_rows(serial_rows: list[GameResult]) -> None:
    rows = list(run_games(_specs(), backend="process", workers=2, batch_size=1, ordered=False))
    assert sorted(rows, key=lambda r: r.seed) == serial_rows


def test_ray_local_backend_gives_the_serial_rows(serial_rows: list[GameResult]) -> None:
    pytest.importorskip("ray")  # in the test extra; never skipped in CI
    rows = list(run_games(_specs(), backend="ray", workers=2, batch_size=2))
    assert rows == serial_rows


def test_a_two_node_ray_cluster_gives_the_serial_rows(serial_rows: list[GameResult]) -> None:
    pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        rows = list(run_games(_specs(), backend="ray", ray_address=cluster.address, batch_size=1))
    finally:
        cluster.shutdown()  # type: ignore[no-untyped-call]
    assert rows == serial_rows


def test_records_are_written_as_games_finish(tmp_path: Path) -> None:
    rows = list(run_games(_specs(3), backend="process", workers=2, records_dir=tmp_path))
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [f"game-{s:06d}.json" for s in (11, 12, 13)]
    for row, file in zip(rows, files, strict=True):
        assert row.record == read_record(file)
        assert final_scores(replay(read_record(file))) == row.scores


def test_a_map_object_is_sent_to_the_workers() -> None:
    alpine = load_map_file(ALPINE)
    specs = list(game_specs(3, map=alpine, players=3, seed=2))
    serial = list(run_games(specs))
    assert {r.map for r in serial} == {"alpine"}
    assert list(run_games(specs, backend="process", workers=2)) == serial


def test_specs_are_consumed_lazily_and_closing_stops_early() -> None:
    specs = game_specs(10**9, players=2)  # a billion games: only what is asked for is played
    stream = run_games(specs, backend="process", workers=2, batch_size=1)
    first = list(itertools.islice(stream, 3))
    stream.close()
    assert [r.seed for r in first] == [0, 1, 2]


def test_agent_specs() -> None:
    spec = GameSpec(seed=1, players=2, agents=["random", AgentSpec.parse("random")])
    assert spec.seat_agents() == (AgentSpec("random"), AgentSpec("random"))
    assert GameSpec(seed=1, players=3).seat_agents() == (AgentSpec("random"),) * 3
    assert AgentSpec.parse("mcts:iterations=50:name=x").options == (
        ("iterations", 50),
        ("name", "x"),
    )
    assert AgentSpec.parse(str(AgentSpec("mcts", {"c": 1.5}))) == AgentSpec("mcts", {"c": 1.5})
    with pytest.raises(ValueError, match="agents given"):
        GameSpec(seed=1, players=3, agents=["random"]).seat_agents()
    for bad in ("", ":x=1", "mcts:iterations"):
        with pytest.raises(ValueError):
            AgentSpec.parse(bad)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "threads"}, "unknown backend"),
        ({"workers": 0}, "workers"),
        ({"batch_size": 0}, "batch_size"),
    ],
)
def test_bad_runner_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_games(_specs(1), **options)  # type: ignore[arg-type]


def test_a_failing_game_raises_in_the_caller() -> None:
    bad = GameSpec(seed=0, players=9)
    with pytest.raises(ValueError):
        list(run_games([bad], backend="process", workers=2))
    with pytest.raises(ValueError):
        list(run_games([bad]))


def test_the_decision_limit_stops_a_game() -> None:
    row = play_spec(GameSpec(seed=0, players=2, max_decisions=5))
    assert row.termination == "limit"
    assert row.decisions == 5
    assert load_map("europe").name == row.map


def test_only_a_small_window_of_games_is_in_flight() -> None:
    """Memory stays flat: the runner pulls specs only as results come back (two batches per
    worker in flight), however long the stream of specs is. Unordered, so that the count does
    not depend on which game happens to finish first."""
    pulled = 0

    def specs() -> Iterator[GameSpec]:
        nonlocal pulled
        for spec in game_specs(10**9, players=2):
            pulled += 1
            yield spec

    stream = run_games(specs(), backend="process", workers=2, batch_size=1, ordered=False)
    next(stream)
    assert pulled <= 2 * 2 + 1
    for _ in range(5):
        next(stream)
    assert pulled <= 6 + 2 * 2 + 1
    stream.close()


# --------------------------------------------------------------------------- Ctrl-C


def _ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)


def test_a_ctrl_c_inside_an_uninterrupted_block_takes_effect_at_its_end() -> None:
    ran = []
    with pytest.raises(KeyboardInterrupt), uninterrupted():
        _ctrl_c()
        ran.append("after the signal")
    assert ran == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_nested_uninterrupted_blocks_defer_to_the_outermost() -> None:
    ran = []
    with pytest.raises(KeyboardInterrupt), uninterrupted():
        with uninterrupted():
            _ctrl_c()
        ran.append("the outer block goes on")
    assert ran == ["the outer block goes on"]


def test_an_uninterrupted_block_hands_the_signal_to_the_handler_before_it() -> None:
    seen: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        with uninterrupted():
            _ctrl_c()
            assert seen == []
        assert seen == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)
