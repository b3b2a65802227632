"""mypy checks the whole code base; only the unchecked constructors silence it."""

import re
import shutil
import subprocess
import sys

from bgsim.compiled import ROOT

PACKAGES = ("bgsim", "agents", "viz", "combat_c", "bgsim_launch.py")
# The frozen values' written-out __init__s store their fields past the frozen
# guard (bgsim/_core/minions.py, NATIVE): mypy rightly calls those stores
# writes to read-only fields. No other line may silence it.
UNCHECKED = {"bgsim/_core/minions.py", "bgsim/_core/player_state.py"}


def test_mypy_passes_on_every_package(tmp_path):
    if shutil.which("mypy") is None:
        raise AssertionError("mypy is missing: pip install -e '.[test]'")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path), *PACKAGES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:]


def test_only_the_unchecked_constructors_silence_mypy():
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            hits = re.findall(r"#\s*type:\s*ignore", path.read_text(encoding="utf-8"))
            if hits:
                found[path.relative_to(ROOT).as_posix()] = len(hits)
    assert set(found) <= UNCHECKED, found
    assert "ignore_errors" not in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
