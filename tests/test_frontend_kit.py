"""The front-end kit's additions of issue 48: choosing tickets by id and finding a place by
what a person typed."""

from __future__ import annotations

import itertools
import random
import unicodedata

import attrs
import pytest

from ttr_rules import (
    CardDrawn,
    Event,
    GameMap,
    IllegalActionError,
    InvalidActionError,
    KeepTickets,
    Phase,
    apply_action,
    available_maps,
    legal_actions,
    load_map,
    new_game,
    observe,
    public_view,
    scenario,
    step,
)
from ttr_rules.frontend import EventBuffer, cheapest_path, choose_tickets, find_place, ticket_status
from ttr_rules.maps import validate_map

SHIPPED = ("europe", "usa", "nordic")


@pytest.mark.parametrize("map_name", SHIPPED)
def test_every_legal_ticket_choice_is_made_by_its_ids(map_name: str) -> None:
    rng = random.Random(4)
    state = new_game(map_name, 2, seed=4)
    choices = 0
    while not state.is_terminal and choices < 6:
        legal = legal_actions(state)
        if state.phase in (Phase.INITIAL_TICKETS, Phase.KEEP_TICKETS):
            view = observe(state, state.current)
            offered = view.seats[state.current].offered
            assert offered is not None
            keeps = {a for a in legal if isinstance(a, KeepTickets)}
            for size in range(len(offered) + 1):
                for ids in itertools.combinations(offered, size):
                    wanted = KeepTickets(frozenset(ids))
                    if wanted in keeps:
                        assert choose_tickets(view, reversed(ids)) == wanted
                    else:
                        with pytest.raises(IllegalActionError) as error:
                            choose_tickets(view, ids)
                        assert "keep at least" in str(error.value)
            choices += 1
        state = apply_action(state, rng.choice(legal))


def test_ticket_choices_refused_in_plain_words() -> None:
    state = new_game("europe", 2, seed=1)
    view = observe(state, 0)
    offered = view.seats[0].offered
    assert offered == (4, 32, 16, 26)
    with pytest.raises(IllegalActionError, match=r"tickets 7 and 8 were not offered"):
        choose_tickets(view, [7, 8, 4])
    with pytest.raises(InvalidActionError, match="ticket 4 \\(Cadiz – Stockholm\\) is named twice"):
        choose_tickets(view, [4, 16, 4])
    with pytest.raises(InvalidActionError, match="a ticket id is a whole number, got bool"):
        choose_tickets(view, [True, 4])
    with pytest.raises(InvalidActionError, match="a list of ticket ids, got str"):
        choose_tickets(view, "4,16")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="Player 1 acts"):
        choose_tickets(observe(state, 1), [0, 1])
    with pytest.raises(IllegalActionError, match="a spectator keeps no tickets"):
        choose_tickets(public_view(state), [4, 16])
    started = state
    for _ in range(2):
        started = apply_action(started, legal_actions(started)[0])
    with pytest.raises(IllegalActionError, match="no tickets to choose in the start phase"):
        choose_tickets(observe(started, started.current), [4])


def test_a_long_list_of_ids_is_read_no_further_than_a_choice_can_go() -> None:
    view = observe(new_game("europe", 2, seed=1), 0)
    with pytest.raises(InvalidActionError, match="named twice"):
        choose_tickets(view, itertools.repeat(4))  # endless: stops at the repeat
    with pytest.raises(IllegalActionError, match="not offered"):
        choose_tickets(view, itertools.count(100))  # endless: stops after 5 ids


def _shouted(name: str) -> str:
    """A name in capitals without its accents, with spaces around it."""
    plain = unicodedata.normalize("NFKD", name)
    return "  " + "".join(c for c in plain if not unicodedata.combining(c)).upper() + " "


@pytest.mark.parametrize("map_name", available_maps())
def test_every_place_is_found_by_name_alias_case_and_accents(map_name: str) -> None:
    game_map = load_map(map_name)
    for city in game_map.cities:
        assert find_place(game_map, city) == city
        assert find_place(game_map, _shouted(city)) == city
    for alias, city in game_map.aliases:
        assert find_place(game_map, alias.lower()) == city


def test_an_unknown_place_suggests_the_closest() -> None:
    with pytest.raises(InvalidActionError, match="did you mean München"):
        find_place(load_map("europe"), "Munchen x")


def _alpine_board() -> GameMap:
    return GameMap.create(
        "alps",
        ["Zürich", "Chur", "Lugano", "Österreich 1", "Italia 1"],
        [
            ("Zürich", "Chur", 3, None),
            ("Chur", "Lugano", 4, None),
            ("Chur", "Österreich 1", 2, None),
            ("Lugano", "Italia 1", 1, None),
        ],
        [],
        countries={"Österreich": ["Österreich 1"], "Italia": ["Italia 1"]},
        aliases=[("Austria", "Österreich"), ("Italy", "Italia"), ("Zurich", "Zürich")],
    )


