"""The ``mcts`` agent: information-set Monte Carlo tree search over determinized states.

The hidden information (the other hands, the other players' tickets, the deck order) is what
makes Ticket to Ride a game of imperfect information (E79). The agent searches a tree
whose root is its *information set*: every iteration samples one full state consistent with
its view (:func:`~ttr_rules.determinize`) and plays the root's candidate actions out in it.

What makes it strong, and cheap enough for its budget:

* **Candidate actions from the greedy policy.** The root's children are not all legal actions
  (hundreds of claim payments and ticket subsets) but the few that matter: the greedy choice,
  the best claims of its top planned routes, a station, the highest-scoring claim, a card
  draw, a ticket draw, the best ticket subsets (by the greedy's ticket value). Trivial
  decisions (a single legal action, the second card of a draw, a tunnel payment) are left to
  the greedy policy and cost nothing.
* **Rollouts by the greedy policy, for every player.** After a candidate action each player
  plays the greedy planning policy (:func:`~ttr_rules.agents.greedy.greedy_action`) with
  its own (sampled) tickets, which is far closer to real play than random moves.
* **The budget goes where rollouts are exact.** Ticket choices and ticket draws decide games
  and are played out to the end of the game (exact final scores); once a player is down to
  ``endgame`` trains every turn is searched with rollouts to the end, which are short by then.
  Other turns follow the greedy plan, unless ``midgame=True``: then they are searched with
  rollouts truncated after ``depth`` rounds and scored by :func:`evaluate` (the score margin with
  ticket-completion estimates). In our measurements that truncated mid-game search did not
  beat the greedy's own choice (11–12 wins in 24 two-player games), so it is off by default.
* **Common random numbers.** Every candidate is played out in the same determinized worlds
  (the same deal and the same reshuffle seed), so their values are compared pairwise and the
  sampling noise mostly cancels; candidates are pruned by successive halving (a bandit over
  the root), and the greedy choice is kept unless another beats it by ``prior`` points with
  ``confidence``: its advantage, world by world, must clear the prior by that many standard
  errors. A search of a few worlds is noisy (at 5 players a ticket choice played to the end
  fits in two or three), and without that test its choices cost points.

The budget is ``iterations`` (determinizations per decision: the default, deterministic:
the same seed and views give the same actions on any machine) or ``think_time`` (seconds per
decision, for front ends: the search stops when the time is up, so its result depends on the
machine's speed and load and is **not reproducible**). Given both, it stops at whichever comes
first. Either way the search is anytime: every determinization plays out every surviving
candidate, and the field is halved at each quarter of the budget (of the worlds, or of the
time), so stopping early still returns the best-supported candidate.
Internals used for speed: :class:`~ttr_rules.agents.planning.Situation` built straight from
determinized states, and :func:`~ttr_rules.legal_actions`/:func:`~ttr_rules.apply_action`
on them (all public engine functions).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Literal

from ..actions import (
    Action,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
)
from ..game import apply_action, legal_actions
from ..scoring import final_scores
from ..state import GameState, Phase
from ..views import PlayerView, determinize, view_legal_actions
from .greedy import (
    RESERVE,
    best_scoring_claim,
    draw_choice,
    greedy_action,
    greedy_ordered,
    keep_values,
    rank_claims,
    start_action_fast,
    station_choice,
)
from .options import check_number, check_whole
from .planning import (
    GREEDY_STYLE,
    STRONG_STYLE,
    Plan,
    PlanKeeper,
    Situation,
    Style,
    make_plan,
)
from .protocol import check_view

__all__ = [
    "MctsAgent",
    "advantage_bound",
    "candidate_actions",
    "evaluate",
    "rollout_value",
    "seat_styles",
]

#: The styles of the ``style`` option: how the agent plays its own seat (its default choice
#: and its own moves in the rollouts; the other seats are played in the greedy style).
_STYLES = {"strong": STRONG_STYLE, "greedy": GREEDY_STYLE}

#: Default determinizations per decision.
DEFAULT_ITERATIONS = 12
#: Default standard errors by which another action's advantage must clear the prior (see
#: ``confidence``).
DEFAULT_CONFIDENCE = 1.0
#: Default cap on the rollout turns of one decision (see ``max_turns``).
DEFAULT_MAX_TURNS = 1500
#: Default rollout depth (rounds of turns) for turn decisions.
DEFAULT_DEPTH = 6
_MAX_ROLLOUT = 2_000
#: The largest budgets an agent accepts: beyond them a decision would not end in a day.
MAX_ITERATIONS = 1_000_000
MAX_THINK_TIME = 3_600
MAX_TURNS = 100_000_000
_MAX_ROUNDS = 10_000
_MAX_POINTS = 1_000.0
_MAX_CONFIDENCE = 10.0


class MctsAgent:
    """Information-set Monte Carlo search with greedy rollouts (see the module docstring).

    Options: ``iterations`` (determinizations per decision; default 12 unless ``think_time``
    is given; deterministic), ``think_time`` (seconds per decision, default None; not
    reproducible; given with ``iterations`` the search stops at whichever comes first),
    ``ticket_depth`` (rollout rounds for ticket decisions,
    the endgame and ticket draws; default 0: to the end), ``endgame`` (trains left, by any
    player, from which every turn is searched; default 12), ``midgame`` (search earlier turns
    too; default False), ``depth`` (rollout rounds of that mid-game search, default 6; 0: to
    the end), ``candidates`` (root actions, default 4), ``prior`` (points by which another
    action must beat the greedy choice, default 3.0), ``confidence`` (standard errors by which
    its advantage must clear the prior, default 1.0; 0: the means alone decide) and
    ``max_turns`` (rollout turns per decision under an ``iterations`` budget, default 1500: the
    search stops early when its rollouts have played that many turns in all, which keeps a
    decision's time bounded and still deterministic).
    """

    name = "mcts"

    def __init__(
        self,
        *,
        seed: int = 0,
        iterations: int | None = None,
        think_time: float | None = None,
        depth: int = DEFAULT_DEPTH,
        ticket_depth: int = 0,
        endgame: int = 12,
        midgame: bool = False,
        candidates: int = 4,
        prior: float = 3.0,
        confidence: float = DEFAULT_CONFIDENCE,
        max_turns: int = DEFAULT_MAX_TURNS,
        style: Literal["strong", "greedy"] = "strong",
    ) -> None:
        if iterations is not None:
            check_whole("iterations", iterations, 1, MAX_ITERATIONS)
        if think_time is not None and (
            isinstance(think_time, bool)
            or not isinstance(think_time, int | float)
            or not 0 < think_time <= MAX_THINK_TIME
        ):
            raise ValueError(
                f"think_time must be a number of seconds above 0 and at most {MAX_THINK_TIME:,},"
                f" got {think_time}"
            )
        if iterations is None and think_time is None:
            iterations = DEFAULT_ITERATIONS
        for name, value, low, high in (
            ("depth", depth, 0, _MAX_ROUNDS),
            ("ticket_depth", ticket_depth, 0, _MAX_ROUNDS),
            ("endgame", endgame, 0, _MAX_ROUNDS),
            ("candidates", candidates, 1, _MAX_ROUNDS),
            ("max_turns", max_turns, 1, MAX_TURNS),
        ):
            check_whole(name, value, low, high)
        check_number("prior", prior, 0.0, _MAX_POINTS)
        check_number("confidence", confidence, 0.0, _MAX_CONFIDENCE)
        self.seed = seed
        self.iterations = iterations
        self.think_time = think_time
        self.depth = depth
        self.ticket_depth = ticket_depth
        self.endgame = endgame
        self.midgame = bool(midgame)
        self.candidates = candidates
        self.prior = float(prior)
        self.confidence = float(confidence)
        self.max_turns = max_turns
        if style not in _STYLES:
            raise ValueError(f"style must be strong or greedy, got {style}")
        self.style = _STYLES[style]
        self._rnd = random.Random(seed)

    def __repr__(self) -> str:
        return (
            f"MctsAgent(seed={self.seed}, iterations={self.iterations}, "
            f"think_time={self.think_time}, depth={self.depth})"
        )

    def act(self, view: PlayerView) -> Action:
        check_view(view)
        legal = view_legal_actions(view)
        situation = Situation.of_view(view, self.style)
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.SECOND_CARD or phase is Phase.TUNNEL or phase is Phase.PAYMENT:
            return greedy_action(situation, legal)
        plan = (
            None
            if phase is not Phase.START
            else make_plan(situation, situation.tickets, reserve=RESERVE)
        )
        choice = greedy_action(situation, legal, plan=plan)
        options = candidate_actions(situation, legal, plan, choice, self.candidates)
        if len(options) == 1:
            return choice
        depth: int | None = self.depth if phase is Phase.START else self.ticket_depth
        if min(situation.trains) <= self.endgame or any(
            isinstance(a, DrawTickets) for a in options
        ):
            # Near the end rollouts are short: play them out and score exactly. A ticket draw
            # decides the rest of the game: judge it by the end too.
            depth = self.ticket_depth
        elif phase is Phase.START and not self.midgame:
            return choice
        return self._search(view, options, depth or None)

    # ----------------------------------------------------------------------- search

    def _search(self, view: PlayerView, options: list[Action], depth: int | None) -> Action:
        """Successive halving over ``options`` with common determinizations: the field is
        halved at each quarter of the budget (worlds, or seconds under ``think_time``),
        keeping at least two and always the greedy choice, which has its ``prior``. Another
        action is played only when its advantage over the greedy choice, world by world,
        clears the prior by ``confidence`` standard errors."""
        me = view.player
        assert me is not None
        began = time.perf_counter()
        styles = seat_styles(len(view.seats), me, self.style)
        values: list[list[float]] = [[] for _ in options]
        alive = list(range(len(options)))
        budget = self.iterations
        rounds = 0
        quarters = 0
        played = 0
        while True:
            world = determinize(view, self._rnd.getrandbits(32))
            for i in alive:
                value, turns = rollout(apply_action(world, options[i]), me, depth, styles)
                values[i].append(value)
                played += turns
            rounds += 1
            if budget is not None:
                if rounds >= budget or played >= self.max_turns:
                    break
                progress = max(rounds / budget, played / self.max_turns)
            else:
                progress = 0.0
            if self.think_time is not None:
                elapsed = (time.perf_counter() - began) / self.think_time
                if elapsed >= 1.0:
                    break
                progress = max(progress, elapsed)
            if len(alive) > 2 and rounds >= 2 and int(progress * 4) > quarters:
                quarters = int(progress * 4)
                alive.sort(key=lambda i: -(sum(values[i]) + (self.prior * rounds if i == 0 else 0)))
                alive = alive[: max(2, (len(alive) + 1) // 2)]
                if 0 not in alive:
                    alive[-1] = 0
        best, best_bound = 0, self.prior
        for i in alive:
            if i != 0:
                bound = advantage_bound(values[i], values[0], self.confidence)
                if bound > best_bound:
                    best, best_bound = i, bound
        return options[best]


def seat_styles(players: int, me: int, style: Style) -> tuple[Style, ...]:
    """The style of each seat in a rollout: ``style`` for ``me``, greedy for the others.

    >>> seat_styles(3, 1, STRONG_STYLE) == (GREEDY_STYLE, STRONG_STYLE, GREEDY_STYLE)
    True
    """
    return tuple(style if seat == me else GREEDY_STYLE for seat in range(players))


def advantage_bound(values: Sequence[float], base: Sequence[float], confidence: float) -> float:
    """How much better ``values`` did than ``base`` in the same worlds, at worst: the mean
    paired difference less ``confidence`` standard errors (``-inf`` with one world, when
    ``confidence`` asks for an error that one world cannot give).

    >>> advantage_bound([10.0, 14.0], [4.0, 4.0], 0.0)
    8.0
    >>> advantage_bound([10.0, 14.0], [4.0, 4.0], 1.0)
    6.0
    """
    n = len(values)
    differences = [a - b for a, b in zip(values, base, strict=True)]
    mean = sum(differences) / n
    if confidence == 0.0:
        return mean
    if n < 2:
        return -math.inf
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    return mean - confidence * spread / math.sqrt(n)


def candidate_actions(
    situation: Situation, legal: Sequence[Action], plan: Plan | None, choice: Action, limit: int
) -> list[Action]:
    """The root's actions (at most ``limit``), the greedy ``choice`` first: for a ticket
    choice the best subsets by :func:`~ttr_rules.agents.greedy.keep_values`; otherwise the
    best claims of the plan, a station, the highest-scoring claim, a card draw and, when the
    plan is done, a ticket draw (``plan`` is None for ticket choices)."""
    found: list[Action] = [choice]

    def add(action: Action | None) -> None:
        if action is not None and action not in found:
            found.append(action)

    if plan is None:
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        values = keep_values(situation, [a.tickets for a in keeps], situation.style.ticket_weight)
        value = dict(zip(keeps, values, strict=True))
        keeps.sort(key=lambda a: -value[a])
        for keep in keeps[:limit]:
            add(keep)
        return found[:limit]
    for claim in rank_claims(situation, legal, plan)[:3]:
        add(claim)
    add(station_choice(situation, legal, plan))
    add(best_scoring_claim(situation, legal))
    if any(isinstance(a, DrawFaceUp | DrawBlind) for a in legal):
        add(draw_choice(situation, legal, plan, first=True))
    if situation.final_turns is None and not plan.routes and situation.my_trains >= 8:
        add(next((a for a in legal if isinstance(a, DrawTickets)), None))
    return found[:limit]


def rollout_value(state: GameState, me: int, depth: int | None) -> float:
    """Play the greedy policy for every player for ``depth`` rounds (None: to the end) and
    return :func:`evaluate` of the state reached for ``me``."""
    return rollout(state, me, depth)[0]


def rollout(
    state: GameState, me: int, depth: int | None, styles: Sequence[Style] = ()
) -> tuple[float, int]:
    """:func:`rollout_value` and the number of turns the rollout played (its cost); each
    seat plays the greedy policy in its style of ``styles`` (default: the greedy style)."""
    if not styles:
        styles = (GREEDY_STYLE,) * state.num_players
    players = state.num_players
    limit = _MAX_ROLLOUT if depth is None else depth * players
    turns = 0
    plans = PlanKeeper(players)
    last_turn = first_turn = state.turn
    while state.phase is not Phase.GAME_OVER:
        if state.turn != last_turn:
            turns += state.turn - last_turn
            last_turn = state.turn
            if turns >= limit:
                break
        seat = state.current
        situation = Situation.of_state(state, seat, styles[seat])
        phase = state.phase
        plan = None
        if phase is Phase.START or phase is Phase.SECOND_CARD:
            player = state.players[seat]
            plan = plans.plan(situation, (player.tickets, player.stations, player.trains), RESERVE)
            if phase is Phase.START:
                action = start_action_fast(state, situation, plan)
                if action is not None:
                    state = apply_action(state, action)
                    continue
        state = apply_action(state, greedy_ordered(situation, legal_actions(state), plan))
    return evaluate(state, me), state.turn - first_turn


def evaluate(state: GameState, me: int) -> float:
    """The score margin of ``me`` over the best other player, estimating what is not final.

    The base is :func:`~ttr_rules.final_scores` (route points, tickets, stations, the
    European Express). Before the end, each unfinished ticket that a player's plan can still
    connect counts between its loss and its gain by how its remaining cost compares with the
    turns the game probably has left; cards in hand count 0.4 points each.
    """
    scores = final_scores(state)
    if state.phase is Phase.GAME_OVER:
        values = [float(s.total) for s in scores]
    else:
        shortest = min(p.trains for p in state.players)
        turns_left = max(1.0, shortest - state.rules.end_trigger_trains)
        values = []
        for seat, score in enumerate(scores):
            situation = Situation.of_state(state, seat)
            plan = make_plan(situation, situation.tickets, reserve=0)
            points = situation.tables.points
            value = float(score.total)
            hand = state.players[seat].hand.total
            # Tickets share the turns left: the plan's order (best-paying first) decides
            # which ones the remaining turns reach.
            spent = 0.0
            cards = float(hand)
            for ticket, routes, _links in plan.paths:
                need = sum(situation.tables.length[r] for r in routes)
                used = min(cards, need)
                cards -= used
                spent += (need - used) / 2.0 + len(routes)
                ratio = spent / turns_left
                chance = 1.0 if ratio <= 0.5 else max(0.0, 2.0 - 2.0 * ratio)
                value += 2.0 * points[ticket] * chance
            values.append(value + 0.4 * hand)
    mine = values[me]
    return mine - max(v for seat, v in enumerate(values) if seat != me)
