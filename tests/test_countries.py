"""Countries and tickets to several destinations as map data (issue 45; docs/map-format.md):
the model fields, the map-file keys, and the checks at load."""

from __future__ import annotations

import copy
from typing import Any

import attrs
import pytest

from ttr_rules.errors import MapLoadError
from ttr_rules.maps import (
    GameMap,
    load_map,
    map_from_dict,
    map_problems,
    map_schema,
    map_to_dict,
    validate_map,
)
from ttr_rules.maps.index import map_index
from ttr_rules.scenario import scenario
from ttr_rules.scoring import final_scores
from ttr_rules.scoring.bonuses import GRAND_TOUR_POINTS, grand_tour


def country_map_data() -> dict[str, Any]:
    """A toy board: cities Alpha, Beta, Gamma; Land (two end-points) and Other (one)."""
    return {
        "format": "ttr-rules-map",
        "format_version": 1,
        "name": "countries-toy",
        "version": "1",
        "cities": [
            {"name": n} for n in ("Alpha", "Beta", "Gamma", "Delta", "Land 1", "Land 2", "Other 1")
        ],
        "countries": [
            {"name": "Land", "end_points": ["Land 1", "Land 2"], "aliases": ["Landia"]},
            {"name": "Other", "end_points": ["Other 1"]},
        ],
        "routes": [
            {"a": "Alpha", "b": "Beta", "length": 2, "color": "red"},
            {"a": "Beta", "b": "Gamma", "length": 2, "color": "blue"},
            {"a": "Gamma", "b": "Delta", "length": 1, "color": "green"},
            {"a": "Alpha", "b": "Land 1", "length": 1, "color": "black"},
            {"a": "Gamma", "b": "Land 2", "length": 3},
            {"a": "Beta", "b": "Other 1", "length": 2, "color": "white"},
        ],
        "tickets": [
            {"a": "Alpha", "b": "Gamma", "points": 4},
            {"a": "Beta", "b": "Delta", "points": 3},
            {
                "a": "Delta",
                "destinations": [{"to": "Land", "points": 3}, {"to": "Other", "points": 6}],
                "penalty": 3,
            },
            {
                "a": "Land",
                "destinations": [{"to": "Other", "points": 4}, {"to": "Delta", "points": 2}],
                "penalty": 2,
            },
            {
                "a": "Land",
                "destinations": [{"to": "Other", "points": 4}, {"to": "Delta", "points": 2}],
                "penalty": 2,
            },
        ],
        "rules": {
            "max_players": 2,
            "stations_per_player": 0,
            "initial_long_tickets": 0,
            "initial_regular_tickets": 2,
            "initial_keep_at_least": 1,
        },
    }


@pytest.fixture(scope="module")
def toy() -> GameMap:
    return map_from_dict(country_map_data())


def test_countries_and_destinations_are_read(toy: GameMap) -> None:
    assert toy.countries == {"Land": ("Land 1", "Land 2"), "Other": ("Other 1",)}
    ticket = toy.tickets[2]
    assert (ticket.a, ticket.b, ticket.points, ticket.penalty) == ("Delta", "", 6, 3)
    assert ticket.destinations == (("Land", 3), ("Other", 6))
    assert ticket.targets == ticket.destinations and ticket.loss == 3
    plain = toy.tickets[0]
    assert plain.targets == (("Gamma", 4),) and plain.loss == 4 and plain.destinations == ()
    assert str(ticket) == "Delta-Land 3/Other 6 (−3)"
    assert ("Landia", "Land") in toy.aliases
    assert validate_map(toy) == []


def test_identical_cards_may_be_printed_twice(toy: GameMap) -> None:
    assert attrs.evolve(toy.tickets[4], id=3) == toy.tickets[3]


def test_round_trip_and_schema(toy: GameMap) -> None:
    data = map_to_dict(toy)
    assert data["countries"][0] == {
        "name": "Land",
        "end_points": ["Land 1", "Land 2"],
        "aliases": ["Landia"],
    }
    again = map_from_dict(data)
    assert again == toy and again.digest == toy.digest
    import jsonschema

    jsonschema.Draft202012Validator(map_schema()).validate(data)


def test_countries_enter_the_digest_only_where_present(toy: GameMap) -> None:
    europe = load_map("europe")
    assert europe.countries == {} and "countries" not in map_to_dict(europe)
    data = country_map_data()
    data["tickets"][2]["destinations"][1]["points"] = 7
    assert map_from_dict(data).digest != toy.digest


def test_the_index_knows_a_country_by_its_end_points(toy: GameMap) -> None:
    index = map_index(toy)
    number = {c: i for i, c in enumerate(toy.cities)}
    assert index.ticket_multi[0] is None
    origin, targets, penalty = index.ticket_multi[3]  # type: ignore[misc]
    assert origin == (number["Land 1"], number["Land 2"]) and penalty == 2
    assert targets == (((number["Other 1"],), 4), ((number["Delta"],), 2))
    assert "landia" not in index.names  # a country is no city in the notation