def test_countries_are_places_by_name_alias_case_and_accents() -> None:
    board = _alpine_board()
    assert all("too few to deal" in p for p in validate_map(board))  # a valid toy board
    assert [find_place(board, t) for t in ("osterreich", " AUSTRIA ", "italy", "Italia")] == [
        "Österreich",
        "Österreich",
        "Italia",
        "Italia",
    ]
    assert find_place(board, "zurich") == "Zürich"
    assert find_place(board, "österreich 1") == "Österreich 1"  # a border end-point is a city
    with pytest.raises(InvalidActionError, match="unknown place 'Itali x'; did you mean Italia"):
        find_place(board, "Itali x")


def test_cheapest_path_uses_own_routes_free_and_never_others() -> None:
    europe = load_map("europe")
    paris_frankfurt = europe.route_between("Paris", "Frankfurt")[0].id
    bruxelles_frankfurt = europe.route_between("Bruxelles", "Frankfurt")[0].id
    state = scenario("europe", 2, routes={paris_frankfurt: 0, bruxelles_frankfurt: 1})
    mine = cheapest_path(observe(state, 0), "Paris", "Frankfurt")
    assert mine is not None and mine.done and mine.routes == (paris_frankfurt,)
    theirs = cheapest_path(observe(state, 1), "Paris", "Frankfurt")
    assert theirs is not None and paris_frankfurt not in theirs.routes  # closed to seat 1
    assert theirs.connected == 0 or bruxelles_frankfurt in theirs.routes
    # seat 0 asked about from seat 1's view: the same plan as seat 0 sees
    assert cheapest_path(observe(state, 1), "Paris", "Frankfurt", seat=0) == mine


@pytest.mark.parametrize("map_name", SHIPPED)
def test_cheapest_path_agrees_with_ticket_status_in_played_games(map_name: str) -> None:
    rng = random.Random(7)
    state = new_game(map_name, 2, seed=7)
    for _ in range(120):
        if state.is_terminal:
            break
        state = apply_action(state, rng.choice(legal_actions(state)))
    for seat in range(2):
        view = observe(state, seat)
        for status in ticket_status(view):
            ticket = status.ticket
            plan = cheapest_path(view, ticket.a, ticket.b)
            if plan is None:
                assert not status.reachable
                continue
            assert (plan.missing, plan.missing_trains, plan.connected, plan.done) == (
                status.missing,
                status.missing_trains,
                status.connected,
                status.done,
            )
            routes = [view.map.routes[r] for r in plan.routes]
            assert all(view.route_owner[r.id] in (None, seat) for r in routes)
            for (u, v), route in zip(itertools.pairwise(plan.cities), routes, strict=True):
                assert {u, v} == {route.a, route.b}
            assert plan.connected + plan.missing_trains == sum(r.length for r in routes)


def test_cheapest_path_to_a_country_and_when_none_is_left() -> None:
    board = _alpine_board()
    view = observe(scenario(board, 2), 0)
    plan = cheapest_path(view, "zurich", "Austria")
    assert plan is not None and plan.cities == ("Zürich", "Chur", "Österreich 1")
    closed = scenario(board, 2, routes={1: 1})  # seat 1 owns Chur - Lugano
    assert cheapest_path(observe(closed, 0), "Zürich", "Italy") is None
    with pytest.raises(InvalidActionError, match="unknown place"):
        cheapest_path(view, "Zürich", "Atlantis")


def test_the_event_buffer_holds_what_each_seat_missed() -> None:
    rng = random.Random(3)
    state = new_game("europe", 3, seed=3)
    buffer = EventBuffer.for_players(3)
    missed: list[list[Event]] = [[], [], []]
    for _ in range(40):
        seat = state.current
        result = step(state, rng.choice(legal_actions(state)))
        buffer = buffer.record(seat, result.events)
        for other in range(3):
            missed[other] = [] if other == seat else missed[other] + list(result.events)
            seen = buffer.since_last_move(other)
            assert len(seen) == len(missed[other])
            for mine, event in zip(seen, missed[other], strict=True):
                if isinstance(event, CardDrawn) and event.slot is None and event.player != other:
                    assert mine == attrs.evolve(event, color=None)  # a blind draw's colour
                else:
                    assert mine == event
        state = result.state
    assert buffer.since_last_move(state.current)  # the next person is shown something


def test_a_spectators_view_needs_a_seat_named_in_words() -> None:
    """A spectator's view has no seat of its own: the kit says so instead of 'no seat None'."""
    spectator = public_view(new_game("switzerland", 2, seed=0))
    with pytest.raises(ValueError, match="a spectator's view has no seat of its own"):
        ticket_status(spectator)
    with pytest.raises(ValueError, match="no seat 2 in a game of 2 players"):
        ticket_status(spectator, 2)
