"""Heroes in the combat engine: the board spec's hero fields, each hero
power's combat part, The Great Akazamzarak's Secrets (Ice Block also a
Darkmoon Prize) and the Fish of N'Zoth, one deterministic scenario each.

Scenarios force the random choices (a single target, Taunt, board sizes that
decide who attacks first) so the expected boards are exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from combat_helpers import ID, m, name_of_id, plain, view

from combat_c import (
    CARDS,
    Board,
    BoardSpecError,
    CombatResult,
    Minion,
    parse_board,
    resolve,
    simulate,
)
from combat_c._lib import ffi, lib
from combat_c.board import COMBAT_POWERS, SECRETS, may_hold
from combat_c.timeline import Boards, initial_boards, replay

ALAKIR = "TB_BaconShop_HERO_76"
ILLIDAN = "TB_BaconShop_HERO_08"
DEATHWING = "TB_BaconShop_HERO_52"
GREYBOUGH = "TB_BaconShop_HERO_95"
YSHAARJ = "TB_BaconShop_HERO_92"
RAFAAM = "TB_BaconShop_HERO_45"
RAGNAROS = "TB_BaconShop_HERO_11"
NZOTH = "TB_BaconShop_HERO_93"
AKAZAMZARAK = "TB_BaconShop_HERO_21"
TICKATUS = "TB_BaconShop_HERO_94"
FINLEY = "TB_BaconShop_HERO_40"
PATCHWERK = "TB_BaconShop_HERO_34"
LICH_KING = "TB_BaconShop_HERO_22"
PRESTIDIGITATION = "TB_BaconShop_HP_020"
WINGMEN = "TB_BaconShop_HP_069"

VENOMSTRIKE = "TB_Bacon_Secrets_01"
SNAKE_TRAP = "TB_Bacon_Secrets_02"
SPLITTING_IMAGE = "TB_Bacon_Secrets_04"
EFFIGY = "TB_Bacon_Secrets_05"
AUTODEFENSE = "TB_Bacon_Secrets_07"
AVENGE = "TB_Bacon_Secrets_08"
REDEMPTION = "TB_Bacon_Secrets_10"
HAND_OF_SALVATION = "TB_Bacon_Secrets_11"
ICE_BLOCK = "TB_Bacon_Secrets_12"
COMPETITIVE_SPIRIT = "TB_Bacon_Secrets_13"

FISH = "TB_BaconShop_HP_105t"
CARD = {c.id: c for c in CARDS}
GOLDEN = [False, True]


def g(golden: bool, normal, gold):
    return gold if golden else normal


@dataclass
class Duel:
    """One fight of two boards with hero fields (``hero_a``/``hero_b``: the
    keyword arguments of :meth:`Board.with_hero`)."""

    a: list[Minion]
    b: list[Minion]
    hero_a: dict = field(default_factory=dict)
    hero_b: dict = field(default_factory=dict)
    seed: int = 0
    tiers: tuple[int, int] = (1, 1)
    health: tuple[int, int] = (40, 40)
    tribes: int | None = None
    result: CombatResult = field(init=False)

    def __post_init__(self) -> None:
        self.board_a = Board(self.tiers[0], self.health[0], tuple(self.a), **_hero(self.hero_a))
        self.board_b = Board(self.tiers[1], self.health[1], tuple(self.b), **_hero(self.hero_b))
        self.result = resolve(self.board_a, self.board_b, self.seed, tribes=self.tribes)
        self.steps = list(replay(self.board_a, self.board_b, self.result.events))

    @property
    def events(self):
        return self.result.events

    def of(self, kind: str):
        return [ev for ev in self.events if ev.kind == kind]

    def at(self, k: int) -> Boards:
        """Both boards right after event k."""
        return self.steps[k][1]

    def first(self, kind: str, card: str | None = None) -> int:
        return next(
            k for k, ev in enumerate(self.events) if ev.kind == kind and card in (None, ev.card)
        )

    def before_first_turn(self) -> Boards:
        """Both boards once the Start of Combat is over: before the first
        attack that is not a hero power's."""
        last = initial_boards(self.board_a, self.board_b)
        for k, (ev, boards) in enumerate(self.steps):
            wingman = ev.kind == "attack" and k > 0 and self.events[k - 1].card == WINGMEN
            if ev.kind == "attack" and not wingman:
                break
            last = boards
        return last

    def final(self) -> Boards:
        return self.steps[-1][1]


def _hero(fields: dict) -> dict:
    return {"hero": fields["hero"], **fields} if fields else {}


def tabby(attack: int = 1, health: int = 1, **kw) -> Minion:
    return m("Tabbycat", attack=attack, health=health, **kw)


# ---------------------------------------------------------------- the spec


