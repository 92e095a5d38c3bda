"""Copy a board's printed geometry (car spaces and city positions) into its map file.

    python maps/tools/add_geometry.py MAP_FILE GEOMETRY_FILE

GEOMETRY_FILE is one of shared/reference/geometry/<board>.json (see its README): cities as
``{name: [x, y]}``, tracks with ``a``, ``b``, ``color`` and ``spaces`` ``[[x, y, angle], ...]``
from ``a`` to ``b``, and the frame's ``board`` size and ``car_px``. Each route of the map is
matched to one track by its two cities, colour and length (route i is tried against track
id i + 1 first, then the first unmatched track alike); a route listed b to a takes the spaces
reversed with their angles turned by 180 degrees. The file is rewritten in place, one city or
route per line as before, with ``frame``, each city's ``position``, each route's ``spaces`` and,
where the reference file beside the geometry folder (``../<board>.json``) gives them, each
country's ``label_position``; any mismatch stops the script before it writes. ``format_map``
writes that layout.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _key(a: str, b: str, color: str, length: int) -> tuple[frozenset[str], str, int]:
    return frozenset((a, b)), "purple" if color == "pink" else color, length


def match_tracks(
    routes: list[dict[str, Any]], tracks: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The track of each route (same cities, colour and length), route i preferring id i + 1."""
    free = {t["id"]: t for t in tracks}
    matched = []
    for i, route in enumerate(routes):
        want = _key(route["a"], route["b"], route.get("color", "gray"), route["length"])
        preferred = free.get(i + 1)
        candidates = ([preferred] if preferred else []) + list(free.values())
        track = next(
            (t for t in candidates if _key(t["a"], t["b"], t["color"], len(t["spaces"])) == want),
            None,
        )
        if track is None:
            raise SystemExit(f"routes[{i}] {route['a']}-{route['b']}: no track alike")
        del free[track["id"]]
        matched.append(track)
    if free:
        raise SystemExit(f"tracks without a route: {sorted(free)}")
    return matched


def spaces_for(route: dict[str, Any], track: dict[str, Any]) -> list[list[float]]:
    spaces = [list(s) for s in track["spaces"]]
    if route["a"] == track["a"]:
        return spaces
    return [[x, y, round((angle + 180) % 360, 5)] for x, y, angle in reversed(spaces)]


def main(map_path: str, geometry_path: str) -> None:
    text = Path(map_path).read_text("utf-8")
    data = json.loads(text)
    geometry = json.loads(Path(geometry_path).read_text("utf-8"))
    positions = geometry["cities"]
    missing = [c["name"] for c in data["cities"] if c["name"] not in positions]
    if missing:
        raise SystemExit(f"cities without a position: {missing}")
    tracks = match_tracks(data["routes"], geometry["tracks"])
    size, car = geometry["board"], geometry["car_px"]
    frame = {
        "width": size["width"],
        "height": size["height"],
        "car_length": car["fill_length"],
        "car_width": car["fill_width"],
    }
    data = _with_before(data, "frame", frame, "cities")
    for city in data["cities"]:
        city.pop("position", None)
        city.update(_with_before(dict(city), "position", positions[city["name"]], "aliases"))
    for route, track in zip(data["routes"], tracks, strict=True):
        route["spaces"] = spaces_for(route, track)
    add_country_labels(data, Path(geometry_path).parent.parent / Path(geometry_path).name)
    Path(map_path).write_text(format_map(data), "utf-8")


def add_country_labels(data: dict[str, Any], reference_path: Path) -> None:
    """Each country's ``label_position`` (the centre of its printed name) from the reference
    file, matched by name; a map without countries is left alone."""
    if not data.get("countries"):
        return
    reference = json.loads(reference_path.read_text("utf-8"))
    where = {c["name"]: c["label_position"] for c in reference.get("countries", [])}
    for country in data["countries"]:
        if country["name"] not in where:
            raise SystemExit(f"country without a label position: {country['name']}")
        country["label_position"] = where[country["name"]]


def format_map(data: dict[str, Any]) -> str:
    """A map file's text: one member per line, one city, route or ticket per line."""
    lines = []
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = ",\n".join("    " + _compact(item) for item in value)
            text = f"[\n{items}\n  ]"
        elif isinstance(value, dict) and key == "rules" and value:
            members = ",\n".join(f"    {json.dumps(k)}: {_compact(v)}" for k, v in value.items())
            text = f"{{\n{members}\n  }}"
        else:
            text = _compact(value)
        lines.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _with_before(entry: dict[str, Any], key: str, value: Any, before: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in entry.items():
        if k == before:
            out[key] = value
        if k != key:
            out[k] = v
    out.setdefault(key, value)
    return out


if __name__ == "__main__":
    main(*sys.argv[1:3])
