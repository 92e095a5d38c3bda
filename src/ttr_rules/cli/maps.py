"""``ttr maps``, ``ttr map-info NAME|FILE`` and ``ttr validate-map FILE``: the map commands."""

from __future__ import annotations

import argparse
import json
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

from ..cards import CARD_COLORS
from ..errors import MapError
from ..maps import (
    BrokenMap,
    GameMap,
    broken_maps,
    load_map,
    load_map_file,
    map_groups,
    map_to_dict,
)
from ..maps.check import deal_problems
from ..words import counted
from .common import error, shown, table

__all__ = [
    "configure_map_info",
    "configure_maps",
    "configure_validate_map",
    "map_info",
    "map_info_lines",
    "map_named",
    "run_map_info",
    "run_maps",
    "run_validate_map",
]


# --------------------------------------------------------------------------- ttr maps


def configure_maps(parser: argparse.ArgumentParser) -> None:
    parser.description = "List the installed maps."
    parser.add_argument(
        "--json",
        action="store_true",
        help="print a JSON array, one object per map (name, version, title, board, cities, "
        "routes, tickets, digest); variants follow the board they are played on",
    )


def run_maps(args: argparse.Namespace) -> int:
    """The playable maps, then the broken plugins apart with their reasons (status 1 when
    there is one): with ``--json`` the array holds the playable maps and each broken plugin is
    an error line on stderr. Variants follow their board (``map_groups``)."""
    maps = [load_map(name) for _, names in map_groups() for name in names]
    broken = broken_maps()
    if args.json:
        print(json.dumps([_map_summary(m) for m in maps]))
        for plugin in broken:
            error(f"broken map plugin {plugin.name!r}: {plugin.reason}")
        return 1 if broken else 0
    rows = [("name", "board", "version", "cities", "routes", "tickets", "title")]
    rows += [
        (m.name, m.board or m.name, m.version, *(str(len(m.cities)), str(len(m.routes))))
        + (str(len(m.tickets)), m.title)
        for m in maps
    ]
    print(table(rows, numeric=(3, 4, 5)))
    if broken:
        print(f"\n{counted(len(broken), 'broken map plugin')} (not offered to players):")
        print(table([("name", "distribution", "reason")] + [_broken_row(b) for b in broken]))
    return 1 if broken else 0


def _broken_row(plugin: BrokenMap) -> tuple[str, str, str]:
    """One broken plugin in ``ttr maps``: its reason on one line; names as a plugin's metadata
    spells them, control characters escaped (``''`` for an empty name)."""
    name = shown(plugin.name) if plugin.name else "''"
    return name, shown(plugin.distribution), shown(" ".join(plugin.reason.split()))


def _map_summary(m: GameMap) -> dict[str, Any]:
    """One map in ``ttr maps --json``."""
    return {
        "name": m.name,
        "version": m.version,
        "title": m.title,
        "board": m.board or m.name,
        "cities": len(m.cities),
        "routes": len(m.routes),
        "tickets": len(m.tickets),
        "digest": m.digest,
    }


# --------------------------------------------------------------------------- ttr map-info


def configure_map_info(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Show a map's statistics: routes by length and colour, tickets by value, and the rules "
        "in which it differs from the Europe defaults."
    )
    parser.add_argument("name", metavar="NAME", help="an installed map's name, or a map file")
    parser.add_argument(
        "--json", action="store_true", help="print the statistics as one JSON object"
    )


def run_map_info(args: argparse.Namespace) -> int:
    game_map = map_named(args.name)
    if args.json:
        print(json.dumps(map_info(game_map)))
    else:
        print("\n".join(map_info_lines(game_map)))
    return 0


def map_named(name: str) -> GameMap:
    """An installed map, or the map file at ``name`` when it names an existing file.

    Errors show ``name`` with its control characters escaped, so that a path holding a
    newline cannot split the error line."""
    try:
        if _names_a_file(name):
            return load_map_file(name)
        return load_map(name)
    except MapError as exc:
        if name == shown(name):
            raise
        raise ValueError(str(exc).replace(name, shown(name))) from None


