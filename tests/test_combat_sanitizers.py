"""Run the engine's tests once against an AddressSanitizer + UBSan build.

The build switch is combat_c/build.py's ``sanitize=True`` (``BGSIM_SANITIZE=1``
for ``pip install``). The sanitized copy is loaded in a child pytest through
``BGSIM_ENGINE``; any sanitizer report aborts the child and fails this test.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE_TESTS = [
    "tests/test_combat_api.py",
    "tests/test_combat_rules.py",
    "tests/test_combat_cards.py",
    "tests/test_combat_properties.py",
    "tests/test_combat_heroes.py",
]


def _runtime(name: str) -> str | None:
    out = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True)
    path = out.stdout.strip()
    return path if os.path.isabs(path) and os.path.exists(path) else None


@pytest.mark.skipif(os.environ.get("BGSIM_ENGINE") is not None, reason="already the child run")
@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_engine_tests_pass_under_asan_and_ubsan(tmp_path):
    sys.path.insert(0, str(ROOT))
    from combat_c.build import make_builder

    asan = _runtime("libasan.so")
    if asan is None:
        pytest.skip("gcc has no AddressSanitizer runtime here")
    builder = make_builder("_engine_asan", sanitize=True, absolute=True)
    built = builder.compile(tmpdir=str(tmp_path), verbose=False)
    env = dict(os.environ)
    env.update(
        BGSIM_ENGINE=built,
        LD_PRELOAD=asan,
        ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1",
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1",
        HYPOTHESIS_PROFILE="default",
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *ENGINE_TESTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    tail = (run.stdout + run.stderr)[-4000:]
    assert run.returncode == 0, tail
    assert "runtime error" not in run.stderr and "AddressSanitizer" not in run.stderr, tail
