"""The ``bgsim`` command line. Each command imports what it needs lazily."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


class CommandError(Exception):
    """A user-facing error: printed as ``bgsim: error: ...`` with exit code 2."""


def _cmd_data_build(args: argparse.Namespace) -> int:
    from bgsim import datagen
    from bgsim.resources import data_dir

    out = Path(args.out) if args.out else data_dir() / "cards.json"
    try:
        datagen.write_cards(out)
    except RuntimeError as exc:
        raise CommandError(str(exc)) from None
    print(f"wrote {out}")
    return 0


def _cmd_cards(args: argparse.Namespace) -> int:
    from bgsim.cards import TRIBES, cards

    db = cards()
    tribe = args.tribe.lower() if args.tribe else None
    if tribe is not None and tribe not in TRIBES and tribe != "neutral":
        raise CommandError(
            f"unknown tribe {args.tribe!r}; choose from {', '.join(TRIBES)}, neutral"
        )
    rows = []
    for card in db.pool:
        if args.tier is not None and card.tier != args.tier:
            continue
        if tribe == "neutral" and card.tribes:
            continue
        if tribe not in (None, "neutral") and tribe not in card.tribes:
            continue
        golden = db.golden(card)
        tribes = "all" if len(card.tribes) == len(TRIBES) else "/".join(sorted(card.tribes))
        rows.append(
            (
                str(card.tier),
                card.id,
                card.name,
                tribes or "-",
                f"{card.attack}/{card.health}",
                f"{golden.attack}/{golden.health}" if golden else "-",
                card.text,
            )
        )
    head = ("tier", "id", "name", "tribe", "stats", "golden", "text")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    for row in [head, *rows]:
        cells = [c.ljust(w) for c, w in zip(row, widths, strict=False)]
        print("  ".join(cells) + "  " + row[-1])
    print(f"{len(rows)} minions")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bgsim",
        description="Hearthstone Battlegrounds simulator and agent lab (patch 20.0).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    data = sub.add_parser("data", help="card data tools")
    data_sub = data.add_subparsers(dest="data_command", metavar="ACTION")
    data_sub.required = True
    build = data_sub.add_parser(
        "build", help="regenerate data/cards.json from CardDefs.xml (needs the data extra)"
    )
    build.add_argument("--out", help="write here instead of data/cards.json")
    build.set_defaults(func=_cmd_data_build)

    show = sub.add_parser("cards", help="list the minion pool")
    show.add_argument("--tier", type=int, choices=range(1, 7), help="only this tavern tier")
    show.add_argument("--tribe", help="only this tribe (beast, demon, ..., or neutral)")
    show.set_defaults(func=_cmd_cards)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CommandError as exc:
        print(f"bgsim: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bgsim: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
