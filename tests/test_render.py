"""The SVG board and the terminal text of ``ttr_rules.render``."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest

from ttr_rules import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    GameState,
    Hand,
    PlayerScore,
    apply_action,
    determinize,
    is_terminal,
    legal_actions,
    load_map,
    load_map_file,
    new_game,
    observe,
    public_view,
)
from ttr_rules.render import PLAYER_COLORS, city_layout, svg, text
from ttr_rules.render.geometry import MIN_LABEL

ROOT = Path(__file__).resolve().parents[1]
ALPINE = ROOT / "examples/custom_map_plugin/src/ttr_rules_alpine/alpine.json"
SVG = "{http://www.w3.org/2000/svg}"


def play(players: int, seed: int, *, turns: int | None = None) -> GameState:
    """A game between claim-happy random players (to the end, or ``turns`` turns)."""
    rnd = random.Random(seed)
    state = new_game("europe", players, seed=seed)
    while not is_terminal(state) and (turns is None or state.turn < turns):
        actions = legal_actions(state)
        action: Action
        claims = [a for a in actions if isinstance(a, ClaimRoute | BuildStation)]
        if claims and rnd.random() < 0.8:
            action = rnd.choice(claims)
        elif DrawBlind() in actions and rnd.random() < 0.7:
            action = DrawBlind()
        else:
            action = rnd.choice(actions)
        state = apply_action(state, action)
    return state


@pytest.fixture(scope="module")
def midgame() -> GameState:
    return play(4, 5, turns=60)


def parse(document: str) -> ET.Element:
    root = ET.fromstring(document)
    assert root.tag == f"{SVG}svg"
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in e.get("class", "").split()]


def test_one_element_per_route_space_and_per_city() -> None:
    europe = load_map("europe")
    root = parse(svg(new_game(europe, 3, seed=1)))
    spaces = with_class(root, "space")
    assert len(spaces) == sum(r.length for r in europe.routes) == 300
    ids = {e.get("id") for e in spaces}
    assert ids == {f"route-{r.id}-space-{i}" for r in europe.routes for i in range(r.length)}
    cities = with_class(root, "city")
    assert sorted(e.get("data-city") or "" for e in cities) == sorted(europe.cities)
    routes = with_class(root, "route")
    assert len(routes) == len(europe.routes)
    tunnels = {int(e.get("data-route") or -1) for e in with_class(root, "tunnel")}
    assert tunnels == {r.id for r in europe.routes if r.tunnel}
    ferry_marks = with_class(root, "ferry-locomotive")
    assert len(ferry_marks) == sum(r.ferry_locomotives for r in europe.routes)


def test_route_classes_name_colour_kind_and_owner(midgame: GameState) -> None:
    root = parse(svg(midgame))
    groups = {e.get("id"): e for e in with_class(root, "route")}
    claimed = 0
    for route in midgame.map.routes:
        classes = (groups[f"route-{route.id}"].get("class") or "").split()
        colour = "gray" if route.color is None else route.color.value
        assert f"color-{colour}" in classes
        owner = midgame.route_owner[route.id]
        trains = with_class(groups[f"route-{route.id}"], "train")
        if owner is None:
            assert "open" in classes and not trains
        else:
            claimed += 1
            assert f"owner-{owner}" in classes
            assert len(trains) == route.length
            assert {t.get("fill") for t in trains} == {PLAYER_COLORS[owner]}
            # one owner number per route, on a disc, as large as the city labels
            (mark,) = with_class(groups[f"route-{route.id}"], "owner-mark")
            (disc,) = with_class(groups[f"route-{route.id}"], "owner-disc")
            assert mark.text == str(owner + 1) and disc.get("fill") == PLAYER_COLORS[owner]
            assert float(mark.get("font-size") or 0) >= MIN_LABEL
    assert claimed > 10


def test_stations_are_drawn_in_their_owners_colour() -> None:
    state = play(3, 11)
    built = [(seat, city) for seat, p in enumerate(state.players) for city in p.stations]
    assert built, "the seeded game builds stations"
    stations = with_class(parse(svg(state)), "station")
    drawn = sorted((s.get("class") or "", s.get("data-city")) for s in stations)
    assert drawn == sorted((f"station owner-{seat}", city) for seat, city in built)
    for s in stations:
        seat = int((s.get("class") or "").split("owner-")[1])
        assert s.get("fill") == PLAYER_COLORS[seat]


def test_a_view_renders_no_hidden_fact(midgame: GameState) -> None:
    view = observe(midgame, 1)
    worlds = [determinize(view, seed) for seed in (1, 2)]
    other_hands = [tuple(w.players[s].hand for s in (0, 2, 3)) for w in worlds]
    other_tickets = [tuple(w.players[s].tickets for s in (0, 2, 3)) for w in worlds]
    assert other_hands[0] != other_hands[1] and other_tickets[0] != other_tickets[1]
    assert worlds[0].deck != worlds[1].deck
    for seat in (1, None):
        views = [observe(w, 1) if seat is not None else public_view(w) for w in worlds]
        assert svg(views[0], tickets_of=seat) == svg(views[1], tickets_of=seat)
        assert text(views[0]) == text(views[1])
    # The full states show every hand, so their pictures differ.
    assert svg(worlds[0]) != svg(worlds[1])


def test_a_view_refuses_to_mark_an_opponents_tickets(midgame: GameState) -> None:
    with pytest.raises(ValueError, match="hidden"):
        svg(observe(midgame, 1), tickets_of=2)
    marked = with_class(parse(svg(observe(midgame, 1), tickets_of=1)), "ticket")
    assert {e.get("id") for e in marked} == {f"ticket-{t}" for t in midgame.players[1].tickets}


def test_highlights_name_routes_cities_and_actions(midgame: GameState) -> None:
    claim = next(a for a in legal_actions(play(2, 3, turns=20)) if isinstance(a, ClaimRoute))
    root = parse(svg(midgame, highlight=[claim, "Paris", 7]))
    ids = {e.get("id") for e in with_class(root, "highlight")}
    paris = midgame.map.cities.index("Paris")
    assert ids == {f"highlight-route-{claim.route}", "highlight-route-7", f"highlight-city-{paris}"}
    with pytest.raises(ValueError, match="no city"):
        svg(midgame, highlight="Atlantis")
    with pytest.raises(ValueError, match="no route"):
        svg(midgame, highlight=999)


def test_the_legend_lists_players_face_up_row_and_piles(midgame: GameState) -> None:
    view = observe(midgame, 2)
    root = parse(svg(view))
    legend = next(e for e in root.iter() if e.get("id") == "legend")
    words = " ".join(t.text or "" for t in legend.iter(f"{SVG}text"))
    for seat, p in enumerate(midgame.players):
        assert f"Player {seat + 1}" in words
        assert f"{p.trains} trains" in words
        assert f"{p.route_points} route points" in words
    assert f"deck {len(midgame.deck)} cards" in words
    assert f"tickets {len(midgame.ticket_deck)} in the deck" in words
    assert len(with_class(legend, "card")) >= 5
    first = midgame.map.tickets[midgame.players[2].tickets[0]]
    assert f"{first.a}–{first.b} {first.points}" in words


def test_the_example_plugin_map_renders_with_and_without_locations() -> None:
    alpine = load_map_file(ALPINE)
    unplaced = attrs.evolve(alpine, locations=())
    for game_map in (alpine, unplaced):
        root = parse(svg(new_game(game_map, 2, seed=4), size=500))
        assert len(with_class(root, "space")) == sum(r.length for r in game_map.routes)
        assert len(with_class(root, "city")) == len(game_map.cities)
    layout = city_layout(unplaced)
    assert len(set(layout.positions.values())) == len(alpine.cities)
    assert layout == city_layout(unplaced)  # deterministic


def test_notebooks_get_svg_and_print_gets_text(midgame: GameState) -> None:
    assert midgame._repr_svg_() == svg(midgame)
    view = observe(midgame, 0)
    assert view._repr_svg_() == svg(view, tickets_of=0)
    assert str(midgame) == text(midgame)
    assert str(view) == text(view)


def test_text_shows_the_position(midgame: GameState) -> None:
    view = observe(midgame, 3)
    lines = text(view).splitlines()
    assert "Player" in lines[0] and "seen by Player 4" in lines[0]
    assert any(line.startswith("Player 4 (you):") for line in lines)
    assert f"  hand: {midgame.players[3].hand}" in lines
    assert sum(line.startswith("  hand:") for line in lines) == 1
    assert sum(line.startswith("  hand:") for line in text(midgame).splitlines()) == 4


def test_seat_lines_name_routes_in_words_not_ids(midgame: GameState) -> None:
    routes = [line for line in text(midgame).splitlines() if line.startswith("  routes:")]
    owned = [r for r in midgame.map.routes if midgame.route_owner[r.id] is not None]
    assert owned and not any("#" in line for line in routes)
    shown = " ".join(routes)
    for route in owned:
        assert f"{route.a} – {route.b}" in shown


def test_the_end_of_a_game_shows_scores() -> None:
    end = play(4, 2)
    words = text(end)
    assert "game over" in words and "total" in words and "columns:" in words
    assert "score " in " ".join(t.text or "" for t in parse(svg(end)).iter(f"{SVG}text"))
    # At the end every view shows every kept ticket (so any seat's may be marked) and scores.
    for view in (public_view(end), observe(end, 1)):
        words = " ".join(t.text or "" for t in parse(svg(view, tickets_of=2)).iter(f"{SVG}text"))
        assert "score " in words and "Player 3's tickets:" in words
        assert text(view).splitlines()[-1] == text(end).splitlines()[-1]


def test_readable_hand_and_score() -> None:
    assert str(Hand.of({"red": 2, "blue": 1, "locomotive": 3})) == "1 blue, 2 red, 3 locomotives"
    assert str(Hand()) == "no cards"
    line = str(PlayerScore(0, 30, 12, 2, 0, 8, 9, 10, 60))
    assert line.startswith("Player 1: 60 points") and "stations +8" in line


def test_size_and_bad_input() -> None:
    state = new_game("europe", 2, seed=0)
    assert parse(svg(state, size=400)).get("width") == "400"
    with pytest.raises(ValueError):
        svg(state, size=10)
    with pytest.raises(TypeError):
        svg("europe")  # type: ignore[arg-type]


# ---------------------------------------------------------------------- golden file

GOLDEN = ROOT / "tests/data/render_golden_alpine.svg"


def golden_scenario() -> str:
    """Player 0's view of a fixed position on the example plugin map: claimed routes (a double,
    a tunnel, the ferry), stations, a highlighted claim and the viewer's tickets."""
    from ttr_rules import Color, scenario

    alpine = load_map_file(ALPINE)
    state = scenario(
        alpine,
        3,
        current=1,
        hands=[{Color.RED: 2, Color.LOCOMOTIVE: 1}, {Color.BLUE: 3}, {}],
        # An empty slot: possible only when the deck and the discard are empty too.
        face_up=[Color.RED, Color.GREEN, None, Color.LOCOMOTIVE, Color.WHITE],
        deck=[],
        discard=[],
        routes={0: 0, 1: 1, 12: 0, 15: 2, 4: 1, 11: 0},
        stations={"Brig": 2, "Bern": 0},
        tickets=[[0, 3], [1], [2]],
        seed=1,
    )
    return svg(observe(state, 0), size=400, highlight=[ClaimRoute(11, Color.RED)], tickets_of=0)


def test_golden_svg_of_a_small_fixed_scenario() -> None:
    """Regenerate after an intended change of the drawing with
    ``TTR_REGENERATE_GOLDEN=1 python -m pytest tests/test_render.py -k golden`` and look at
    the new ``tests/data/render_golden_alpine.svg`` before committing it."""
    import os

    document = golden_scenario()
    if os.environ.get("TTR_REGENERATE_GOLDEN"):
        GOLDEN.write_text(document, encoding="utf-8")
    assert document == GOLDEN.read_text(encoding="utf-8")
