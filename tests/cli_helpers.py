"""Running ``bgsim`` commands in tests and checking how they fail: an exit
code, no traceback, one line on stderr that names the problem."""

from __future__ import annotations

import hashlib
from pathlib import Path

from bgsim.cli import main


def run(capsys, *args: object) -> tuple[int, str, str]:
    """``bgsim ARGS`` in this process: (exit code, stdout, stderr)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, args: tuple, *names: str, code: int = 2) -> str:
    """Run ``bgsim ARGS``, which must fail with ``code``, print no traceback
    and exactly one line on stderr holding every one of ``names``; that line."""
    got, out, err = run(capsys, *args)
    assert "Traceback" not in out + err, err
    lines = err.strip().splitlines()
    assert got == code, (got, err)
    assert len(lines) == 1, err
    for name in names:
        assert name in lines[0], (name, lines[0])
    return lines[0]


def digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (names relative to it) with its SHA-256."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
