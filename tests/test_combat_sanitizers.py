"""Run the engine's tests once against an AddressSanitizer + UBSan build.

The build switch is combat_c/build.py's ``sanitize=True`` (``BGSIM_SANITIZE=1``
for ``pip install``). The sanitized copy is loaded in a child pytest through
``BGSIM_ENGINE``; any sanitizer report aborts the child and fails this test.

Without gcc or its AddressSanitizer runtime the test is skipped on a
developer's machine, but fails in CI (``CI`` set, as ``.ci/run`` and CI
services set it): ``.ci/run`` installs what it needs, so a skip there would
only hide a broken set-up.
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
    "tests/test_combat_firestone_heroes.py",
    "tests/test_combat_fuzz.py",
]
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")


def _missing(what: str) -> None:
    """Skip for lack of ``what``, or fail in CI, where it must be installed."""
    if IN_CI:
        pytest.fail(f"CI must run the sanitizer build, but {what} (see .ci/run)")
    pytest.skip(what)


def _runtime(name: str) -> str | None:
    out = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True)
    path = out.stdout.strip()
    return path if os.path.isabs(path) and os.path.exists(path) else None


@pytest.mark.skipif(os.environ.get("BGSIM_ENGINE") is not None, reason="already the child run")
def test_engine_tests_pass_under_asan_and_ubsan(tmp_path):
    sys.path.insert(0, str(ROOT))
    from combat_c.build import make_builder

    if shutil.which("gcc") is None:
        _missing("there is no gcc here")
    asan = _runtime("libasan.so")
    if asan is None:
        _missing("gcc has no AddressSanitizer runtime here (libasan)")
    assert asan is not None
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


@pytest.mark.skipif(os.environ.get("BGSIM_ENGINE") is not None, reason="already the child run")
def test_the_sanitizer_flags_report_signed_overflow(tmp_path):
    """Python's CFLAGS hold -fwrapv, under which signed overflow is defined
    and UBSan never reports it; with the sanitizer build's flags it aborts."""
    sys.path.insert(0, str(ROOT))
    from cffi import FFI

    from combat_c.build import SANITIZE_FLAGS, SANITIZE_LINK

    if shutil.which("gcc") is None:
        _missing("there is no gcc here")
    asan = _runtime("libasan.so")
    if asan is None:
        _missing("gcc has no AddressSanitizer runtime here (libasan)")
    ffi = FFI()
    ffi.cdef("int bump(int x);")
    ffi.set_source(
        "_wrap_check",
        "int bump(int x) { return x + 1; }",
        extra_compile_args=SANITIZE_FLAGS,
        extra_link_args=SANITIZE_LINK,
    )
    built = ffi.compile(tmpdir=str(tmp_path), verbose=False)
    load = (
        "import importlib.util, sys; "
        f"spec = importlib.util.spec_from_file_location('_wrap_check', {built!r}); "
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
        "print(m.lib.bump(int(sys.argv[1])))"
    )
    env = dict(os.environ, LD_PRELOAD=asan, ASAN_OPTIONS="detect_leaks=0")
    fine = subprocess.run(
        [sys.executable, "-c", load, "41"], env=env, capture_output=True, text=True, timeout=60
    )
    assert fine.returncode == 0 and fine.stdout.strip() == "42", fine.stderr[-2000:]
    over = subprocess.run(
        [sys.executable, "-c", load, str(2**31 - 1)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert over.returncode != 0 and "signed integer overflow" in over.stderr, over.stderr[-2000:]
