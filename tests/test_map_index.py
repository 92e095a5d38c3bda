"""The per-map index: one cache, freed with its map; routes rebuilt without losing fields."""

from __future__ import annotations

import copy
import gc
import pickle
import weakref

import pytest

from ttr_rules import (
    Color,
    GameMap,
    Route,
    final_scores,
    format_action,
    legal_actions,
    load_map,
    parse_action,
    scenario,
)
from ttr_rules.maps.index import map_index
from ttr_rules.scoring.unionfind import DisjointSets


def test_a_scenario_map_is_freed_after_every_cache_used_it() -> None:
    # Injected tickets give the scenario a map of its own; the engine, the notation and scoring
    # all derive tables from it, and none of them may keep it alive.
    state = scenario("europe", tickets=[[("Madrid", "Wien", 30)], []], routes={0: 0})
    assert state.map is not load_map("europe")
    actions = legal_actions(state)
    parse_action(format_action(actions[-1], state.map), state)
    parse_action("station munich red", state)
    final_scores(state)
    freed = weakref.ref(state.map)
    del state, actions
    gc.collect()
    assert freed() is None


def test_the_index_is_built_once_per_map_and_not_part_of_its_value() -> None:
    europe = load_map("europe")
    assert map_index(europe) is map_index(europe)
    twin = pickle.loads(pickle.dumps(europe))
    assert twin == europe and hash(twin) == hash(europe)
    assert twin._index is None  # a cache travels as nothing and is rebuilt on demand
    assert map_index(twin) is not map_index(europe)
    assert map_index(twin).route_ends == map_index(europe).route_ends
    assert copy.deepcopy(europe)._index is None
    assert "_index" not in repr(europe)


def test_create_keeps_every_field_of_the_routes_it_renumbers() -> None:
    ferry = Route(7, "A", "B", 2, Color.RED, tunnel=True, ferry_locomotives=1)
    other = Route(9, "B", "C", 3)
    built = GameMap.create("toy", ["A", "B", "C"], [other, ferry], [])
    assert built.routes[1] == Route(1, "A", "B", 2, Color.RED, True, 1, None)
    assert built.routes[0] == Route(0, "B", "C", 3)


def test_create_pairs_the_two_tracks_joining_the_same_cities() -> None:
    built = GameMap.create(
        "toy", ["A", "B", "C"], [("A", "B", 2, None), ("B", "C", 1, None), ("B", "A", 2, None)], []
    )
    assert [r.double_of for r in built.routes] == [2, None, 0]
    assert map_index(built).double == (2, -1, 0)


def test_disjoint_sets() -> None:
    sets = DisjointSets()
    assert sets.union(1, 2) and sets.union(3, 4) and not sets.union(2, 1)
    assert not sets.connected(1, 3)
    assert sets.union(2, 4)
    assert sets.connected(1, 3) and sets.find(1) == sets.find(4)
    assert sets.connected(9, 9) and not sets.connected(9, 1)


def test_each_group_of_tables_is_built_when_first_read() -> None:
    game_map = scenario("europe", tickets=[[("Madrid", "Wien", 30)], []]).map
    index = map_index(game_map)
    assert index.names["munchen"] == "München"
    assert index.ticket_ends[-1][2] == 30
    assert len(index.claim_tables) == len(game_map.routes)
    unknown = "no_such_table"
    with pytest.raises(AttributeError, match=unknown):
        getattr(index, unknown)
