"""The ``bgsim`` command line. Each command imports what it needs lazily."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO, cast

from bgsim import compiled
from bgsim.limits import (
    MAX_GAMES,
    MAX_GUESSES,
    MAX_ITERATIONS,
    MAX_LOBBY_SEED,
    MAX_REPEAT,
    MAX_RUNS,
    MAX_SECONDS,
    MAX_SEED,
    MAX_SPEED,
    MAX_WORKERS,
    float_in,
    int_in,
)


class CommandError(Exception):
    """A user-facing error: printed as ``bgsim: error: ...`` with exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line, like every other error."""

    argv: Sequence[str] = ()  # the arguments being parsed, for _dash_hint

    def _print_message(self, message: str, file: Any = None) -> None:
        # As argparse's, but standard output refusing the help is told.
        if not message:
            return
        try:
            (file or sys.stderr).write(message)
        except _OutputError:
            raise
        except (AttributeError, OSError):
            pass

    def error(self, message: str) -> NoReturn:
        if message.endswith("required: COMMAND"):
            # An unknown option before any command: name it, not the command.
            stray = [
                a for a in self.argv if a.startswith("-") and a not in self._option_string_actions
            ]
            if stray:
                message = f"unrecognized arguments: {' '.join(stray)}"
        hint = _dash_hint(message, self.argv)
        line = _one_line(f"{message}{hint}")  # an echoed argument may hold line breaks
        self.exit(2, f"{self.prog}: error: {line} (see {self.prog} --help)\n")


def _json(value: object, indent: int | None = None) -> str:
    """``value`` as strict JSON: a figure that is not a number (NaN, an
    infinity, such as an interval over one lobby) is null.

    >>> _json({"ci": [float("nan"), 1.5]})
    '{"ci": [null, 1.5]}'
    """

    def strict(v: object) -> object:
        if isinstance(v, float) and not math.isfinite(v):
            return None
        if isinstance(v, dict):
            return {k: strict(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [strict(x) for x in v]
        return v

    return json.dumps(strict(value), indent=indent, allow_nan=False)


def _dash_hint(message: str, argv: Sequence[str]) -> str:
    """For "expected one argument" where the value given starts with '-'
    (argparse takes it for an option): how to pass it.

    >>> _dash_hint("argument --budget: expected one argument", ["--budget", "-1it"])
    "; a value starting with '-' goes after '=': --budget=-1it"
    """
    match = re.fullmatch(r"argument (\S+): expected one argument", message)
    if not match:
        return ""
    flags = match.group(1).split("/")
    for flag, value in itertools.pairwise(argv):
        if flag in flags and value.startswith("-"):
            return f"; a value starting with '-' goes after '=': {flag}={value}"
    return ""


def _user_errors() -> tuple[type[Exception], ...]:
    """The project's own error classes: each message is one line naming the
    problem, printed like a CommandError (exit code 2). Imported only when an
    exception is on its way out."""
    from agents.results_db import ResultsError
    from bgsim.agent import AgentError, BudgetError
    from bgsim.outputs import OutputError
    from bgsim.registry import LineupError
    from bgsim.replay import ReplayError
    from bgsim.ruleset import RulesetError
    from combat_c import BoardSpecError
    from combat_c.guarded import InputError

    return (
        AgentError,
        ResultsError,
        BudgetError,
        OutputError,
        LineupError,
        ReplayError,
        RulesetError,
        BoardSpecError,
        InputError,
    )


def _cmd_data_build(args: argparse.Namespace) -> int:
    from bgsim import datagen
    from bgsim.outputs import output_file
    from bgsim.resources import data_dir

    out = output_file(args.out, "--out") if args.out is not None else data_dir() / "cards.json"
    try:
        datagen.write_cards(out)
    except RuntimeError as exc:
        raise CommandError(str(exc)) from None
    print(f"wrote {_one_line(str(out))}")
    return 0


def _cmd_cards(args: argparse.Namespace) -> int:
    from bgsim.cards import TRIBES, cards
    from combat_c.guarded import shown

    db = cards()
    tribe = args.tribe.lower() if args.tribe is not None else None
    if tribe is not None and tribe not in TRIBES and tribe != "neutral":
        raise CommandError(
            f"unknown tribe {shown(args.tribe)}; choose from {', '.join(TRIBES)}, neutral"
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
    from combat_c.guarded import InputError, read_json

    if not path:
        raise CommandError("board file '': not a usable path (name a file)")
    try:
        spec = read_json(Path(path))
    except InputError as exc:
        raise CommandError(_about_file(path, str(exc))) from None
    if isinstance(spec, dict) and "a" in spec and "b" in spec:
        raise CommandError(
            f"{_short_path(path)} is a fight file (a and b): give it alone, without a second board"
        )
    try:
        return parse_board(spec)
    except BoardSpecError as exc:
        raise CommandError(_about_file(path, str(exc))) from None


def _about_file(path: str, message: str) -> str:
    """``message`` about the file ``path``, naming it once (the guarded
    reader names a very long path by its start)."""
    if message.startswith((f"{path}:", f"{path[:200]}...:")):
        return message
    return f"{_short_path(path)}: {message}"


def _short_path(path: str) -> str:
    return path if len(path) <= 200 else path[:200] + "..."


def _load_fight(args: argparse.Namespace):  # -> tuple[Board, Board]
    """Two board files, or one fight file holding "a" and "b" (the bench
    format), checked as a pair too (Old Murk-Eye's shown Attack depends on
    both boards): an error names the file it is about."""
    from combat_c import BoardSpecError
    from combat_c.board import fight_boards

    a, b = _read_fight(args)
    try:
        fight_boards(a, b)
    except BoardSpecError as exc:
        path = args.b if args.b is not None and "board b's" in str(exc) else args.a
        raise CommandError(_about_file(path, str(exc))) from None
    return a, b


def _read_fight(args: argparse.Namespace):  # -> tuple[Board, Board]
    if args.b is not None:
        return _load_board(args.a), _load_board(args.b)
    from combat_c import BoardSpecError, parse_board
    from combat_c.guarded import InputError, read_json, shown

    try:
        fight = read_json(args.a)
    except InputError as exc:
        raise CommandError(str(exc)) from None
    if not isinstance(fight, dict) or "a" not in fight or "b" not in fight:
        raise CommandError(f"{args.a}: give two board files, or one file with 'a' and 'b'")
    extra = sorted(set(fight) - {"a", "b", "name"})
    if extra:
        raise CommandError(
            f"{args.a}: unknown key {shown(extra[0])} (a fight file holds a, b and a name)"
        )
    boards = []
    for side in ("a", "b"):
        if not isinstance(fight[side], dict):  # a string would be read as a path
            raise CommandError(
                f"{args.a}: board {side}: must be a board object, got {shown(fight[side])}"
            )
        try:
            boards.append(parse_board(fight[side]))
        except BoardSpecError as exc:
            raise CommandError(f"{args.a}: board {side}: {exc}") from None
    return boards[0], boards[1]


def _cmd_combat(args: argparse.Namespace) -> int:
    from combat_c import resolve, simulate

    a, b = _load_fight(args)
    if args.arrange:
        if args.trace:
            raise CommandError("--arrange and --trace do not go together")
        return _arrange(a, b, _with_runs(args))
    if args.trace:
        if args.runs is not None:
            raise CommandError("--trace plays one fight: leave out --runs")
        from bgsim.trace import format_fight

        result = resolve(a, b, args.seed)
        if args.json:  # the fight as a replay's combat record holds it
            fight = {
                "seed": args.seed,
                "outcome": result.outcome,
                "winner": result.winner,
                "damage": result.damage,
                "attacks": result.attacks,
                "events": [e.as_dict() for e in result.events],
            }
            print(_json(fight))
            return 0
        for line in format_fight(a, b, result, names=("A", "B")):
            print(line)
        return 0
    args = _with_runs(args)
    odds = simulate(a, b, args.runs, args.seed)  # in parts: Ctrl-C stops it
    pct = odds.damage_percentiles((0.1, 0.25, 0.5, 0.75, 0.9))
    if args.json:
        out = odds.as_dict()
        out["damage_percentiles"] = {f"p{int(q * 100)}": v for q, v in pct.items()}
        print(_json(out))
        return 0
    against = f"{_one_line(args.b)} (B)" if args.b else "B"
    print(f"{odds.runs:,} fights of {_one_line(args.a)} (A) against {against}, seed {args.seed}")
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


def _with_runs(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with ``--runs`` at its default when not given (None tells
    ``--trace`` that it was not)."""
    if args.runs is None:
        args.runs = COMBAT_RUNS
    return args


