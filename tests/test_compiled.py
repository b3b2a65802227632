"""The mypyc build (bgsim/compiled.py): compiled and pure-Python modules play
alike, and a build whose sources changed steps aside."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bgsim import compiled

ROOT = compiled.ROOT

needs_build = pytest.mark.skipif(
    compiled.status() != "compiled",
    reason="no compiled build here (pip install makes one unless BGSIM_PURE=1)",
)

# One lobby with a searching agent: the search runs the recruit rules, the
# heuristic, its rollouts and the belief guesses thousands of times.
LOBBY = """
import hashlib
from pathlib import Path
from bgsim import compiled
import agents.heuristic
from agents.arena import GameTask, play_game
from bgsim.seeds import derive_seed
from bgsim import Budget, load_ruleset
from bgsim.registry import parse_lineup
seats = tuple(parse_lineup("mcts:1,heuristic:7"))
budget = Budget(iterations=25)
task = GameTask("compiled", 0, derive_seed("compiled", 0), seats, budget, None, load_ruleset())
game = play_game(task)
digest = hashlib.sha1(repr((game.placements, game.rounds)).encode()).hexdigest()
print(compiled.status(), Path(agents.heuristic.__file__).suffix, digest)
"""


def run(code: str, cwd: Path, **env: str) -> tuple[list[str], str]:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return done.stdout.split(), done.stderr


def test_changed_modules_names_the_sources_that_differ_from_the_build():
    hashes = compiled.source_hashes()
    assert compiled.changed_modules(hashes) == []
    edited = {**hashes, "agents.heuristic": "0" * 64}
    assert compiled.changed_modules(edited) == ["agents.heuristic"]
    assert compiled.changed_modules({}) == list(compiled.MODULES)


@needs_build
def test_compiled_and_pure_python_play_the_same_lobby():
    fast, _ = run(LOBBY, ROOT)
    pure, _ = run(LOBBY, ROOT, BGSIM_PURE="1")
    assert fast[:2] == ["compiled", ".so"]
    assert pure[:2] == ["pure", ".py"]
    assert fast[2] == pure[2]


@needs_build
def test_a_changed_source_runs_as_pure_python(tmp_path):
    for part in ("bgsim", "agents", "combat_c", "data"):
        shutil.copytree(ROOT / part, tmp_path / part)
    for lib in ROOT.glob("*__mypyc*"):
        shutil.copy(lib, tmp_path)
    code = (
        "from bgsim import compiled\n"
        "import agents.heuristic as h\n"
        "print(compiled.status(), h.__file__)"
    )
    out, _ = run(code, tmp_path)
    assert out[0] == "compiled"
    source = tmp_path / "agents" / "heuristic.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    out, err = run(code, tmp_path)
    assert out == ["stale", str(source)]
    assert "agents/heuristic.py changed since it was compiled" in err


@needs_build
def test_compiled_classes_keep_their_docstrings():
    """mypyc drops docstrings; the compiled build gives every listed module's
    classes theirs back from the source, so help() and __doc__ show them."""
    import ast

    import agents.mcts
    import bgsim

    for cls in (bgsim.TurnModel, bgsim.PlayerState, bgsim.MinionCard, agents.mcts.MCTSAgent):
        tree = ast.parse(compiled.source_path(cls.__module__).read_text(encoding="utf-8"))
        (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__]
        assert cls.__doc__ == ast.get_docstring(node) and cls.__doc__


def test_compiled_modules_keep_their_docstrings():
    """So do the modules themselves: ``agents.ismcts``'s doc is the runnable
    example the README points to."""
    import ast
    import doctest
    import importlib

    for name in compiled.MODULES:
        module = importlib.import_module(name)
        tree = ast.parse(compiled.source_path(name).read_text(encoding="utf-8"))
        assert module.__doc__ == ast.get_docstring(tree, clean=False) and module.__doc__, name
    ismcts = importlib.import_module("agents.ismcts")
    examples = doctest.DocTestFinder().find(ismcts, "agents.ismcts")
    assert any(test.name == "agents.ismcts" and test.examples for test in examples)
