"""What may sit in an opponent's seat of the single-agent environment (issue 48), and how each
is rebuilt for every game.

An opponent is one of:

* an agent's name with options, as the command line writes it (``"greedy"``,
  ``"mcts:iterations=200"``; :meth:`ttr_rules.sim.AgentSpec.parse`), or an
  :class:`~ttr_rules.sim.AgentSpec`: made by :func:`~ttr_rules.agents.make_agent`;
* an agent factory: a class, or any callable with a ``seed`` parameter, called as
  ``factory(seed=seed)`` (``GreedyAgent``, ``functools.partial(MctsAgent, iterations=50)``);
  it returns an :class:`~ttr_rules.agents.Agent` or a policy;
* a policy: any other callable ``(observation, mask) -> index``, given its own seat's
  observation (in the environment's form) and int8 mask, used as it is (a policy that draws
  random numbers should be given as a factory, so that it is seeded);
* an :class:`~ttr_rules.agents.Agent` object: a fresh copy of it as it was given plays each
  game, so every game starts it alike;
* a :class:`PolicyOpponent`: a saved stable-baselines3 model or an importable callable, which
  pickles (so it crosses into ``SubprocVecEnv`` workers) and loads in the worker.

A mapping ``{opponent: weight}`` is a pool: each seat draws one of its opponents at every reset,
with probability proportional to its weight.

Every opponent is rebuilt at each reset and seeded from the game's seed and its seat
(:func:`build_opponents`), and a pool is drawn from the game's seed too, so the same seed gives
the same game.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import math
import os
import random
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeAlias

import numpy as np
from attrs import field, frozen
from numpy.typing import NDArray

from ttr_rules.agents import Agent, make_agent
from ttr_rules.sim import AgentSpec

__all__ = [
    "Choice",
    "Opponent",
    "Policy",
    "PolicyOpponent",
    "build_opponent",
    "build_opponents",
    "check_choices",
]

#: A policy: its seat's observation and int8 mask to an action index.
Policy: TypeAlias = Callable[[NDArray[np.float32], NDArray[np.int8]], Any]
#: What may sit in an opponent's seat (see the module documentation).
Opponent: TypeAlias = "str | AgentSpec | Agent | PolicyOpponent | Callable[..., Any]"
#: An opponent, or a pool of them with weights.
Choice: TypeAlias = "Opponent | Mapping[Any, float]"

#: ``module:name``, both dotted Python names.
_IMPORTABLE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")

_KINDS = (
    "an opponent is an agent name (with options, as 'mcts:iterations=200'), an AgentSpec, "
    "an Agent, an agent factory, a callable (observation, mask) -> action index or a "
    "PolicyOpponent"
)


def _importable(text: str) -> bool:
    return _IMPORTABLE.fullmatch(text) is not None


def _import(text: str) -> Any:
    """The object that ``module:name`` names."""
    module_name, _, attribute = text.partition(":")
    found: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


def _source(value: str | os.PathLike[str]) -> str:
    """A callable's ``module:name`` as given, or a saved model's path made absolute (so that a
    worker started elsewhere finds it); :class:`FileNotFoundError` for a model that is not
    there (stable-baselines3 saves ``name`` as ``name.zip``: either is found)."""
    if isinstance(value, str) and _importable(value):
        return value
    if not isinstance(value, str | os.PathLike):
        raise TypeError(
            "a PolicyOpponent wraps a saved model's path or a callable given as 'module:name'"
        )
    path = Path(value)
    for candidate in (path, path.with_name(path.name + ".zip")):
        if candidate.is_file():
            return str(candidate.resolve())
    raise FileNotFoundError(f"no saved model at {os.fspath(value)}")


def _algorithm(value: str) -> str:
    if not isinstance(value, str) or not _importable(value):
        raise ValueError(
            f"algorithm must name a class as 'module:Class' (such as "
            f"'sb3_contrib:MaskablePPO'), got {value!r}"
        )
    return value


def _flag(value: bool) -> bool:
    if not isinstance(value, bool):
        raise TypeError("deterministic must be True or False")
    return value


@frozen
class PolicyOpponent:
    """A frozen policy as an opponent that pickles: ``source`` is a saved stable-baselines3
    model's path (``model.save(path)``) or an importable callable as ``"module:name"``
    (an agent factory or a policy, as in the module documentation).

    Only the description travels between processes: the model is loaded by
    ``algorithm`` (``"module:Class"``, MaskablePPO by default) the first time a process plays
    it, and kept for that process's later games (loaded again if the file changes); torch and
    stable-baselines3 are imported only then. A model plays the most probable legal action
    (``deterministic=True``) or draws among the legal actions by the policy's probabilities
    with a generator seeded for each game.

    >>> import pickle
    >>> opponent = PolicyOpponent("ttr_rules.agents:GreedyAgent")
    >>> pickle.loads(pickle.dumps(opponent)) == opponent
    True
    >>> PolicyOpponent("no/such/model.zip")
    Traceback (most recent call last):
    ...
    FileNotFoundError: no saved model at no/such/model.zip
    """

    source: str = field(converter=_source)
    algorithm: str = field(default="sb3_contrib:MaskablePPO", converter=_algorithm)
    deterministic: bool = field(default=True, converter=_flag)

    @property
    def is_model(self) -> bool:
        """Whether ``source`` is a saved model (else an importable callable)."""
        return not _importable(self.source)

    def build(self, seed: int) -> Agent | Policy:
        """What plays one game: the model's policy, or what the named callable builds (as any
        opponent: :func:`build_opponent`)."""
        if self.is_model:
            policy = _ModelPolicy(_load_model(self), self.deterministic, seed)
            policy.__name__ = f"the model {Path(self.source).name}"  # as messages name it
            return policy
        return build_opponent(_import(self.source), seed)


#: Models loaded in this process: (opponent, file's mtime and size) → model.
_MODELS: dict[tuple[PolicyOpponent, int, int], Any] = {}
#: At most this many models are kept (self-play keeps many snapshots).
_MODELS_KEPT = 16


def _load_model(opponent: PolicyOpponent) -> Any:
    stat = os.stat(opponent.source)
    key = (opponent, stat.st_mtime_ns, stat.st_size)
    model = _MODELS.get(key)
    if model is None:
        algorithm = _import(opponent.algorithm)
        model = algorithm.load(opponent.source, device="cpu")
        while len(_MODELS) >= _MODELS_KEPT:
            del _MODELS[next(iter(_MODELS))]
        _MODELS[key] = model
    return model


class _ModelPolicy:
    """A stable-baselines3 model's policy over the legal actions: its action probabilities
    with the illegal ones removed (what a masked policy's softmax gives)."""

    def __init__(self, model: Any, deterministic: bool, seed: int) -> None:
        self.__name__ = "the model"
        self.model = model
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: NDArray[np.float32], mask: NDArray[np.int8]) -> int:
        import torch

        policy = self.model.policy
        with torch.no_grad():
            tensor, _ = policy.obs_to_tensor(observation)
            probabilities = policy.get_distribution(tensor).distribution.probs[0].cpu().numpy()
        legal = mask.astype(bool)
        weights = np.where(legal, probabilities.astype(np.float64), 0.0)
        if self.deterministic:
            return int(np.argmax(np.where(legal, weights, -1.0)))
        total = weights.sum()
        if not total > 0:  # every legal action's probability underflowed
            weights, total = legal.astype(np.float64), float(legal.sum())
        return int(self.rng.choice(weights.size, p=weights / total))