def _arrange(a, b, args: argparse.Namespace) -> int:  # a, b: combat_c.Board
    """``bgsim combat --arrange``: the best order of A against B and its gain."""
    from agents.board_order import EXHAUSTIVE, best_order

    if args.runs < 1:
        raise CommandError("--runs must be at least 1")
    if len(a.minions) < 2:
        raise CommandError(f"{args.a}: --arrange needs at least two minions on board A")
    found = best_order(a, b, args.runs, args.seed)
    names = [m.name + (" (golden)" if m.golden else "") for m in found.board.minions]
    given_names = [m.name + (" (golden)" if m.golden else "") for m in a.minions]
    if args.json:
        print(
            _json(
                {
                    "order": list(found.order),
                    "minions": names,
                    "board": found.board.to_spec(),
                    "given": found.given.as_dict(),
                    "best": found.best.as_dict(),
                    "orders_tried": found.tried,
                    "exhaustive": found.exhaustive,
                    "search_score_given": found.searched_given,
                    "search_score_best": found.searched_best,
                }
            )
        )
        return 0
    how = (
        f"every order ({found.tried} distinct)"
        if found.exhaustive
        else f"a hill-climb over single moves ({found.tried} order{'s' * (found.tried != 1)}; "
        f"boards of {EXHAUSTIVE + 1}+ minions)"
    )
    against = _one_line(args.b) if args.b else "B"
    print(f"best order of {_one_line(args.a)} (A) against {against}, seed {args.seed}:")
    print(f"  searched {how}, {args.runs:,} fights each")
    print(f"  given: {' | '.join(given_names)}")
    if found.changed:
        print(f"  best:  {' | '.join(names)}")
        print(f"         (the given slots {' '.join(str(i + 1) for i in found.order)})")
    else:
        print("  best:  the given order (no order found fights better)")
    print(f"checked on {args.runs:,} fresh fights (another seed) for both orders:")
    rows = [("given order", found.given), ("best order", found.best)]
    print(
        f"  {'':12s} {'A wins':>7s} {'tie':>7s} {'B wins':>7s} "
        f"{'A kills B':>10s} {'B kills A':>10s}"
    )
    for label, o in rows:
        print(
            f"  {label:12s} {o.win:7.1%} {o.tie:7.1%} {o.loss:7.1%} "
            f"{o.lethal_dealt:10.1%} {o.lethal_taken:10.1%}"
        )
    g, bst = found.given, found.best
    print(
        f"  {'best-given':12s} {100 * (bst.win - g.win):+6.1f}  {100 * (bst.tie - g.tie):+6.1f}  "
        f"{100 * (bst.loss - g.loss):+6.1f}  {100 * (bst.lethal_dealt - g.lethal_dealt):+9.1f}  "
        f"{100 * (bst.lethal_taken - g.lethal_taken):+9.1f}   (percentage points)"
    )
    return 0


_BUILDS = {
    "compiled": "compiled with mypyc",
    "pure": "pure Python (no compiled build, or BGSIM_PURE=1)",
    "stale": "pure Python (their sources changed since the build: reinstall to recompile)",
}


def _cmd_bench(args: argparse.Namespace) -> int:
    from bgsim import bench

    which = args.what
    results = {}
    log = None if args.json else print
    if log and which != "combat":
        print(f"recruit rules and agents: {_BUILDS[compiled.status()]}")
    if which in ("combat", "all"):
        if log:
            print("combat engine (resolved combats per second, one core)")
        results["combat"] = bench.bench_combat(args.seconds, log)
    if which in ("lobby", "all"):
        from agents.bench import bench_lobby

        heroes = args.heroes == "on"
        if log:
            with_heroes = ", with heroes" if heroes else ""
            print(
                f"eight-player lobbies, random agents{with_heroes} "
                f"(one core, CPU time, fastest of {args.repeat} runs per lobby)"
            )
        r = results["lobby"] = bench_lobby(args.lobbies, seed=0, heroes=heroes, repeat=args.repeat)
        if log:
            print(
                f"  {r['lobbies_per_second']:.1f} lobbies/s "
                f"({r['lobbies']} lobbies, {r['turns_per_lobby']:.1f} turns each)"
            )
    if which in ("mcts", "all"):
        from agents.bench import bench_mcts

        if log:
            print(
                "MCTS iterations per second on fixed positions "
                f"(one core, best of {args.repeat} runs each)"
            )
        r = results["mcts"] = bench_mcts(args.iterations, repeat=args.repeat)
        if log:
            for name, rate in r["iterations_per_second"].items():
                print(f"  {name:10s} {rate:10,.0f} iterations/s")
            print(f"  {'total':10s} {r['total_iterations_per_second']:10,.0f} iterations/s")
    if which == "env":
        try:
            from bgsim.envs.bench import bench_env
        except ImportError as exc:  # the rl extra is not installed
            raise CommandError(str(exc)) from None
        results["env"] = bench_env(
            args.lobbies, repeat=args.repeat, log=log, heroes=args.heroes != "off"
        )
    if args.json:
        print(_json(results if which == "all" else results[which], indent=1))
    return 0


def _checked_lineup(text: str) -> None:
    """A lineup of the shipped ruleset, every agent built once (``belief``,
    ``value``): a bad option is one line before any game is played."""
    from bgsim.registry import LineupError, check_lineup, parse_lineup

    try:
        check_lineup(parse_lineup(text))
    except LineupError as exc:
        raise CommandError(str(exc)) from None


