"""The public API is documented: every public name has a docstring with an
example, every example runs, and the API reference builds."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bgsim.compiled import ROOT

# Runs from the Python sources: compiled modules keep no docstrings to read or run.
PURE = {**os.environ, "BGSIM_PURE": "1", "SDL_VIDEODRIVER": "dummy"}

FIND_UNDOCUMENTED = """
import inspect, types
import bgsim, bgsim.registry, bgsim.rules

# Names that are values, not things with a docstring of their own (type unions,
# constants and tables, documented where they are defined).
VALUES = (int, str, dict, tuple, frozenset, types.UnionType)
names = 0
for module in (bgsim, bgsim.rules, bgsim.registry):
    for name in module.__all__:
        obj = getattr(module, name)
        if isinstance(obj, VALUES) or inspect.ismodule(obj):
            continue
        names += 1
        if ">>>" not in (obj.__doc__ or ""):
            print("missing", module.__name__ + "." + name)
for cls in (bgsim.Lobby, bgsim.TurnModel):
    for name, member in vars(cls).items():
        if name.startswith("_") or not (callable(member) or isinstance(member, classmethod)):
            continue
        if ">>>" not in (getattr(cls, name).__doc__ or ""):
            print("missing", cls.__name__ + "." + name)
print("names", names)
"""


def _pure(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=PURE,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_every_public_name_has_a_docstring_with_an_example():
    out = _pure(FIND_UNDOCUMENTED).splitlines()
    assert [line for line in out if line.startswith("missing")] == []
    assert int(out[-1].split()[1]) >= 50


RUN_EXAMPLES = """
import doctest, importlib, pkgutil
tried = failed = 0
for package in ("bgsim", "agents", "combat_c", "viz"):
    root = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(root.__path__, package + ".")]
    for name in names:
        result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        tried += result.attempted
        failed += result.failed
print(tried, failed)
"""


def test_every_docstring_example_runs():
    out = _pure(RUN_EXAMPLES)
    tried, failed = map(int, out.split()[-2:])
    assert failed == 0, out[-4000:]
    assert tried >= 200


def test_the_api_reference_builds(tmp_path):
    pytest.importorskip("pdoc", reason="needs the docs extra")
    out = tmp_path / "api"
    out.mkdir()
    (out / "mine.txt").write_text("kept")
    # Run where a folder is named like the package, as a clone's parent
    # folder has one: pdoc must import the installed bgsim, not that folder.
    (tmp_path / "bgsim").mkdir()
    done = subprocess.run(
        [sys.executable, "-P", "-m", "bgsim.cli", "docs", "--out", str(out)],  # as `bgsim`
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    root = (out / "bgsim.html").read_text(encoding="utf-8")
    for name in ("Lobby", "TurnModel", "Observation", "Agent", "Budget", "IllegalActionError"):
        assert name in root
    assert (out / "bgsim" / "registry.html").is_file()
    assert (out / "agents" / "ismcts.html").is_file()
    assert (out / "bgsim" / "seeds.html").is_file()
    for page in ("gym_env", "battlegrounds_v0", "encoding"):  # the rl extra is in the test extra
        assert (out / "bgsim" / "envs" / f"{page}.html").is_file()
    assert not (out / "bgsim" / "_core").exists()  # the private core stays out
    # Written beside the target and moved in: other files stay, no scratch is left.
    assert (out / "mine.txt").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["api", "bgsim"]


def test_a_failed_api_reference_build_leaves_nothing(tmp_path):
    fake = tmp_path / "fake" / "pdoc"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "__main__.py").write_text("import sys\nsys.exit('pdoc broke')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(fake.parent), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-m", "bgsim.cli", "docs", "--out", str(tmp_path / "out" / "api")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 2 and "pdoc failed: pdoc broke" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake"]
