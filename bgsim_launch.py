"""The ``bgsim`` command's entry point.

It imports the CLI itself, so that Ctrl-C while Python is still loading
bgsim (about half a second) ends the command as Ctrl-C ends it later: one
line, exit code 130, no traceback. It lives outside the ``bgsim`` package
because importing anything inside it loads the package first.

>>> callable(main)
True
"""

from __future__ import annotations

import sys


def main() -> int:
    """Run ``bgsim`` with the process's arguments; the exit code.

    >>> main.__module__
    'bgsim_launch'
    """
    try:
        from bgsim.cli import main as cli
    except KeyboardInterrupt:
        print("bgsim: interrupted", file=sys.stderr)
        return 130
    return cli()