def _cmd_belief(args: argparse.Namespace) -> int:
    from agents.belief_eval import fit_development, measure_belief

    _checked_lineup(args.lineup)
    if args.fit:
        path = _model_out(args.out, "belief.json")
        dev = fit_development(args.games, args.seed, args.lineup, heroes=args.heroes == "on")
        if not dev.size:
            raise CommandError(
                f"{args.games} lobbies leave no turn with the 20 boards a fit needs; "
                "play more (--games 3 at least)"
            )
        _write_model(path, dev.to_json())
        print(f"wrote {_one_line(str(path))} ({dev.fitted_on})")
        print(_use_it("belief=", path, "(greedy takes belief= too)"))
        return 0
    if args.out is not None:
        raise CommandError("--out goes with --fit (it names the refitted table's file)")
    result = measure_belief(
        args.games, args.seed, args.lineup, guesses=args.guesses, heroes=args.heroes == "on"
    )
    if args.json:
        print(_json(result))
        return 0
    print(
        f"{result['pairs']} (observer, opponent) pairs over {args.games} lobbies of {args.lineup}"
        f"{' with heroes' if result['heroes'] else ''}"
    )
    key = f"mae_mean_of_{args.guesses}_guesses"
    print("  mean |P(win vs guessed board) - P(win vs true board)|:")
    print(f"    one guess (what one MCTS iteration sees): {result['mae_one_guess']:.3f}")
    print(f"    mean of {args.guesses} guesses:                      {result[key]:.3f}")
    return 0


def _cmd_value(args: argparse.Namespace) -> int:
    from agents.value import fit_value_model

    _checked_lineup(args.lineup)
    path = _model_out(args.out, "value_model.json")
    try:
        model, report = fit_value_model(
            args.games, args.seed, args.lineup, heroes=args.heroes == "on"
        )
    except ValueError as exc:  # too few samples to fit every stage
        raise CommandError(f"{exc}; play more lobbies (--games)") from None
    _write_model(path, model.to_json())
    print(f"wrote {_one_line(str(path))} ({model.fitted_on})")
    print(_use_it("value=model,value_model=", path))
    print(
        f"  {report['samples']} samples; mean |placement error| {report['mean_abs_error']:.2f} "
        f"(guessing 4.5 every time: {report['baseline_error']:.2f})"
    )
    return 0


def _model_out(out: str | None, name: str) -> Path:
    """Where a refitted model goes: ``--out``, else the user's data folder
    (never the installed package's own data); checked before the work."""
    from bgsim.outputs import output_file
    from bgsim.resources import user_data_dir

    if out is not None:
        return output_file(out, "--out", make=False)
    return output_file(user_data_dir() / name, "model file", make=False)


def _use_it(options: str, path: Path, after: str = "") -> str:
    """The lineup that plays a refitted model (``options`` ending in the
    option that takes ``path``), when the path fits in one: a lineup splits
    options at commas and ends them at a bracket."""
    text = str(path)
    if any(c in text for c in ',]"') or _one_line(text) != text:
        return (
            "use it: its path holds a comma, bracket, quote or control character; "
            "copy the file to a plain name to give it in a lineup"
        )
    tail = f" {after}" if after else ""
    return f'use it: --lineup "mcts[{options}{text}]:1,heuristic:7"{tail}'


def _write_model(path: Path, text: str) -> None:
    """Write a refitted model through a temporary file (``bgsim.outputs``)."""
    from bgsim.outputs import atomic_write, output_file

    with atomic_write(output_file(path, "--out")) as f:
        f.write(text)


def _rules(args: argparse.Namespace):  # -> bgsim.Ruleset
    """The ruleset named by ``--ruleset``, else the shipped one."""
    from bgsim.ruleset import RulesetError, load_ruleset

    try:
        return load_ruleset(args.ruleset)
    except RulesetError as exc:
        raise CommandError(str(exc)) from None


def _budget(text: str | None):  # -> bgsim.Budget | None
    from bgsim.agent import Budget, BudgetError

    try:
        return Budget.parse(text)
    except BudgetError as exc:
        raise CommandError(str(exc)) from None


def _custom_agents(args: argparse.Namespace) -> dict[str, str]:
    """The ``--agent NAME=module:Class`` options as {name: target}."""
    from bgsim.registry import LineupError, parse_agent_option

    agents: dict[str, str] = {}
    for text in args.agent:
        try:
            name, target = parse_agent_option(text)
        except LineupError as exc:
            raise CommandError(str(exc)) from None
        if name in agents:
            raise CommandError(f"--agent {name}=... is given twice")
        agents[name] = target
    return agents


def _seats(args: argparse.Namespace, rules, budget):  # -> tuple[AgentSpec, ...]
    """The lineup's seats, every agent built once to check its options."""
    from bgsim.registry import LineupError, check_lineup, parse_lineup

    try:
        seats = parse_lineup(args.lineup, rules.lobby.players, _custom_agents(args))
        check_lineup(seats, budget=budget)
    except LineupError as exc:
        raise CommandError(str(exc)) from None
    return tuple(seats)


def _cmd_play(args: argparse.Namespace) -> int:
    from agents.arena import GameTask, play_game
    from bgsim.outputs import output_file

    rules = _rules(args)
    budget = _budget(args.budget)
    seats = _seats(args, rules, budget)
    replay = (
        output_file(args.replay, "replay file", make=False) if args.replay is not None else None
    )
    task = GameTask(
        "play",
        0,
        args.seed,  # the lobby's own seed: the game of bgsim.Lobby(seed, heroes=...)
        seats,
        budget,
        None if replay is None else str(replay.parent),
        rules,
        heroes=args.heroes == "on",
        replay_name=None if replay is None else replay.name,
    )
    record = play_game(task)  # writes the replay (if asked) to that very file
    order = sorted(range(len(seats)), key=lambda p: record.placements[p])
    print(f"lobby seed {args.seed}: {record.turns} turns, {record.seconds:.1f} s")
    names = {}
    if task.heroes:
        from bgsim.heroes import heroes

        names = {h.id: h.name for h in heroes().values()}
    for p in order:
        hero = names.get(record.heroes[p]) if p < len(record.heroes) else None
        who = record.seats[p] + (f", {hero}" if hero else "")
        print(f"  {record.placements[p]}. player {p + 1} ({who})")
    if args.replay is not None:
        shown = _one_line(args.replay)
        print(f"replay: {shown}\nwatch it: bgsim watch {shown}")
    return 0


def _results_file(name: str) -> None:
    """A one-line error unless ``name`` is an existing results file to read,
    saying what it is instead (checked before any output is)."""
    from agents.results_db import results_file_mode
    from combat_c.guarded import shown_path

    if not name:
        raise CommandError("no results file given (an empty path)")
    try:
        results_file_mode(name, readonly=True)
    except ValueError:  # a NUL in the name
        raise CommandError(f"{shown_path(name)}: not a usable path") from None


def _missing_from(folder: Path | None) -> Path | None:
    """The outermost folder of ``folder``'s path that does not exist yet
    (what making it will make), or None."""
    if folder is None or folder.exists():
        return None
    top = folder.absolute()
    while not top.parent.exists():
        top = top.parent
    return top


@contextlib.contextmanager
def _dropped_if_empty(folder: Path | None, made: Path | None) -> Iterator[None]:
    """Afterwards remove the folders from ``folder`` up to ``made`` (those
    this command made) while nothing was written into them: a tournament
    that stored no game leaves no folder."""
    try:
        yield
    finally:
        if folder is not None and made is not None:
            at = folder.absolute()
            with contextlib.suppress(OSError):
                while True:
                    at.rmdir()  # only an empty folder goes
                    if at == made or at.parent == at:
                        break
                    at = at.parent


