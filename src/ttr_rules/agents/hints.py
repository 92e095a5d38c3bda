"""Hints: what a good player would do from a seat's view, and why.

:func:`suggest` ranks a handful of sensible actions (the candidates the ``mcts`` search
considers) by how each plays out: every candidate is played to the end in the same sampled
deals (:func:`~ttr_rules.determinize` of the view; the asking seat is played as the ``mcts``
agent plays its own seat, in :data:`~ttr_rules.agents.planning.STRONG_STYLE`, the others as
``greedy``), and its score is the mean margin over the best other player it reaches (at the
end of the game, or after a few rounds with the unfinished tickets estimated). Each
:class:`Suggestion` says what the action serves (the tickets it works toward, the points it
scores now) and its risk.

It reads the view only, so a hint never leaks what the seat cannot see: two games that differ
only in hidden facts (other hands, other tickets, the deck order) give the same hints.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from attrs import frozen

from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    PayTunnel,
)
from ..frontend import action_label
from ..game import apply_action
from ..notation import format_action
from ..state import Phase
from ..views import PlayerView, determinize, view_legal_actions
from ..words import counted, minus
from .base import make_agent
from .greedy import RESERVE, greedy_action
from .mcts import candidate_actions, rollout, seat_styles
from .planning import STRONG_STYLE, Plan, Situation, make_plan
from .protocol import check_view

__all__ = ["HINT_DEPTH", "HINT_WORLDS", "Suggestion", "compared", "hint_lines", "suggest"]

#: Sampled deals each candidate is played out in when no ``think_time`` is given.
HINT_WORLDS = 4
#: Rounds each of those rollouts is played (then scored by the margin with
#: ticket-completion estimates): quick enough for a prompt. Under ``think_time`` rollouts go
#: to the end of the game.
HINT_DEPTH = 4
#: At most this many suggestions.
HINT_CANDIDATES = 5


@frozen
class Suggestion:
    """One suggested action.

    ``score`` is the mean margin (points over the best other player) the rollouts reached
    after this action; ``reason`` says what it serves, ``points`` what it scores at
    once (route points), ``tickets`` the names of the tickets it works toward, ``risk`` what
    can go wrong (empty when nothing notable), ``text`` the action in the game's notation and
    ``label`` in words (:func:`ttr_rules.frontend.action_label`).
    """

    action: Action
    text: str
    score: float
    reason: str
    points: int
    tickets: tuple[str, ...]
    risk: str
    label: str = ""


def suggest(
    view: PlayerView, *, agent: str = "greedy", think_time: float | None = None
) -> list[Suggestion]:
    """Ranked suggestions for the player to act, best first, all legal in ``view``.

    The candidates are those the ``mcts`` search considers (the strong-style planner's
    choice, its best claims, a station, the highest-scoring claim, a card draw, a ticket draw,
    the best ticket sets) plus the choice of ``agent`` (any name :func:`make_agent` knows, seed 0;
    ``"greedy"`` by default). Without
    ``think_time`` the result is deterministic (:data:`HINT_WORLDS` deals seeded by nothing
    but the view, rollouts of :data:`HINT_DEPTH` rounds); with it, the candidates are played
    to the end in as many deals as the seconds allow, which is not reproducible.

    >>> from ttr_rules import new_game, observe
    >>> hints = suggest(observe(new_game("europe", players=2, seed=0), 0))
    >>> type(hints[0].action).__name__, hints[0].score >= hints[-1].score
    ('KeepTickets', True)
    """
    if think_time is not None and (not isinstance(think_time, int | float) or think_time <= 0):
        raise ValueError(f"think_time must be a positive number of seconds, got {think_time!r}")
    seat = check_view(view)
    legal = view_legal_actions(view)
    situation = Situation.of_view(view, STRONG_STYLE)
    phase = view.phase
    ticket_choice = phase is Phase.INITIAL_TICKETS or phase is Phase.KEEP_TICKETS
    plan = make_plan(situation, situation.tickets, reserve=RESERVE)
    choice = greedy_action(situation, legal, plan=None if ticket_choice else plan)
    if len(legal) == 1 or phase in (Phase.TUNNEL, Phase.SECOND_CARD, Phase.PAYMENT):
        options = [choice, *(a for a in legal if a != choice)][:HINT_CANDIDATES]
    else:
        options = candidate_actions(
            situation, legal, None if ticket_choice else plan, choice, HINT_CANDIDATES
        )
    if agent != "greedy":
        pick = make_agent(agent, seed=0).act(view)
        options = [pick, *(a for a in options if a != pick)][:HINT_CANDIDATES]
    scores = _scores(view, seat, options, think_time)
    ranked = sorted(range(len(options)), key=lambda i: (-scores[i], i))
    return [_explain(view, situation, plan, options[i], scores[i]) for i in ranked]


def compared(hint: Suggestion, best: Suggestion) -> str:
    """How ``hint`` compares with the ``best`` suggestion, in words a player reads: the
    scores are margins after a few rounds played out, which mean little alone, but their
    differences are points.

    >>> import attrs
    >>> from ttr_rules.actions import DrawBlind
    >>> best = Suggestion(DrawBlind(), "draw blind", -2.5, "", 0, (), "")
    >>> compared(best, best), compared(attrs.evolve(best, score=-6.1), best)
    ('the best of these', 'about 4 points less than the first')
    >>> compared(attrs.evolve(best, score=-2.8), best)
    'about as good as the first'
    """
    if hint is best:
        return "the best of these"
    behind = round(best.score - hint.score)
    if behind <= 0:
        return "about as good as the first"
    return f"about {counted(behind, 'point')} less than the first"


def hint_lines(hints: Sequence[Suggestion]) -> list[str]:
    """One line per suggestion, best first, for a terminal or a log.

    >>> import attrs
    >>> from ttr_rules.actions import DrawBlind
    >>> hint = Suggestion(DrawBlind(), "draw blind", 2.5, "draws a card from the deck", 0, (), "")
    >>> hint_lines([attrs.evolve(hint, label="Draw a card from the deck")])
    ['1. Draw a card from the deck (the best of these): draws a card from the deck']
    """
    lines = []
    for rank, hint in enumerate(hints, 1):
        line = f"{rank}. {hint.label or hint.text} ({compared(hint, hints[0])}): {hint.reason}"
        if hint.risk:
            line += f"; risk: {hint.risk}"
        lines.append(line)
    return lines


def _scores(
    view: PlayerView, seat: int, options: Sequence[Action], think_time: float | None
) -> list[float]:
    """The mean final margin of each option over the same sampled deals."""
    rnd = random.Random(0)  # seeded by nothing hidden: the same view, the same deals
    total = [0.0] * len(options)
    began = time.perf_counter()
    worlds = 0
    depth = HINT_DEPTH if think_time is None else None
    styles = seat_styles(len(view.seats), seat, STRONG_STYLE)
    while True:
        world = determinize(view, rnd.getrandbits(32))
        for i, action in enumerate(options):
            total[i] += rollout(apply_action(world, action), seat, depth, styles)[0]
        worlds += 1
        if think_time is None:
            if worlds >= HINT_WORLDS:
                break
        elif time.perf_counter() - began >= think_time:
            break
    return [t / worlds for t in total]


def _explain(
    view: PlayerView, situation: Situation, plan: Plan, action: Action, score: float
) -> Suggestion:
    game_map = view.map
    names = _ticket_names(view)
    points = 0
    served: list[str] = []
    risk = ""
    if isinstance(action, ClaimRoute):
        route = game_map.routes[action.route]
        points = view.rules.route_score(route.length)
        served = [names[t] for t, routes, _ in plan.paths if action.route in routes]
        reason = f"claims {route.a}–{route.b} for {points} point{'s' if points != 1 else ''}"
        if served:
            reason += ", toward " + ", ".join(served)
        elif route.length >= 6:
            reason += ", a long route (the European Express race)"
        else:
            reason += ", off your tickets' paths"
        if route.tunnel:
            risk = "a tunnel: up to 3 more cards may be asked"
        elif action.locomotives:
            risk = f"spends {action.locomotives} locomotive{'s' if action.locomotives != 1 else ''}"
    elif isinstance(action, DrawFaceUp | DrawBlind):
        wanted = [game_map.routes[r] for r in plan.routes if situation.route_owner[r] is None][:2]
        card = view.face_up[action.slot] if isinstance(action, DrawFaceUp) else None
        what = f"a face-up {card.value} card" if card is not None else "a card from the deck"
        if wanted:
            targets = " and ".join(f"{r.a}–{r.b}" for r in wanted)
            reason = f"draws {what} toward {targets}"
            risk = "another player may claim a planned route first"
        else:
            reason = f"draws {what}"
        served = [names[t] for t, _, _ in plan.paths]
    elif isinstance(action, DrawTickets):
        reason = (
            "new tickets: yours are done or out of reach, "
            f"{counted(situation.my_trains, 'train')} left"
        )
        risk = "a ticket left unconnected at the end costs its points"
    elif isinstance(action, KeepTickets):
        served = [names[t] for t in sorted(action.tickets)]
        total = sum(game_map.tickets[t].loss for t in action.tickets)
        reason = f"keeps {', '.join(served)}"
        points = 0
        risk = f"{total} point{'s' if total != 1 else ''} lost if not connected"
    elif isinstance(action, BuildStation):
        served = [names[t] for t, _, links in plan.paths if links]
        reason = f"a station in {action.city} borrows a neighbour's route"
        if served:
            reason += " for " + ", ".join(served)
        risk = f"costs its {view.rules.station_bonus}-point bonus at the end"
    elif isinstance(action, PayTunnel):
        reason = "pays the tunnel's extra cards and keeps the route"
    elif isinstance(action, DeclineTunnel):
        reason = "declines the tunnel: keeps the cards, loses the turn"
    else:
        reason = "the only sensible move here"
    return Suggestion(
        action=action,
        text=format_action(action, game_map),
        score=round(score, 1),
        reason=reason,
        points=points,
        tickets=tuple(served),
        risk=risk,
        label=action_label(action, view),
    )


def _ticket_names(view: PlayerView) -> dict[int, str]:
    """Ticket index -> ``"A–B (points)"`` (``"A–C/D (−penalty)"`` with several destinations)."""
    return {
        i: f"{t.a}–{t.b} ({t.points})"
        if not t.destinations
        else f"{t.a}–{'/'.join(place for place, _ in t.destinations)} ({minus(t.penalty)})"
        for i, t in enumerate(view.map.tickets)
    }
