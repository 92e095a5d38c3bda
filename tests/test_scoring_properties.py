"""Property tests of scoring (issue 4): brute-force cross-checks of the longest trail and of the
station assignment, score bookkeeping on random games, monotonicity of tickets."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import pairwise, product

import networkx as nx
from helpers import europe
from hypothesis import given
from hypothesis import strategies as st

from ttr_rules import (
    GameMap,
    GameState,
    PlayerScore,
    Rules,
    final_scores,
    longest_path,
    new_game,
    scenario,
    winners,
)
from ttr_rules.scenario import InjectedTicket
from ttr_rules.scoring import rank_winners
from ttr_rules.scoring.trail import _branch_and_bound, _renumbered_trail, longest_trail
from ttr_rules.scoring.unionfind import component_labels
from ttr_rules.testing import playout, random_chooser

Edge = tuple[int, int, int]

# -- brute forces, written independently of the library -----------------------------------


#: Scoring is defined on any board: rules under which three players may own any routes (both
#: tracks of a double route, more than 45 spaces each), so that scenario accepts such boards.
ANY_BOARD = Rules(trains_per_player=1000, double_route_min_players=2)


def brute_longest_trail(edges: Sequence[Edge]) -> int:
    """Walk every trail from every vertex: each edge at most once."""
    best = 0

    def walk(at: int, used: frozenset[int], length: int) -> None:
        nonlocal best
        best = max(best, length)
        for i, (u, v, w) in enumerate(edges):
            if i in used:
                continue
            if u == at:
                walk(v, used | {i}, length + w)
            elif v == at:
                walk(u, used | {i}, length + w)

    for start in {x for u, v, _ in edges for x in (u, v)}:
        walk(start, frozenset(), 0)
    return best


def memo_longest_trail(edges: Sequence[Edge]) -> int:
    """Every trail from every vertex, memoized on (vertex, used edges): fast up to ~16 edges."""
    adjacency: dict[int, list[tuple[int, int, int]]] = {}
    for i, (u, v, w) in enumerate(edges):
        adjacency.setdefault(u, []).append((i, v, w))
        if u != v:
            adjacency.setdefault(v, []).append((i, u, w))

    @cache
    def walk(at: int, used: int) -> int:
        steps = [w + walk(y, used | 1 << i) for i, y, w in adjacency[at] if not used >> i & 1]
        return max(steps, default=0)

    return max((walk(x, 0) for x in adjacency), default=0)


def certified_longest_trail(edges: Sequence[Edge]) -> int | None:
    """The longest trail when a T-join certificate proves it, else None (networkx only).

    Upper bound: the edges a trail leaves unused join every odd vertex but its two ends, so they
    weigh at least a minimum matching of the odd vertices under shortest-path distances in
    which two free vertices may match a dummy. Witness: removing the matched shortest paths
    leaves at most two odd vertices; if the rest is connected it has an Euler trail of exactly
    the bound.
    """
    graph = nx.MultiGraph()
    for u, v, w in edges:
        graph.add_edge(u, v, weight=w)
    odd = [x for x in graph if graph.degree(x) % 2]
    distance = dict(nx.all_pairs_dijkstra_path_length(graph))
    matching = nx.Graph()
    matching.add_edge("free1", "free2", weight=0)
    for i, a in enumerate(odd):
        matching.add_edge(a, "free1", weight=0)
        matching.add_edge(a, "free2", weight=0)
        for b in odd[i + 1 :]:
            matching.add_edge(a, b, weight=distance[a][b])
    pairs = [
        (a, b) for a, b in nx.min_weight_matching(matching) if {a, b}.isdisjoint({"free1", "free2"})
    ]
    bound: int = sum(w for _, _, w in edges) - sum(distance[a][b] for a, b in pairs)
    rest = graph.copy()
    for a, b in pairs:
        path = nx.dijkstra_path(graph, a, b)
        for x, y in pairwise(path):
            key = min(rest[x][y], key=lambda k: rest[x][y][k]["weight"])
            rest.remove_edge(x, y, key)
    rest.remove_nodes_from([x for x in list(rest) if rest.degree(x) == 0])
    kept = sum(w for _, _, w in rest.edges(data="weight"))
    if kept == bound and nx.is_connected(rest) and nx.has_eulerian_path(rest):
        return bound
    return None


def connected(game_map: GameMap, route_ids: Sequence[int], a: str, b: str) -> bool:
    """Breadth-first search from ``a`` over the given routes."""
    seen, frontier = {a}, [a]
    while frontier:
        city = frontier.pop()
        for r in route_ids:
            route = game_map.routes[r]
            for x, y in ((route.a, route.b), (route.b, route.a)):
                if x == city and y not in seen:
                    seen.add(y)
                    frontier.append(y)
    return b in seen


def brute_tickets(state: GameState, seat: int) -> tuple[int, int, tuple[int | None, ...]]:
    """Every assignment of every station to no route or any adjacent opponent route: the best
    (points, completed), then the lowest route ids, None first (U9)."""
    game_map = state.map
    own = [r for r, owner in enumerate(state.route_owner) if owner == seat]
    choices = [
        [None]
        + [
            r.id
            for r in game_map.routes
            if city in (r.a, r.b) and state.route_owner[r.id] not in (None, seat)
        ]
        for city in state.players[seat].stations
    ]
    best: tuple[int, int, tuple[int, ...]] | None = None
    chosen: tuple[int | None, ...] = ()
    for combo in product(*choices):
        network = own + [r for r in combo if r is not None]
        points = done = 0
        for t in state.players[seat].tickets:
            ticket = game_map.tickets[t]
            if connected(game_map, network, ticket.a, ticket.b):
                points, done = points + ticket.points, done + 1
            else:
                points -= ticket.points
        key = (points, done, tuple(1 if r is None else -r for r in combo))
        if best is None or key > best:
            best, chosen = key, combo
    assert best is not None
    return best[0], best[1], chosen


# -- strategies ---------------------------------------------------------------------------

small_networks = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(1, 4)), max_size=9
)


@st.composite
def station_positions(draw: st.DrawFn, max_stations: int = 3) -> GameState:
    """A 3-player Europe position around a random area: random owners (respecting double
    routes), 0–3 stations and 1–4 fixture tickets for A, drawn from the cities in play."""
    game_map = europe()
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    centre = rnd.choice(game_map.cities)
    area = {centre}
    for _ in range(draw(st.integers(2, 4))):
        area |= {c for r in game_map.routes if area & {r.a, r.b} for c in (r.a, r.b)}
    routes: dict[int, int] = {}
    for r in game_map.routes:
        if r.a in area and r.b in area and rnd.random() < 0.6:
            seat = rnd.randrange(3)
            if r.double_of is None or routes.get(r.double_of) != seat:
                routes[r.id] = seat
    cities = sorted(area)
    stations = {
        c: 0 for c in rnd.sample(cities, min(len(cities), draw(st.integers(0, max_stations))))
    }
    tickets: list[InjectedTicket] = []
    for _ in range(draw(st.integers(1, 4))):
        a, b = rnd.sample(cities, 2)
        others = [c for c in stations if c != b]
        if others and rnd.random() < 0.5:  # tickets from station cities need them most
            a = rnd.choice(others)
        tickets.append((a, b, rnd.randint(1, 12)))
    return scenario(
        players=3,
        routes=routes,
        stations=stations,
        tickets=[tickets, [], []],
        trains=[9] * 3,
        rules=ANY_BOARD,
    )


def random_play(players: int, seed: int, steps: int | None) -> Iterator[GameState]:
    """States of a game of uniformly random legal actions (to the end when ``steps`` is None)."""
    state = new_game(players=players, seed=seed)
    yield state
    for step in playout(state, random_chooser(random.Random(seed)), max_steps=steps):
        yield step.after


def check_breakdown(state: GameState) -> None:
    """Bookkeeping every score breakdown must satisfy (E59, E71, E76)."""
    rules = state.rules
    scores = final_scores(state)
    assert [s.player for s in scores] == list(range(state.num_players))
    for s, player in zip(scores, state.players, strict=True):
        assert s.total == s.route_points + s.ticket_points + s.station_bonus + s.express_bonus
        owned = state.routes_of(s.player)
        assert s.route_points == sum(rules.route_score(state.map.routes[r].length) for r in owned)
        assert s.tickets_completed + s.tickets_failed == len(player.tickets)
        assert s.station_bonus == rules.station_bonus * (
            rules.stations_per_player - len(player.stations)
        )
        assert [city for city, _ in s.station_routes] == list(player.stations)
        for city, route in s.station_routes:
            if route is not None:
                assert city in state.map.routes[route].cities
                assert state.route_owner[route] not in (None, s.player)
    top = max(s.longest_path for s in scores)
    for s in scores:
        holds = top >= rules.longest_path_min_length and s.longest_path == top
        assert s.express_bonus == (rules.longest_path_bonus if holds else 0)
    best = max(s.total for s in scores)
    assert winners(state) and all(scores[w].total == best for w in winners(state))


# -- properties ---------------------------------------------------------------------------


@given(small_networks)
def test_longest_trail_equals_brute_force(edges: list[Edge]) -> None:
    assert longest_trail(edges) == brute_longest_trail(edges)


@given(st.lists(st.integers(0, 100), max_size=9, unique=True), st.integers(0, 3))
def test_longest_path_on_the_map_equals_brute_force(route_ids: list[int], shift: int) -> None:
    game_map = europe()
    routes = {}
    for r in route_ids:
        if game_map.routes[r].double_of not in routes:
            routes[r] = 0
    state = scenario(players=2, routes=routes)
    index = {c: i + shift for i, c in enumerate(game_map.cities)}
    edges = [
        (index[game_map.routes[r].a], index[game_map.routes[r].b], game_map.routes[r].length)
        for r in routes
    ]
    assert longest_path(state, 0) == brute_longest_trail(edges)


@given(station_positions())
def test_station_assignment_equals_brute_force(state: GameState) -> None:
    result = final_scores(state)[0]
    points, done, chosen = brute_tickets(state, 0)
    assert (result.ticket_points, result.tickets_completed) == (points, done)
    assert tuple(route for _, route in result.station_routes) == chosen


@given(station_positions(max_stations=0), st.integers(0, 100))
def test_a_new_route_never_lowers_ticket_points_without_stations(
    state: GameState, pick: int
) -> None:
    game_map = state.map
    owner = state.route_owner
    candidates = [
        r.id
        for r in game_map.routes
        if owner[r.id] != 0 and (r.double_of is None or owner[r.double_of] != 0)
    ]
    added = candidates[pick % len(candidates)]
    routes = {r: seat for r, seat in enumerate(owner) if seat is not None}
    routes[added] = 0
    grown = scenario(
        game_map,
        players=3,
        routes=routes,
        tickets=[list(p.tickets) for p in state.players],
        trains=[9] * 3,
        rules=ANY_BOARD,
    )
    assert final_scores(grown)[0].ticket_points >= final_scores(state)[0].ticket_points


@given(st.integers(2, 5), st.integers(0, 10_000), st.integers(0, 400))
def test_scores_of_random_positions_add_up(players: int, seed: int, steps: int) -> None:
    *_, state = random_play(players, seed, steps)
    check_breakdown(state)


@given(st.integers(0, 10_000))
def test_end_states_of_random_games_are_scored(seed: int) -> None:
    for players in range(2, 6):
        *_, end = random_play(players, seed + players, None)
        assert end.is_terminal
        check_breakdown(end)


# -- large networks: the branch and bound (E72) ---------------------------------------------


@given(small_networks)
def test_branch_and_bound_alone_equals_brute_force(edges: list[Edge]) -> None:
    # search_limit=0: no memoized search underneath, the bounds and branching do everything
    assert _branch_and_bound(edges, 0) == brute_longest_trail(edges)


def test_branch_and_bound_on_random_multigraphs_equals_memoized_brute_force() -> None:
    rnd = random.Random(4)
    for _ in range(1500):
        cities = rnd.randint(2, 9)
        edges = [
            (rnd.randrange(cities), rnd.randrange(cities), rnd.randint(1, 4))
            for _ in range(rnd.randint(1, 13))
        ]
        assert _branch_and_bound(edges, 0) == memo_longest_trail(edges), edges


def europe_edges(route_ids: Sequence[int]) -> list[Edge]:
    game_map = europe()
    index = {c: i for i, c in enumerate(game_map.cities)}
    routes = [game_map.routes[r] for r in route_ids]
    return [(index[r.a], index[r.b], r.length) for r in routes]


def by_component(edges: Sequence[Edge]) -> list[list[Edge]]:
    """The edges grouped by connected component."""
    labels = component_labels(1 + max(max(u, v) for u, v, _ in edges), edges)
    groups: dict[int, list[Edge]] = {}
    for edge in edges:
        groups.setdefault(labels[edge[0]], []).append(edge)
    return list(groups.values())


def test_branch_and_bound_agrees_with_the_memoized_search_on_europe_subnetworks() -> None:
    # two independent exact methods on cores just above and below the switch between them
    rnd = random.Random(7)
    everything = europe_edges(range(len(europe().routes)))
    checked = 0
    while checked < 40:
        for component in by_component(rnd.sample(everything, rnd.randint(28, 40))):
            if len(component) >= 20:
                assert _branch_and_bound(component, 0) == _renumbered_trail(component, 10**9)
                checked += 1


def test_whole_europe_longest_trail_is_certified() -> None:
    game_map = europe()
    all_routes = europe_edges(range(len(game_map.routes)))
    one_track = europe_edges(
        [r.id for r in game_map.routes if r.double_of is None or r.double_of > r.id]
    )
    for edges in (all_routes, one_track):
        expected = certified_longest_trail(edges)
        assert expected is not None
        assert longest_trail(edges) == expected
    assert longest_trail(one_track) == 237


def test_e20b_every_route_owned_is_scored() -> None:
    # E20b: every route claimed; A owns one track of every pair, B the second tracks
    game_map = europe()
    owners = {
        r.id: 1 if r.double_of is not None and r.double_of < r.id else 0 for r in game_map.routes
    }
    state = scenario(game_map, 3, routes=owners, trains=[45, 45, 45], rules=ANY_BOARD)
    scores = final_scores(state)
    a_edges = europe_edges(state.routes_of(0))
    assert scores[0].longest_path == certified_longest_trail(a_edges) == 237
    assert scores[1].longest_path == brute_longest_trail(europe_edges(state.routes_of(1)))
    assert scores[0].express_bonus == state.rules.longest_path_bonus
    check_breakdown(state)


# -- fast paths of final scoring against their plain computations ------------------------------


@given(
    st.integers(1, 30).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40),
        )
    )
)
def test_component_labels_are_the_smallest_vertex_of_each_component(
    case: tuple[int, list[tuple[int, int]]],
) -> None:
    size, pairs = case
    graph = nx.Graph()
    graph.add_nodes_from(range(size))
    graph.add_edges_from(pairs)
    expected = [0] * size
    for component in nx.connected_components(graph):
        for x in component:
            expected[x] = min(component)
    assert component_labels(size, pairs) == expected


@st.composite
def forests_of_small_graphs(draw: st.DrawFn) -> list[Edge]:
    """Several small graphs side by side (each on its own vertices): trees, paths, cycles and
    denser ones, so that components are skipped by their total and solved in turn."""
    edges: list[Edge] = []
    base = 0
    for _ in range(draw(st.integers(1, 5))):
        part = draw(
            st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(1, 6)), max_size=7)
        )
        edges += [(u + base, v + base, w) for u, v, w in part]
        base += 5
    return draw(st.permutations(edges))


def component_brute_force(edges: Sequence[Edge]) -> int:
    """The best over the connected components (networkx) of the memoized brute force, or of the
    branch and bound alone (tested against it above) on components too large for it."""
    graph = nx.MultiGraph()
    for eid, (u, v, _) in enumerate(edges):
        graph.add_edge(u, v, key=eid)
    best = 0
    for vertices in nx.connected_components(graph):
        component = [edge for edge in edges if edge[0] in vertices]
        exact = (
            memo_longest_trail if len(component) <= 14 else (lambda es: _branch_and_bound(es, 0))
        )
        best = max(best, exact(component))
    return best


@given(forests_of_small_graphs())
def test_longest_trail_of_several_components_equals_brute_force(edges: list[Edge]) -> None:
    assert longest_trail(edges) == memo_longest_trail(edges) == component_brute_force(edges)


@given(st.integers(2, 5), st.integers(0, 10_000), st.sampled_from([100, 250, None]))
def test_longest_paths_of_random_games_equal_brute_force(
    players: int, seed: int, steps: int | None
) -> None:
    *_, state = random_play(players, seed, steps)
    scores = final_scores(state)
    for seat in range(players):
        expected = component_brute_force(europe_edges(state.routes_of(seat)))
        assert longest_path(state, seat) == scores[seat].longest_path == expected


@given(st.integers(2, 5), st.integers(0, 10_000), st.sampled_from([150, None]))
def test_tickets_of_random_games_equal_the_exhaustive_assignment(
    players: int, seed: int, steps: int | None
) -> None:
    *_, state = random_play(players, seed, steps)
    for score in final_scores(state):
        points, done, chosen = brute_tickets(state, score.player)
        assert (score.ticket_points, score.tickets_completed) == (points, done)
        assert tuple(route for _, route in score.station_routes) == chosen


def plain_winners(scores: Sequence[PlayerScore], rules: Rules) -> tuple[int, ...]:
    """Most points, then each tie-breaker in turn, among everybody (E77, U11, U12)."""
    top = max(s.longest_path for s in scores)
    express = {
        s.player for s in scores if top >= rules.longest_path_min_length and s.longest_path == top
    }
    keys = {
        s.player: (
            s.total,
            *(
                {
                    "tickets": s.tickets_completed,
                    "stations": -len(s.station_routes),
                    "express": int(s.player in express),
                }[name]
                for name in rules.tie_breakers
            ),
        )
        for s in scores
    }
    return tuple(sorted(p for p, k in keys.items() if k == max(keys.values())))


@st.composite
def score_tables(draw: st.DrawFn) -> tuple[list[PlayerScore], Rules]:
    scores = [
        PlayerScore(
            player=seat,
            route_points=0,
            ticket_points=0,
            tickets_completed=draw(st.integers(0, 2)),
            tickets_failed=0,
            station_bonus=0,
            longest_path=draw(st.integers(0, 3)),
            express_bonus=0,
            total=draw(st.integers(-2, 2)),
            station_routes=(("Paris", None),) * draw(st.integers(0, 2)),
        )
        for seat in range(draw(st.integers(1, 5)))
    ]
    breakers = draw(st.permutations(["tickets", "stations", "express"]))
    rules = Rules(tie_breakers=tuple(breakers[: draw(st.integers(0, 3))]))
    return scores, rules


@given(score_tables())
def test_winners_equal_the_plain_ranking(table: tuple[list[PlayerScore], Rules]) -> None:
    scores, rules = table
    assert rank_winners(scores, rules) == plain_winners(scores, rules)
