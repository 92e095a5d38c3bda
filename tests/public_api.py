"""The snapshot of the public API: every name in the ``__all__`` of each public module, with its
signature, and every public method and property of each public class (``module.Class.name``),
one line each, in ``tests/data/public_api.txt`` (checked by tests/test_public_api.py; the policy
is docs/versions.md).

Each line starts with the version in which it last changed. After changing a public name, add
a line naming it to CHANGELOG.md under the version being prepared, then regenerate:

    python tests/public_api.py --write

which keeps the version of every unchanged line, gives new and changed lines the version being
prepared (``ttr_rules.__version__``), and keeps a ``removed`` line for each name gone in this
version. It refuses to write while a changed name has no CHANGELOG line. Without ``--write`` it
only reports, with each line that differs (``-`` the snapshot's, ``+`` the library's).
"""

from __future__ import annotations

import enum
import functools
import importlib
import inspect
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "data" / "public_api.txt"
CHANGELOG = ROOT / "CHANGELOG.md"
COMMAND = "python tests/public_api.py --write"

#: The public modules (docs/versions.md lists the same): the package faces, and the RL
#: environments, which are imported by their module name.
PUBLIC_MODULES = (
    "ttr_rules",
    "ttr_rules.agents",
    "ttr_rules.frontend",
    "ttr_rules.maps",
    "ttr_rules.render",
    "ttr_rules.rl",
    "ttr_rules.rl.gymnasium",
    "ttr_rules.rl.openspiel",
    "ttr_rules.rl.pettingzoo",
    "ttr_rules.sim",
    "ttr_rules.testing",
    "ttr_rules.web",
)

_ADDRESS = re.compile(r" at 0x[0-9a-f]+")
_PLAIN = (int, float, str, bool, type(None))


def describe(obj: object) -> str:
    """What a public name stands for, in one line: a signature, an enum's members, a
    constant's value, or a kind of object."""
    if inspect.isclass(obj) and issubclass(obj, enum.Enum):
        members = ", ".join(m.name for m in obj)
        return f"enum {obj.__name__}: {members}"
    if inspect.isclass(obj):
        bases = ", ".join(b.__name__ for b in obj.__bases__ if b is not object)
        return f"class {obj.__name__}{_signature(obj)}" + (f" [{bases}]" if bases else "")
    if inspect.ismodule(obj):
        return "module"
    if callable(obj):
        return f"def {getattr(obj, '__name__', type(obj).__name__)}{_signature(obj)}"
    if isinstance(obj, _PLAIN) or (
        isinstance(obj, tuple | frozenset) and all(isinstance(x, _PLAIN) for x in obj)
    ):
        value = repr(obj)
        return f"= {value}" if len(value) <= 200 else f": {type(obj).__name__}"
    return f": {type(obj).__name__}"


def _signature(obj: object) -> str:
    """The signature with plain defaults as written and any other default as its type (a
    ``Rules()`` default would otherwise change with every new field of ``Rules``)."""
    try:
        signature = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "(...)"
    parameters = [
        p.replace(default=_Shown(p.default)) if p.default is not p.empty else p
        for p in signature.parameters.values()
    ]
    return _ADDRESS.sub("", str(signature.replace(parameters=parameters)))