def _is_factory(candidate: Any) -> bool:
    """A class, or a callable that takes a ``seed`` keyword."""
    if isinstance(candidate, type):
        return True
    try:
        parameters = inspect.signature(candidate).parameters
    except (TypeError, ValueError):
        return False
    seed = parameters.get("seed")
    return seed is not None and seed.kind in (seed.POSITIONAL_OR_KEYWORD, seed.KEYWORD_ONLY)


def _check_opponent(who: Any) -> Any:
    """``who`` as it is kept: a name parsed into an :class:`AgentSpec` (and made once, so that a
    wrong name or option is refused now), an agent object copied as given."""
    if isinstance(who, str):
        spec = AgentSpec.parse(who)
        make_agent(spec.name, seed=0, **dict(spec.options))
        return spec
    if isinstance(who, AgentSpec | PolicyOpponent | type):
        return who
    if isinstance(who, Agent):  # (an agent class passes this check too: it is a factory)
        return _AgentTemplate(copy.deepcopy(who))
    if callable(who):
        return who
    raise TypeError(_KINDS)


class _AgentTemplate:
    """An agent object as it was given; each game plays a fresh copy."""

    __slots__ = ("agent",)

    def __init__(self, agent: Agent) -> None:
        self.agent = agent


def build_opponent(who: Any, seed: int) -> Agent | Policy:
    """The agent or policy that plays one game for the opponent ``who``, seeded with ``seed``.

    >>> build_opponent("greedy:ticket_weight=2", seed=3).name
    'greedy'
    >>> from ttr_rules.agents import RandomAgent
    >>> build_opponent(RandomAgent, seed=5).seed
    5
    """
    if isinstance(who, str):
        who = AgentSpec.parse(who)
    if isinstance(who, AgentSpec):
        return make_agent(who.name, seed=seed, **dict(who.options))
    if isinstance(who, PolicyOpponent):
        return who.build(seed)
    if isinstance(who, _AgentTemplate):
        return copy.deepcopy(who.agent)
    if isinstance(who, Agent) and not isinstance(who, type):
        return copy.deepcopy(who)
    if _is_factory(who):
        built = who(seed=seed)
        if not (isinstance(built, Agent) or callable(built)):
            raise TypeError(
                "an agent factory must return an Agent or a callable (observation, mask) -> "
                f"action index, not a {type(built).__name__}"
            )
        return built  # type: ignore[no-any-return]
    if callable(who):
        return who  # type: ignore[no-any-return]
    raise TypeError(_KINDS)


