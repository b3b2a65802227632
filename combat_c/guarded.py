"""The one guarded way in for text files and JSON: every JSON input of bgsim
(board specs, fight files, replays, the results database's JSON columns) and
every text file it reads (ruleset TOML) goes through here.

A hostile or broken file cannot crash the reader: it is size-capped before it
is read, decoded as strict UTF-8, and parsed with JSON's ``NaN``/``Infinity``
refused, integers over Python's digit limit and nesting deeper than
:data:`MAX_DEPTH` reported as errors (no ``RecursionError``), each problem one
:class:`InputError` line that names the source.

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

import json
import os
import sys
from pathlib import Path
from typing import Any

MAX_DEPTH = 32  # the deepest bgsim format (a replay's card keyword list) needs 4
MAX_FILE_BYTES = 1 << 20  # board specs and fight files: a full spec is a few kB
MAX_LINE_BYTES = 1 << 24  # one replay record (a fight's event log can be large)

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "InputError",
    "loads",
    "numbers",
    "read_json",
    "read_text",
]


class InputError(ValueError):
    """A file or text that cannot be read as what it should be; the message
    names the source and the problem in one line.

    >>> str(InputError("x.json: not UTF-8 text"))
    'x.json: not UTF-8 text'
    """


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``, refused when the file is larger than ``limit``
    (checked before reading) or cannot be read.

    >>> read_bytes("/nonexistent/board.json")
    Traceback (most recent call last):
    ...
    combat_c.guarded.InputError: /nonexistent/board.json: cannot read (No such file or directory)
    """
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > limit:
                raise InputError(f"{path}: {size:,} bytes is too large (at most {limit:,})")
            data = f.read(limit + 1)  # a pipe or special file has no size to check first
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:  # an embedded NUL in the path
        raise InputError(f"{str(path)!r:.80}: not a usable path ({exc})") from None
    if len(data) > limit:
        raise InputError(f"{path}: too large (at most {limit:,} bytes)")
    return data


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
    return decode(read_bytes(path, limit), str(path))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str | bytes, where: str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON ``text`` (``where`` names it in errors).

    >>> loads('[1, 2]', "x")
    [1, 2]
    >>> loads('[NaN]', "x")
    Traceback (most recent call last):
    ...
    combat_c.guarded.InputError: x: not valid JSON (NaN is not a JSON number)
    """
    if isinstance(text, bytes | bytearray):
        text = decode(bytes(text), where)
    if not isinstance(text, str):
        raise InputError(f"{where}: expected JSON text, got {type(text).__name__}")
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
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
    return loads(read_bytes(path, limit), str(path), max_depth)


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
            raise InputError(f"{where}: not a list of numbers {low:g}..{high:g} ({x!r:.20} at {i})")
    return tuple(float(x) for x in value)
