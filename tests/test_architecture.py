"""DESIGN.md's layers hold: import-linter's contracts (pyproject.toml,
``[tool.importlinter]``) over the whole code base."""

import shutil
import subprocess

import pytest

from bgsim.compiled import ROOT


def test_import_contracts_hold():
    lint = shutil.which("lint-imports")
    if lint is None:
        pytest.fail("lint-imports is missing: pip install -e '.[test]'")
    done = subprocess.run([lint], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "BROKEN" not in done.stdout and "KEPT" in done.stdout


def test_a_broken_contract_is_caught(tmp_path):
    """The check can fail: an agent module that reaches into the private core
    breaks the contract."""
    for package in ("viz", "agents", "bgsim", "combat_c"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "agents" / "sneaky.py").write_text("from bgsim._core import tavern\n")
    done = subprocess.run(
        [shutil.which("lint-imports") or "lint-imports"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode != 0
    assert "agents.sneaky -> bgsim._core" in done.stdout
