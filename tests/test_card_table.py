"""The engine's generated card table matches data/cards.json."""

import subprocess
import sys
from pathlib import Path

from bgsim.cards import cards
from combat_c import CARDS

ROOT = Path(__file__).resolve().parent.parent


def test_generated_header_is_up_to_date():
    run = subprocess.run(
        [sys.executable, "combat_c/gen_cards.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr


def test_engine_table_agrees_with_card_data():
    db = cards()
    # The engine knows pool cards and their tokens, then the minions hero
    # powers create; not heroes, hero powers or their spells.
    normals = [c for c in db if not c.golden and c.kind in ("pool", "token")]
    normals += [c for c in db if not c.golden and c.kind == "hero_token" and c.type == "minion"]
    assert [e.id for e in CARDS] == [c.id for c in normals]
    for entry in CARDS:
        card = db[entry.id]
        assert (entry.attack, entry.health, entry.tier) == (card.attack, card.health, card.tier)
        assert entry.tribes == card.tribes
        golden = db.golden(card)
        if golden:
            assert entry.golden_id == golden.id
            assert (entry.golden_attack, entry.golden_health) == (golden.attack, golden.health)
