"""The "every game is a peer" import contract (config/peers_contract.py, in CI's lint-imports):
on a small tree of two games, an import of a game from a shared module or from another game
breaks it, the registries' and the game's own do not, and a game added to the tree is held to
it with no option naming it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest

from config.peers_contract import PeersContract

TREE = {
    "toyengine/__init__.py": "",
    "toyengine/kernel.py": "",
    "toyengine/registry.py": "from toyengine import alpha, beta\n",
    "toyengine/alpha/__init__.py": "from toyengine.alpha import rules\n",
    "toyengine/alpha/rules.py": "from toyengine import kernel\n",
    "toyengine/beta/__init__.py": "from toyengine.beta import rules\n",
    "toyengine/beta/rules.py": "",
    "toygames/__init__.py": "",
    "toygames/types.py": "from toygames.alpha import gametype\n",
    "toygames/alpha/__init__.py": "",
    "toygames/alpha/gametype.py": "from toyengine.alpha import rules\n",
    "toygames/beta/__init__.py": "",
    "toygames/beta/gametype.py": "from toyengine import beta\n",
    "toygames/shared.py": "from toygames import types\n",
}


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name, text in TREE.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for module in [m for m in sys.modules if m.startswith(("toyengine", "toygames"))]:
        del sys.modules[module]


def check(tree: Path) -> tuple[bool, list[tuple[str, str]]]:
    graph = grimp.build_graph("toyengine", "toygames", cache_dir=None)
    contract = PeersContract(
        "peers",
        {},
        {
            "roots": ["toyengine", "toygames"],
            "registries": ["toyengine.registry", "toygames.types"],
        },
    )
    result = contract.check(graph, verbose=False)
    links = [(i, m) for broken in result.metadata["broken"] for i, m, _ in broken.links]
    return result.kept, links


def test_the_registries_and_a_games_own_packages_may_import_it(tree: Path) -> None:
    assert check(tree) == (True, [])


def test_a_shared_module_or_another_game_importing_a_game_breaks_it(tree: Path) -> None:
    (tree / "toygames/shared.py").write_text("from toyengine.alpha import rules\n")
    (tree / "toygames/beta/gametype.py").write_text("from toygames.alpha import gametype\n")
    kept, links = check(tree)
    assert not kept
    assert set(links) == {
        ("toygames.beta.gametype", "toygames.alpha.gametype"),
        ("toygames.shared", "toyengine.alpha.rules"),
    }


def test_a_game_added_to_the_tree_is_held_to_it(tree: Path) -> None:
    for name in ("toyengine/gamma/__init__.py", "toygames/gamma/__init__.py"):
        (tree / name).parent.mkdir()
        (tree / name).write_text("")
    (tree / "toyengine/gamma/rules.py").write_text("")
    (tree / "toygames/gamma/pages.py").write_text("")
    (tree / "toygames/shared.py").write_text("from toygames.gamma import pages\n")
    kept, links = check(tree)
    assert not kept and links == [("toygames.shared", "toygames.gamma.pages")]
