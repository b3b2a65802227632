"""Record or check a fingerprint of the engine's behaviour.

python combat_c/tools/fingerprint.py record build/fingerprint.json
python combat_c/tools/fingerprint.py check build/fingerprint.json

The fingerprint holds, for the bench fights and for deterministic random legal
boards (built like tests/test_combat_properties.py builds them), the exact
``simulate`` counts and damage histograms and the full ``resolve`` event logs.
An engine change that keeps the same rules and the same random draws in the
same order checks bit-identical.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from combat_c import CARDS, Board, Minion, resolve, simulate, tribe_mask
from combat_c.board import parse_board

ROOT = Path(__file__).resolve().parents[2]
MINIONS = [c for c in CARDS if not c.is_spell]
MAGNETS = ("BOT_312", "TB_BaconUps_032", "BOT_911", "TB_BaconUps_099")
TRIBES = ("beast", "demon", "dragon", "elemental", "mech", "murloc", "pirate")
KEYS = ("taunt", "divine_shield", "poisonous", "windfury", "reborn")


def random_minion(rng: random.Random) -> Minion:
    card = rng.choice(MINIONS)
    flags = {k: rng.random() < 0.5 for k in KEYS}
    flags["mega_windfury"] = rng.random() < 0.25
    magnetic: tuple[str, ...] = ()
    if "mech" in card.tribes:
        magnetic = tuple(rng.choice(MAGNETS) for _ in range(rng.randint(0, 2)))
    return Minion(
        card=card.id,
        golden=card.golden_id is not None and rng.random() < 0.5,
        attack=rng.randint(0, 40),
        health=rng.randint(1, 40),
        magnetic=magnetic,
        living_spores=rng.randint(0, 2),
        **flags,
    )


def random_board(rng: random.Random, plain: bool) -> Board:
    """plain: no random keywords, realistic stats (fights that last)."""
    n = rng.randint(0, 7)
    if plain:
        mins = []
        for _ in range(n):
            card = rng.choice(MINIONS)
            mins.append(
                Minion(
                    card=card.id,
                    golden=card.golden_id is not None and rng.random() < 0.2,
                    attack=rng.randint(1, 15),
                    health=rng.randint(1, 15),
                    taunt=rng.random() < 0.15,
                    divine_shield=rng.random() < 0.15,
                )
            )
        return Board(tier=rng.randint(1, 6), health=rng.randint(1, 40), minions=tuple(mins))
    return Board(
        tier=rng.randint(1, 6),
        health=rng.randint(1, 40),
        minions=tuple(random_minion(rng) for _ in range(n)),
    )


def fights() -> list[tuple[str, Board, Board, int | None]]:
    out: list[tuple[str, Board, Board, int | None]] = []
    for path in sorted((ROOT / "data/boards/bench").glob("*.json")):
        spec = json.loads(path.read_text())
        out.append((path.stem, parse_board(spec["a"]), parse_board(spec["b"]), None))
    rng = random.Random(20240501)
    for i in range(120):
        plain = i % 2 == 1
        a, b = random_board(rng, plain), random_board(rng, plain)
        tribes = None
        if rng.random() < 0.3:
            tribes = tribe_mask(sorted(rng.sample(TRIBES, rng.randint(1, 7))))
        out.append((f"random{i}", a, b, tribes))
    return out


def odds_record(o) -> list:
    return [
        o.wins,
        o.ties,
        o.losses,
        list(o.damage_dealt),
        list(o.damage_taken),
        o._raw.lethal_dealt,
        o._raw.lethal_taken,
        o._raw.sum_dealt,
        o._raw.sum_taken,
    ]


def result_record(r) -> list:
    return [
        r.winner,
        r.damage,
        r.attacks,
        list(r.survivors),
        [list(e.as_dict().values()) for e in r.events],
        [
            [
                a.won,
                [list(map(int, (p.index, p.attack, p.health))) for p in a.permanent],
                list(a.hand),
            ]
            for a in r.aftermath
        ],
    ]


def fingerprint() -> dict:
    out: dict = {}
    for k, (name, a, b, tribes) in enumerate(fights()):
        entry: dict = {}
        runs = 20000 if k < 66 else 2000
        for seed in (1, 987654321):
            entry[f"simulate_{seed}"] = odds_record(simulate(a, b, runs, seed, tribes=tribes))
        logs = [result_record(resolve(a, b, seed, tribes=tribes)) for seed in range(12)]
        entry["resolve_logs"] = logs[:3]
        entry["resolve_digest"] = hashlib.sha256(json.dumps(logs).encode()).hexdigest()
        out[name] = entry
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("record", "check"):
        print(__doc__)
        return 2
    path = Path(argv[1])
    got = fingerprint()
    if argv[0] == "record":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(got))
        print(f"recorded {len(got)} fights in {path}")
        return 0
    want = json.loads(path.read_text())
    bad = [name for name in want if json.loads(json.dumps(got.get(name))) != want[name]]
    for name in bad[:10]:
        for key in want[name]:
            if json.loads(json.dumps(got[name][key])) != want[name][key]:
                print(f"DIFFERS: {name} {key}")
    print(f"{len(want) - len(bad)}/{len(want)} fights identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