def _interrupted(db, tour, where: object) -> int:  # agents' ResultsDB and Tournament
    """Say how far an interrupted run got (exit code 130). One that stored no
    game goes on as an interruption, so that the database (and folder) the
    command made is removed as the block holding it unwinds."""
    done = len(db.finished(tour.run))
    if not done:
        raise KeyboardInterrupt("no game of this run was stored")
    print(
        f"\ninterrupted: {done} of {tour.games} games are stored in {where}; "
        "run the same command again to resume",
        file=sys.stderr,
    )
    return 130


def _cmd_tournament(args: argparse.Namespace) -> int:
    with _stdout_kept_for(args.json) as emit:
        return _tournament(args, emit)


@contextlib.contextmanager
def _stdout_kept_for(active: bool) -> Iterator[Callable[[str], None]]:
    """With ``active`` (``--json``), whatever else is printed while the block
    runs (an agent's own prints, in this process or a worker) goes to stderr,
    and the function yielded writes to the real stdout: the JSON document
    stays alone there, for a program to read."""
    if not active:
        yield print
        return
    real = sys.stdout
    real.flush()
    saved: int | None = None
    with contextlib.suppress(AttributeError, OSError, ValueError):  # not a file: a capture
        if real.fileno() == 1:
            saved = os.dup(1)
            os.dup2(2, 1)  # workers inherit it

    def emit(text: str) -> None:
        if saved is None:
            print(text, file=real)
            return
        with os.fdopen(os.dup(saved), "w", encoding="utf-8", errors="backslashreplace") as out:
            out.write(text + "\n")

    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield emit
    finally:
        sys.stderr.flush()
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


def _tournament(args: argparse.Namespace, emit: Callable[[str], None]) -> int:
    from agents.arena import Tournament, run_tournament
    from agents.results_db import ResultsDB, ResultsError
    from bgsim.agent import AgentError
    from bgsim.outputs import output_dir
    from bgsim.registry import LineupError

    if args.address is not None and args.backend != "ray":
        raise CommandError("--address goes with --backend ray (it names a Ray cluster)")
    if args.address is not None:
        from agents.arena import check_ray_address

        try:
            check_ray_address(args.address)
        except LineupError as exc:
            raise CommandError(str(exc)) from None
    rules = _rules(args)
    budget = _budget(args.budget)
    if args.replays is not None:
        output_dir(args.replays, "replay folder", make=False)  # "" is no folder, not "."
    try:
        tour = Tournament(
            args.lineup,
            args.games,
            rules,
            seed=args.seed,
            budget=budget,
            replays=Path(args.replays) if args.replays is not None else None,
            agents=_custom_agents(args),
            heroes=args.heroes == "on",
        )
    except LineupError as exc:
        raise CommandError(str(exc)) from None
    made = _missing_from(tour.replays)
    if tour.replays is not None:
        output_dir(tour.replays, "replay folder")  # made before the database, which it may stop
    with _dropped_if_empty(tour.replays, made):
        try:
            db = ResultsDB(args.db)
        except ResultsError as exc:
            raise CommandError(str(exc)) from None
        with db:
            if not args.json:
                for run, stored, changed in tour.changed_code(db):
                    print(
                        f"note: {_one_line(args.db)} holds run {run} of this lineup "
                        f"({stored} games) played by other code or options of "
                        f"{', '.join(changed)}; starting a new run"
                    )
            before = len(db.finished(tour.run) & set(range(tour.games)))
            if before and not args.json:
                where = _one_line(args.db)
                print(f"resuming: {before} of {tour.games} games already in {where}")
            try:
                summary = run_tournament(
                    tour,
                    db,
                    workers=args.workers,
                    backend=args.backend,
                    address=args.address,
                    progress=not args.json,
                )
            except KeyboardInterrupt:
                return _interrupted(db, tour, args.db)
            except LineupError as exc:
                raise CommandError(str(exc)) from None
            except AgentError as exc:
                done = len(db.finished(tour.run))
                if not done:  # a database this command made is removed again (ResultsDB)
                    raise CommandError(f"{exc}; no game of this run is stored") from None
                raise CommandError(
                    f"{exc}; {done} of {tour.games} games are stored in {args.db}"
                ) from None
            by_hero = {}
            if tour.heroes:
                from agents.arena import summarize_heroes

                by_hero = summarize_heroes(r for r in db.games([tour.run]) if r.game < tour.games)
    if args.json:
        keys = ["mean_placement", "ci_low", "ci_high", "top4", "top4_low", "top4_high"]
        keys += ["win", "win_low", "win_high"]
        out: dict = {
            "run": tour.run,
            "games": tour.games,
            "seed": args.seed,
            "lineup": args.lineup,
            # Per agent label: the seats it held over the games (``seats``), the
            # games it played in (``lobbies``), and the figures of the table.
            "agents": {
                label: {"seats": r["games"], "lobbies": r["lobbies"], **{f: r[f] for f in keys}}
                for label, r in summary.items()
            },
        }
        if tour.heroes:
            from bgsim.heroes import heroes

            out["heroes"] = {h: {"name": heroes()[h].name, **r} for h, r in by_hero.items()}
        emit(_json(out))
        return 0
    where = _one_line(args.db)
    print(f"{tour.games} games, lineup {args.lineup}, seed {args.seed}, results in {where}")
    _table(
        ("agent", "seats", "mean place (95% CI)", "top-4 (95% CI)", "win (95% CI)"),
        [
            (
                label,
                str(r["games"]),
                f"{r['mean_placement']:.2f} ({_ci(r['ci_low'], r['ci_high'])})",
                f"{r['top4']:.1%} ({r['top4_low']:.0%}-{r['top4_high']:.0%})",
                f"{r['win']:.1%} ({r['win_low']:.0%}-{r['win_high']:.0%})",
            )
            for label, r in summary.items()
        ],
    )
    if tour.heroes:
        from bgsim.heroes import heroes

        print()
        _table(
            ("hero", "games", "mean place (95% CI)", "top-4", "power uses/game"),
            [
                (
                    heroes()[hero].name,
                    str(r["games"]),
                    f"{r['mean_placement']:.2f} ({_ci(r['ci_low'], r['ci_high'])})",
                    f"{r['top4']:.1%}",
                    f"{r['power_uses']:.1f}",
                )
                for hero, r in sorted(by_hero.items(), key=lambda kv: kv[1]["mean_placement"])
            ],
        )  # best first
    return 0


def _ci(low: float, high: float) -> str:
    """A mean's interval, or why there is none (one lobby)."""
    if low != low or high != high:  # nan: fewer than two lobbies
        return "one lobby"
    return f"{low:.2f}-{high:.2f}"


def _table(
    header: tuple[str, ...], rows: list[tuple[str, ...]], left: tuple[int, ...] = (0,)
) -> None:
    """Print rows under a header: the ``left`` columns left-aligned, the rest
    (numbers) right-aligned; control characters (from a damaged results
    file, say) shown escaped."""
    rows = [tuple(_one_line(c) for c in row) for row in rows]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    for row in (header, *rows):
        cells = [
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())


