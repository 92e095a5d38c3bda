"""Map plugin discovery and loading, with fake distributions on a temporary sys.path entry."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from map_samples import small_map_data, write_map

from ttr_rules.errors import MapConflictError, MapError, MapLoadError, MapNotFoundError
from ttr_rules.maps import (
    available_maps,
    broken_maps,
    clear_cache,
    discover,
    load_map,
    playable_maps,
)

#: Writes a fake distribution: (dist name, {entry point name: value}, {module name: source}).
MakeDist = Callable[[str, dict[str, str], dict[str, str]], Path]


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def make_dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDist]:
    """Install fake distributions into a temporary directory put on ``sys.path``."""
    monkeypatch.syspath_prepend(str(tmp_path))
    modules: list[str] = []

    def make(dist: str, entry_points: dict[str, str], sources: dict[str, str]) -> Path:
        info = tmp_path / f"{dist.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8"
        )
        lines = [f"{name} = {value}" for name, value in entry_points.items()]
        (info / "entry_points.txt").write_text(
            "[ttr_rules.maps]\n" + "\n".join(lines) + "\n", encoding="utf-8"
        )
        for module, source in sources.items():
            (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
            modules.append(module)
        return tmp_path

    yield make
    for module in modules:
        sys.modules.pop(module, None)


def _toy_module(tmp: Path, name: str = "toy", file: str = "toy.json") -> str:
    """Source of a plugin module whose ``load()`` returns the path of a map file."""
    write_map(tmp / file, small_map_data(name))
    return (
        "from pathlib import Path\n"
        f"def load():\n    return str(Path(__file__).with_name({file!r}))\n"
    )


def test_europe_is_installed() -> None:
    assert "europe" in available_maps()
    assert load_map("europe").name == "europe"


def test_fake_distribution_provides_a_second_map(make_dist: MakeDist, tmp_path: Path) -> None:
    before = set(available_maps())
    make_dist("fake-toy-maps", {"Toy": "fake_toy:load"}, {"fake_toy": _toy_module(tmp_path)})
    names = available_maps()
    assert set(names) == before | {"toy"} and list(names) == sorted(names)
    assert "fake_toy" not in sys.modules  # discovery reads metadata only
    toy = load_map("toy")
    assert (toy.name, len(toy.cities), len(toy.routes)) == ("toy", 4, 5)
    assert load_map("TOY") is toy  # case-insensitive and cached
    assert discover()["toy"][0].distribution == "fake-toy-maps"


def test_plugin_may_provide_a_game_map_object(make_dist: MakeDist, tmp_path: Path) -> None:
    write_map(tmp_path / "inline.json", small_map_data("inline"))
    source = (
        "from pathlib import Path\n"
        "from ttr_rules.maps import load_map_file\n"
        "MAP = load_map_file(Path(__file__).with_name('inline.json'))\n"
    )
    make_dist("inline-maps", {"inline": "fake_inline:MAP"}, {"fake_inline": source})
    assert load_map("Inline").name == "inline"


def test_plugin_import_error(make_dist: MakeDist) -> None:
    make_dist("broken-maps", {"broken": "fake_broken:load"}, {"fake_broken": "import nope_xyz\n"})
    assert "broken" in available_maps()
    with pytest.raises(MapLoadError) as info:
        load_map("broken")
    message = str(info.value)
    assert "broken-maps" in message
    assert "broken = fake_broken:load" in message
    assert "ModuleNotFoundError" in message


def test_plugin_with_an_invalid_map_file(make_dist: MakeDist, tmp_path: Path) -> None:
    data = small_map_data("shaky")
    data["routes"][0]["length"] = 0
    write_map(tmp_path / "shaky.json", data)
    source = (
        "import os\ndef load():\n    return os.path.join(os.path.dirname(__file__), 'shaky.json')\n"
    )
    make_dist("shaky-maps", {"shaky": "fake_shaky:load"}, {"fake_shaky": source})
    with pytest.raises(MapLoadError) as info:
        load_map("shaky")
    assert "shaky-maps" in str(info.value)
    assert "shaky = fake_shaky:load" in str(info.value)
    assert any("shaky.json: routes[0].length: must be >= 1" in p for p in info.value.problems), (
        info.value.problems
    )


def test_plugin_with_an_invalid_game_map(make_dist: MakeDist) -> None:
    source = (
        "from ttr_rules.maps import GameMap\n"
        "def load():\n"
        "    return GameMap.create('lonely', ['A', 'B', 'C'], [('A', 'B', 0, None)], [])\n"
    )
    make_dist("lonely-maps", {"lonely": "fake_lonely:load"}, {"fake_lonely": source})
    with pytest.raises(MapLoadError) as info:
        load_map("lonely")
    assert "lonely-maps" in str(info.value)
    assert "routes[0].length: must be >= 1" in info.value.problems
    assert any("not connected: C" in p for p in info.value.problems)


def test_plugin_returning_something_else(make_dist: MakeDist) -> None:
    make_dist("odd-maps", {"odd": "fake_odd:load"}, {"fake_odd": "def load():\n    return 42\n"})
    with pytest.raises(MapLoadError, match=r"odd-maps.*gave int"):
        load_map("odd")


def test_plugin_whose_map_has_another_name(make_dist: MakeDist, tmp_path: Path) -> None:
    source = _toy_module(tmp_path, name="other", file="other.json")
    make_dist("alias-maps", {"alias": "fake_alias:load"}, {"fake_alias": source})
    with pytest.raises(MapLoadError, match="named 'other', not 'alias'"):
        load_map("alias")


def test_name_conflict_names_both_distributions(make_dist: MakeDist, tmp_path: Path) -> None:
    make_dist("first-maps", {"toy": "fake_first:load"}, {"fake_first": _toy_module(tmp_path)})
    make_dist("second-maps", {"TOY": "fake_second:load"}, {"fake_second": _toy_module(tmp_path)})
    assert available_maps().count("toy") == 1
    with pytest.raises(MapConflictError) as info:
        load_map("toy")
    assert isinstance(info.value, MapError)
    assert "first-maps" in str(info.value) and "second-maps" in str(info.value)
    assert "fake_first" not in sys.modules and "fake_second" not in sys.modules


def test_unknown_map_lists_the_available_ones(make_dist: MakeDist, tmp_path: Path) -> None:
    make_dist("fake-toy-maps", {"toy": "fake_toy:load"}, {"fake_toy": _toy_module(tmp_path)})
    with pytest.raises(MapNotFoundError) as info:
        load_map("atlantis")
    assert isinstance(info.value, LookupError)
    assert "'atlantis'" in str(info.value)
    assert f"available maps: {', '.join(available_maps())}" in str(info.value)
    assert "toy" in available_maps()


def test_discovery_is_sorted_and_lowercase(make_dist: MakeDist, tmp_path: Path) -> None:
    sources = {"fake_zed": _toy_module(tmp_path, "zed", "zed.json")}
    make_dist("zed-maps", {"ZED": "fake_zed:load", "Aardvark": "fake_zed:load"}, sources)
    names = available_maps()
    assert names == tuple(sorted(names))
    assert {"aardvark", "europe", "zed"} <= set(names)


def _broken_plugins(make_dist: MakeDist, tmp_path: Path) -> None:
    """``gone`` opens a file that is not there; ``shaky`` gives a map with a route of length 0;
    ``nomod`` imports a missing module; ``toy`` works."""
    shaky = small_map_data("shaky")
    shaky["routes"][0]["length"] = 0
    write_map(tmp_path / "shaky.json", shaky)
    sources = {
        "fake_gone": "def load():\n    return open(__file__ + '.missing.json').read()\n",
        "fake_shaky": (f"def load():\n    return {str(tmp_path / 'shaky.json')!r}\n"),
        "fake_nomod": "import no_such_module_xyz\n",
        "fake_toy": _toy_module(tmp_path),
    }
    make_dist(
        "mixed-maps",
        {"gone": "fake_gone:load", "shaky": "fake_shaky:load", "nomod": "fake_nomod:load"},
        {k: v for k, v in sources.items() if k != "fake_toy"},
    )
    make_dist("fake-toy-maps", {"toy": "fake_toy:load"}, {"fake_toy": sources["fake_toy"]})


def test_broken_plugins_are_listed_apart_without_install_paths(
    make_dist: MakeDist, tmp_path: Path
) -> None:
    _broken_plugins(make_dist, tmp_path)
    assert {"gone", "shaky", "nomod", "toy"} <= set(available_maps())  # metadata only
    playable = playable_maps()
    assert "toy" in playable and not {"gone", "shaky", "nomod"} & set(playable)
    broken = {b.name: b for b in broken_maps()}
    assert sorted(broken) == ["gone", "nomod", "shaky"]
    assert broken["nomod"].distribution == "mixed-maps"
    assert broken["nomod"].reason == (
        "failed to load: ModuleNotFoundError: No module named 'no_such_module_xyz'"
    )
    assert "fake_gone.py.missing.json" in broken["gone"].reason
    assert "shaky.json: routes[0].length: must be >= 1" in broken["shaky"].problems
    for plugin in broken.values():
        for text in (plugin.reason, *plugin.problems):
            assert str(tmp_path) not in text and "/" not in text.replace("'/'", ""), text
    with pytest.raises(MapLoadError) as info:
        load_map("gone")  # remembered: the same error, without the path, not imported again
    assert str(tmp_path) not in str(info.value)
    offered = ", ".join(playable_maps())
    with pytest.raises(MapNotFoundError, match=f"available maps: {re.escape(offered)}$"):
        load_map("atlantis")  # the broken ones are not offered


def test_ttr_maps_lists_broken_plugins_apart(
    make_dist: MakeDist, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ttr_rules import cli

    _broken_plugins(make_dist, tmp_path)
    assert cli.main(["maps"]) == 1
    out = capsys.readouterr().out
    table, _, broken = out.partition("3 broken map plugins (not offered to players):")
    assert "toy" in table and "shaky" not in table
    assert "nomod  mixed-maps    failed to load: ModuleNotFoundError" in broken
    assert str(tmp_path) not in out
    assert cli.main(["maps", "--json"]) == 1
    captured = capsys.readouterr()
    assert "shaky" not in {m["name"] for m in json.loads(captured.out)}
    assert "ttr: error: broken map plugin 'gone': failed to load" in captured.err


def test_the_rl_adapters_offer_no_broken_plugin(make_dist: MakeDist, tmp_path: Path) -> None:
    from gymnasium.envs.registration import registry

    from ttr_rules.rl.openspiel import TicketToRideGame
    from ttr_rules.rl.registration import env_id, register_envs

    _broken_plugins(make_dist, tmp_path)
    before = set(registry)
    try:
        register_envs()
        added = set(registry) - before
        assert env_id("toy") in added or env_id("toy") in before
        assert not {env_id(name) for name in ("gone", "shaky", "nomod")} & set(registry)
    finally:
        for ident in set(registry) - before:
            del registry[ident]
    offered = re.escape(", ".join(playable_maps()))
    with pytest.raises(ValueError, match=f"map must be one of {offered}$"):
        TicketToRideGame({"map": "shaky"})