class _Shown:
    """A default value as the snapshot shows it."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        value = self.value
        if isinstance(value, (*_PLAIN, enum.Enum)):
            return repr(value)
        if isinstance(value, tuple | frozenset) and all(isinstance(x, _PLAIN) for x in value):
            return repr(value)
        return f"<{type(value).__name__}>"


def members(cls: type) -> Iterator[tuple[str, str]]:
    """``(name, description)`` of each public method and property of a public class: those
    whose names start with a letter, defined in the class or in a base class of this library
    (what ``object``, ``Exception``, ``tuple`` or a framework's base class gives is theirs);
    fields are in the class's signature already, and an enum's members in its line."""
    skipped = set(cls.__members__) if issubclass(cls, enum.Enum) else set()
    for name in sorted(dir(cls)):
        if name.startswith("_") or name in skipped:
            continue
        owner = next((base for base in cls.__mro__ if name in vars(base)), None)
        if owner is None or not owner.__module__.startswith("ttr_rules"):
            continue
        described = _member(cls, name, vars(owner)[name])
        if described is not None:
            yield name, described


def _member(cls: type, name: str, raw: object) -> str | None:
    """A method or property as the snapshot shows it; ``None`` for anything else (a field,
    a constant)."""
    if isinstance(raw, staticmethod):
        return f"staticmethod {name}{_signature(raw.__func__)}"
    if isinstance(raw, classmethod):
        return f"classmethod {name}{_signature(getattr(cls, name))}"
    if isinstance(raw, property | functools.cached_property):
        getter = raw.fget if isinstance(raw, property) else raw.func
        returns = inspect.signature(getter).return_annotation if getter else inspect.Parameter.empty
        shown = "" if returns is inspect.Parameter.empty else f" -> {_annotation(returns)}"
        return f"property {name}{shown}"
    if inspect.isfunction(raw):
        return f"def {name}{_signature(raw)}"
    return None


def _annotation(annotation: object) -> str:
    return repr(annotation) if isinstance(annotation, str) else inspect.formatannotation(annotation)


def current() -> dict[str, str]:
    """``{module.name: description}`` of every public name, and ``{module.Class.name:
    description}`` of every public method and property of a public class, as the library is
    now."""
    found: dict[str, str] = {}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            found[f"{module_name}.{name}"] = describe(obj)
            if inspect.isclass(obj):
                for member, description in members(obj):
                    found[f"{module_name}.{name}.{member}"] = description
    return found


def read(path: Path = SNAPSHOT) -> dict[str, tuple[str, str]]:
    """``{module.name: (version, description)}`` from the snapshot file (``removed`` as the
    description of a name removed in that version)."""
    entries: dict[str, tuple[str, str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            version, name, description = line.split(" ", 2)
            entries[name] = (version, description)
    return entries


def updated(
    old: dict[str, tuple[str, str]], now: dict[str, str], version: str
) -> dict[str, tuple[str, str]]:
    """The snapshot's entries after a change: unchanged lines keep their version, new and
    changed ones get ``version``, removed ones become ``removed`` in ``version`` (and lines
    removed in an earlier version are dropped)."""
    entries: dict[str, tuple[str, str]] = {}
    for name, description in now.items():
        before = old.get(name)
        same = before is not None and before[1] == description
        entries[name] = (before[0] if same and before else version, description)
    for name, (since, description) in old.items():
        if name in now:
            continue
        if description != "removed":
            entries[name] = (version, "removed")
        elif since == version:
            entries[name] = (since, description)
    return entries


def render(entries: dict[str, tuple[str, str]]) -> str:
    header = (
        "# The public API of ttr-rules: VERSION NAME DESCRIPTION, one line per public name.\n"
        f"# Generated by `{COMMAND}`; see docs/versions.md. Do not edit by hand.\n"
    )
    lines = (f"{v} {name} {d}" for name, (v, d) in sorted(entries.items()))
    return header + "\n".join(lines) + "\n"


def changelog_section(version: str, text: str | None = None) -> str:
    """The text of CHANGELOG.md's section for ``version`` (empty when there is none)."""
    text = CHANGELOG.read_text(encoding="utf-8") if text is None else text
    match = re.search(rf"^## \[{re.escape(version)}\][^\n]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return match.group(1) if match else ""


def unrecorded(entries: dict[str, tuple[str, str]], version: str, section: str) -> list[str]:
    """The names whose line changed in ``version`` and that the changelog section of that
    version does not name (in a code span: `choose_tickets`, `frontend.choose_tickets(...)`; a
    method or property with its class: `GameState.routes_of`)."""
    spans = " ".join(re.findall(r"`([^`]*)`", section))
    missing = []
    for name, (since, _) in sorted(entries.items()):
        short = re.escape(short_name(name, entries))
        if since == version and not re.search(rf"(?<![\w]){short}(?![\w])", spans):
            missing.append(name)
    return missing


def short_name(name: str, entries: dict[str, tuple[str, str]]) -> str:
    """How the changelog may name a line: a module's name alone (``choose_tickets``), a
    class's method or property with its class (``GameState.routes_of``)."""
    owner, _, short = name.rpartition(".")
    if owner in entries and entries[owner][1] != "module":
        return f"{owner.rpartition('.')[2]}.{short}"
    return short


def problems(version: str) -> Iterator[str]:
    """Why the snapshot does not pass: names that differ from it, names changed without a
    changelog line."""
    old = read()
    now = current()
    fresh = updated(old, now, version)
    changed = sorted(n for n in fresh if fresh[n] != old.get(n))
    if changed:
        yield (
            f"the public API differs from {SNAPSHOT.relative_to(ROOT)} in "
            f"{', '.join(changed)}: add a line naming each to CHANGELOG.md under [{version}], "
            f"then run `{COMMAND}`"
        )
    missing = unrecorded(fresh, version, changelog_section(version))
    if missing:
        yield (
            f"CHANGELOG.md's section [{version}] names no change of {', '.join(missing)}: add a "
            "line for each (in a code span, e.g. `ttr_rules.frontend.choose_tickets`)"
        )


def changes(old: dict[str, tuple[str, str]], now: dict[str, str]) -> Iterator[str]:
    """The lines that differ, as ``- name old`` and ``+ name new``."""
    for name in sorted(set(old) | set(now)):
        before = old.get(name, ("", "removed"))[1]
        before = "(none)" if before == "removed" else before
        after = now.get(name, "(none)")
        if before != after:
            yield f"- {name} {before}\n+ {name} {after}"


def main(argv: list[str]) -> int:
    import ttr_rules

    version = ttr_rules.__version__
    if argv != ["--write"]:
        found = list(problems(version))
        print("\n".join(found) or "the snapshot of the public API is up to date")
        for line in changes(read(), current()):
            print(line)
        return 1 if found else 0
    entries = updated(read(), current(), version)
    missing = unrecorded(entries, version, changelog_section(version))
    if missing:
        print(f"not written: CHANGELOG.md's [{version}] names no change of {', '.join(missing)}")
        return 1
    SNAPSHOT.write_text(render(entries), encoding="utf-8")
    print(f"wrote {SNAPSHOT.relative_to(ROOT)} ({len(entries)} names)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
