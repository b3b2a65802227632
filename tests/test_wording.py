"""Recruit actions in words (viz.wording): every action kind, gold from the views."""

from __future__ import annotations

import pytest

from bgsim.cards import cards
from viz.wording import describe_action, parse_action


def card(name: str, golden: bool = False) -> dict:
    """A replay VIEW card of the pool card or token called ``name``."""
    db = cards()
    c = db.by_name(name)
    if golden:
        c = db.golden(c)
    return {
        "card": c.id,
        "name": c.name,
        "attack": c.attack,
        "health": c.health,
        "golden": c.golden,
        "tier": db.normal(c).tier,
        "keywords": [],
    }


def view(gold: int = 10, tier: int = 2, frozen: bool = False, **rows: list) -> dict:
    out = {
        "gold": gold,
        "tier": tier,
        "upgrade_cost": 7,
        "health": 30,
        "frozen": frozen,
        "shop": [],
        "hand": [],
        "board": [],
        "discover": [],
    }
    out.update(rows)
    return out


HUNTER, CAT, SCALLY = card("Rockpool Hunter"), card("Alleycat"), card("Scallywag")
TIDE, WRATH = card("Murloc Tidecaller"), card("Wrath Weaver")


def test_buy_names_the_card_and_the_gold():
    before = view(10, shop=[CAT, HUNTER])
    after = view(7, shop=[CAT], hand=[HUNTER])
    said = describe_action("Buy(1)", 5, before, after)
    assert said.text == "buys Rockpool Hunter (3 gold)"
    assert (said.card, said.zone, said.slot) == (HUNTER, "hand", 0)


def test_buy_that_completes_a_triple():
    golden = card("Scallywag", golden=True)
    before = view(5, shop=[SCALLY], board=[SCALLY, SCALLY], hand=[CAT])
    after = view(2, hand=[CAT, golden])
    said = describe_action("Buy(0)", 4, before, after)
    assert said.text == "buys Scallywag (3 gold), completing a triple: golden Scallywag"
    assert (said.card, said.zone, said.slot) == (golden, "hand", 1)


def test_sell_says_the_gold_gained():
    said = describe_action("Sell(1)", 12, view(2, board=[WRATH, CAT]), view(3, board=[WRATH]))
    assert said.text == "sells Alleycat (+1 gold)"
    assert (said.card, said.zone, said.slot) == (CAT, None, None)


def test_play_into_a_slot_counts_from_one():
    before = view(board=[WRATH], hand=[CAT, SCALLY])
    after = view(board=[WRATH, SCALLY], hand=[CAT])
    said = describe_action("Play(hand=1, pos=1)", 63 + 64 + 16, before, after)
    assert said.text == "plays Scallywag into slot 2"
    assert (said.card, said.zone, said.slot) == (SCALLY, "board", 1)


def test_play_with_a_battlecry_target():
    buffed = dict(TIDE, attack=TIDE["attack"] + 1, health=TIDE["health"] + 1)
    before = view(board=[WRATH, TIDE], hand=[HUNTER])
    after = view(board=[HUNTER, WRATH, buffed])
    said = describe_action("Play(hand=0, pos=0, target=1)", 0, before, after)
    assert said.text == "plays Rockpool Hunter into slot 1 and targets Murloc Tidecaller"
    assert (said.zone, said.slot) == ("board", 0)


def test_faceless_taverngoer_targets_a_shop_minion():
    faceless = card("Faceless Taverngoer")
    before = view(shop=[CAT, WRATH], hand=[faceless])
    after = view(shop=[CAT, WRATH], board=[card("Wrath Weaver")])
    said = describe_action("Play(hand=0, pos=0, target=1)", 0, before, after)
    assert (
        said.text == "plays Faceless Taverngoer into slot 1 and targets Wrath Weaver in the tavern"
    )


def test_magnetic_onto_a_mech():
    menace, mech = card("Replicating Menace"), card("Micro Machine")
    before = view(board=[WRATH, mech], hand=[menace])
    after = view(board=[WRATH, dict(mech, attack=mech["attack"] + 3)])
    said = describe_action("Play(hand=0, target=1)", 0, before, after)
    assert said.text == "plays Replicating Menace onto Micro Machine"
    assert (said.card, said.zone, said.slot) == (menace, "board", 1)


@pytest.mark.parametrize(
    ("spell", "gold_after", "text"),
    [("Gold Coin", 4, "casts Gold Coin (+1 gold)"), ("Triple Reward", 3, "casts Triple Reward")],
)
def test_spells_are_cast(spell, gold_after, text):
    coin = card(spell)
    said = describe_action("Play(hand=0)", 63, view(3, hand=[coin]), view(gold_after))
    assert said.text == text
    assert (said.card, said.zone) == (coin, None)


@pytest.mark.parametrize(
    ("gold_after", "text"), [(9, "refreshes (1 gold)"), (10, "refreshes (free)")]
)
def test_refresh_paid_or_free(gold_after, text):
    assert describe_action("Refresh()", 1, view(10), view(gold_after)).text == text


def test_freeze_and_unfreeze():
    assert describe_action("Freeze()", 2, view(), view(frozen=True)).text == "freezes the tavern"
    unfrozen = describe_action("Freeze()", 2, view(frozen=True), view())
    assert unfrozen.text == "unfreezes the tavern"


def test_upgrade_says_the_new_tier_and_its_cost():
    said = describe_action("Upgrade()", 3, view(8, tier=2), view(3, tier=3))
    assert said.text == "upgrades to tier 3 (5 gold)"
    assert said.card is None


def test_move_names_the_minion_and_its_new_slot():
    before = view(board=[WRATH, CAT, SCALLY, TIDE])
    after = view(board=[CAT, SCALLY, TIDE, WRATH])
    said = describe_action("Move(0, 3)", 21 + 2, before, after)
    assert said.text == "moves Wrath Weaver to slot 4"
    assert (said.card, said.zone, said.slot) == (WRATH, "board", 3)


def test_discover():
    options = [CAT, TIDE, WRATH]
    said = describe_action("Choose(2)", 20, view(discover=options), view(hand=[WRATH]))
    assert said.text == "discovers Wrath Weaver"
    assert (said.card, said.zone, said.slot) == (WRATH, "hand", 0)


def test_end_turn():
    assert describe_action("EndTurn()", 0, view(), view()).text == "ends the turn"


def test_golden_cards_are_called_golden():
    golden = card("Alleycat", golden=True)
    said = describe_action("Sell(0)", 11, view(0, board=[golden]), view(1))
    assert said.text == "sells golden Alleycat (+1 gold)"


def test_action_text_or_code():
    assert repr(parse_action("Play(hand=2, pos=None, target=3)")) == "Play(hand=2, target=3)"
    assert repr(parse_action("Move(1, 3)")) == "Move(1, 3)"
    assert repr(parse_action("Freeze")) == "Freeze()"
    assert repr(parse_action("not an action", 4)) == "Buy(0)"  # the code when the text fails
    assert parse_action("??", None) is None


def test_without_the_view_before_it_still_reads():
    said = describe_action("Buy(2)", 6, None, view(7, hand=[CAT]))
    assert said.text == "buys the minion in shop slot 3"
    assert (
        describe_action("Sell(9)", 20, view(1), view(2)).text
        == "sells the minion in slot 10 (+1 gold)"
    )
