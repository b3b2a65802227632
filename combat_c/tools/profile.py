"""Build the standalone profiling driver and dump a bench fight for it.

python combat_c/tools/profile.py data/boards/bench/mech_midgame.json
valgrind --tool=callgrind build/profile/engine build/profile/boards.bin 20000
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from combat_c import parse_board
from combat_c._lib import ffi
from combat_c.build import RELEASE_FLAGS, unity_source

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    fight = json.loads(Path(argv[0]).read_text())
    out = Path("build/profile")
    out.mkdir(parents=True, exist_ok=True)
    a, b = parse_board(fight["a"]), parse_board(fight["b"])
    data = bytes(ffi.buffer(a.packed)) + bytes(ffi.buffer(b.packed))
    (out / "boards.bin").write_bytes(data)
    # The engine as the module builds it (one translation unit, same flags;
    # Python adds -fwrapv), plus debug info for perf and valgrind.
    unity = out / "engine_unity.c"
    unity.write_text(unity_source())
    cmd = [
        "gcc",
        *RELEASE_FLAGS,
        "-fwrapv",
        "-g",
        "-o",
        str(out / "engine"),
        str(HERE / "profile_main.c"),
        str(unity),
        f"-I{SRC}",
    ]
    subprocess.run(cmd, check=True)
    print(f"built {out / 'engine'}; boards in {out / 'boards.bin'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
