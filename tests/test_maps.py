"""The shipped Europe map against the reference data, and map-file validation (issue 2)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers import assert_routes_equal_reference, color_name, reference_data
from map_samples import grid_map_data, small_map_data, write_map

from ttr_rules.cards import Color
from ttr_rules.errors import MapLoadError
from ttr_rules.maps import (
    GameMap,
    compute_digest,
    load_map,
    load_map_file,
    map_from_dict,
    map_problems,
    map_schema,
    map_to_dict,
    parse_map_text,
    validate_map,
)
from ttr_rules.rules import Rules


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return reference_data("europe")


@pytest.fixture(scope="module")
def europe() -> GameMap:
    return load_map("europe")


# --------------------------------------------------------------------------- Europe = reference


def test_europe_cities(europe: GameMap, reference: dict[str, Any]) -> None:
    assert europe.name == "europe"
    assert europe.cities == tuple(reference["cities"])
    assert len(europe.cities) == 47


def test_europe_routes_match_reference_field_by_field(
    europe: GameMap, reference: dict[str, Any]
) -> None:
    assert len(europe.routes) == 101
    assert_routes_equal_reference(europe, reference["routes"])


def test_europe_double_routes(europe: GameMap, reference: dict[str, Any]) -> None:
    groups: dict[Any, list[int]] = {}
    for ref in reference["routes"]:
        if ref["double_group"] is not None:
            groups.setdefault(ref["double_group"], []).append(ref["id"] - 1)
    assert len(groups) == 11
    paired = {i for ids in groups.values() for i in ids}
    for i, j in groups.values():
        assert europe.routes[i].double_of == j
        assert europe.routes[j].double_of == i
        assert {europe.routes[i].a, europe.routes[i].b} == {europe.routes[j].a, europe.routes[j].b}
    for route in europe.routes:
        if route.id not in paired:
            assert route.double_of is None


def test_europe_tickets(europe: GameMap, reference: dict[str, Any]) -> None:
    got = [(t.a, t.b, t.points, t.long) for t in europe.tickets]
    want = [(t["a"], t["b"], t["points"], t["long"]) for t in reference["tickets"]]
    assert got == want
    assert [t.id for t in europe.tickets] == list(range(46))
    assert sum(t.long for t in europe.tickets) == 6
    assert sum(t.points for t in europe.tickets) == 444


def test_europe_totals(europe: GameMap) -> None:
    routes = europe.routes
    assert Counter(r.length for r in routes) == {1: 4, 2: 35, 3: 30, 4: 29, 6: 2, 8: 1}
    assert sum(r.length for r in routes) == 300
    assert sum(r.tunnel for r in routes) == 18
    ferries = [r for r in routes if r.ferry_locomotives]
    assert len(ferries) == 13
    assert sum(r.ferry_locomotives for r in ferries) == 17
    assert all(r.color is None for r in ferries)
    colours = Counter(color_name(r) for r in routes)
    assert colours == {**{c.value: 8 for c in Color if c is not Color.LOCOMOTIVE}, "gray": 37}


def test_europe_rulebook_examples(europe: GameMap) -> None:
    (smyrna_palermo,) = europe.route_between("Smyrna", "Palermo")
    assert (smyrna_palermo.color, smyrna_palermo.length) == (None, 6)
    assert smyrna_palermo.ferry_locomotives == 2
    tracks = europe.route_between("Madrid", "Pamplona")
    assert {t.color for t in tracks} == {Color.BLACK, Color.WHITE}
    assert all(t.tunnel and t.length == 3 for t in tracks)
    assert tracks[0].double_of == tracks[1].id
    (petrograd_stockholm,) = europe.route_between("Petrograd", "Stockholm")
    assert (petrograd_stockholm.color, petrograd_stockholm.length) == (None, 8)
    assert petrograd_stockholm.tunnel


def test_europe_locations_and_aliases(europe: GameMap, reference: dict[str, Any]) -> None:
    assert len(europe.locations) == 47
    for lat, lon in europe.locations:
        assert 35 < lat < 61 and -10 < lon < 42
    aliases = set(europe.aliases)
    for detail in reference["city_details"]:
        for alias in detail["aliases"]:
            assert (alias, detail["name"]) in aliases


def test_europe_rules_digest_and_validity(europe: GameMap) -> None:
    assert europe.rules == Rules()
    parts = (europe.name, europe.version, europe.cities, europe.routes, europe.tickets)
    assert europe.digest == compute_digest(*parts, europe.rules)
    assert validate_map(europe) == []


def test_europe_file_matches_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from importlib.resources import files

    data = json.loads(files("ttr_rules_europe").joinpath("europe.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(map_schema()).validate(data)
    jsonschema.Draft202012Validator.check_schema(map_schema())


def test_map_to_dict_round_trip(europe: GameMap) -> None:
    again = map_from_dict(map_to_dict(europe))
    assert again == europe
    assert again.locations == europe.locations
    assert again.aliases == europe.aliases


# --------------------------------------------------------------------------- valid files


def test_small_map_loads(tmp_path: Path) -> None:
    game_map = load_map_file(write_map(tmp_path / "toy.json", small_map_data()))
    assert game_map.routes[1].color is Color.PURPLE  # "pink" is purple
    assert game_map.routes[0].double_of == 1 and game_map.routes[1].double_of == 0
    assert game_map.routes[2].color is None and game_map.routes[2].tunnel
    assert game_map.rules.max_players == 2
    assert game_map.tickets[6].long
    assert ("A", "Alpha") in game_map.aliases


def test_explicit_double_of_is_accepted(tmp_path: Path) -> None:
    data = small_map_data()
    data["routes"][0]["double_of"] = 1
    assert load_map_file(write_map(tmp_path / "toy.json", data)).routes[0].double_of == 1


def test_rule_overrides_lists_become_tuples() -> None:
    data = small_map_data()
    data["rules"]["tie_breakers"] = ["stations", "tickets"]
    data["rules"]["face_up_locomotive_limit"] = None
    rules = map_from_dict(data).rules
    assert rules.tie_breakers == ("stations", "tickets")
    assert rules.face_up_locomotive_limit is None


# --------------------------------------------------------------------------- one test per error

Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Mutation:
    """A mutation setting ``data[...]`` at a dotted path with ``[i]`` indexes."""

    def mutate(data: dict[str, Any]) -> None:
        keys: list[Any] = []
        for part in path.replace("[", ".").replace("]", "").split("."):
            keys.append(int(part) if part.isdigit() else part)
        target: Any = data
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return mutate


def _delete(key: str) -> Mutation:
    return lambda data: data.pop(key)


def _append(section: str, item: Any) -> Mutation:
    return lambda data: data[section].append(item)


ERROR_CASES: list[tuple[str, Mutation, str, str]] = [
    ("missing member", _delete("routes"), "routes", "is required"),
    ("wrong format", _set("format", "other"), "format", "must be"),
    ("format version", _set("format_version", 2), "format_version", "unsupported version"),
    ("bad name", _set("name", "Toy Map"), "name", "lowercase"),
    ("wrong type", _set("routes[1].length", "2"), "routes[1].length", "must be an integer"),
    ("not an object", _set("cities[1]", "Beta"), "cities[1]", "must be an object"),
    ("unknown field", _set("routes[0].lenght", 2), "routes[0].lenght", "did you mean 'length'"),
    ("bad latitude", _set("cities[0].lat", 95), "cities[0].lat", "between -90 and 90"),
    ("route city", _set("routes[2].b", "Gama"), "routes[2].b", "unknown city 'Gama'"),
    ("ticket city", _set("tickets[1].a", "Omega"), "tickets[1].a", "unknown city 'Omega'"),
    ("duplicate city", _append("cities", {"name": "Beta"}), "cities[4]", "duplicate city"),
    (
        "duplicate ticket",
        _append("tickets", {"a": "Delta", "b": "Gamma", "points": 2}),
        "tickets[7]",
        "duplicate ticket",
    ),
    ("length < 1", _set("routes[2].length", 0), "routes[2].length", "must be >= 1"),
    (
        "ferry > length",
        _set("routes[3].ferry_locomotives", 2),
        "routes[3].ferry_locomotives",
        "exceed the length 1",
    ),
    (
        "three tracks",
        _append("routes", {"a": "Beta", "b": "Alpha", "length": 2}),
        "routes[5]",
        "third track",
    ),
    ("double lengths", _set("routes[1].length", 3), "routes[1].length", "differs from 2"),
    (
        "double of another pair",
        _set("routes[0].double_of", 2),
        "routes[0].double_of",
        "join the same two cities",
    ),
    (
        "disconnected board",
        _append("cities", {"name": "Epsilon", "lat": 1, "lon": 1}),
        "routes",
        "not connected: Epsilon",
    ),
    ("unknown colour", _set("routes[0].color", "pinkish"), "routes[0].color", "unknown colour"),
    (
        "unknown rule",
        _set("rules.train_per_player", 40),
        "rules.train_per_player",
        "did you mean 'trains_per_player'",
    ),
    (
        "rule type",
        _set("rules.trains_per_player", "45"),
        "rules.trains_per_player",
        "must be an integer",
    ),
    (
        "rule literal",
        _set("rules.initial_discard", "top"),
        "rules.initial_discard",
        'must be "box" or "bottom"',
    ),
    (
        "inconsistent rules",
        _set("rules.tickets_keep_at_least", 4),
        "rules.tickets_keep_at_least",
        "between 1 and tickets_drawn",
    ),
    ("unscored length", _set("routes[4].length", 9), "routes[4].length", "route_scores"),
    ("alias clash", _set("cities[1].aliases", ["alpha"]), "cities[1].aliases[0]", "names Alpha"),
]


@pytest.mark.parametrize(
    ("mutate", "path", "message"),
    [case[1:] for case in ERROR_CASES],
    ids=[case[0] for case in ERROR_CASES],
)
def test_map_file_error(tmp_path: Path, mutate: Mutation, path: str, message: str) -> None:
    data = small_map_data()
    mutate(data)
    file = write_map(tmp_path / "bad.json", data)
    with pytest.raises(MapLoadError) as info:
        load_map_file(file)
    prefix = f"{file}: {path}: "
    matching = [p for p in info.value.problems if p.startswith(prefix) and message in p]
    assert matching, info.value.problems
    assert matching[0] in str(info.value)


def test_json_syntax_error(tmp_path: Path) -> None:
    file = tmp_path / "bad.json"
    file.write_text('{"format": "ttr-rules-map",\n "name": }', encoding="utf-8")
    with pytest.raises(MapLoadError) as info:
        load_map_file(file)
    assert info.value.problems == (f"{file}: line 2 column 10: invalid JSON: Expecting value",)


def test_root_must_be_an_object() -> None:
    with pytest.raises(MapLoadError, match=r"x\.json: \(root\): must be a JSON object"):
        parse_map_text("[1, 2]", "x.json")


def test_missing_file_and_bad_encoding(tmp_path: Path) -> None:
    with pytest.raises(MapLoadError, match="cannot read the map file"):
        load_map_file(tmp_path / "missing.json")
    file = tmp_path / "latin1.json"
    file.write_bytes(b'{"name": "caf\xe9"}')
    with pytest.raises(MapLoadError, match=r"latin1\.json: not UTF-8"):
        load_map_file(file)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    data = small_map_data()
    data["routes"][2]["length"] = 0
    data["routes"][0]["color"] = "mauve"
    data["tickets"][3]["b"] = "Nowhere"
    data["rules"]["stations_per_player"] = -1
    data["cities"][2]["lon"] = "12"
    file = write_map(tmp_path / "many.json", data)
    with pytest.raises(MapLoadError) as info:
        load_map_file(file)
    paths = [p.split(": ")[1] for p in info.value.problems]
    assert paths == [
        "cities[2].lon",
        "routes[0].color",
        "routes[2].length",
        "tickets[3].b",
        "rules.stations_per_player",
    ]
    assert all(p.startswith(f"{file}: ") for p in info.value.problems)
    assert "5 problems" in str(info.value)


def test_map_problems_without_a_file() -> None:
    assert map_problems(small_map_data()) == []
    data = small_map_data()
    data["routes"][3]["a"] = "Nowhere"
    assert map_problems(data) == ["routes[3].a: unknown city 'Nowhere'"]


def test_unreadable_entries_do_not_cascade() -> None:
    data = small_map_data()
    data["routes"][2] = 7  # not an object: no follow-up "unknown city" or "disconnected"
    assert map_problems(data) == ["routes[2]: must be an object"]


# --------------------------------------------------------------------------- in-memory maps


def _small_map() -> GameMap:
    return map_from_dict(small_map_data())


def test_validate_map_finds_content_problems() -> None:
    game_map = _small_map()
    bad_route = attrs.evolve(game_map.routes[2], length=0)
    broken = attrs.evolve(game_map, routes=(*game_map.routes[:2], bad_route, *game_map.routes[3:]))
    problems = validate_map(broken)
    assert "routes[2].length: must be >= 1" in problems
    assert "digest: does not match the map's content" in problems


def test_validate_map_checks_double_of_links() -> None:
    created = GameMap.create(
        "pair",
        ["A", "B"],
        [
            {"a": "A", "b": "B", "length": 1, "double_of": None},
            {"a": "A", "b": "B", "length": 1, "double_of": 0},
        ],
        [("A", "B", 2)],
        rules=Rules(max_players=2, initial_long_tickets=0, initial_regular_tickets=0),
    )
    problems = validate_map(created)
    assert "routes[0].double_of: must be 1: routes[1] joins the same cities" in problems
    assert validate_map(_small_map()) == []


def test_validate_map_checks_ids() -> None:
    game_map = _small_map()
    shifted = attrs.evolve(game_map.tickets[0], id=5)
    broken = attrs.evolve(game_map, tickets=(shifted, *game_map.tickets[1:]))
    assert "tickets[0].id: is 5; must equal its position 0" in validate_map(broken)


# ------------------------------------------------------------- linear checks (issue 44 T6)


def _reach_steps(monkeypatch: pytest.MonkeyPatch, data: dict[str, Any]) -> tuple[int, int]:
    """The steps the ticket reach check spent on ``data`` and its budget (a counting hook on
    ``maps.check._Steps``)."""
    from ttr_rules.maps import check

    budgets: list[Any] = []

    class Counted(check._Steps):
        def __init__(self, allowed: int) -> None:
            super().__init__(allowed)
            budgets.append(self)

    monkeypatch.setattr(check, "_Steps", Counted)
    map_problems(data)
    (budget,) = budgets
    return budget.spent, budget.allowed


def test_the_reach_check_grows_with_the_tickets_not_their_square(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """50 times the tickets on one board: at most about 50 times the steps (one search per
    ticket origin, cut at a player's trains), and within a budget linear in the file."""
    few, _ = _reach_steps(monkeypatch, _short_trains(grid_map_data(12, 12, 40)))
    many, allowed = _reach_steps(monkeypatch, _short_trains(grid_map_data(12, 12, 2000)))
    assert few > 0 and many <= 50 * few
    assert many <= allowed


def test_the_reach_check_of_a_larger_board_stays_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board 25 times larger (cities, routes and tickets): about 25 times the steps, since
    a search stops at a player's trains (here 12, so that the small board is already wider
    than a search)."""
    small, _ = _reach_steps(monkeypatch, _short_trains(grid_map_data(10, 10, 40)))
    large, _ = _reach_steps(monkeypatch, _short_trains(grid_map_data(50, 50, 1000)))
    assert large <= 25 * small * 1.5


def _short_trains(data: dict[str, Any]) -> dict[str, Any]:
    data["rules"].update(trains_per_player=12, stations_per_player=1)
    return data


def test_the_reach_budget_is_linear_in_the_map() -> None:
    """Structure: the budget is a number of steps per item of the map (with a floor), and a
    search charges every track it follows."""
    from ttr_rules.maps import check

    steps = check._Steps(3)
    steps.spend(3)
    with pytest.raises(check._OutOfSteps):
        steps.spend()
    assert check.REACH_STEPS_PER_ITEM <= 1000 and check.REACH_STEPS_FLOOR <= 5_000_000


def test_unknown_names_get_a_bounded_number_of_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each hint compares a name with every city: a file of 400 unknown names asks for at
    most HINTS_PER_CHECK of them per check, not 400 (which cost the square of the file)."""
    import difflib

    from ttr_rules.maps import check

    calls = Counter[str]()
    real = difflib.get_close_matches

    def counted(word: str, *args: Any, **kwargs: Any) -> list[str]:
        calls["hint"] += 1
        return real(word, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counted)
    data = grid_map_data(20, 20, 0)
    data["routes"] += [{"a": f"Nowhere{i}", "b": "C0x0", "length": 2} for i in range(200)]
    data["tickets"] = [{"a": f"Elsewhere{i}", "b": "C0x0", "points": 3} for i in range(200)]
    problems = map_problems(data)
    assert sum("unknown city" in p for p in problems) == 400
    assert sum("did you mean" in p for p in problems) <= 2 * check.HINTS_PER_CHECK
    assert calls["hint"] <= 2 * check.HINTS_PER_CHECK


def test_problems_about_unreadable_values_are_dropped_in_linear_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each content problem is matched against the unreadable (tainted) paths by look-ups of
    the paths that hold it, not by a walk over every tainted path."""
    from ttr_rules.maps import file

    calls = Counter[str]()
    real = file._holders

    def counted(path: str) -> Any:
        calls["holders"] += 1
        return real(path)

    monkeypatch.setattr(file, "_holders", counted)
    data = grid_map_data(20, 20, 0)
    for route in data["routes"][:300]:
        route["length"] = "long"  # unreadable: tainted
    data["tickets"] = [{"a": "C0x0", "b": "C0x0", "points": 3} for _ in range(300)]
    problems = map_problems(data)
    assert len(problems) >= 600
    assert calls["holders"] <= 4 * len(problems)