def test_hero_fields_parse_with_defaults_and_round_trip():
    spec = {
        "tier": 3,
        "hero": YSHAARJ,
        "hero_power_armed": True,
        "minions": [{"card": "BOT_606"}],
    }
    board = parse_board(spec)
    assert board.hero == YSHAARJ and board.hero_power == "TB_BaconShop_HP_103"
    assert board.hero_power_armed and board.secrets == ()
    assert parse_board(board.to_spec()) == board
    assert "hero_power" not in board.to_spec()  # his own power is implied
    finley = parse_board({"tier": 1, "hero": FINLEY, "hero_power": WINGMEN})
    assert finley.to_spec()["hero_power"] == WINGMEN
    assert finley.hero_codes[0] == lib.BG_HERO_ILLIDAN
    plain_spec = parse_board({"tier": 1}).to_spec()
    assert not {"hero", "hero_power", "hero_power_armed", "secrets"} & set(plain_spec)


@pytest.mark.parametrize(
    ("changes", "where", "says"),
    [
        ({"hero": "TB_BaconShop_HERO_999"}, "hero", "unknown hero"),
        ({"hero": 7}, "hero", "unknown hero"),
        ({"hero": ALAKIR, "hero_power": "BOT_606"}, "hero_power", "unknown hero power"),
        ({"hero_power": WINGMEN}, "hero_power", "needs a hero"),
        ({"hero_power_armed": True}, "hero_power_armed", "needs a hero"),
        ({"hero": YSHAARJ, "hero_power_armed": "yes"}, "hero_power_armed", "true or false"),
        ({"hero": ALAKIR, "hero_power_armed": True}, "hero_power_armed", "not a power used"),
        ({"hero": LICH_KING, "hero_power_armed": True}, "hero_power_armed", "not a power used"),
        ({"secrets": [ICE_BLOCK]}, "secrets", "need a hero"),
        ({"hero": AKAZAMZARAK, "secrets": ICE_BLOCK}, "secrets", "must be a list"),
        ({"hero": AKAZAMZARAK, "secrets": ["BOT_606"]}, "secrets[0]", "unknown Secret"),
        ({"hero": AKAZAMZARAK, "secrets": [AVENGE, AVENGE]}, "secrets[1]", "twice"),
        (
            {
                "hero": AKAZAMZARAK,
                "secrets": [AVENGE, REDEMPTION, EFFIGY, ICE_BLOCK, SNAKE_TRAP, AUTODEFENSE],
            },
            "secrets",
            "at most 5",
        ),
        ({"hero": DEATHWING, "secrets": [ICE_BLOCK]}, "secrets[0]", "cannot have Ice Block"),
        ({"hero": TICKATUS, "secrets": [SNAKE_TRAP]}, "secrets[0]", "cannot have Snake Trap"),
    ],
)
def test_bad_hero_fields_name_the_field(changes, where, says):
    with pytest.raises(BoardSpecError) as err:
        parse_board({"tier": 1, "minions": [], **changes})
    assert err.value.field == where and says in err.value.problem


def test_which_heroes_may_hold_secrets():
    assert all(may_hold(AKAZAMZARAK, PRESTIDIGITATION, s) for s in SECRETS)
    assert len(SECRETS) == 10
    # Ice Block is also a Darkmoon Prize: Tickatus keeps his Prizes whatever his
    # power, and Sir Finley may Discover Prize Wall (or Prestidigitation).
    assert may_hold(TICKATUS, "TB_BaconShop_HP_020", SNAKE_TRAP)
    assert may_hold(TICKATUS, "TB_BaconShop_HP_069", ICE_BLOCK)
    assert may_hold(FINLEY, WINGMEN, ICE_BLOCK) and not may_hold(FINLEY, WINGMEN, AVENGE)
    assert not may_hold(DEATHWING, "TB_BaconShop_HP_061", ICE_BLOCK)
    for secret in SECRETS:
        parse_board(
            {"tier": 1, "hero": FINLEY, "hero_power": PRESTIDIGITATION, "secrets": [secret]}
        )


def test_board_objects_check_their_hero_fields_and_with_hero_changes_them():
    with pytest.raises(BoardSpecError):
        Board(1, 40, (), hero="nobody")
    with pytest.raises(BoardSpecError):
        Board(1, 40, (), hero=DEATHWING, secrets=(AVENGE,))
    b = Board(2, 30, (tabby(),)).with_hero(AKAZAMZARAK, secrets=[AVENGE])
    assert b.secrets == (AVENGE,) and b.hero_power == PRESTIDIGITATION
    assert b.with_hero().hero is None and b.with_hero().minions == b.minions
    trusted = Board.trusted(2, 30, (tabby(),), AKAZAMZARAK, PRESTIDIGITATION, False, (AVENGE,))
    assert trusted == b and trusted.packed.n_secrets == 1


