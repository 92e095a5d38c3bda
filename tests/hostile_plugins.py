"""Fake distributions of hostile plugins, one per plugin kind the library reads (the
entry-point groups ``ttr_rules.maps`` and ``ttr_rules.agents``): plugins that raise, return
garbage, call ``sys.exit()``, load slowly, cannot be built, or fail once a game runs.

:func:`install` writes them under a folder to put on ``sys.path`` (in this process, or as
``PYTHONPATH`` of a child); the tests of tests/test_plugins_hostile.py and the web and command
line suites use them."""

from __future__ import annotations

from pathlib import Path

from map_samples import small_map_data, write_map

#: Map plugins: entry point name -> (value, what it does).
MAPS: dict[str, tuple[str, str]] = {
    "calm": ("hostile_maps:calm", "works: a small valid map"),
    "raising": ("hostile_maps:raising", "its load() raises RuntimeError"),
    "importfails": ("hostile_import_fails:load", "its module raises at import"),
    "garbage": ("hostile_maps:garbage", "returns an object that is no map"),
    "badtype": ("hostile_maps:badtype", "returns a GameMap whose fields have the wrong types"),
    "strfails": ("hostile_maps:strfails", "raises an exception whose str() raises"),
    "exiting": ("hostile_maps:exiting", "calls sys.exit(3)"),
    "interrupt": ("hostile_maps:interrupt", "raises KeyboardInterrupt itself"),
    "baseexc": ("hostile_maps:baseexc", "raises a BaseException subclass"),
    "devzero": ("hostile_maps:devzero", "names /dev/zero as its map file"),
    "slow": ("hostile_slow_map:load", "its module sleeps at import (past the bound)"),
    "badref": ("not a valid reference!", "an entry point value that names nothing"),
    "esc\x1b[2jname": ("hostile_maps:raising", "a name with a terminal escape in it"),
}

#: Agent plugins: entry point name -> (value, what it does).
AGENTS: dict[str, tuple[str, str]] = {
    "crashing": ("hostile_agents:Crashing", "act() raises RuntimeError"),
    "illegal": ("hostile_agents:Illegal", "act() returns an illegal action"),
    "exiting": ("hostile_agents:Exiting", "act() calls sys.exit(3)"),
    "unpicklable": ("hostile_agents:Unpicklable", "act() raises an error that does not unpickle"),
    "aborting": ("hostile_agents:Aborting", "act() ends its process with os._exit(1)"),
    "unbuildable": ("hostile_agents:unbuildable", "its factory raises"),
    "exit-on-build": ("hostile_agents:exit_on_build", "its factory calls sys.exit(2)"),
    "noimport": ("no_such_module_xyz:Agent", "names a module that does not exist"),
    "slowbuild": ("hostile_slow_agent:build", "its factory waits (past the bound)"),
}

_MAPS_MODULE = """
import sys
from pathlib import Path
from ttr_rules.maps import GameMap, load_map_file

def calm():
    return str(Path(__file__).with_name("calm.json"))

def raising():
    raise RuntimeError("the plugin is broken")

def garbage():
    return object()

def badtype():
    good = load_map_file(calm())
    fake = object.__new__(GameMap)
    for name in ("name", "version", "cities", "routes", "tickets", "rules"):
        object.__setattr__(fake, name, getattr(good, name))
    object.__setattr__(fake, "routes", 42)
    return fake

class _Unprintable(Exception):
    def __str__(self):
        raise ValueError("no words")

def strfails():
    raise _Unprintable()

def exiting():
    sys.exit(3)

def interrupt():
    raise KeyboardInterrupt

class _Odd(BaseException):
    pass

def baseexc():
    raise _Odd("odd")

def devzero():
    return "/dev/zero"
"""

_SLOW_MODULE = """
import threading
#: The test sets it when done, so that the thread left behind ends.
release = threading.Event()
release.wait(120)
def load():
    raise RuntimeError("too late")
"""

_AGENTS_MODULE = """
import sys
from ttr_rules import DrawFaceUp
from ttr_rules.agents import RandomAgent

class Crashing(RandomAgent):
    name = "crashing"
    def act(self, view):
        raise RuntimeError("the agent is broken")

class Illegal(RandomAgent):
    name = "illegal"
    def act(self, view):
        return DrawFaceUp(9)

class Exiting(RandomAgent):
    name = "exiting"
    def act(self, view):
        sys.exit(3)

class Aborting(RandomAgent):
    name = "aborting"
    def act(self, view):
        import os
        os._exit(1)

class _NoPickle(Exception):
    def __init__(self, a, b):
        super().__init__(f"{a} {b}")

class Unpicklable(RandomAgent):
    name = "unpicklable"
    def act(self, view):
        raise _NoPickle(1, 2)

def unbuildable(seed=0):
    raise RuntimeError("cannot build")

def exit_on_build(seed=0):
    sys.exit(2)
"""

_SLOW_AGENT_MODULE = """
import threading
#: The test sets it when done, so that the thread left behind ends.
release = threading.Event()
def build(seed=0):
    release.wait(120)
    raise RuntimeError("too late")
"""

#: The modules above, by file name.
MODULES = {
    "hostile_maps.py": _MAPS_MODULE,
    "hostile_import_fails.py": "raise ImportError('this plugin does not import')\n",
    "hostile_slow_map.py": _SLOW_MODULE,
    "hostile_agents.py": _AGENTS_MODULE,
    "hostile_slow_agent.py": _SLOW_AGENT_MODULE,
}

#: The entry-point groups of the plugins above.
GROUPS = {"ttr_rules.maps": MAPS, "ttr_rules.agents": AGENTS}


def install(folder: Path, *, slow: bool = True) -> Path:
    """Write the fake distribution ``hostile-plugins`` into ``folder`` (created) and return it:
    put it on ``sys.path`` (or ``PYTHONPATH``) to install the plugins. ``slow=False`` leaves
    the slow plugins out (a process that does not shorten the bound would wait for them)."""
    info = folder / "hostile_plugins-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile-plugins\nVersion: 1.0\n")
    sections = []
    for group, plugins in GROUPS.items():
        lines = "".join(
            f"{name} = {value}\n"
            for name, (value, _) in plugins.items()
            if slow or not value.startswith("hostile_slow_")
        )
        sections.append(f"[{group}]\n{lines}")
    (info / "entry_points.txt").write_text("\n".join(sections))
    for name, source in MODULES.items():
        (folder / name).write_text(source)
    write_map(folder / "calm.json", small_map_data("calm"))
    return folder


def module_names() -> list[str]:
    """The modules :func:`install` writes (to forget them from ``sys.modules`` afterwards)."""
    return [name.removesuffix(".py") for name in MODULES]