def _cmd_heroes(args: argparse.Namespace) -> int:
    from bgsim.cards import cards
    from bgsim.heroes import heroes, power_text
    from combat_c import SECRET_NAMES

    listed = list(heroes().values())
    db = cards()
    secrets = sorted(SECRET_NAMES, key=lambda s: db[s].name)
    if args.json:
        print(
            _json(
                {
                    "heroes": [
                        {
                            "id": h.id,
                            "name": h.name,
                            "health": h.health,
                            "hero_power": {
                                "id": h.power.id,
                                "name": h.power.name,
                                "cost": h.power.cost,
                                "text": h.power.text,
                                "passive": h.power.passive,
                                "counter_start": h.power.counter_start,
                            },
                        }
                        for h in listed
                    ],
                    "secrets": [{"id": s, "name": db[s].name, "text": db[s].text} for s in secrets],
                }
            )
        )
        return 0
    _table(
        ("hero", "id", "health", "hero power", "cost", "text"),
        [
            (
                h.name,
                h.id,
                str(h.health),
                h.power.name + (" (passive)" if h.power.passive else ""),
                str(h.power.cost),
                power_text(h.power.text, h.power.counter_start),
            )
            for h in sorted(listed, key=lambda h: h.name)
        ],
        left=(0, 1, 3, 5),
    )
    print(f"{len(listed)} heroes")
    print("\nSecrets, for a board spec's hero that can hold them:")
    _table(("secret", "id", "text"), [(db[s].name, s, db[s].text) for s in secrets], left=(0, 1, 2))
    return 0


COMBAT_RUNS = 10_000  # bgsim combat's fights when --runs is not given
_PLAYERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _cmd_demo(args: argparse.Namespace) -> int:
    """The README's main job: a short real tournament, its plots and one replay."""
    from agents.arena import GameTask, Tournament, play_game, run_tournament
    from agents.results_db import ResultsDB
    from bgsim.outputs import output_dir, output_file
    from bgsim.registry import LineupError, accepted_options, agent_class
    from bgsim.seeds import derive_seed
    from viz.plots import write_plots

    rules = _rules(args)
    budget = _budget(args.budget)
    try:
        tour = Tournament(
            args.lineup,
            args.games,
            rules,
            seed=args.seed,
            budget=budget,
            agents=_custom_agents(args),
            heroes=args.heroes == "on",
        )
    except LineupError as exc:
        raise CommandError(str(exc)) from None
    made = not Path(args.out).exists()
    out = output_dir(args.out)
    db_path = out / "results.db"
    # Every output is checked before the games, which take minutes.
    output_dir(out / "plots", "plots folder", make=False)
    output_file(out / "report.html", "report file", make=False)
    output_file(out / "replay.jsonl", "replay file", make=False)
    searches = any("budget" in accepted_options(agent_class(spec)) for spec in set(tour.specs))
    searching = f" (MCTS budget {budget})" if searches else ""
    size = _PLAYERS.get(rules.lobby.players, str(rules.lobby.players))
    print(f"playing {args.games} {size}-player lobbies: {args.lineup}{searching}")
    try:
        with ResultsDB(db_path) as db:
            try:
                summary = run_tournament(tour, db, workers=args.workers)
            except KeyboardInterrupt:
                return _interrupted(db, tour, db_path)
    except BaseException:
        if made:  # the folder this run made holds nothing now (ResultsDB removed its file)
            with contextlib.suppress(OSError):
                out.rmdir()
        raise
    print(f"{'agent':24s} {'seats':>5s}  {'mean place':>10s}  {'top-4':>6s}  {'win':>6s}")
    for label, r in summary.items():
        print(
            f"{label:24s} {r['games']:5d}  {r['mean_placement']:10.2f}  "
            f"{r['top4']:6.1%}  {r['win']:6.1%}"
        )
    try:
        written, _ = write_plots(db_path, out / "plots", png=False)
        from viz.report import write_report

        report = write_report(db_path, out / "report.html", [tour.run], source=db_path.name)
        seats = tuple(tour.specs)
        task = GameTask(
            "demo",
            0,
            derive_seed("demo", args.seed),
            seats,
            budget,
            str(out),
            rules,
            heroes=tour.heroes,
            replay_name="replay.jsonl",
        )
        play_game(task)
    except KeyboardInterrupt:
        where = _one_line(str(db_path))
        print(
            f"\ninterrupted after the games: all {tour.games} are stored in {where}; "
            "what was still to come (plots, report or replay) is not written: "
            "bgsim plot and bgsim report make the first two from that file",
            file=sys.stderr,
        )
        return 130
    replay = out / "replay.jsonl"
    shown = _one_line(str(replay))
    print(f"\nresults:  {_one_line(str(db_path))}")
    print(f"plots:    {_one_line(str(out / 'plots'))}/ ({', '.join(p.name for p in written)})")
    print(f"report:   {_one_line(str(report))} (one file, works offline)")
    print(f"replay:   {shown}")
    print(f"\nwatch the replay:  bgsim watch {shown}")
    return 0


def _cmd_watch(args: argparse.Namespace) -> int:
    from viz.app import main as watch
    from viz.app import parse_point

    try:
        hover = None if args.hover is None else parse_point(args.hover)
    except ValueError as exc:
        raise CommandError(f"--hover: {exc}") from None
    return watch(
        args.file,
        screenshot=args.screenshot,
        at=args.at,
        player=args.player,
        speed=args.speed,
        turn=args.turn,
        fight=args.fight,
        hover=hover,
    )


def _cmd_replay_verify(args: argparse.Namespace) -> int:
    """Play a replay's game again from its seed and actions and compare."""
    from bgsim.replay import ReplayError, read_replay, verify_replay

    try:
        replay = read_replay(args.file)
    except ReplayError as exc:
        raise CommandError(str(exc)) from None
    problem = verify_replay(replay, args.file)
    if problem is not None:
        print(f"bgsim replay verify: {problem}", file=sys.stderr)
        return 1
    print(
        f"{_one_line(args.file)}: verified: its {len(replay.records)} records are the game of seed "
        f"{replay.header['seed']} played again"
    )
    return 0


def _cmd_plot(args: argparse.Namespace) -> int:
    from agents.results_db import ResultsError
    from bgsim.outputs import output_dir
    from viz.plots import write_plots

    _results_file(args.db)
    output_dir(args.out, "plot folder", make=False)  # checked before the database is read
    made = _missing_from(Path(args.out))
    try:
        with _dropped_if_empty(Path(args.out), made):  # interrupted before a figure is written
            written, png_problem = write_plots(args.db, args.out, png=args.png, runs=args.run)
    except (ResultsError, ValueError) as exc:
        raise CommandError(str(exc)) from None
    for path in written:
        print(f"wrote {_one_line(str(path))}")
    if png_problem:
        print(f"note: {png_problem}; the HTML plots are complete")
    return 0


