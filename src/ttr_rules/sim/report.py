"""The balance report of ``ttr stats``: one self-contained HTML page and the raw aggregates.

:func:`write_report` writes ``index.html`` (plots embedded as PNG data, tables, and the route
claim frequencies drawn on the board when :mod:`ttr_rules.render` is installed) and
``aggregates.json`` (:meth:`BalanceStats.to_dict` plus the derived per-route and per-ticket
tables). The plots need matplotlib (the ``stats`` extra), imported here only.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import GameMap
from ..words import counted
from .stats import BalanceStats

__all__ = ["RARE", "report_data", "write_report"]

#: A route claimed in fewer than this share of games, or a ticket completed by fewer than this
#: share of the players who kept it, is listed as rare.
RARE = 0.10


def report_data(stats: BalanceStats, game_map: GameMap) -> dict[str, Any]:
    """The aggregates and the tables derived from them (the content of ``aggregates.json``)."""
    n = stats.games
    routes = []
    for route, claims, by_winner in zip(
        game_map.routes, stats.route_claims, stats.route_claims_by_winner, strict=True
    ):
        routes.append(
            {
                "id": route.id,
                "a": route.a,
                "b": route.b,
                "length": route.length,
                "color": "gray" if route.color is None else route.color.value,
                "tunnel": route.tunnel,
                "ferry_locomotives": route.ferry_locomotives,
                **({"mountain": route.mountain} if route.mountain else {}),
                "double_of": route.double_of,
                "claim_rate": claims / n,
                "winner_share": by_winner / claims if claims else None,
            }
        )
    tickets = []
    for ticket, kept, done in zip(
        game_map.tickets, stats.ticket_kept, stats.ticket_completed, strict=True
    ):
        tickets.append(
            {
                "id": ticket.id,
                "a": ticket.a,
                "b": ticket.b,
                "points": ticket.points,
                "text": str(ticket),
                "long": ticket.long,
                "kept_per_game": kept / n,
                "completion_rate": done / kept if kept else None,
            }
        )
    seats = []
    for seat, (rate, low, high) in enumerate(stats.win_rates()):
        seats.append(
            {
                "seat": seat,
                "agent": stats.agents[seat],
                "wins": stats.wins[seat],
                "win_rate": rate,
                "win_rate_95": [low, high],
                "mean_score": stats.mean_scores()[seat],
                "score_sd": stats.score_sd()[seat],
                "express_rate": stats.express[seat] / n,
                "bonus_rates": {
                    name: c["holders"][seat] / n for name, c in sorted(stats.bonuses.items())
                },
                "stations_per_game": stats.stations_built[seat] / n,
                **{f"mean_{k}": v[seat] / n for k, v in stats.parts.items()},
            }
        )
    return {
        "aggregates": stats.to_dict(),
        "seats": seats,
        "routes": routes,
        "tickets": tickets,
        "rare_threshold": RARE,
    }


def write_report(
    stats: BalanceStats,
    game_map: GameMap,
    directory: str | os.PathLike[str],
    *,
    note: str = "",
) -> Path:
    """Write ``index.html`` and ``aggregates.json`` into ``directory``; the page's path.

    ``note`` is a line shown under the title (how the games were run, for instance).
    """
    if stats.games == 0:
        raise ValueError("no games to report")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    data = {**report_data(stats, game_map), "note": note}
    (out / "aggregates.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    page = out / "index.html"
    page.write_text(_Page(stats, game_map, data, note).html(), encoding="utf-8")
    return page


# --------------------------------------------------------------------------- the page


def _route_kind(route: dict[str, Any]) -> str:
    """A route's kind in the report's table: tunnel, ferry N, mountain N X, or nothing."""
    if route["tunnel"]:
        return "tunnel"
    if route["ferry_locomotives"]:
        return f"ferry {route['ferry_locomotives']}"
    return f"mountain {route['mountain']} X" if route.get("mountain") else ""


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _e(text: object) -> str:
    return html.escape(str(text))


def _table(head: Sequence[str], rows: Sequence[Sequence[object]], numeric_from: int = 1) -> str:
    cells = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = []
    for row in rows:
        tds = "".join(
            f'<td class="num">{_e(v)}</td>' if i >= numeric_from else f"<td>{_e(v)}</td>"
            for i, v in enumerate(row)
        )
        body.append(f"<tr>{tds}</tr>")
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _hist_values(counter: Counter[int]) -> tuple[list[int], list[int]]:
    keys = sorted(counter)
    return keys, [counter[k] for k in keys]


class _Page:
    def __init__(
        self, stats: BalanceStats, game_map: GameMap, data: dict[str, Any], note: str
    ) -> None:
        import matplotlib

        matplotlib.use("Agg")
        self.stats = stats
        self.map = game_map
        self.data = data
        self.note = note

    # ------------------------------------------------------------------ plots

    def _png(self, figure: Any) -> str:
        import matplotlib.pyplot as plt

        buffer = io.BytesIO()
        figure.tight_layout()
        figure.savefig(buffer, format="png", dpi=100)
        plt.close(figure)
        encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
        return f'<img alt="plot" src="data:image/png;base64,{encoded}">'

    def _figure(self, width: float = 5.2, height: float = 3.2) -> tuple[Any, Any]:
        import matplotlib.pyplot as plt

        return plt.subplots(figsize=(width, height))

    def win_plot(self) -> str:
        s = self.stats
        fig, ax = self._figure()
        rates = s.win_rates()
        xs = list(range(s.players))
        ys = [r[0] for r in rates]
        errors = [[max(0.0, r[0] - r[1]) for r in rates], [max(0.0, r[2] - r[0]) for r in rates]]
        ax.bar(xs, ys, color="#4c78a8", width=0.6)
        ax.errorbar(xs, ys, yerr=errors, fmt="none", ecolor="#222222", capsize=6)
        ax.axhline(1 / s.players, color="#e45756", linestyle="--", label="fair share")
        ax.set_xticks(xs, [f"P{i} ({s.agents[i]})" for i in xs])
        ax.set_ylabel("win rate")
        ax.set_title("Win rate by seat (95% Wilson intervals)")
        ax.legend(loc="upper right")
        return self._png(fig)

    def score_plot(self) -> str:
        s = self.stats
        fig, ax = self._figure()
        for seat, counter in enumerate(s.scores):
            keys, counts = _hist_values(counter)
            ax.hist(keys, weights=counts, bins=30, histtype="step", linewidth=1.6, label=f"P{seat}")
        ax.set_xlabel("final score")
        ax.set_ylabel("games")
        ax.set_title("Score distribution by seat")
        ax.legend()
        return self._png(fig)

    def counter_plot(self, counter: Counter[int], title: str, xlabel: str) -> str:
        fig, ax = self._figure(3.3, 2.9)
        keys, counts = _hist_values(counter)
        ax.hist(keys, weights=counts, bins=min(30, max(1, len(keys))), color="#72b7b2")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.set_title(title)
        return self._png(fig)

    def length_plot(self) -> str:
        """Mean claim rate of the routes of each length."""
        by_length: dict[int, list[float]] = {}
        for route, rate in zip(self.map.routes, self.stats.claim_rates(), strict=True):
            by_length.setdefault(route.length, []).append(rate)
        fig, ax = self._figure(3.3, 2.9)
        lengths = sorted(by_length)
        ax.bar(
            [str(k) for k in lengths],
            [sum(by_length[k]) / len(by_length[k]) for k in lengths],
            color="#f58518",
        )
        ax.set_xlabel("route length")
        ax.set_ylabel("claimed in share of games")
        ax.set_title("Claims by route length")
        return self._png(fig)

    def board(self) -> str:
        """The board with every route coloured by its claim rate (needs ttr_rules.render)."""
        try:
            from ..render import svg  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            return "<p>(The board picture needs <code>ttr_rules.render</code>.)</p>"
        import xml.etree.ElementTree as ET

        from matplotlib import colormaps
        from matplotlib.colors import to_hex

        from .. import new_game

        cmap = colormaps["viridis"]
        start = new_game(self.map, self.stats.players, seed=0)
        document = svg(start, size=900, legend=False, title=f"{self.map.name}: claim rates")
        ET.register_namespace("", "http://www.w3.org/2000/svg")
        root = ET.fromstring(document)
        ns = "{http://www.w3.org/2000/svg}"
        rates = self.stats.claim_rates()
        for group in root.iter(f"{ns}g"):
            rid = group.get("data-route")
            if rid is None:
                continue
            rate = rates[int(rid)]
            for rect in group.iter(f"{ns}rect"):
                if "space" in (rect.get("class") or "").split():
                    rect.set("fill", to_hex(cmap(rate)))
            title = group.find(f"{ns}title")
            if title is not None:
                title.text = f"{title.text}: claimed in {_pct(rate)} of games"
        picture = ET.tostring(root, encoding="unicode")
        stops = ", ".join(f"{to_hex(cmap(i / 10))} {10 * i}%" for i in range(11))
        scale = (
            '<div class="scale"><span>0%</span>'
            f'<div class="ramp" style="background: linear-gradient(to right, {stops})"></div>'
            "<span>100% of games</span></div>"
        )
        return f'<div class="board">{picture}</div>{scale}'

    # ------------------------------------------------------------------ sections

    def seats_table(self) -> str:
        rows = []
        for seat in self.data["seats"]:
            low, high = seat["win_rate_95"]
            rows.append(
                (
                    f"P{seat['seat']} ({seat['agent']})",
                    seat["wins"],
                    _pct(seat["win_rate"]),
                    f"{_pct(low)} – {_pct(high)}",
                    f"{seat['mean_score']:.1f} ± {seat['score_sd']:.1f}",
                    f"{seat['mean_route_points']:.1f}",
                    f"{seat['mean_ticket_points']:.1f}",
                    f"{seat['mean_tickets_completed']:.2f} / {seat['mean_tickets_failed']:.2f}",
                    f"{seat['mean_station_bonus']:.1f}",
                    _pct(seat["express_rate"]),
                )
            )
        head = (
            "seat",
            "wins",
            "win rate",
            "95% interval",
            "score (mean ± sd)",
            "routes",
            "tickets",
            "tickets done / failed",
            "station bonus",
            "Express",
        )
        return _table(head, rows)

    def route_rows(self, routes: Sequence[dict[str, Any]]) -> list[tuple[object, ...]]:
        return [
            (
                f"{r['a']} – {r['b']}",
                r["id"],
                r["length"],
                r["color"],
                _route_kind(r),
                _pct(r["claim_rate"]),
                _pct(r["winner_share"]),
            )
            for r in routes
        ]

    def ticket_rows(self, tickets: Sequence[dict[str, Any]]) -> list[tuple[object, ...]]:
        return [
            (
                t.get("text") or f"{t['a']} – {t['b']}",
                t["id"],
                t["points"],
                "long" if t["long"] else "",
                f"{t['kept_per_game']:.2f}",
                _pct(t["completion_rate"]),
            )
            for t in tickets
        ]

    _ROUTE_HEAD = ("route", "id", "length", "colour", "kind", "claimed", "by a winner")
    _TICKET_HEAD = ("ticket", "id", "points", "", "kept per game", "completed when kept")

    def rare_section(self) -> str:
        routes = sorted(self.data["routes"], key=lambda r: (r["claim_rate"], r["id"]))
        never = [r for r in routes if r["claim_rate"] == 0]
        rare = [r for r in routes if 0 < r["claim_rate"] < RARE]
        tickets = sorted(
            self.data["tickets"],
            key=lambda t: (-1 if t["completion_rate"] is None else t["completion_rate"], t["id"]),
        )
        hard = [t for t in tickets if t["completion_rate"] is None or t["completion_rate"] < RARE]
        parts = [
            f"<p>Routes claimed in no game: <b>{len(never)}</b>; in fewer than {_pct(RARE)} of "
            f"games: <b>{len(rare)}</b>. Tickets completed by fewer than {_pct(RARE)} of the "
            f"players who kept them (or never kept): <b>{len(hard)}</b>.</p>"
        ]
        if never or rare:
            parts.append(_table(self._ROUTE_HEAD, self.route_rows(never + rare), numeric_from=1))
        else:
            parts.append("<p>Every route is claimed in at least one game in ten.</p>")
        if hard:
            parts.append(_table(self._TICKET_HEAD, self.ticket_rows(hard), numeric_from=1))
        else:
            parts.append("<p>Every ticket is completed at least one time in ten.</p>")
        return "".join(parts)

    def stations_and_tunnels(self) -> str:
        s = self.stats
        n = s.games
        built = sum(s.stations_built)
        t = s.tunnels
        attempts = t["attempts"]
        station_rows = [
            (f"P{seat}", f"{s.stations_built[seat] / n:.2f}") for seat in range(s.players)
        ]
        hist = ", ".join(f"{k}: {v}" for k, v in sorted(s.station_hist.items()))
        tunnel_rows = [
            ("attempts per game", f"{attempts / n:.2f}"),
            ("owed nothing", _pct(t["free"] / attempts if attempts else None)),
            ("paid extra cards", _pct(t["paid"] / attempts if attempts else None)),
            ("declined", _pct(t["declined"] / attempts if attempts else None)),
            (
                "extra cards per paid tunnel",
                f"{t['extra_cards'] / t['paid']:.2f}" if t["paid"] else "–",
            ),
        ]
        used = _pct(s.stations_used / built if built else None)
        return (
            "<h3>Stations</h3>"
            f"<p>{built / n:.2f} stations built per game; {used} "
            f"of them used for a ticket. Stations built per player and game (count: player-games): "
            f"{_e(hist)}.</p>"
            + _table(("seat", "stations per game"), station_rows)
            + "<h3>Tunnels</h3>"
            + _table(("tunnel attempts", "in all games"), tunnel_rows)
        )

    def express_section(self) -> str:
        s = self.stats
        n = s.games
        rows = [
            (f"P{seat} ({s.agents[seat]})", _pct(s.express[seat] / n)) for seat in range(s.players)
        ]
        return (
            _table(("seat", "holds the European Express"), rows)
            + f"<p>Shared in {_pct(s.express_shared / n)} of games; a holder won "
            f"{_pct(s.express_winner_won / n)} of games.</p>"
        )

    def bonus_sections(self) -> str:
        """A section per bonus other than the Express (the Globetrotter, a plugin's)."""
        s = self.stats
        n = s.games
        parts = []
        for name, c in sorted(s.bonuses.items()):
            title = name.replace("_", " ").capitalize()
            rows = [
                (f"P{seat} ({s.agents[seat]})", _pct(c["holders"][seat] / n))
                for seat in range(s.players)
            ]
            parts.append(
                f"<h2>{_e(title)} bonus</h2>"
                + _table(("seat", f"scores the {title} bonus"), rows)
                + f"<p>Shared in {_pct(c['shared'] / n)} of games; a holder won "
                f"{_pct(c['winner_won'] / n)} of games.</p>"
            )
        return "".join(parts)

    def html(self) -> str:
        s = self.stats
        routes = sorted(self.data["routes"], key=lambda r: (-r["claim_rate"], r["id"]))
        tickets = sorted(
            self.data["tickets"],
            key=lambda t: (-(t["completion_rate"] or 0.0), t["id"]),
        )
        ends = ", ".join(f"{k}: {v}" for k, v in sorted(s.terminations.items()))
        express = (
            "<h2>European Express (longest continuous path)</h2>\n" + self.express_section()
            if "express" in self.map.rules.bonuses
            else ""
        )
        title = f"Balance of {self.map.title or self.map.name}"
        body = f"""
<h1>{_e(title)}</h1>
<p class="lead">{counted(s.games, "game")} of {s.players} players on <b>{_e(self.map.name)}</b>
{_e(self.map.version)}; agents by seat: {_e(", ".join(s.agents))}.
{_e(self.note)}</p>
<p>Ties after the tie-breakers: {s.ties} ({_pct(s.ties / s.games)}), counted as a win for
every tied winner. Games ended by: {_e(ends)}. Mean length {s.mean_turns():.1f} turns,
{s.mean_decisions():.1f} decisions.</p>

<h2>Who wins: seats and first-player advantage</h2>
{self.seats_table()}
<div class="plots">{self.win_plot()}{self.score_plot()}</div>

<h2>Margins and game length</h2>
<div class="plots">
{self.counter_plot(s.margin, "Winning margin", "points ahead of the second")}
{self.counter_plot(s.turns, "Game length", "turns")}
{self.length_plot()}
</div>

<h2>What a map designer asks: rarely used routes, rarely completed tickets</h2>
{self.rare_section()}

<h2>Route claims on the board</h2>
{self.board()}

{express}
{self.bonus_sections()}

<h2>Stations and tunnels</h2>
{self.stations_and_tunnels()}

<h2>Every route</h2>
{_table(self._ROUTE_HEAD, self.route_rows(routes))}

<h2>Every ticket</h2>
{_table(self._TICKET_HEAD, self.ticket_rows(tickets))}

<p class="foot">Raw aggregates: <a href="aggregates.json">aggregates.json</a>.
Intervals are 95% Wilson score intervals over games.</p>
"""
        return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{_e(title)}</title>
<style>{_CSS}</style></head>
<body>{body}</body></html>
"""


_CSS = """
body { font-family: DejaVu Sans, Verdana, Helvetica, Arial, sans-serif; margin: 2em auto;
       max-width: 1100px; color: #222; line-height: 1.4; padding: 0 1em; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; margin-top: 1.6em; }
.lead { color: #444; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; }
th { background: #f3f3f3; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
.plots img { max-width: 100%; border: 1px solid #eee; }
.board svg { max-width: 100%; height: auto; }
.scale { display: flex; align-items: center; gap: 0.6em; font-size: 0.85em; }
.ramp { width: 300px; height: 14px; border: 1px solid #999; }
.foot { color: #666; font-size: 0.85em; }
"""