def test_the_engine_rejects_bad_hero_codes():
    board = Board(1, 40, (tabby(),)).packed
    assert lib.bg_check_board(board) == lib.BG_OK
    for name, value in (("hero", lib.BG_N_HERO_KINDS), ("armed", 2), ("n_secrets", 6)):
        bad = ffi.new("bg_board_in *", board[0])
        setattr(bad, name, value)
        assert lib.bg_check_board(bad) == lib.BG_ERR_HERO
    for codes in ((0,), (lib.BG_N_SECRET_KINDS,), (2, 2)):
        bad = ffi.new("bg_board_in *", board[0])
        bad.n_secrets = len(codes)
        for k, code in enumerate(codes):
            bad.secret[k] = code
        assert lib.bg_check_board(bad) == lib.BG_ERR_HERO
    out = ffi.new("bg_odds *")
    bad = ffi.new("bg_board_in *", board[0])
    bad.hero = 200
    assert lib.bg_simulate(bad, board, 10, 1, 0, out) == lib.BG_ERR_HERO


@pytest.mark.parametrize("hero", [PATCHWERK, LICH_KING, NZOTH, RAGNAROS, TICKATUS])
def test_heroes_without_a_combat_power_fight_exactly_as_no_hero(hero):
    a = [m("Kaboom Bot"), m("Harvest Golem", True), m("Rat Pack")]
    b = [m("Imprisoner"), m("Selfless Hero"), m("Mechano-Egg", attack=2)]
    plain_a, plain_b = Board(3, 20, tuple(a)), Board(4, 20, tuple(b))
    hero_a = plain_a.with_hero(hero)
    assert (
        simulate(hero_a, plain_b, 2000, 5).as_dict()
        == simulate(plain_a, plain_b, 2000, 5).as_dict()
    )
    for seed in range(5):
        assert resolve(hero_a, plain_b, seed).events == resolve(plain_a, plain_b, seed).events


def test_every_combat_power_has_an_engine_code():
    codes = sorted(COMBAT_POWERS.values())
    assert codes == list(range(1, lib.BG_N_HERO_KINDS))


def test_hero_fights_are_deterministic():
    a = Board(3, 20, (tabby(3, 3), m("Harvest Golem"), tabby(2, 2))).with_hero(ILLIDAN)
    b = Board(3, 5, (tabby(2, 4), m("Kaboom Bot"))).with_hero(
        AKAZAMZARAK, secrets=(SNAKE_TRAP, EFFIGY, ICE_BLOCK)
    )
    assert resolve(a, b, 11) == resolve(a, b, 11)
    assert simulate(a, b, 3000, 3).as_dict() == simulate(a, b, 3000, 3).as_dict()
    assert len({resolve(a, b, s).events for s in range(12)}) > 1


# ---------------------------------------------------------------- Al'Akir


@pytest.mark.parametrize("golden", GOLDEN)
def test_alakir_gives_the_left_most_minion_windfury_divine_shield_and_taunt(golden):
    d = Duel(
        [m("Wrath Weaver", golden, attack=1, health=1), tabby(5, 5)],
        [tabby(1, 30)],
        hero_a={"hero": ALAKIR},
    )
    k = d.first("hero")
    assert d.events[k].card == "TB_BaconShop_HP_086" and d.events[k].eid == 1
    left, right = d.before_first_turn()[0]
    assert left.has("windfury") and left.has("divine_shield") and left.has("taunt")
    assert not (right.has("windfury") or right.has("divine_shield") or right.has("taunt"))
    # Windfury: the left-most minion makes two attacks in a row on its first turn
    attacks = [ev.eid for ev in d.of("attack") if ev.side == 0]
    assert attacks[:2] == [1, 1]
    assert d.board_a.minions[0].windfury is False  # the warband itself is untouched


def test_alakir_acts_before_minions_start_of_combat_and_with_no_minions_does_nothing():
    d = Duel([m("Red Whelp", attack=0, health=5), tabby()], [tabby(1, 9)], hero_a={"hero": ALAKIR})
    kinds = [(ev.kind, ev.trigger) for ev in d.events[:4]]
    assert kinds[1][0] == "hero" and ("trigger", "start_of_combat") in kinds[2:]
    empty = Duel([], [tabby()], hero_a={"hero": ALAKIR})
    assert not empty.of("hero") and empty.result.winner == 1


# ---------------------------------------------------------------- Illidan


def test_illidan_left_and_right_most_attack_then_the_opponent_takes_the_first_turn():
    # Illidan has more minions, so he would attack first without his power.
    d = Duel(
        [tabby(2, 10), tabby(0, 10), tabby(3, 10)],
        [plain(1, 50, taunt=True)],
        hero_a={"hero": ILLIDAN},
    )
    attacks = d.of("attack")
    assert [(ev.side, ev.eid) for ev in attacks[:3]] == [(0, 1), (0, 3), (1, 4)]
    assert d.events[0].kind == "start" and d.events[0].side == 1
    hero = d.of("hero")
    assert [ev.eid for ev in hero] == [1, 3] and all(ev.card == WINGMEN for ev in hero)
    # out of turn: the attack order is untouched, so the left-most attacks again first
    assert [ev.eid for ev in attacks if ev.side == 0][2] == 1