def _cmd_runs(args: argparse.Namespace) -> int:
    from agents.results_db import ResultsDB, ResultsError
    from agents.runs import load_runs

    _results_file(args.db)
    try:
        with ResultsDB(args.db, readonly=True) as db:  # no schema, journal or -wal written
            runs = load_runs(db)
    except ResultsError as exc:
        raise CommandError(str(exc)) from None
    if args.json:
        print(
            _json(
                [
                    {
                        "run": r.run,
                        "lineup": r.lineup,
                        "games": r.games,
                        "planned": r.planned,
                        "seed": r.seed,
                        "budget": r.options.get("budget"),
                        "ruleset": r.options.get("ruleset"),
                        "heroes": bool(r.options.get("heroes")),
                        "created": r.created,
                        "fingerprints": r.fingerprints,
                    }
                    for r in runs
                ]
            )
        )
        return 0
    if not runs:
        print(f"{_one_line(args.db)} holds no runs")
        return 0
    where = _one_line(args.db)
    print(f"{len(runs)} run{'s' if len(runs) != 1 else ''} in {where} (oldest first)")
    _table(
        ("run", "started", "games", "seed", "budget", "heroes", "lineup"),
        [
            (
                r.run,
                r.date,
                f"{r.games}/{r.planned}" if r.planned is not None else str(r.games),
                str(r.seed),
                r.budget,
                "on" if r.options.get("heroes") else "off",
                r.lineup,
            )
            for r in runs
        ],
        left=(0, 1, 6),
    )
    print("\nagent fingerprints (code and options; bgsim: the game's own code):")
    for r in runs:
        prints = ", ".join(f"{k} {v}" for k, v in sorted(r.fingerprints.items()))
        print(f"  {_one_line(r.run)}: {_one_line(prints) or 'none recorded'}")
    run = _one_line(runs[-1].run[:6])
    print(f"\nreport one of them: bgsim report {where} --run {run} --out report.html")
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    from agents.results_db import ResultsError
    from bgsim.outputs import output_file
    from viz.report import write_report

    _results_file(args.db)
    # Checked before the database is read; a missing folder is made once the page is built.
    out = output_file(args.out, "--out", make=False)
    try:
        path = write_report(args.db, out, args.run or (), source=args.db)
    except (ResultsError, ValueError) as exc:
        raise CommandError(str(exc)) from None
    size = path.stat().st_size / 1e6
    shown = _one_line(str(path))
    print(f"wrote {shown} ({size:.1f} MB, one self-contained page: open it in a browser)")
    return 0


# The public modules the API reference documents (bgsim's private core is
# documented through the names the package root re-exports).
API_MODULES = (
    "bgsim",
    "bgsim.registry",
    "bgsim.replay",
    "bgsim.seeds",
    "agents",
    "combat_c",
    "!bgsim._core",
)
RL_MODULES = ("bgsim.envs", "bgsim.envs.gym_env", "bgsim.envs.encoding")  # with the rl extra


