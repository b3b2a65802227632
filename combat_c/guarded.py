"""The one guarded way in for text files and JSON: every JSON input of bgsim
(board specs, fight files, replays, the results database's JSON columns) and
every text file it reads (ruleset TOML) goes through here.

A hostile or broken file cannot crash the reader: it is size-capped before it
is read, decoded as strict UTF-8, and parsed with JSON's ``NaN``/``Infinity``
refused (a number too large for a float, such as ``1e400``, too), integers
over Python's digit limit and nesting deeper than :data:`MAX_DEPTH` reported
as errors (no ``RecursionError``), each problem one :class:`InputError` line
that names the source.

It lives in ``combat_c``, the lowest layer, so the board spec (DESIGN.md) can
use it and every layer above can too.

>>> loads('{"tier": 1}', "board spec")
{'tier': 1}
>>> try:
...     loads("[" * 100 + "]" * 100, "board spec")
... except InputError as error:
...     print(error)
board spec: JSON nested deeper than 32 levels
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import sys
from pathlib import Path
from typing import Any, BinaryIO

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # not on Windows, which has no named pipes in paths
MAX_DEPTH = 32  # the deepest bgsim format (a replay's card keyword list) needs 4
MAX_FILE_BYTES = 1 << 20  # board specs and fight files: a full spec is a few kB
MAX_LINE_BYTES = 1 << 24  # one replay record (a fight's event log can be large)

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "InputError",
    "loads",
    "numbers",
    "open_file",
    "read_json",
    "read_text",
    "shown",
    "shown_path",
]


class InputError(ValueError):
    """A file or text that cannot be read as what it should be; the message
    names the source and the problem in one line.

    >>> str(InputError("x.json: not UTF-8 text"))
    'x.json: not UTF-8 text'
    """


def open_file(path: str | Path) -> BinaryIO:
    """``path`` opened for reading bytes, the way every file bgsim reads is
    opened: without blocking, so a named pipe cannot hang the open, and
    anything but a regular file (a folder, a pipe, a device, a socket)
    refused at once, since reading a pipe or a device could wait, or go on,
    for ever. Raises ``OSError``, or ``ValueError`` for a path with a NUL in
    it.

    >>> with open_file(__file__) as f:
    ...     len(f.read(3))
    3
    """
    fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file: a pipe, device or socket")
        if _NONBLOCK:
            os.set_blocking(fd, True)
        return open(fd, "rb")  # the caller closes it
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``, refused when the file is larger than ``limit``
    (checked before reading) or cannot be read.

    >>> read_bytes("/nonexistent/board.json")
    Traceback (most recent call last):
    ...
    combat_c.guarded.InputError: /nonexistent/board.json: cannot read (No such file or directory)
    """
    if not str(path):  # Path("") would read the current folder
        raise InputError("'': not a usable path (name a file)")
    try:
        with open_file(path) as f:
            size = os.fstat(f.fileno()).st_size
            if size > limit:
                raise InputError(
                    f"{shown_path(path)}: {size:,} bytes is too large (at most {limit:,})"
                )
            data = f.read(limit + 1)  # a file may grow after the size check
    except InputError:
        raise
    except OSError as exc:
        raise InputError(f"{shown_path(path)}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:  # an embedded NUL in the path
        raise InputError(f"{shown(str(path), 80)}: not a usable path ({exc})") from None
    if len(data) > limit:
        raise InputError(f"{shown_path(path)}: too large (at most {limit:,} bytes)")
    return data


def shown(value: Any, width: int = 40) -> str:
    """``value`` as an error message shows it: its ``repr`` cut to ``width``
    characters, an integer too long to print (Python refuses past 4,300
    digits) by its size, and an object whose ``repr`` fails by its type. Every
    message that echoes a value it was given goes through here.

    >>> shown("abc"), shown("x" * 100, 5), shown(10**5000)
    ("'abc'", "'xxxx", 'an integer of 5,001 digits')
    """
    if isinstance(value, int) and value.bit_length() > 256:
        return f"an integer of {_digits(value):,} digits"
    try:
        text = repr(value)
    except Exception:  # a container of such integers, or a repr that fails
        text = f"<{type(value).__name__}>"
    return text[:width]


def _digits(value: int) -> int:
    """The decimal digits of ``abs(value)``, without converting it to text."""
    n = abs(value)
    digits = max(1, int(n.bit_length() * 0.30102999566398120))
    while 10**digits <= n:
        digits += 1
    while digits > 1 and 10 ** (digits - 1) > n:
        digits -= 1
    return digits


_ESCAPES = {c: f"\\x{c:02x}" for c in (*range(32), 127)}


def one_line(text: str) -> str:
    r"""``text`` with its control characters (a newline, a terminal escape)
    shown as ``\xNN`` escapes, and the bytes of a file name that are not
    UTF-8 as ``\udcNN``: a message or caption that quotes what a user or a
    file gave stays one harmless line that any terminal can print.

    >>> one_line("a\nb"), one_line("s\udcff.png")
    ('a\\x0ab', 's\\udcff.png')
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8").translate(_ESCAPES)


def shown_path(path: str | Path) -> str:
    """A path as errors show it: cut short when it is very long.

    >>> shown_path("a/b.json"), len(shown_path("x" * 5000))
    ('a/b.json', 203)
    """
    text = str(path)
    return text if len(text) <= 200 else text[:200] + "..."


def decode(data: bytes, where: str) -> str:
    """``data`` as strict UTF-8 text (a leading byte order mark is dropped).

    >>> decode(b"\\xff\\xfe{", "x.json")
    Traceback (most recent call last):
    ...
    combat_c.guarded.InputError: x.json: not UTF-8 text (byte 0xff at offset 0)
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        byte = data[exc.start]
        raise InputError(
            f"{where}: not UTF-8 text (byte 0x{byte:02x} at offset {exc.start})"
        ) from None
    return text.removeprefix("\ufeff")


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a UTF-8 file of at most ``limit`` bytes.

    >>> "InputError" in read_text(__file__)
    True
    """
    return decode(read_bytes(path, limit), shown_path(path))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 would be read as Infinity
        number = text if len(text) <= 40 else text[:40] + "..."
        raise ValueError(f"{number} is beyond the range of a number")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict; a key given twice is an error rather
    than the last one silently winning."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {shown(key, 40)} appears twice in one object")
            seen.add(key)
    return out


def loads(text: str | bytes, where: str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON ``text`` (``where`` names it in errors).

    >>> loads('[1, 2]', "x")
    [1, 2]
    >>> loads('[NaN]', "x")
    Traceback (most recent call last):
    ...
    combat_c.guarded.InputError: x: not valid JSON (NaN is not a JSON number)
    >>> loads('{"tier": 1, "tier": 2}', "x")
    Traceback (most recent call last):
    ...
    combat_c.guarded.InputError: x: not valid JSON (the key 'tier' appears twice in one object)
    >>> loads('{"tier": 1e400}', "x")
    Traceback (most recent call last):
    ...
    combat_c.guarded.InputError: x: not valid JSON (1e400 is beyond the range of a number)
    """
    if isinstance(text, bytes | bytearray):
        text = decode(bytes(text), where)
    if not isinstance(text, str):
        raise InputError(f"{where}: expected JSON text, got {type(text).__name__}")
    try:
        value = json.loads(
            text,
            parse_float=_finite_float,
            parse_constant=_refuse_constant,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not valid JSON ({exc})") from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested deeper than {max_depth} levels") from None
    except ValueError as exc:  # an integer past Python's digit limit, NaN, Infinity
        message = str(exc)
        if "digits" in message:
            message = f"an integer of more than {sys.get_int_max_str_digits()} digits"
        raise InputError(f"{where}: not valid JSON ({message[:120]})") from None
    if too_deep(value, max_depth):
        raise InputError(f"{where}: JSON nested deeper than {max_depth} levels")
    return value


def too_deep(value: Any, max_depth: int = MAX_DEPTH) -> bool:
    """Whether ``value`` (lists and dicts) nests deeper than ``max_depth``,
    found without recursion.

    >>> too_deep([[[]]], 2), too_deep([[[]]], 3)
    (True, False)
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > max_depth:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def read_json(path: str | Path, limit: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Read and parse a JSON file through the guards above.

    >>> read_json("/nonexistent.json")
    Traceback (most recent call last):
    ...
    combat_c.guarded.InputError: /nonexistent.json: cannot read (No such file or directory)
    """
    return loads(read_bytes(path, limit), shown_path(path), max_depth)


def numbers(
    value: Any, where: str, low: float, high: float, length: int = 1000
) -> tuple[float, ...]:
    """``value`` (parsed JSON) as a non-empty list of at most ``length``
    finite numbers in ``low..high``, e.g. a fitted table of a model file.

    >>> numbers([1, 2.5], "size", 0, 7)
    (1.0, 2.5)
    >>> numbers([1, 1e300], "attack", 0, 1e6)
    Traceback (most recent call last):
    ...
    combat_c.guarded.InputError: attack: not a list of numbers 0..1e+06 (1e+300 at 1)
    """
    if not isinstance(value, list) or not 1 <= len(value) <= length:
        raise InputError(f"{where}: not a list of 1..{length} numbers")
    for i, x in enumerate(value):
        if isinstance(x, bool) or not isinstance(x, int | float) or not low <= x <= high:
            raise InputError(
                f"{where}: not a list of numbers {low:g}..{high:g} ({shown(x, 20)} at {i})"
            )
    return tuple(float(x) for x in value)