def _names_a_file(name: str) -> bool:
    return name.endswith(".json") or Path(name).is_file()


def map_info(game_map: GameMap) -> dict[str, Any]:
    """The statistics of ``ttr map-info``: counts by length, colour, tunnels, ferries, tickets
    (the counters' keys as strings, JSON's object keys).

    >>> info = map_info(load_map("europe"))
    >>> info["routes"], info["spaces"], info["tunnels"], info["routes_by_length"]["8"]
    (101, 300, 18, 1)
    """
    m = game_map
    routes = m.routes
    ferries = [r for r in routes if r.ferry_locomotives]
    colours = Counter(r.color.value if r.color is not None else "gray" for r in routes)
    long_tickets = sum(t.long for t in m.tickets)
    mountains = [r for r in routes if r.mountain]
    several = [t for t in m.tickets if t.destinations]
    return {
        "name": m.name,
        "version": m.version,
        "title": m.title,
        "digest": m.digest,
        "cities": len(m.cities),
        "routes": len(routes),
        "spaces": sum(r.length for r in routes),
        "routes_by_length": _by_key(Counter(r.length for r in routes)),
        "routes_by_colour": {c: colours[c] for c in _COLOUR_ORDER if colours[c]},
        "tunnels": sum(r.tunnel for r in routes),
        "ferries": len(ferries),
        "ferry_locomotives": sum(r.ferry_locomotives for r in ferries),
        "double_routes": sum(r.double_of is not None for r in routes) // 2,
        **(
            {"mountains": len(mountains), "mountain_marks": sum(r.mountain for r in mountains)}
            if mountains
            else {}
        ),
        **({"board": m.board} if m.board else {}),
        **(
            {
                "countries": {name: len(ends) for name, ends in m.countries.items()},
                "several_destinations": len(several),
                "penalties": sum(t.penalty for t in several),
            }
            if m.countries or several
            else {}
        ),
        "tickets": len(m.tickets),
        "long_tickets": long_tickets,
        "regular_tickets": len(m.tickets) - long_tickets,
        "ticket_points": sum(t.points for t in m.tickets),
        "tickets_by_value": _by_key(Counter(t.points for t in m.tickets)),
        "card_substitutes": [
            {"route": r.id, "a": r.a, "b": r.b, "cards": r.card_substitute}
            for r in routes
            if r.card_substitute
        ],
        # The map file's rules object: the fields that differ from the defaults (Europe's).
        "rules": map_to_dict(m).get("rules", {}),
    }


def map_info_lines(game_map: GameMap) -> list[str]:
    """The text of ``ttr map-info`` (:func:`map_info` as lines)."""
    info = map_info(game_map)
    title = f" - {info['title']}" if info["title"] else ""
    return [
        f"{info['name']} {info['version']}{title}",
        *([f"a variant of the {info['board']} board"] if "board" in info else []),
        f"digest: {info['digest']}",
        f"cities: {_places(info)}",
        f"routes: {info['routes']} tracks, {info['spaces']} spaces",
        "  by length: " + _counts(info["routes_by_length"]),
        "  by colour: " + ", ".join(f"{c} {n}" for c, n in info["routes_by_colour"].items()),
        f"  tunnels: {info['tunnels']}",
        f"  ferries: {info['ferries']} ({info['ferry_locomotives']} locomotives)",
        f"  double routes: {info['double_routes']}",
        *(
            [f"  mountains: {info['mountains']} ({info['mountain_marks']} X marks)"]
            if "mountains" in info
            else []
        ),
        *(
            [
                "countries: "
                + ", ".join(
                    f"{c} ({counted(n, 'end-point')})" for c, n in info["countries"].items()
                )
            ]
            if info.get("countries")
            else []
        ),
        f"tickets: {info['tickets']} ({info['long_tickets']} long, {info['regular_tickets']} "
        f"regular), {info['ticket_points']} points",
        *(
            [
                f"  to several destinations: {info['several_destinations']} (points: the highest "
                f"value of each; {info['penalties']} points of penalties)"
            ]
            if info.get("several_destinations")
            else []
        ),
        "  by value: " + _counts(info["tickets_by_value"]),
        *(
            f"  any {sub['cards']} cards for one: {sub['a']}-{sub['b']} (#{sub['route']})"
            for sub in info["card_substitutes"]
        ),
        *textwrap.wrap(
            "rules beside the Europe defaults: " + (_rules_text(info["rules"]) or "none"),
            width=100,
            subsequent_indent="  ",
            break_on_hyphens=False,
        ),
    ]