def test_illidan_right_most_attacks_even_when_the_left_most_died():
    d = Duel([tabby(1, 1), tabby(4, 10)], [plain(5, 50, taunt=True)], hero_a={"hero": ILLIDAN})
    attacks = d.of("attack")
    assert [(ev.side, ev.eid) for ev in attacks[:3]] == [(0, 1), (0, 2), (1, 3)]
    assert d.result.attacks == len(attacks)


@pytest.mark.parametrize("golden", GOLDEN)
def test_illidan_with_one_minion_attacks_once_and_zero_attack_ones_do_not(golden):
    d = Duel(
        [m("Wrath Weaver", golden, attack=3, health=9)], [plain(1, 50)], hero_a={"hero": ILLIDAN}
    )
    assert [(ev.side, ev.eid) for ev in d.of("attack")[:2]] == [(0, 1), (1, 2)]
    idle = Duel([tabby(0, 9), tabby(2, 9)], [plain(1, 50)], hero_a={"hero": ILLIDAN})
    assert [(ev.side, ev.eid) for ev in idle.of("attack")[:2]] == [(0, 2), (1, 3)]


def test_illidan_attacks_trigger_the_defenders_secrets():
    d = Duel(
        [tabby(5, 9)],
        [plain(1, 5, taunt=True), m("Red Whelp", attack=1, health=1)],
        hero_a={"hero": ILLIDAN},
        hero_b={"hero": AKAZAMZARAK, "secrets": [AUTODEFENSE]},
    )
    assert d.first("secret") < d.first("damage")
    assert d.of("secret")[0].card == AUTODEFENSE
    assert d.of("hero")[0].eid == 1


# ---------------------------------------------------------------- Deathwing


@pytest.mark.parametrize("golden", GOLDEN)
def test_deathwing_gives_every_minion_two_attack_on_both_boards(golden):
    wing = Board(2, 40, (m("Mechano-Egg", golden, health=20),)).with_hero(DEATHWING)
    assert wing.displayed() == [(2, 20)]  # his own board shows it
    spec = wing.to_spec()
    assert spec["minions"][0]["attack"] == 2 and parse_board(spec) == wing
    d = Duel(
        [m("Mechano-Egg", golden, health=20)],
        [m("Harvest Golem", attack=0, health=1, taunt=True)],
        hero_a={"hero": DEATHWING},
        tiers=(2, 1),
    )
    aura = d.of("hero")[0]
    assert aura.card == "TB_BaconShop_HP_061" and aura.b == 2
    # the enemy's minions get it as the fight starts; the Egg (0 Attack) attacks
    start = d.before_first_turn()
    assert view(start[0]) == [(g(golden, "Mechano-Egg", "Golden Mechano-Egg"), 2, 20)]
    assert view(start[1]) == [("Harvest Golem", 2, 1)]
    # a minion summoned in the fight has it too
    golem = d.at(d.first("summon"))[1]
    assert view(golem) == [("Damaged Golem", 4, 1)]


def test_deathwing_specs_show_his_aura_and_two_deathwings_give_four():
    with pytest.raises(BoardSpecError, match=r"below the \+2"):
        parse_board({"tier": 1, "hero": DEATHWING, "minions": [{"card": "CFM_315", "attack": 1}]})
    board = parse_board({"tier": 1, "hero": DEATHWING, "minions": [{"card": "CFM_315"}]})
    assert board.minions[0].attack == 1 and board.displayed() == [(3, 1)]
    d = Duel([tabby(1, 9)], [tabby(1, 9)], hero_a={"hero": DEATHWING}, hero_b={"hero": DEATHWING})
    assert [u.attack for side in d.before_first_turn() for u in side] == [5, 5]


# ---------------------------------------------------------------- Greybough


@pytest.mark.parametrize("golden", GOLDEN)
def test_greybough_buffs_the_minions_he_summons_with_taunt(golden):
    d = Duel(
        [
            m("Harvest Golem", golden, attack=0, health=1, taunt=True),
            m("Acolyte of C'Thun", attack=0, taunt=False),
        ],
        [plain(5, 60, taunt=True)],
        hero_a={"hero": GREYBOUGH},
    )
    summoned = d.of("summon")[0]
    assert name_of_id(summoned.card).endswith("Damaged Golem")
    assert (summoned.a, summoned.b, summoned.keywords) == (g(golden, 2, 4), g(golden, 1, 2), 0)
    k = d.first("hero")
    assert d.events[k].eid == summoned.eid and d.events[k].card == "TB_BaconShop_HP_107"
    token = next(u for u in d.at(k + 2)[0] if u.eid == summoned.eid)
    assert (token.attack, token.health) == (g(golden, 3, 5), g(golden, 3, 4))
    assert token.has("taunt")
    # Reborn is a summon too
    acolyte = next(ev for ev in d.of("summon") if ev.card == ID["Acolyte of C'Thun"])
    assert any(ev.kind == "hero" and ev.eid == acolyte.eid for ev in d.events)
    back = next(u for u in d.at(d.events.index(acolyte) + 2)[0] if u.eid == acolyte.eid)
    assert (back.attack, back.health) == (3, 3) and back.has("taunt")


