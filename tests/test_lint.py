"""The tree stays clean under the project's ruff configuration."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> list[str]:
    if shutil.which("ruff"):
        return ["ruff"]
    pytest.importorskip("ruff")
    return [sys.executable, "-m", "ruff"]


def test_ruff_check():
    run = subprocess.run([*_ruff(), "check", str(ROOT)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_format():
    run = subprocess.run([*_ruff(), "format", "--check", str(ROOT)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