def _problems(change: Any) -> list[str]:
    data = copy.deepcopy(country_map_data())
    change(data)
    return map_problems(data)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["tickets"][2]["destinations"][0].update(to="Landd"),
            "tickets[2].destinations[0].to: unknown city or country 'Landd' (did you mean 'Land'?)",
        ),
        (
            lambda d: d["tickets"][3]["destinations"][1].update(to="Land"),
            "tickets[3].destinations[1].to: 'Land' is the ticket's own origin",
        ),
        (
            lambda d: d["tickets"][3]["destinations"][1].update(to="Land 2"),
            "tickets[3].destinations[1].to: 'Land 2' is the ticket's own origin",
        ),
        (
            lambda d: d["tickets"][2].update(penalty=6),
            "tickets[2].penalty: is 6; must be the lowest value of the ticket, 3",
        ),
        (
            lambda d: d["tickets"][2].update(b="Alpha"),
            "tickets[2].b: must be absent (or null) on a ticket with destinations",
        ),
        (
            lambda d: d["tickets"][2]["destinations"].append({"to": "Land", "points": 5}),
            "tickets[2].destinations[2].to: 'Land' is listed twice",
        ),
        (
            lambda d: d["tickets"][2].update(a="Nowhere"),
            "tickets[2].a: unknown city or country 'Nowhere'",
        ),
        (
            lambda d: d["countries"][1].update(name="Beta"),
            "countries[1].name: 'Beta' is also the name of a city",
        ),
        (
            lambda d: d["countries"][1]["end_points"].append("Land 1"),
            "countries[1].end_points[1]: 'Land 1' is already an end-point of Land",
        ),
        (
            lambda d: d["countries"][1]["end_points"].append("Atlantis"),
            "countries[1].end_points[1]: unknown city 'Atlantis'",
        ),
        (
            lambda d: d["routes"].append({"a": "Beta", "b": "Land 1", "length": 1}),
            "countries[0].end_points[0]: 'Land 1' has tracks to Alpha, Beta; an end-point "
            "ends the track of one city, so that no path runs through a country",
        ),
        (
            lambda d: d["rules"].update(stations_per_player=1),
            "rules.stations_per_player: is 1; must be 0 on a map with tickets to several "
            "destinations (stations are not scored on them)",
        ),
        (
            lambda d: d["tickets"][2].pop("penalty"),
            "tickets[2].penalty: is required",
        ),
    ],
)
def test_inconsistent_countries_are_refused(change: Any, expected: str) -> None:
    assert expected in _problems(change)


def test_the_loader_names_the_file() -> None:
    data = country_map_data()
    data["tickets"][2]["penalty"] = 1
    with pytest.raises(MapLoadError) as caught:
        map_from_dict(data, "toy.json")
    assert caught.value.problems == (
        "toy.json: tickets[2].penalty: is 1; must be the lowest value of the ticket, 3",
    )


# --------------------------------------------------------------------------- scoring (U31, U35)

# Route ids of the toy: 0 Alpha-Beta, 1 Beta-Gamma, 2 Gamma-Delta, 3 Alpha-Land 1,
# 4 Gamma-Land 2, 5 Beta-Other 1. Tickets: 2 Delta -> Land 3 / Other 6 (-3); 3 Land -> Other 4 /
# Delta 2 (-2).


def _scores(toy: GameMap, routes: dict[int, int], tickets: list[list[int]]) -> list[Any]:
    state = scenario(toy, players=2, routes=routes, tickets=tickets)
    return list(final_scores(state))


def test_a_country_ticket_scores_the_best_destination_reached(toy: GameMap) -> None:
    # Delta-Gamma-Land 2 reaches Land (3); Gamma-Beta-Other 1 reaches Other too (6): the best.
    land_only = _scores(toy, {2: 0, 4: 0}, [[2], []])[0]
    assert (land_only.ticket_points, land_only.tickets_completed) == (3, 1)
    both = _scores(toy, {2: 0, 4: 0, 1: 0, 5: 0}, [[2], []])[0]
    assert (both.ticket_points, both.tickets_completed, both.tickets_failed) == (6, 1, 0)


def test_a_country_ticket_loses_its_penalty(toy: GameMap) -> None:
    score = _scores(toy, {0: 0, 1: 1}, [[2, 3], []])[0]
    assert (score.ticket_points, score.tickets_completed, score.tickets_failed) == (-5, 0, 2)


def test_a_country_is_no_junction(toy: GameMap) -> None:
    # Alpha-Land 1 and Land 2-Gamma both reach Land, but Alpha and Gamma stay apart.
    score = _scores(toy, {3: 0, 4: 0}, [[0], []])[0]
    assert score.ticket_points == -4
    # Land -> Delta through Land 2-Gamma-Delta: worth 2 (Other is not reached).
    assert _scores(toy, {4: 0, 2: 0}, [[3], []])[0].ticket_points == 2


def test_the_tie_breaker_counts_a_country_ticket_as_completed(toy: GameMap) -> None:
    rules = attrs.evolve(toy.rules, tie_breakers=("tickets", "express"))
    state = scenario(toy, players=2, routes={2: 0, 4: 0, 0: 1}, tickets=[[2], [0]], rules=rules)
    scores = final_scores(state)
    assert [s.tickets_completed for s in scores] == [1, 0]


def test_the_grand_tour_counts_tickets_joined_twice(toy: GameMap) -> None:
    loop = {0: 0, 1: 0, 3: 0, 4: 0}  # Alpha-Beta-Gamma-Land 2 ... Land 1-Alpha: no loop
    assert grand_tour(scenario(toy, players=2, routes=loop, tickets=[[0], []])) == (0, 0)
    data = country_map_data()
    data["routes"].append({"a": "Alpha", "b": "Gamma", "length": 4, "color": "yellow"})
    looped = map_from_dict(data)
    routes = {0: 0, 1: 0, 6: 0}  # the triangle Alpha-Beta-Gamma
    state = scenario(looped, players=2, routes=routes, tickets=[[0], []])
    assert grand_tour(state) == (5, 0)
    # A tail ticket (Beta-Delta via the bridge Gamma-Delta) is completed but not joined twice.
    state = scenario(looped, players=2, routes={**routes, 2: 0}, tickets=[[0, 1], []])
    assert grand_tour(state) == (5, 0)
    assert final_scores(state)[0].tickets_completed == 2


def test_grand_tour_points_follow_the_mandala_table() -> None:
    assert GRAND_TOUR_POINTS == (0, 5, 10, 20, 30, 40)