def test_greybough_does_not_touch_the_opponents_summons_or_starting_minions():
    d = Duel(
        [tabby(5, 60, taunt=True)],
        [m("Harvest Golem", attack=0, health=1)],
        hero_a={"hero": GREYBOUGH},
    )
    assert not d.of("hero")
    summoned = d.of("summon")[0]
    assert (summoned.a, summoned.b, summoned.keywords) == (2, 1, 0)
    assert view(d.before_first_turn()[0]) == [("Tabbycat", 5, 60)]


# ---------------------------------------------------------------- Y'Shaarj


@pytest.mark.parametrize("tier", [1, 3, 6])
def test_yshaarj_armed_summons_a_minion_of_his_tier_and_a_copy_to_hand(tier):
    tribes = 0b0101100  # dragons, elementals, murlocs (and neutrals)
    for seed in range(8):
        d = Duel(
            [tabby(1, 9)],
            [plain(1, 50, taunt=True)],
            hero_a={"hero": YSHAARJ, "hero_power_armed": True},
            tiers=(tier, 1),
            seed=seed,
            tribes=tribes,
        )
        summon = d.of("summon")[0]
        assert d.events.index(summon) < d.first("attack")  # Start of Combat
        assert summon.side == 0 and summon.slot == 1  # at the right end
        card = CARD[summon.card]
        assert card.tier == tier and card.in_pool
        assert not card.tribes or card.tribes & {"dragon", "elemental", "murloc"}
        assert d.result.aftermath[0].hand[:1] == (summon.card,)


def test_yshaarj_unarmed_or_with_a_full_board_summons_nothing():
    unarmed = Duel([tabby()], [plain(1, 50)], hero_a={"hero": YSHAARJ}, tiers=(3, 1))
    assert not unarmed.of("summon") and not unarmed.result.aftermath[0].hand
    full = Duel(
        [tabby() for _ in range(7)],
        [plain(1, 50)],
        hero_a={"hero": YSHAARJ, "hero_power_armed": True},
        tiers=(3, 1),
    )
    assert not full.of("hero") and not full.result.aftermath[0].hand


def test_yshaarjs_minion_counts_when_the_first_attacker_is_decided():
    armed = {"hero": YSHAARJ, "hero_power_armed": True}

    def first_sides(mine: int, hero: dict, seeds: int) -> set[int]:
        """The side that attacks first, over ``seeds`` fights of ``mine``
        Tabbycats with ``hero`` against 4 minions."""
        sides = set()
        for seed in range(seeds):
            d = Duel(
                [tabby() for _ in range(mine)],
                [plain(1, 50) for _ in range(4)],
                hero_a=hero,
                tiers=(3, 1),
                seed=seed,
            )
            assert d.events[0].kind == "start"
            sides.add(d.events[0].side)
        return sides

    assert first_sides(3, armed, 30) == {0, 1}  # 3 and the summon against 4: a coin flip
    assert first_sides(4, armed, 10) == {0}  # 4 and the summon against 4: always Y'Shaarj
    assert first_sides(4, {"hero": YSHAARJ}, 30) == {0, 1}  # unarmed: a coin flip


def test_yshaarjs_dragon_counts_for_red_whelp():
    seen = set()
    for seed in range(40):
        d = Duel(
            [m("Red Whelp", attack=0, health=5)],
            [plain(0, 50)],
            hero_a={"hero": YSHAARJ, "hero_power_armed": True},
            tiers=(4, 1),
            tribes=0b0000100,  # dragons only (and neutrals)
            seed=seed,
        )
        summon = d.of("summon")[0]
        whelp = next(ev for ev in d.of("damage") if ev.side == 1)
        dragon = "dragon" in CARD[summon.card].tribes
        assert whelp.a == (2 if dragon else 1)
        seen.add(dragon)
    assert seen == {False, True}


# ---------------------------------------------------------------- Rafaam, Ragnaros


def test_rafaam_armed_takes_the_first_enemy_minion_to_die():
    b = [m("Kaboom Bot", True, taunt=True), tabby(1, 1)]
    d = Duel([tabby(20, 50)], b, hero_a={"hero": RAFAAM, "hero_power_armed": True})
    death = d.of("death")[0]
    took = d.of("hero")[0]
    assert took.card == "TB_BaconShop_HP_053" and took.eid == death.eid and took.side == 0
    assert d.result.aftermath[0].first_kill == "TB_BaconUps_028"  # golden Kaboom Bot
    unarmed = Duel([tabby(20, 50)], b, hero_a={"hero": RAFAAM})
    assert not unarmed.of("hero") and unarmed.result.aftermath[0].first_kill == "TB_BaconUps_028"


def test_the_result_counts_enemy_minions_killed_for_ragnaros():
    b = [m("Harvest Golem", taunt=True), m("Imprisoner"), tabby(1, 1)]
    d = Duel([tabby(30, 90)], b, hero_a={"hero": RAGNAROS})
    deaths = [ev for ev in d.of("death") if ev.side == 1]
    assert d.result.aftermath[0].kills == len(deaths) == 5  # tokens count
    assert d.result.aftermath[1].kills == 0