def _cmd_docs(args: argparse.Namespace) -> int:
    """Write the API reference (HTML) with pdoc, from the Python sources."""
    import importlib.util
    import shutil
    import subprocess
    import tempfile

    from bgsim.outputs import output_dir

    if importlib.util.find_spec("pdoc") is None:
        raise CommandError("the API reference needs pdoc: pip install 'bgsim[docs]'")
    out = output_dir(args.out, "--out", make=False)
    rl = all(importlib.util.find_spec(m) for m in ("gymnasium", "pettingzoo"))
    modules = API_MODULES + (RL_MODULES if rl else ())
    # pdoc writes into a scratch folder beside the target, moved into place
    # only once complete: a failed or interrupted run leaves nothing behind.
    near = out
    while not near.exists():
        near = near.parent
    scratch = Path(tempfile.mkdtemp(prefix=".bgsim-docs-", dir=near))
    try:
        # From the sources, so that every signature shows (compiled functions hide theirs).
        # -P: the installed bgsim, even where the current folder holds one named so (a
        # clone's parent folder), which `python -m` would otherwise import first.
        env = {**os.environ, "BGSIM_PURE": "1"}
        done = subprocess.run(
            [sys.executable, "-P", "-m", "pdoc", *modules, "--no-show-source", "-o", str(scratch)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["pdoc failed"])[-1]
            raise CommandError(f"pdoc failed: {last}")
        _move_into(scratch, out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    shown = _one_line(str(out))
    print(f"wrote the API reference to {shown}/ (open {_one_line(str(out / 'index.html'))})")
    return 0


def _move_into(source: Path, target: Path) -> None:
    """Move the files of folder ``source`` into folder ``target`` (made if
    missing; files of the same name replaced, others kept)."""
    target.mkdir(parents=True, exist_ok=True)
    for item in source.iterdir():
        there = target / item.name
        if item.is_dir() and there.is_dir():
            _move_into(item, there)
        else:
            os.replace(item, there)


# The option types that hold every size to the bounds of bgsim.limits, which
# --help states.
_RUNS = int_in(1, MAX_RUNS, "--runs")
_SEED = int_in(0, MAX_SEED, "--seed")
_SEED_HELP = "{} (0..2**63-1)"
_GAMES = int_in(1, MAX_GAMES, "--games")
_GAMES_SPAN = f"(1..{MAX_GAMES:,})"
_WORKERS = int_in(1, MAX_WORKERS, "--workers")
_WORKERS_SPAN = f"(1..{MAX_WORKERS})"
_BUDGET_SPAN = (
    f"search budget per turn: seconds like 0.5s (at most {MAX_SECONDS:g}) "
    f"or iterations like 2000it (at most {MAX_ITERATIONS:,})"
)
_BUDGET_HELP = f"{_BUDGET_SPAN} (default: each agent's own; mcts: 2000it)"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bgsim")
    except PackageNotFoundError:  # the source tree, not installed
        return "(not installed)"


LINEUP_HELP = (
    'agents and their seats, eight in all, e.g. "mcts:1,heuristic:7"; options go in '
    'brackets: "mcts[c=0.5,cheat]:1,heuristic[curve=fast]:7". {agents}'
)


def lineup_agents_help() -> str:
    """The agents a lineup may name, each with its options (for ``--help``).

    >>> "mcts [" in lineup_agents_help() and "value_model" in lineup_agents_help()
    True
    """
    from bgsim.registry import LineupError, accepted_options, agent_class, known_agents, parse_spec

    items = []
    for name in sorted(known_agents()):
        try:
            options = accepted_options(agent_class(parse_spec(name)))
        except LineupError:
            options = ()
        items.append(f"{name} [{', '.join(options)}]" if options else name)
    return "Agents [options]: " + "; ".join(items) + "."


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows every option's default (when it has one and its help does not
    already say it) and the lineup's agents with their options."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "{agents}" in text:
            text = text.replace("{agents}", lineup_agents_help())
        default = action.default
        if (
            "default" in text
            or default is None
            or default is False
            or default == []
            or default is argparse.SUPPRESS
            or not action.option_strings
        ):
            return text
        return text + " (default: %(default)s)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bgsim",
        description="Hearthstone Battlegrounds simulator and agent lab (patch 20.0).",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
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
    combat.add_argument("a", help="board spec JSON file of side A (or a fight file with a and b)")
    combat.add_argument("b", nargs="?", help="board spec JSON file of side B")
    combat.add_argument(
        "--runs",
        type=_RUNS,
        help=f"fights to simulate (1..{MAX_RUNS:,}) (default: {COMBAT_RUNS})",
    )
    combat.add_argument("--seed", type=_SEED, default=0, help=_SEED_HELP.format("random seed"))
    combat.add_argument("--json", action="store_true", help="print one JSON object")
    combat.add_argument("--trace", action="store_true", help="print one fight event by event")
    combat.add_argument(
        "--arrange",
        action="store_true",
        help="find the best left-to-right order of board A against B (--runs fights per order, "
        "the same seed for every order) and print its gain in win and lethal odds",
    )
    combat.set_defaults(func=_cmd_combat)

    bench = sub.add_parser("bench", help="performance figures (per core)")
    bench.add_argument(
        "what", nargs="?", default="all", choices=("all", "combat", "lobby", "mcts", "env")
    )
    bench.add_argument(
        "--iterations",
        type=int_in(1, MAX_ITERATIONS, "--iterations"),
        default=2000,
        help=f"MCTS iterations per position (1..{MAX_ITERATIONS:,})",
    )
    bench.add_argument(
        "--lobbies",
        type=_GAMES,
        default=20,
        help=f"lobbies for the lobby/env figures {_GAMES_SPAN}",
    )
    bench.add_argument(
        "--repeat",
        type=int_in(1, MAX_REPEAT, "--repeat"),
        default=3,
        help=f"runs per lobby, MCTS position or env set, the fastest counts (1..{MAX_REPEAT})",
    )
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.add_argument(
        "--seconds",
        type=float_in(MAX_SECONDS, "--seconds"),
        default=1.0,
        help=f"time per combat measurement (above 0, at most {MAX_SECONDS:g})",
    )
    bench.add_argument(
        "--heroes",
        choices=("on", "off"),
        default=None,
        help="play with heroes (the draft and hero powers); default: off for the lobby "
        "figure (its history is hero-less), on for the env figure (as the environments play)",
    )
    bench.set_defaults(func=_cmd_bench)

    lineup_help = LINEUP_HELP
    play = sub.add_parser("play", help="play one eight-player lobby")
    play.add_argument("--lineup", default="heuristic:1,greedy:1,random:6", help=lineup_help)
    play.add_argument(
        "--seed",
        type=int_in(0, MAX_LOBBY_SEED, "--seed"),
        default=0,
        help="lobby seed, as bgsim.Lobby(seed) takes it (0..2**64-1)",
    )
    play.add_argument("--budget", help=_BUDGET_HELP)
    play.add_argument("--replay", help="write the game's replay to this .jsonl file")
    play.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME=module:Class",
        help="make an agent class usable in the lineup under NAME (repeatable)",
    )
    play.add_argument(
        "--heroes",
        choices=("on", "off"),
        default="on",
        help="play with heroes: a draft before turn 1 and hero powers (default: on; "
        "off plays the hero-less variant)",
    )
    play.add_argument(
        "--ruleset", metavar="TOML", help="play by this ruleset file (default: the shipped one)"
    )
    play.set_defaults(func=_cmd_play)

    tour = sub.add_parser("tournament", help="many lobbies, stored in SQLite, with a summary")
    tour.add_argument("--lineup", required=True, help=lineup_help)
    tour.add_argument(
        "--games", type=_GAMES, required=True, help=f"number of lobbies {_GAMES_SPAN}"
    )
    tour.add_argument(
        "--seed", type=_SEED, default=0, help=_SEED_HELP.format("base seed (shared across lineups)")
    )
    tour.add_argument(
        "--workers", type=_WORKERS, default=1, help=f"processes (or Ray CPUs) {_WORKERS_SPAN}"
    )
    tour.add_argument("--db", default="results.db", help="SQLite results file (resumable)")
    tour.add_argument("--budget", help=_BUDGET_HELP)
    tour.add_argument("--replays", help="write one replay per game into this directory")
    tour.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where the games run: a local process pool, or Ray",
    )
    tour.add_argument("--address", help="Ray cluster address (default: start a local Ray)")
    tour.add_argument("--json", action="store_true", help="print the summary as JSON")
    tour.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME=module:Class",
        help="make an agent class usable in the lineup under NAME (repeatable)",
    )
    tour.add_argument(
        "--heroes",
        choices=("on", "off"),
        default="on",
        help="play with heroes: a draft before turn 1 and hero powers (default: on; "
        "off plays the hero-less variant)",
    )
    tour.add_argument(
        "--ruleset", metavar="TOML", help="play by this ruleset file (default: the shipped one)"
    )
    tour.set_defaults(func=_cmd_tournament)

    demo = sub.add_parser("demo", help="a short tournament with plots, a report and a replay")
    demo.add_argument("--out", default="bgsim-demo", help="output directory")
    demo.add_argument("--lineup", default="mcts:2,heuristic:2,greedy:2,random:2", help=lineup_help)
    demo.add_argument("--games", type=_GAMES, default=16, help=f"number of lobbies {_GAMES_SPAN}")
    demo.add_argument("--workers", type=_WORKERS, default=2, help=f"processes {_WORKERS_SPAN}")
    demo.add_argument(
        "--budget",
        default="200it",
        help=f"{_BUDGET_SPAN} (iterations keep the demo reproducible; default: %(default)s)",
    )
    demo.add_argument("--seed", type=_SEED, default=0, help=_SEED_HELP.format("base seed"))
    demo.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME=module:Class",
        help="make an agent class usable in the lineup under NAME (repeatable)",
    )
    demo.add_argument(
        "--heroes",
        choices=("on", "off"),
        default="on",
        help="play with heroes: a draft before turn 1 and hero powers (default: on; "
        "off plays the hero-less variant)",
    )
    demo.add_argument(
        "--ruleset", metavar="TOML", help="play by this ruleset file (default: the shipped one)"
    )
    demo.set_defaults(func=_cmd_demo)

    watch = sub.add_parser("watch", help="watch a replay in a pygame window")
    watch.add_argument("file", help="replay .jsonl file")
    watch.add_argument("--screenshot", help="render one frame to this PNG and exit (headless)")
    watch.add_argument(
        "--player",
        type=int_in(0, 8, "--player"),
        help="player to follow (1..8, 0: every player; default: the winner)",
    )
    watch.add_argument(
        "--turn",
        type=int_in(0, 100_000, "--turn"),
        help="start at this turn (of the followed player)",
    )
    watch.add_argument(
        "--fight", action="store_true", help="start at the followed player's (first) fight"
    )
    watch.add_argument("--at", type=int_in(0, 10**9, "--at"), help="start at this frame number")
    watch.add_argument("--hover", metavar="X,Y", help="with --screenshot: the mouse at X,Y")
    watch.add_argument(
        "--speed",
        type=float_in(MAX_SPEED, "--speed"),
        default=1.0,
        help=f"animation speed (above 0, at most {MAX_SPEED:g})",
    )
    watch.set_defaults(func=_cmd_watch)

    belief = sub.add_parser("belief", help="accuracy of the guessed enemy boards")
    belief.add_argument("--games", type=_GAMES, default=20, help=f"lobbies to sample {_GAMES_SPAN}")
    belief.add_argument("--lineup", default="heuristic:8", help=lineup_help)
    belief.add_argument("--seed", type=_SEED, default=0, help=_SEED_HELP.format("base seed"))
    belief.add_argument(
        "--guesses",
        type=int_in(1, MAX_GUESSES, "--guesses"),
        default=4,
        help=f"guesses per sample (1..{MAX_GUESSES:,})",
    )
    belief.add_argument(
        "--fit",
        action="store_true",
        help="refit the belief table on these lobbies instead and write it to --out",
    )
    belief.add_argument(
        "--out",
        metavar="JSON",
        help="with --fit: the file to write (default: belief.json in the user's data folder, "
        "e.g. ~/.local/share/bgsim; load it with the agents' belief=PATH option)",
    )
    belief.add_argument(
        "--heroes",
        choices=("on", "off"),
        default="on",
        help="lobbies with heroes (default: on; the agents guess by the table of their "
        "lobby's kind, data/belief_heroes.json or data/belief.json)",
    )
    belief.add_argument("--json", action="store_true", help="print JSON")
    belief.set_defaults(func=_cmd_belief)

    value = sub.add_parser("value", help="refit the MCTS placement model and write it to --out")
    value.add_argument("--games", type=_GAMES, default=400, help=f"self-play lobbies {_GAMES_SPAN}")
    value.add_argument("--lineup", default="heuristic:8", help=lineup_help)
    value.add_argument("--seed", type=_SEED, default=0, help=_SEED_HELP.format("base seed"))
    value.add_argument(
        "--out",
        metavar="JSON",
        help="the file to write (default: value_model.json in the user's data folder, e.g. "
        "~/.local/share/bgsim; load it with mcts[value=model,value_model=PATH])",
    )
    value.add_argument(
        "--heroes",
        choices=("on", "off"),
        default="on",
        help="lobbies with heroes (default: on; fit on the kind of lobby the model will judge)",
    )
    value.set_defaults(func=_cmd_value)

    replay = sub.add_parser("replay", help="replay tools")
    replay_sub = replay.add_subparsers(dest="replay_command", metavar="ACTION")
    replay_sub.required = True
    verify = replay_sub.add_parser(
        "verify",
        help="play a replay's game again from its seed and actions; name the first "
        "record that differs (exit code 1)",
    )
    verify.add_argument("file", help="replay .jsonl file")
    verify.set_defaults(func=_cmd_replay_verify)

    run_help = (
        "a run's key, or the start of it, as `bgsim runs` lists them (repeatable: several runs "
        "side by side; default: every run, each a separate series)"
    )
    plot = sub.add_parser("plot", help="plotly HTML figures of a results database")
    plot.add_argument("db", help="results.db written by bgsim tournament")
    plot.add_argument("--run", action="extend", nargs="+", metavar="ID", help=run_help)
    plot.add_argument("--out", default="plots", help="output directory")
    plot.add_argument("--png", action="store_true", help="also write PNGs (needs kaleido)")
    plot.set_defaults(func=_cmd_plot)

    runs = sub.add_parser("runs", help="list the runs in a results database")
    runs.add_argument("db", help="results.db written by bgsim tournament")
    runs.add_argument("--json", action="store_true", help="print JSON")
    runs.set_defaults(func=_cmd_runs)

    report = sub.add_parser(
        "report", help="one self-contained HTML report of a results database (works offline)"
    )
    report.add_argument("db", help="results.db written by bgsim tournament")
    report.add_argument("--run", action="extend", nargs="+", metavar="ID", help=run_help)
    report.add_argument("--out", required=True, metavar="HTML", help="the report file to write")
    report.set_defaults(func=_cmd_report)

    hero_list = sub.add_parser("heroes", help="list the heroes with their hero powers")
    hero_list.add_argument("--json", action="store_true", help="print JSON")
    hero_list.set_defaults(func=_cmd_heroes)

    docs = sub.add_parser("docs", help="write the API reference as HTML (needs the docs extra)")
    docs.add_argument("--out", default="bgsim-api", help="output directory (default: bgsim-api)")
    docs.set_defaults(func=_cmd_docs)

    for action in parser._subparsers._group_actions if parser._subparsers else ():
        for child in getattr(action, "choices", {}).values():
            _use_formatter(child)
    return parser


