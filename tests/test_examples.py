"""The examples in ``examples/`` run, and the README shows them as they are:
its code blocks are the files' code and its console blocks what they print
today (every example here is deterministic)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(kind: str) -> list[str]:
    """The README's fenced blocks of ``kind`` (python, console...), in order."""
    return re.findall(rf"```{kind}\n(.*?)```", README, flags=re.S)


def console_block(command: str) -> tuple[str, list[str]]:
    """The README console block whose command line (``$ ...``) starts with
    ``command``: that line (without ``$``) and the lines it shows printed."""
    for block in blocks("console"):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith(f"$ {command}"):
                return line[2:], lines[i + 1 :]
    raise AssertionError(f"README has no console block running {command!r}")


def shown_in_order(shown: list[str], printed: list[str]) -> None:
    """Every line the README shows (but "...") is printed, in the same order."""
    at = 0
    for line in shown:
        if line.strip() == "...":
            continue
        while at < len(printed) and printed[at].rstrip() != line.rstrip():
            at += 1
        assert at < len(printed), f"README shows a line not printed: {line!r}"
        at += 1


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def test_the_readme_code_blocks_are_the_example_files():
    for name in ("thrifty.py", "simulate_lobbies.py"):
        source = (ROOT / "examples" / name).read_text(encoding="utf-8")
        shown = [b for b in blocks("python") if b.strip() and b.strip() in source]
        assert shown and max(len(b) for b in shown) > 500, f"README does not show {name}"


def test_thrifty_plays_the_readme_tournament_with_heroes(tmp_path):
    command, shown = console_block("bgsim tournament --agent thrifty=")
    args = shlex.split(command)
    assert "--heroes" not in args  # the default game, with its draft
    # The README runs it in examples/; a copy of the agent keeps the results
    # database out of the checkout.
    shutil.copy(ROOT / "examples" / "thrifty.py", tmp_path)
    done = run([sys.executable, "-m", "bgsim.cli", *args[1:]], tmp_path)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    shown_in_order(shown, printed)
    assert any(line.startswith("hero ") for line in printed)  # heroes were drafted


def test_simulate_lobbies_prints_what_the_readme_shows():
    command, shown = console_block("python examples/simulate_lobbies.py")
    done = run([sys.executable, *shlex.split(command)[1:]], ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == shown


def test_the_rl_examples_run():
    masked = run([sys.executable, "examples/rl_masked_random.py"], ROOT)
    assert masked.returncode == 0, masked.stderr
    assert "100 games: mean placement" in masked.stdout
    wrapped = run([sys.executable, "examples/rl_policy_agent.py"], ROOT)
    assert wrapped.returncode == 0, wrapped.stderr
    assert "agent" in wrapped.stdout and "hero" in wrapped.stdout
