"""What the environments share: rewards at the end, rendering, seeding."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ttr_rules import GameState, final_scores, winners

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["RewardKind", "render_state", "terminal_rewards"]

RewardKind = Literal["win", "score"]
REWARDS: tuple[str, ...] = ("win", "score")


def check_reward(reward: str) -> RewardKind:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    return reward  # type: ignore[return-value]


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


def game_seed(seed: int | None, seeder: random.Random) -> tuple[int, random.Random]:
    """``reset(seed=s)`` plays ``new_game(seed=s)`` and reseeds the sequence that later
    ``reset()`` calls draw their games from; ``reset()`` draws the next seed."""
    if seed is not None:
        return int(seed), random.Random(seed)
    return seeder.getrandbits(63), seeder


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