class _Pool(NamedTuple):
    """A pool as it is kept: its opponents and their weights."""

    opponents: tuple[Any, ...]
    weights: tuple[float, ...]


def _check_pool(pool: Mapping[Any, Any]) -> _Pool:
    if not pool:
        raise ValueError("a pool of opponents needs at least one opponent")
    weights: list[float] = []
    for weight in pool.values():
        if isinstance(weight, bool) or not isinstance(weight, int | float):
            raise TypeError("a pool's weights are numbers")
        if not math.isfinite(weight) or weight < 0:
            raise ValueError(f"a pool's weights are finite and not negative, got {weight}")
        weights.append(float(weight))
    if not sum(weights) > 0:
        raise ValueError("a pool's weights must not all be 0")
    return _Pool(tuple(_check_opponent(who) for who in pool), tuple(weights))


def check_choices(choices: Any, others: int) -> list[Any]:
    """One checked choice per other seat (an opponent, or a pool with its ``opponents`` and
    ``weights``): ``choices`` is one choice for every other seat, or a sequence of one per
    other seat in seat order. :class:`TypeError` or :class:`ValueError` for anything else,
    and for a name or option that no agent has.

    >>> check_choices({"random": 1, "greedy": 3}, 1)[0].weights
    (1.0, 3.0)
    >>> check_choices(["random"], 2)
    Traceback (most recent call last):
    ...
    ValueError: need 2 opponents, got 1
    """
    if isinstance(choices, str | Mapping | AgentSpec | PolicyOpponent | Agent | type) or callable(
        choices
    ):
        given: list[Any] = [choices] * others
    elif isinstance(choices, Sequence):
        given = list(choices)
    else:
        raise TypeError(_KINDS)
    if len(given) != others:
        raise ValueError(f"need {others} opponent{'s' if others != 1 else ''}, got {len(given)}")
    return [_check_pool(c) if isinstance(c, Mapping) else _check_opponent(c) for c in given]


def build_opponents(checked: Sequence[Any], game: int) -> list[Agent | Policy]:
    """Each seat's opponent for the game of seed ``game``: drawn from its pool (a generator
    seeded by the game) and built with the seed ``game * 7919 + i`` for the ``i``-th other
    seat."""
    draw = random.Random(f"opponents of game {game}")
    built: list[Agent | Policy] = []
    for i, choice in enumerate(checked):
        if isinstance(choice, _Pool):
            choice = draw.choices(choice.opponents, choice.weights)[0]
        built.append(build_opponent(choice, game * 7919 + i))
    return built