# ---------------------------------------------------------------- N'Zoth's Fish


@pytest.mark.parametrize("golden", GOLDEN)
def test_the_fish_gains_a_friendly_deathrattle_minions_deathrattle(golden):
    fish = Minion.of(FISH, golden, attack=0)
    d = Duel(
        [m("Harvest Golem", attack=0, taunt=True), fish],
        [plain(9, 90)],
        hero_a={"hero": NZOTH},
    )
    gained = next(ev for ev in d.of("trigger") if ev.trigger == "effect")
    assert gained.eid == 2
    fish_dr = [ev for ev in d.of("trigger") if ev.trigger == "deathrattle" and ev.eid == 2]
    assert [ev.card for ev in fish_dr] == ["TB_BaconUps_307" if golden else FISH] + [
        ID["Harvest Golem"]
    ] * g(golden, 1, 2)
    golems = [ev for ev in d.of("summon") if ev.card == ID["Damaged Golem"]]
    assert len(golems) == 1 + g(golden, 1, 2)


def test_the_fish_gains_menaces_and_counts_its_own_attack_for_rat_pack():
    d = Duel(
        [
            m("Rat Pack", attack=1, health=1, taunt=True),
            m("Micro Machine", attack=0, health=1, taunt=True, magnetic=("BOT_312",)),
            Minion.of(FISH, attack=3, health=1),
        ],
        [plain(10, 200)],
        hero_a={"hero": NZOTH},
    )
    fish_dr = [ev.card for ev in d.of("trigger") if ev.trigger == "deathrattle" and ev.eid == 3]
    assert fish_dr[1:] == [ID["Rat Pack"], ID["Replicating Menace"]]
    summons_after_fish = []
    start = next(i for i, ev in enumerate(d.events) if ev.kind == "death" and ev.eid == 3)
    for ev in d.events[start:]:
        if ev.kind == "summon":
            summons_after_fish.append(ev.card)
    assert summons_after_fish.count(ID["Rat"]) == 3  # the Fish's 3 Attack
    assert summons_after_fish.count(ID["Microbot"]) == 3


def test_a_fish_dying_with_the_minion_gains_nothing_and_baron_doubles_its_deathrattles():
    both = Duel(
        [m("Harvest Golem", attack=0, health=1), Minion.of(FISH, attack=0, health=1), plain(1, 50)],
        [m("Unstable Ghoul", attack=0, health=1, taunt=True), plain(0, 50)],
        hero_a={"hero": NZOTH},
    )
    fish_deaths = [ev for ev in both.of("death") if ev.eid == 2]
    assert fish_deaths and not [ev for ev in both.of("trigger") if ev.eid == 2]
    assert [ev.card for ev in both.of("summon")] == [ID["Damaged Golem"]]
    baron = Duel(
        [
            m("Harvest Golem", attack=0, taunt=True),
            Minion.of(FISH, attack=0),
            m("Baron Rivendare", attack=0, health=90),
        ],
        [plain(9, 90)],
        hero_a={"hero": NZOTH},
    )
    fish_dr = [ev.card for ev in baron.of("trigger") if ev.trigger == "deathrattle" and ev.eid == 2]
    assert fish_dr.count(ID["Harvest Golem"]) == 2


# ---------------------------------------------------------------- Secrets


def akazamzarak(*secrets: str) -> dict:
    return {"hero": AKAZAMZARAK, "secrets": list(secrets)}


def test_venomstrike_trap_summons_a_poisonous_cobra_once():
    d = Duel([tabby(1, 9)], [plain(2, 9, taunt=True)], hero_a=akazamzarak(VENOMSTRIKE))
    assert d.of("secret")[0].card == VENOMSTRIKE and d.of("secret")[0].eid == 1
    cobra = [ev for ev in d.of("summon") if ev.card == "EX1_170"]
    assert len(cobra) == 1 and (cobra[0].a, cobra[0].b) == (2, 3) and cobra[0].keywords & 4
    assert d.first("secret") < d.first("damage")  # before the attack's damage
    assert d.result.aftermath[0].secrets_used == (VENOMSTRIKE,)


def test_snake_trap_summons_three_snakes_at_the_right_end_before_damage():
    d = Duel(
        [tabby(1, 9), tabby(1, 9)],
        [plain(2, 20), plain(0, 20), plain(0, 20)],
        hero_a=akazamzarak(SNAKE_TRAP),
    )
    snakes = [ev for ev in d.of("summon") if ev.card == "EX1_554t"]
    assert [ev.slot for ev in snakes] == [2, 3, 4] and len(d.of("secret")) == 1
    k = d.first("secret")
    assert d.events[k - 1].kind == "attack" and d.events[k - 1].side == 1
    assert d.events[k + 4].kind == "damage"


