"""Write a map file from a checked reference data set (shared/reference/<board>.json).

    python maps/tools/from_reference.py REFERENCE GEOMETRY HEADER OUT

REFERENCE is a board's reference data (the keys of ``nordic.json``; Switzerland adds
``countries`` and country tickets), GEOMETRY its printed geometry
(shared/reference/geometry/<board>.json), HEADER a JSON file with the map file's own members
(``name``, ``version``, ``title``, ``description``, ``bonus_titles``, ``rules``). Route i is
the reference's track id i + 1; a country's end-points become places of ``cities`` after the
cities, with their flags' positions. The geometry is added by ``add_geometry``'s matching, and
the file is written in its layout.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from add_geometry import format_map, match_tracks, spaces_for


def _ticket(ref: dict[str, Any]) -> dict[str, Any]:
    if ref.get("destinations"):
        return {
            "a": ref["a"],
            "destinations": [{"to": d["to"], "points": d["points"]} for d in ref["destinations"]],
            "penalty": ref["penalty"],
        }
    return {"a": ref["a"], "b": ref["b"], "points": ref["points"]}


def _once(names: list[str]) -> list[str]:
    """The names without repeats (the reference lists the ASCII form of Österreich twice)."""
    return list(dict.fromkeys(names))


def build(reference: dict[str, Any], geometry: dict[str, Any], header: dict[str, Any]) -> str:
    positions = {**geometry["cities"], **geometry.get("end_points", {})}
    cities = [
        {"name": c["name"], "aliases": _once(c["aliases"]), "position": positions[c["name"]]}
        for c in reference["city_details"]
    ]
    countries = reference.get("countries", [])
    for country in countries:
        cities += [{"name": end, "position": positions[end]} for end in country["end_points"]]
    routes = []
    for ref in sorted(reference["routes"], key=lambda r: r["id"]):
        route = {"a": ref["a"], "b": ref["b"], "length": ref["length"], "color": ref["color"]}
        if ref["tunnel"]:
            route["tunnel"] = True
        if ref["ferry_locomotives"]:
            route["ferry_locomotives"] = ref["ferry_locomotives"]
        routes.append(route)
    for route, track in zip(routes, match_tracks(routes, geometry["tracks"]), strict=True):
        route["spaces"] = spaces_for(route, track)
    size, car = geometry["board"], geometry["car_px"]
    data: dict[str, Any] = {
        "format": "ttr-rules-map",
        "format_version": 1,
        **{k: header[k] for k in ("name", "version", "title", "description")},
        "frame": {
            "width": size["width"],
            "height": size["height"],
            "car_length": car["fill_length"],
            "car_width": car["fill_width"],
        },
        "cities": cities,
    }
    if countries:
        data["countries"] = [
            {"name": c["name"], "end_points": c["end_points"], "aliases": _once(c["aliases"])}
            for c in countries
        ]
    data["routes"] = routes
    data["tickets"] = [_ticket(t) for t in reference["tickets"]]
    if header.get("bonus_titles"):
        data["bonus_titles"] = header["bonus_titles"]
    data["rules"] = header["rules"]
    return format_map(data)


def main(reference: str, geometry: str, header: str, out: str) -> None:
    def read(path: str) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(Path(path).read_text("utf-8"))
        return value

    Path(out).write_text(build(read(reference), read(geometry), read(header)), "utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:5])