def _places(info: dict[str, Any]) -> str:
    """The count of cities, and of the border end-points among them on a map with countries."""
    ends = sum(info.get("countries", {}).values())
    if not ends:
        return str(info["cities"])
    return f"{info['cities'] - ends} and {counted(ends, 'border end-point')}"


def _rules_text(rules: dict[str, Any]) -> str:
    """A map file's rules object as ``name value`` pairs, the values in JSON."""
    return ", ".join(
        f"{name} {json.dumps(value, ensure_ascii=False)}" for name, value in rules.items()
    )


_COLOUR_ORDER = (*(c.value for c in CARD_COLORS), "gray")


def _by_key(counter: Counter[int]) -> dict[str, int]:
    """A counter of integers as ``{"1": 4, "2": 35}``, in increasing order of the integers."""
    return {str(value): n for value, n in sorted(counter.items())}


def _counts(counts: dict[str, int]) -> str:
    """``1×4, 2×35`` for :func:`_by_key`'s counts."""
    return ", ".join(f"{value}×{n}" for value, n in counts.items())


# --------------------------------------------------------------------------- ttr validate-map


def configure_validate_map(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Check a map file or an installed map; print every problem (exit status 1 if any),"
        " including tickets too few to deal at the largest player count its rules allow."
    )
    parser.add_argument(
        "file",
        metavar="MAP",
        help="a map file in the ttr-rules JSON format, or the name of an installed map",
    )
    parser.add_argument(
        "--render",
        action="store_true",
        help="also draw the board and report what collides on it: a route's space over another"
        " route's space or over a city other than its ends, a city's label over a space"
        ' (fix them with a route\'s "bend", docs/map-format.md)',
    )


def _holdings(game_map: GameMap) -> str:
    """What a map holds, in words: ``europe 1.0, 47 cities, 101 routes, 46 tickets``."""
    cities = len(game_map.cities)
    return (
        f"{game_map.name} {game_map.version}, {cities} {'city' if cities == 1 else 'cities'}, "
        f"{counted(len(game_map.routes), 'route')}, {counted(len(game_map.tickets), 'ticket')}"
    )


def run_validate_map(args: argparse.Namespace) -> int:
    try:
        game_map = map_named(args.file)
    except MapError as exc:
        for line in exc.problems:
            print(line)
        return 1
    except ValueError as exc:  # a name with control characters, shown escaped
        print(exc)
        return 1
    # Loading checks what every game needs; the deal is checked where a game is dealt, and
    # here, for the player counts the map declares.
    where = f"{shown(args.file)}: " if _names_a_file(args.file) else ""
    problems = [f"{where}{p}" for p in deal_problems(game_map)]
    if args.render:
        from ..render.geometry import board_collisions

        problems.extend(f"board: {line}" for line in board_collisions(game_map))
    for line in problems:
        print(line)
    if problems:
        return 1
    print(
        f"ok: {shown(args.file)}: {_holdings(game_map)}"
        + (" (its board draws without collisions)" if args.render else "")
    )
    return 0
