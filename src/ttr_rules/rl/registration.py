"""Gymnasium ids for every installed map, ``ttr_rules/<Map>-v0``, registered when
:mod:`ttr_rules.rl.gymnasium` is imported.

Gymnasium 1.x no longer loads plugins through the ``gymnasium.envs`` entry point, so a process
finds the ids once it imports that module: ``gymnasium.make("ttr_rules.rl.gymnasium:
ttr_rules/USA-v0")`` imports it on demand, and subprocess vector environments started by a
script that imports it at the top (forkserver and spawn children import the script's module
first) find them too.

>>> env_id("europe"), env_id("usa"), env_id("nordic")
('ttr_rules/Europe-v0', 'ttr_rules/USA-v0', 'ttr_rules/Nordic-v0')

>>> env_id("usa-big-cities"), env_id("europe-1912-mega")
('ttr_rules/USABigCities-v0', 'ttr_rules/Europe1912Mega-v0')
"""

from __future__ import annotations

from ttr_rules.maps import playable_maps

__all__ = ["NAMESPACE", "env_id", "register_envs"]

#: The namespace of the ids.
NAMESPACE = "ttr_rules"


def env_id(map_name: str) -> str:
    """The Gymnasium id of an installed map: each word of its name capitalised, and a first
    word of three letters or fewer in capitals (the abbreviation of a board, such as ``usa``
    or ``uk``; later short words, such as ``big``, are words)."""
    words = [w for w in map_name.replace("-", "_").split("_") if w]
    title = "".join(
        w.upper() if i == 0 and len(w) <= 3 else w.capitalize() for i, w in enumerate(words)
    )
    return f"{NAMESPACE}/{title}-v0"


def register_envs() -> None:
    """Register ``ttr_rules/<Map>-v0`` for every installed map that loads (a broken plugin gets
    no id; a second call changes nothing)."""
    from gymnasium.envs.registration import register, registry

    for name in playable_maps():
        ident = env_id(name)
        if ident not in registry:
            register(
                id=ident,
                entry_point="ttr_rules.rl.gymnasium:TicketToRideEnv",
                kwargs={"map": name},
            )
