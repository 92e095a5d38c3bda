"""What the environments share: rewards at the end, rendering, seeding."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np

from ttr_rules import GameMap, GameState, Rules, final_scores, load_map, winners

from .observation import (
    ObservationForm,
    ObservationLayout,
    check_form,
    observation_bounds,
    observation_layout,
)
from .space import ActionSpace

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["EnvSetup", "RewardKind", "env_setup", "render_state", "terminal_rewards"]

RewardKind = Literal["win", "score"]
REWARDS: tuple[str, ...] = ("win", "score")


def check_reward(reward: str) -> RewardKind:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    return reward  # type: ignore[return-value]


class EnvSetup(NamedTuple):
    """What the PettingZoo and Gymnasium environments build from their common arguments."""

    game_map: GameMap
    rules: Rules
    space: ActionSpace
    layout: ObservationLayout
    reward: RewardKind
    observation: ObservationForm
    #: The observation ``Box``'s bounds in that form.
    low: NDArray[np.float32]
    high: NDArray[np.float32]
    render_mode: str | None
    illegal_reward: float | None


def env_setup(
    game_map: str | GameMap,
    players: int,
    rules: Rules | None,
    reward: str,
    observation: str,
    render_mode: str | None,
    illegal_reward: float | None,
) -> EnvSetup:
    """The environments' common arguments checked (:class:`ValueError` or :class:`TypeError`
    naming the one at fault) and what they build: the map, its action space and observation
    layout for ``players``.

    >>> setup = env_setup("usa", 3, None, "win", "scaled", None, -1.0)
    >>> setup.space.size == setup.layout.size, float(setup.high.max())
    (False, 1.0)
    >>> env_setup("europe", 2, None, "points", "scaled", None, -1.0)
    Traceback (most recent call last):
    ...
    ValueError: reward must be one of win, score, got 'points'
    """
    chosen = game_map if isinstance(game_map, GameMap) else load_map(game_map)
    rules = rules if rules is not None else chosen.rules
    modes = render_modes()
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be one of {', '.join(modes)}, not {render_mode!r}")
    if illegal_reward is not None and (
        isinstance(illegal_reward, bool)
        or not isinstance(illegal_reward, int | float)
        or not math.isfinite(illegal_reward)
    ):
        raise TypeError("illegal_reward must be a finite number or None")
    kind, form = check_reward(reward), check_form(observation)
    space = ActionSpace(chosen, players, rules=rules)
    layout = observation_layout(chosen, players, rules)
    low, high = observation_bounds(layout, form)
    return EnvSetup(
        chosen, rules, space, layout, kind, form, low, high, render_mode, illegal_reward
    )


def terminal_rewards(state: GameState, kind: RewardKind) -> list[float]:
    """Each seat's reward at the end of the game.

    ``"win"``: +1 for each winner (after the tie-breakers, E77), −1 for every other player,
    0 for everyone when all players tie. ``"score"``: the seat's final score minus the mean of
    the other players' scores. Both sum to zero over the seats when there is one winner
    (``"score"`` always does).

    >>> from ttr_rules import new_game
    >>> terminal_rewards(new_game("europe", players=2), "win")  # provisional, before the end
    [0.0, 0.0]
    """
    n = state.num_players
    if kind == "score":
        totals = [s.total for s in final_scores(state)]
        whole = sum(totals)
        return [float(t - (whole - t) / (n - 1)) for t in totals]
    best = set(winners(state))
    if len(best) == n:
        return [0.0] * n
    return [1.0 if seat in best else -1.0 for seat in range(n)]


def action_index(action: Any) -> int:
    """An action index from an int or a numpy integer (or a one-element integer array, as
    vector environments and policies hand them over). :class:`TypeError` for anything else: a
    float, a string or a bool is not an index.

    >>> import numpy as np
    >>> action_index(np.int64(3)), action_index(np.array([4]))
    (3, 4)
    >>> action_index(2.7)
    Traceback (most recent call last):
    ...
    TypeError: an action is a whole-number index of the action space, not 2.7
    """
    if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
        action = action.reshape(()).item()
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        shown = (
            action
            if isinstance(action, int | float)
            else "text"
            if isinstance(action, str)
            else f"a {type(action).__name__}"
        )
        raise TypeError(f"an action is a whole-number index of the action space, not {shown}")
    return int(action)


def game_seed(seed: Any, seeder: random.Random) -> tuple[int, random.Random]:
    """``reset(seed=s)`` plays ``new_game(seed=s)`` and reseeds the sequence that later
    ``reset()`` calls draw their games from; ``reset()`` draws the next seed.

    A seed is read as ``new_game`` reads it: a whole number (a numpy integer too), never a
    bool or a float, else :class:`ValueError`.

    >>> import numpy as np
    >>> game_seed(np.int64(5), random.Random())[0]
    5
    >>> game_seed(1.5, random.Random())
    Traceback (most recent call last):
    ...
    ValueError: seed must be an integer, got float
    """
    if seed is None:
        return seeder.getrandbits(63), seeder
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, int | np.integer):
        raise ValueError(f"seed must be an integer, got {type(seed).__name__}")
    return int(seed), random.Random(int(seed))


def render_modes() -> list[str]:
    """``"ansi"`` and ``"svg"`` (drawn by :mod:`ttr_rules.render`, which needs no third-party
    library), and ``"rgb_array"`` when cairosvg is installed (it is in the ``rl`` extra)."""
    from importlib.util import find_spec

    return ["ansi", "svg", *(["rgb_array"] if find_spec("cairosvg") is not None else [])]


def render_state(state: GameState, mode: str | None, player: int | None = None) -> Any:
    """``"ansi"``: the text of :func:`ttr_rules.render.text`; ``"svg"``: the SVG document of
    :func:`ttr_rules.render.svg`; ``"rgb_array"``: that SVG rasterised by cairosvg (an
    ``(H, W, 3)`` uint8 array). ``player`` shows that player's view instead of the whole state."""
    from ttr_rules import observe, render

    subject = state if player is None else observe(state, player)
    if mode == "ansi":
        return render.text(subject)
    if mode in ("svg", "rgb_array"):
        document = render.svg(subject)
        return document if mode == "svg" else _rasterise(document)
    raise ValueError(f"unknown render mode {mode!r}")


def _rasterise(document: str) -> NDArray[Any]:
    import io

    import cairosvg
    import numpy as np
    from PIL import Image

    png = cairosvg.svg2png(bytestring=document.encode())
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"))
