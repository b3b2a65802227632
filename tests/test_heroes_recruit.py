"""Heroes in the recruit phase and the lobby: the draft, hero power actions,
and each hero power's recruit-phase text (one test or more per hero)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from tavern_helpers import RULES, act, mk, st, stats

from bgsim import ChooseHero, EndTurn, HeroPower, IllegalActionError, Lobby, Play, Refresh
from bgsim._core import hero_powers, tavern
from bgsim._core.minions import DIVINE_SHIELD, INFO, MECH, SpellCard
from bgsim._core.pool import Pool
from bgsim.actions import Buy, Upgrade
from bgsim.cards import cards
from bgsim.heroes import hero_pool, heroes

HERO = {h.name: h for h in heroes().values()}


def with_hero(name: str, **state):
    """A player state whose hero is ``name`` (its power fresh)."""
    info = HERO[name]
    return st(hero=hero_powers.new_hero(info.id, info.power.id), **state)


def random_lobby(seed: int, heroes: bool) -> Lobby:
    lobby = Lobby(seed, heroes=heroes)
    rng = random.Random(seed)
    while not lobby.done:
        player = lobby.to_act()[0]
        legal = lobby.legal_actions(player)
        lobby.apply(player, legal[rng.randrange(len(legal))])
    return lobby


# ------------------------------------------------------------ the draft


def test_the_draft_offers_distinct_heroes_and_chooses_before_turn_1():
    lobby = Lobby(3, heroes=True)
    assert lobby.turn == 0 and lobby.to_act() == list(range(8))
    offers = [lobby.state(p).hero_offers for p in range(8)]
    assert all(len(o) == RULES.lobby.heroes_offered == 2 for o in offers)
    every = [h for o in offers for h in o]
    assert len(set(every)) == len(every)  # no hero offered twice in a lobby
    assert set(every) <= set(hero_pool(lobby.tribes))
    assert lobby.legal_actions(0) == [ChooseHero(0), ChooseHero(1)]
    with pytest.raises(IllegalActionError, match="choose a hero first"):
        lobby.apply(0, EndTurn())
    with pytest.raises(IllegalActionError, match=r"offers options 0\.\.1"):
        lobby.apply(0, ChooseHero(2))
    for p in range(8):
        lobby.apply(p, ChooseHero(p % 2))
        assert lobby.state(p).hero.hero == offers[p][p % 2]
    kay = HERO["A. F. Kay"].id  # she skips turns 1 and 2
    assert lobby.turn == 1
    assert lobby.to_act() == [p for p in range(8) if lobby.state(p).hero.hero != kay]
    assert [i.hero for i in lobby.public_players()] == [offers[p][p % 2] for p in range(8)]
    draft = [e for e in lobby.log if e["type"] == "draft"]
    assert [e["offers"] for e in draft] == [list(o) for o in offers]


def test_heroes_tied_to_a_minion_type_need_it_in_the_lobby():
    without_pirates = hero_pool(("beast", "demon", "dragon", "mech", "murloc"))
    assert HERO["Patches the Pirate"].id not in without_pirates
    assert HERO["Millificent Manastorm"].id in without_pirates
    assert len(without_pirates) == 54 - 2  # Patches and Chenvaala (Elemental)


def test_the_same_seed_gives_the_same_draft_and_game():
    a, b = random_lobby(5, heroes=True), random_lobby(5, heroes=True)
    assert a.log == b.log


def test_without_heroes_the_lobby_is_the_one_it_always_was():
    lobby = Lobby(8)
    assert lobby.turn == 1 and not lobby.heroes
    assert all(not isinstance(a, ChooseHero | HeroPower) for a in lobby.legal_actions(0))
    assert random_lobby(2, heroes=False).log == random_lobby(2, heroes=False).log
    assert not [e for e in random_lobby(2, heroes=False).log if e["type"] == "draft"]


def test_patchwerk_starts_with_55_health():
    offers = (HERO["Patchwerk"].id, HERO["George the Fallen"].id)
    state = tavern.offer_heroes(st(), offers)
    assert act(state, ChooseHero(0)).health == 55
    assert act(state, ChooseHero(1)).health == 40


# ------------------------------------------------------------ using a power


def test_a_power_costs_gold_once_per_turn_and_a_passive_one_is_never_used():
    state = with_hero("Lord Jaraxxus", board=[mk("BGS_004")], gold=3)
    assert HeroPower() in tavern.legal_actions(state, RULES)
    used = act(state, HeroPower())
    assert used.gold == 2 and used.hero.uses == 1
    assert HeroPower() not in tavern.legal_actions(used, RULES)
    with pytest.raises(IllegalActionError, match="already used this turn"):
        act(used, HeroPower())
    broke = with_hero("Lord Jaraxxus", gold=0)
    with pytest.raises(IllegalActionError, match="costs 1 gold, you have 0"):
        act(broke, HeroPower())
    passive = with_hero("Millhouse Manastorm")
    assert not [a for a in tavern.legal_actions(passive, RULES) if isinstance(a, HeroPower)]
    with pytest.raises(IllegalActionError, match="passive"):
        act(passive, HeroPower())
    # the next turn the power is ready again
    again = tavern.start_turn(used, used.turn + 1, Pool(), random.Random(0), RULES)
    assert again.hero.uses == 0


def test_a_targeted_power_needs_a_valid_target():
    state = with_hero("George the Fallen", board=[mk("BGS_004"), mk("BOT_606")], gold=5)
    shielded = st(board=[mk("BGS_004").with_keywords(DIVINE_SHIELD)])
    legal = [a for a in tavern.legal_actions(state, RULES) if isinstance(a, HeroPower)]
    assert legal == [HeroPower(target=0), HeroPower(target=1)]
    with pytest.raises(IllegalActionError, match="cannot aim at nothing"):
        act(state, HeroPower())
    assert act(state, HeroPower(target=1)).board[1].keywords & DIVINE_SHIELD
    blocked = with_hero("George the Fallen", board=list(shielded.board), gold=5)
    with pytest.raises(IllegalActionError, match="no valid target"):
        act(blocked, HeroPower(target=0))


# ------------------------------------------------------------ each hero power


def test_millhouse_manastorm_prices():
    state = with_hero("Millhouse Manastorm", shop=[mk("BGS_004")], gold=10, tier=1, upgrade_cost=5)
    assert tavern.prices(state, RULES) == (2, 2, 6)
    assert act(state, Buy(0)).gold == 8
    assert act(state, Refresh()).gold == 8
    assert act(state, Upgrade()).gold == 4


def test_nozdormus_first_refresh_each_turn_is_free():
    state = with_hero("Nozdormu", gold=3, tier=1)
    once = act(state, Refresh())
    assert once.gold == 3
    assert act(once, Refresh()).gold == 2
    fresh = tavern.start_turn(once, once.turn + 1, Pool(), random.Random(0), RULES)
    assert tavern.prices(fresh, RULES)[1] == 0


def test_forest_warden_omu_gains_2_gold_after_upgrading():
    state = with_hero("Forest Warden Omu", gold=6, tier=1, upgrade_cost=5)
    assert act(state, Upgrade()).gold == 6 - 5 + 2


def test_lich_bazhial_takes_2_damage_for_a_coin():
    state = with_hero("Lich Baz'hial", gold=0, health=30)
    used = act(state, HeroPower())
    assert used.health == 28 and [c.card for c in used.hand] == ["TB_BaconShop_HP_008a"]
    with pytest.raises(IllegalActionError, match="0 Health"):
        act(with_hero("Lich Baz'hial", health=2), HeroPower())
    # Mal'Ganis makes the hero Immune: the coin comes without the damage
    for health in (30, 2):
        immune = with_hero("Lich Baz'hial", gold=0, health=health, board=[mk("GVG_021")])
        used = act(immune, HeroPower())
        assert used.health == health and [c.card for c in used.hand] == ["TB_BaconShop_HP_008a"]


def test_lord_jaraxxus_buffs_demons():
    state = with_hero("Lord Jaraxxus", board=[mk("BGS_004"), mk("BOT_606"), mk("BRM_006")])
    assert stats(act(state, HeroPower()).board) == [
        ("BGS_004", 1, 3),  # Wrath Weaver: no Demon
        ("BOT_606", 2, 2),
        ("BRM_006", 3, 5),
    ]


def test_pyramad_gives_a_random_minion_4_health():
    state = with_hero("Pyramad", board=[mk("BGS_004"), mk("BOT_606")])
    after = act(state, HeroPower())
    gains = [a.health - b.health for a, b in zip(after.board, state.board, strict=True)]
    assert sorted(gains) == [0, 4]
    with pytest.raises(IllegalActionError, match="the warband is empty"):
        act(with_hero("Pyramad"), HeroPower())


def test_rakanishu_gives_stats_equal_to_the_tier():
    state = with_hero("Rakanishu", board=[mk("BOT_606")], tier=4)
    assert stats(act(state, HeroPower(target=0)).board) == [("BOT_606", 6, 6)]


def test_the_curator_starts_with_an_amalgam():
    state = tavern.offer_heroes(st(), (HERO["The Curator"].id, HERO["Patchwerk"].id))
    chosen = act(state, ChooseHero(0))
    assert [m.card for m in chosen.board] == ["TB_BaconShop_HP_033t"]
    assert INFO["TB_BaconShop_HP_033t"].tribes == (1 << 7) - 1  # every minion type


def test_king_mukla_gets_two_bananas_and_gives_everyone_else_one():
    state = with_hero("King Mukla", board=[mk("BOT_606")], gold=3)
    used = act(state, HeroPower())
    assert len(used.hand) == 2 and all(isinstance(c, SpellCard) for c in used.hand)
    cast = act(used, Play(0, None, 0))
    assert cast.board[0].attack > 2 and len(cast.hand) == 1
    assert tavern.gifts(used) == ("TRL_509t",) and tavern.gifts(state) == ()
    # Through a lobby: every other player's Banana comes when the recruit
    # phase ends for all (once everyone has ended the turn), so no one plays
    # it in the turn he gave it.
    mukla_id = HERO["King Mukla"].id
    seed = next(
        s for s in range(200) if any(mukla_id in o for o in offers_of(Lobby(s, heroes=True)))
    )
    lobby = Lobby(seed, heroes=True)
    mukla = next(p for p in range(8) if mukla_id in lobby.state(p).hero_offers)
    for p in range(8):
        offers = lobby.state(p).hero_offers
        lobby.apply(p, ChooseHero(offers.index(mukla_id) if p == mukla else 0))
    lobby.apply(mukla, HeroPower())
    lobby.apply(mukla, EndTurn())
    others = [p for p in range(8) if p != mukla]
    assert not any(c.card == "TRL_509t" for p in others for c in lobby.state(p).hand)
    for p in lobby.to_act():
        lobby.apply(p, EndTurn())
    assert lobby.turn == 2
    assert all([c.card for c in lobby.state(p).hand] == ["TRL_509t"] for p in others)


def offers_of(lobby: Lobby) -> list[tuple[str, ...]]:
    return [lobby.state(p).hero_offers for p in range(lobby.players)]


def test_millificent_manastorms_tavern_mechs_have_plus_one():
    state = with_hero("Millificent Manastorm", tier=2)
    pool = Pool({"BOT_606": 10, "BGS_004": 10})
    shop = tavern.start_turn(state, 6, pool, random.Random(2), RULES).shop
    assert {m.card for m in shop} == {"BOT_606", "BGS_004"}
    for m in shop:
        plus = 1 if INFO[m.card].tribes & MECH else 0
        assert (m.attack, m.health) == (INFO[m.card].attack + plus, INFO[m.card].health + plus)
    # A Mech kept by Freeze has its +1/+1 already: it gets no more next turn.
    kept = next(m for m in shop if m.card == "BOT_606")
    frozen = with_hero("Millificent Manastorm", tier=2, shop=[kept], shop_frozen=(True,))
    later = tavern.start_turn(frozen, 7, pool, random.Random(2), RULES).shop
    assert later[0] == kept and (kept.attack, kept.health) == (3, 3)
    assert all(m.attack == INFO[m.card].attack + 1 for m in later[1:] if m.card == "BOT_606")


def test_tess_greymane_refreshes_with_the_last_opponents_warband():
    golden_weaver = cards().golden("BGS_004").id
    state = with_hero("Tess Greymane", gold=3, last_opponent_cards=("BOT_606", golden_weaver))
    after = act(state, HeroPower())
    assert [m.card_id for m in after.shop] == ["BOT_606", golden_weaver]  # golden kept
    assert [m.golden for m in after.shop] == [False, True]
    assert all(not m.pool_copies and not m.triple for m in after.shop)
    with pytest.raises(IllegalActionError, match="no last opponent"):
        act(with_hero("Tess Greymane", gold=3), HeroPower())


def test_random_agents_play_whole_lobbies_with_heroes():
    uses: Counter[int] = Counter()
    for seed in range(3):
        lobby = random_lobby(seed, heroes=True)
        assert sorted(lobby.placements.values()) == list(range(1, 9))
        uses.update(e["player"] for e in lobby.log if e.get("text", "").startswith("HeroPower"))
    assert sum(uses.values()) > 0  # random agents pick hero powers among the legal actions


# ------------------------------------------------------------ coverage


def test_every_hero_power_has_its_registry_entry():
    """As the card tests do for minions: every draftable hero's power, and
    every power a hero can come to hold (Sir Finley's offers, Aranna's and the
    Rat King's other versions, Sulfuras), has an entry; an active power has an
    effect to use; a power whose text acts only in combat says so."""
    every_power = {c.id for c in cards() if c.type == "hero_power"}
    assert every_power <= set(hero_powers.POWERS), every_power - set(hero_powers.POWERS)
    for info in heroes().values():
        fx = hero_powers.POWERS[info.power.id]
        if info.power.passive:
            assert fx.use is None, info.name
        else:
            assert fx.use is not None, info.name
        if info.power.uses == "per_game":
            assert fx.per_game, info.name
    combat_only = {h.name for h in heroes().values() if hero_powers.POWERS[h.power.id].combat_only}
    assert combat_only == {"Al'Akir", "Illidan Stormrage", "Greybough"}