def _use_formatter(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = _HelpFormatter
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _use_formatter(child)


def _command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The parser of the (sub)command ``args`` were parsed for."""
    current: Any = parser
    while True:
        subs = [a for a in current._actions if isinstance(a, argparse._SubParsersAction)]
        name = getattr(args, subs[0].dest, None) if subs else None
        if name not in (subs[0].choices if subs else {}):
            return current
        current = subs[0].choices[name]


def main(argv: Sequence[str] | None = None) -> int:
    # A file name that is not UTF-8 prints with escapes, not as an error.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")
    real = sys.stdout
    if real is not None:
        sys.stdout = cast(TextIO, _Output(real))
    try:
        return _main(argv)
    finally:
        sys.stdout = real


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    _Parser.argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # refused by the command they were given to, as its other arguments are
            _command_parser(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # --help (0) or a usage error (2), already printed
        return _flushed(exc.code if isinstance(exc.code, int) else 2)
    except _OutputError as exc:  # the help
        return _cannot_write(exc)
    return _flushed(_run(args))


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command; its exit code, with any error printed."""
    try:
        return args.func(args)
    except CommandError as exc:
        print(f"bgsim: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print(f"bgsim: interrupted{f': {exc}' if str(exc) else ''}", file=sys.stderr)
        return 130
    except _user_errors() as exc:  # the project's one-line errors, wherever raised
        print(f"bgsim: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `bgsim combat ... --trace | head`
        sys.stderr.close()
        return 0
    except _OutputError as exc:
        return _cannot_write(exc)
    except OSError as exc:  # the system refused a file: one line naming it, as above
        print(f"bgsim: error: {_one_line(_os_problem(exc))}", file=sys.stderr)
        return 2


class _OutputError(OSError):
    """Standard output refused what bgsim printed (a full disk)."""


class _Output:
    """Standard output while bgsim runs: an error writing to it, which names
    no file, is told apart from a file's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        with _refused_output():
            return self._stream.write(text)

    def flush(self) -> None:
        with _refused_output():
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def _refused_output() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _OutputError(exc.errno, exc.strerror or type(exc).__name__) from None


def _flushed(code: int) -> int:
    """``code`` once what was printed is written out; 2, said in one line,
    when standard output refuses it."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left (``| head``): nothing more to say
        _discard_stdout()
        return code
    except OSError as exc:
        return _cannot_write(exc)
    return code


def _cannot_write(exc: OSError) -> int:
    _discard_stdout()
    reason = exc.strerror or type(exc).__name__
    print(f"bgsim: error: cannot write to standard output ({reason})", file=sys.stderr)
    return 2


def _discard_stdout() -> None:
    """Point standard output at the null device, so the output still
    buffered fails no second time as Python exits."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def _one_line(message: object) -> str:
    """An error message as one line (see :func:`combat_c.guarded.one_line`)."""
    from combat_c.guarded import one_line

    return one_line(str(message))


def _os_problem(exc: OSError) -> str:
    """An operating system error as one line: the file it names, the reason.

    >>> _os_problem(FileNotFoundError(2, "No such file or directory", "x.db"))
    'x.db: No such file or directory'
    """
    reason = exc.strerror or " ".join(str(exc).split())[:200] or type(exc).__name__
    if exc.filename is None:
        return reason
    name = str(exc.filename)
    return f"{name if len(name) <= 200 else name[:200] + '...'}: {reason}"


if __name__ == "__main__":
    sys.exit(main())
