"""The ``bgsim`` command line. Each command imports what it needs lazily."""

from __future__ import annotations

import argparse
import json
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


def _load_board(path: str):  # -> combat_c.Board
    from combat_c import BoardSpecError, parse_board

    try:
        return parse_board(Path(path))
    except BoardSpecError as exc:
        raise CommandError(f"{path}: {exc}") from None


def _load_fight(args: argparse.Namespace):  # -> tuple[Board, Board]
    """Two board files, or one fight file holding "a" and "b" (the bench format)."""
    if args.b is not None:
        return _load_board(args.a), _load_board(args.b)
    from combat_c import BoardSpecError, parse_board

    try:
        fight = json.loads(Path(args.a).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CommandError(f"{args.a}: {exc}") from None
    if not isinstance(fight, dict) or "a" not in fight or "b" not in fight:
        raise CommandError(f"{args.a}: give two board files, or one file with 'a' and 'b'")
    try:
        return parse_board(fight["a"]), parse_board(fight["b"])
    except BoardSpecError as exc:
        raise CommandError(f"{args.a}: {exc}") from None


def _cmd_combat(args: argparse.Namespace) -> int:
    from combat_c import resolve, simulate

    a, b = _load_fight(args)
    if args.trace:
        from bgsim.trace import format_fight

        result = resolve(a, b, args.seed)
        for line in format_fight(a, b, result, names=("A", "B")):
            print(line)
        return 0
    if args.runs < 1:
        raise CommandError("--runs must be at least 1")
    odds = simulate(a, b, args.runs, args.seed)
    pct = odds.damage_percentiles((0.1, 0.25, 0.5, 0.75, 0.9))
    if args.json:
        out = odds.as_dict()
        out["damage_percentiles"] = {f"p{int(q * 100)}": v for q, v in pct.items()}
        print(json.dumps(out))
        return 0
    against = f"{args.b} (B)" if args.b else "B"
    print(f"{odds.runs:,} fights of {args.a} (A) against {against}, seed {args.seed}")
    print(f"  A wins {odds.win:6.1%}   tie {odds.tie:6.1%}   B wins {odds.loss:6.1%}")
    print(
        f"  damage: A deals {odds.mean_damage_dealt:.2f} and takes "
        f"{odds.mean_damage_taken:.2f} on average per fight"
    )
    shown = "  ".join(f"p{int(q * 100)} {v:+d}" for q, v in pct.items())
    print(f"  damage percentiles (+ dealt by A, - taken by A): {shown}")
    print(
        f"  lethal: A kills B ({b.health} health) {odds.lethal_dealt:.1%}, "
        f"B kills A ({a.health} health) {odds.lethal_taken:.1%}"
    )
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from bgsim import bench

    which = args.what
    results = {}
    log = None if args.json else print
    if which in ("combat", "all"):
        if log:
            print("combat engine (resolved combats per second, one core)")
        results["combat"] = bench.bench_combat(args.seconds, log)
    if args.json:
        print(json.dumps(results if which == "all" else results[which], indent=1))
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

    combat = sub.add_parser("combat", help="odds of one board against another")
    combat.add_argument("a", help="board spec JSON of side A (or a fight file with a and b)")
    combat.add_argument("b", nargs="?", help="board spec JSON of side B")
    combat.add_argument("--runs", type=int, default=10_000, help="fights to simulate")
    combat.add_argument("--seed", type=int, default=0, help="random seed")
    combat.add_argument("--json", action="store_true", help="print one JSON object")
    combat.add_argument("--trace", action="store_true", help="print one fight event by event")
    combat.set_defaults(func=_cmd_combat)

    bench = sub.add_parser("bench", help="performance figures (per core)")
    bench.add_argument("what", nargs="?", default="all", choices=("all", "combat"))
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.add_argument("--seconds", type=float, default=1.0, help="time per combat measurement")
    bench.set_defaults(func=_cmd_bench)

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
    except BrokenPipeError:  # e.g. `bgsim combat ... --trace | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