@pytest.mark.parametrize("golden", GOLDEN)
def test_splitting_image_copies_the_attacked_minion_as_it_stands(golden):
    bot = m("Kaboom Bot", golden, attack=5, health=7, taunt=True)
    d = Duel(
        [bot, tabby(1, 9)],
        [plain(2, 40), plain(0, 40), plain(0, 40)],
        hero_a=akazamzarak(SPLITTING_IMAGE),
    )
    k = d.first("secret")
    assert d.events[k].eid == 1 and d.events[k - 1].kind == "attack"
    copy = d.at(d.first("summon"))[0]
    assert view(copy)[:2] == [(g(golden, "Kaboom Bot", "Golden Kaboom Bot"), 5, 7)] * 2
    assert copy[1].has("taunt") and d.of("summon")[0].slot == 1


def test_splitting_image_copies_damage_and_magnets():
    bot = m("Micro Machine", attack=1, health=6, taunt=True, magnetic=("BOT_312",))
    d = Duel([bot, plain(0, 90)], [plain(4, 90)], hero_a=akazamzarak(SPLITTING_IMAGE))
    # A attacks first (a tie of sizes broken for A by this seed, or B's turn
    # comes first): the copy is of the minion as it is when attacked
    k = d.first("secret")
    hurt = next(u for u in d.at(k)[0] if u.eid == 1)
    copy = d.at(d.first("summon"))[0][1]
    assert (copy.attack, copy.health) == (hurt.attack, hurt.health)
    dr = [
        ev
        for ev in d.of("trigger")
        if ev.trigger == "deathrattle" and ev.card == ID["Replicating Menace"]
    ]
    assert len({ev.eid for ev in dr}) == 2  # the copy carries the Menace too


def test_effigy_summons_a_random_minion_of_the_dead_ones_tier():
    for seed in range(6):
        d = Duel(
            [m("Murloc Warleader", attack=0, health=1, taunt=True), tabby(0, 50)],
            [plain(5, 90)],
            hero_a=akazamzarak(EFFIGY),
            seed=seed,
        )
        k = d.first("secret")
        assert d.first("death") < k and d.events[k].eid == 1
        summon = d.events[k + 1]
        assert summon.kind == "summon" and summon.slot == 0  # the dead one's place
        card = CARD[summon.card]
        assert card.tier == 2 and card.in_pool


def test_autodefense_matrix_shields_the_attacked_minion_unless_it_has_a_shield():
    d = Duel([tabby(1, 9)], [plain(3, 9, taunt=True)], hero_a=akazamzarak(AUTODEFENSE))
    k = d.first("secret")
    assert d.events[k].eid == 1 and d.events[k + 1].kind == "keywords"
    assert d.events[k + 2].kind == "shield" and d.events[k + 2].eid == 1  # the attack's hit
    shielded = Duel(
        [tabby(1, 9, divine_shield=True)],
        [plain(3, 9, taunt=True)],
        hero_a=akazamzarak(AUTODEFENSE),
    )
    first = shielded.of("secret")
    # not on the first attack (it has a shield); on a later one, once it is gone
    assert not first or shielded.events.index(first[0]) > shielded.first("shield")


def test_avenge_buffs_a_random_other_friendly_minion_and_waits_for_one():
    d = Duel([tabby(1, 1, taunt=True), tabby(0, 9)], [plain(5, 90)], hero_a=akazamzarak(AVENGE))
    k = d.first("secret")
    assert d.events[k].eid == 1
    assert view(d.at(k + 1)[0]) == [("Tabbycat", 3, 11)]
    alone = Duel([tabby(1, 1)], [plain(5, 90)], hero_a=akazamzarak(AVENGE))
    assert not alone.of("secret") and alone.result.aftermath[0].secrets_used == ()


@pytest.mark.parametrize("golden", GOLDEN)
def test_redemption_returns_the_minion_with_one_health(golden):
    d = Duel(
        [m("Kaboom Bot", golden, attack=6, health=9, taunt=True)],
        [plain(9, 90), plain(0, 90)],
        hero_a=akazamzarak(REDEMPTION),
    )
    k = d.first("secret")
    back = d.at(k + 1)[0]
    assert view(back) == [(g(golden, "Kaboom Bot", "Golden Kaboom Bot"), g(golden, 2, 4), 1)]
    assert not back[0].has("taunt")  # fresh from its card
    assert d.first("trigger") < k  # after its Deathrattle (Kaboom Bot's)


@pytest.mark.parametrize("order", [(REDEMPTION, AVENGE), (AVENGE, REDEMPTION)])
def test_redemption_goes_last_whatever_the_order(order):
    # The only minion dies: Avenge, first whatever the play order, finds no
    # other minion and stays; Redemption then brings the Tabbycat back as 1/1.
    d = Duel([tabby(1, 1)], [plain(5, 90)], hero_a=akazamzarak(*order))
    assert len(d.of("secret")) == 1 and d.result.aftermath[0].secrets_used == (REDEMPTION,)
    assert view(d.at(d.first("secret") + 1)[0]) == [("Tabbycat", 1, 1)]


def test_a_redeemed_minion_keeps_its_cards_maximum_health():
    # As Reborn: 1 Health of its card's 3, so losing the Captain's aura leaves it 3/2.
    d = Duel(
        [m("Freedealing Gambler", taunt=True), m("Southsea Captain", taunt=True)],
        [plain(10, 80)],
        hero_a=akazamzarak(REDEMPTION),
    )
    k = next(
        i
        for i, ev in enumerate(d.events)
        if ev.kind == "death" and ev.side == 0 and i > d.first("secret")
    )
    assert view(d.at(k + 1)[0]) == [("Freedealing Gambler", 3, 2)]


def test_hand_of_salvation_returns_the_second_minion_to_die():
    d = Duel(
        [
            tabby(1, 1, taunt=True),
            m("Kaboom Bot", True, attack=0, health=1, taunt=True),
            tabby(0, 60),
        ],
        [plain(5, 90)],
        hero_a=akazamzarak(HAND_OF_SALVATION),
        seed=2,
    )
    deaths = [ev for ev in d.of("death") if ev.side == 0]
    k = d.first("secret")
    assert d.events[k].eid == deaths[1].eid
    back = d.events[k + 1]
    assert back.kind == "summon" and back.card == deaths[1].card and (back.a, back.b) == (4, 4)


def test_ice_block_prevents_fatal_combat_damage_only():
    enemy = [plain(9, 90), plain(9, 90)]
    fatal = Duel([], enemy, hero_a=akazamzarak(ICE_BLOCK), health=(5, 40), tiers=(1, 6))
    assert fatal.result.winner == 1 and fatal.result.damage == 0 and fatal.result.prevented == 8
    assert fatal.of("secret")[0].card == ICE_BLOCK and fatal.of("end")[0].a == 0
    assert fatal.result.aftermath[0].secrets_used == (ICE_BLOCK,)
    exact = Duel(
        [], enemy, hero_a={"hero": TICKATUS, "secrets": [ICE_BLOCK]}, health=(8, 40), tiers=(1, 6)
    )
    assert exact.result.damage == 0  # 0 Health left is fatal
    kept = Duel([], enemy, hero_a=akazamzarak(ICE_BLOCK), health=(9, 40), tiers=(1, 6))
    assert kept.result.damage == 8 and not kept.of("secret") and kept.result.prevented == 0
    odds = simulate(fatal.board_a, fatal.board_b, 200, 1)
    assert odds.loss == 1 and odds.lethal_taken == 0 and odds.mean_damage_taken == 0
    unprotected = simulate(fatal.board_a.with_hero(), fatal.board_b, 200, 1)
    assert unprotected.lethal_taken == 1


def test_competitive_spirit_does_nothing_in_combat():
    a = [tabby(2, 3), m("Harvest Golem")]
    b = [plain(1, 9), tabby(3, 2)]
    spirit = Board(2, 40, tuple(a)).with_hero(AKAZAMZARAK, secrets=(COMPETITIVE_SPIRIT,))
    for seed in range(4):
        got, want = (
            resolve(spirit, Board(2, 40, tuple(b)), seed),
            resolve(Board(2, 40, tuple(a)), Board(2, 40, tuple(b)), seed),
        )
        assert got.events == want.events and got.aftermath[0].secrets_used == ()


def test_secrets_fire_once_each_in_the_order_they_came_and_wait_on_a_full_board():
    d = Duel(
        [tabby(1, 20)],
        [plain(1, 90, taunt=True), plain(1, 90)],
        hero_a=akazamzarak(AUTODEFENSE, SNAKE_TRAP, VENOMSTRIKE),
    )
    revealed = [ev.card for ev in d.of("secret")]
    assert revealed == [AUTODEFENSE, SNAKE_TRAP, VENOMSTRIKE]
    assert len({d.events.index(ev) for ev in d.of("secret")}) == 3
    full = Duel(
        [tabby(1, 20) for _ in range(7)],
        [plain(1, 90, taunt=True), plain(1, 90)],
        hero_a=akazamzarak(SNAKE_TRAP, AUTODEFENSE),
    )
    first_death = next(k for k, ev in enumerate(full.events) if ev.kind == "death" and ev.side == 0)
    early = [ev.card for ev in full.events[:first_death] if ev.kind == "secret"]
    assert early == [AUTODEFENSE]  # Snake Trap waits while the board is full


def test_secrets_react_only_to_their_own_sides_minions():
    d = Duel(
        [tabby(5, 90), tabby(5, 90)], [plain(1, 30)], hero_a=akazamzarak(SNAKE_TRAP, REDEMPTION)
    )
    snake, redemption = d.of("secret")
    assert (snake.card, snake.side) == (SNAKE_TRAP, 0)
    assert snake.eid in (1, 2)  # when B attacked, not when A did
    # Redemption comes for a Snake of A's (eids past B's Plant, 3), never for the Plant
    assert redemption.card == REDEMPTION and redemption.eid > 3 and redemption.side == 0
