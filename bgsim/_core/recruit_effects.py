"""Recruit-phase card effects: one registry entry per pool card, keyed by the
normal card id; the golden version runs the same handler with ``golden=True``
(its numbers, read off the golden card texts, are the normal ones times
``g = 2`` unless a handler says otherwise).

Phases (each a field of :class:`RecruitEffects`):

- ``battlecry(t, me, golden, target)``: when the minion is played (``me`` is its
  warband slot). ``target`` is what ``TARGETS`` says: a warband slot (already
  shifted past the played minion) or a shop slot. Brann Bronzebeard runs it
  twice (golden Brann three times; several Branns do not stack).
- ``after_play(t, me, golden, played, at)``: after you play a minion (also
  "whenever you play"); ``played`` is the card, ``at`` its warband slot (None
  when it was magnetized onto a Mech). Never for the trigger's own play.
- ``on_summon(t, me, golden, slot)``: whenever you summon a minion (played, or
  summoned by a card); never for the trigger's own summon. An "after you
  summon" trigger (Bigfernal) waits for a played minion's Battlecry: it skips
  the played minion here (``t.played``) and counts it in ``after_play``.
- ``on_buy(t, me, golden, bought)``: after you buy a minion.
- ``on_sell(t, golden)``: when this minion is sold (it has left the warband).
- ``start_of_turn(t, me, golden)`` and ``end_of_turn(t, me, golden)``.
- ``magnetic``: may attach to a friendly Mech instead of being placed.
- Passives the rules read from the entries of the minions on the warband:
  ``battlecries`` (Brann: how many times Battlecries trigger, normal and
  golden; several Branns do not stack), ``summons`` (Khadgar: the factor a
  card's summons are multiplied by, normal and golden; the cards that summon
  in the recruit phase are Alleycat and Murloc Tidehunter; several Khadgars
  multiply, as in the combat engine), ``hero_immune`` (Mal'Ganis).

Discover (Primalfin Lookout) and the tavern buffs (Nomi, Steward of Time,
Stasis Elemental, Faceless Taverngoer, Refreshing Anomaly) live in the phase
their text names. Triggers on the same event run left to right.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bgsim._core.minions import (
    BEAST,
    DEMON,
    DIVINE_SHIELD,
    DRAGON,
    ELEMENTAL,
    INFO,
    MECH,
    MENACE,
    MENACE_GOLDEN,
    MURLOC,
    PIRATE,
    POISONOUS,
    TAUNT,
    WINDFURY,
    MinionCard,
    card_info,
    make_minion,
    pool_minion,
)
from bgsim._core.player_state import DiscoverSpec
from bgsim._core.recruit_turn import Turn
from bgsim.cards import cards
from combat_c import Board

SHOP: Final = "shop"

Battlecry = Callable[[Turn, int, bool, "int | None"], None]
AfterPlay = Callable[[Turn, int, bool, MinionCard, "int | None"], None]
OnSummon = Callable[[Turn, int, bool, int], None]
OnBuy = Callable[[Turn, int, bool, MinionCard], None]
OnSell = Callable[[Turn, bool], None]
EachTurn = Callable[[Turn, int, bool], None]


@dataclass(frozen=True, slots=True)
class RecruitEffects:
    battlecry: Battlecry | None = None
    target: int | str | None = None  # tribe bits of a friendly minion, or SHOP
    after_play: AfterPlay | None = None
    on_summon: OnSummon | None = None
    on_buy: OnBuy | None = None
    on_sell: OnSell | None = None
    start_of_turn: EachTurn | None = None
    end_of_turn: EachTurn | None = None
    magnetic: bool = False
    battlecries: tuple[int, int] | None = None  # (normal, golden) Battlecry triggers
    summons: tuple[int, int] | None = None  # (normal, golden) summon multiplier
    hero_immune: bool = False


def _g(golden: bool) -> int:
    return 2 if golden else 1


# ------------------------------------------------------------ dispatch


def battlecry_times(t: Turn) -> int:
    """How many times a Battlecry triggers: the largest ``battlecries`` passive
    on the warband (they do not stack), else once."""
    best = 1
    for m in t.board:
        fx = EFFECTS.get(m.card)
        if fx is not None and fx.battlecries is not None:
            best = max(best, fx.battlecries[1] if m.golden else fx.battlecries[0])
    return best


def summon_times(t: Turn) -> int:
    """How many minions a card's summon makes: the ``summons`` passives on the
    warband multiply (capped once the warband could not hold more)."""
    times = 1
    for m in t.board:
        fx = EFFECTS.get(m.card)
        if fx is not None and fx.summons is not None and times < 7:
            times *= fx.summons[1] if m.golden else fx.summons[0]
    return times


def hero_immune(t: Turn) -> bool:
    """Whether a ``hero_immune`` passive on the warband makes the hero Immune."""
    for m in t.board:
        fx = EFFECTS.get(m.card)
        if fx is not None and fx.hero_immune:
            return True
    return False


def damage_hero(t: Turn, amount: int) -> None:
    """Self-damage in the recruit phase: none while the hero is Immune, and it
    never takes the hero below 1 Health (bgsim decision: a hero cannot die
    during the recruit phase; see the tavern module doc)."""
    if amount <= 0 or hero_immune(t):
        return
    t.health = max(t.health - amount, min(t.health, 1))


def summoned(t: Turn, slot: int) -> None:
    """Run the "whenever you summon" triggers for the minion now at ``slot``."""
    board = t.board
    for i in range(len(board)):
        m = board[i]
        fx = EFFECTS.get(m.card)
        if fx is not None and fx.on_summon is not None and i != slot:
            fx.on_summon(t, i, m.golden, slot)


def summon(t: Turn, pos: int, minion: MinionCard) -> int | None:
    """Summon a minion at ``pos``; its slot, or None if the warband is full."""
    if not t.room():
        return None
    slot = t.insert(pos, minion)
    summoned(t, slot)
    return slot


def summon_by_card(t: Turn, pos: int, minion: MinionCard) -> None:
    """A card's summon: Khadgar adds copies of the summoned minion as it stands
    after its summon triggers, each placed to the right of the previous one
    and triggering the summon effects again (as the combat engine does)."""
    slot = summon(t, pos, minion)
    if slot is None:
        return
    copy = t.board[slot]
    for _ in range(summon_times(t) - 1):
        slot = summon(t, slot + 1, copy)
        if slot is None:
            return


def after_play(t: Turn, played: MinionCard, at: int | None) -> None:
    board = t.board
    for i in range(len(board)):
        m = board[i]
        fx = EFFECTS.get(m.card)
        if fx is not None and fx.after_play is not None and i != at:
            fx.after_play(t, i, m.golden, played, at)


def each_turn(t: Turn, phase: str) -> None:
    board = t.board
    for i in range(len(board)):
        m = board[i]
        fx = EFFECTS.get(m.card)
        if fx is not None:
            handler = getattr(fx, phase)
            if handler is not None:
                handler(t, i, m.golden)


def attach(mech: MinionCard, magnet: MinionCard) -> MinionCard:
    """A Mech with a Magnetic card attached: its stats and keywords, and for
    Replicating Menace its Deathrattle (a ``magnetic`` entry the engine runs)."""
    magnets = mech.magnetic + magnet.magnetic
    if magnet.card == MENACE:
        magnets += (MENACE_GOLDEN if magnet.golden else MENACE,)
    out = MinionCard(
        mech.card,
        mech.golden,
        mech.attack,
        mech.health,
        mech.keywords,
        magnets,
        mech.spores + magnet.spores,
        mech.pool_copies + magnet.pool_copies,
        mech.triple,
        mech.enchants + magnet.enchants,
    )
    return out.buffed(magnet.attack, magnet.health).with_keywords(magnet.keywords)


def can_attach(mech: MinionCard, magnet: MinionCard) -> bool:
    """Whether a Magnetic card may attach to ``mech``: any Mech, however many
    it carries already (the game sets no limit)."""
    return bool(INFO[mech.card].tribes & MECH)


# ------------------------------------------------------------ battlecries


def _summon_token(token: str) -> Battlecry:
    def battlecry(t: Turn, me: int, golden: bool, target: int | None) -> None:
        summon_by_card(t, me + 1, make_minion(token, golden))

    return battlecry


def _buff_target(attack: int, health: int, keywords: int = 0) -> Battlecry:
    def battlecry(t: Turn, me: int, golden: bool, target: int | None) -> None:
        if target is not None:
            g = _g(golden)
            t.buff(target, attack * g, health * g)
            if keywords:
                t.give(target, keywords)

    return battlecry


def _buff_others(tribe: int, attack: int, health: int, include_self: bool = False) -> Battlecry:
    def battlecry(t: Turn, me: int, golden: bool, target: int | None) -> None:
        g = _g(golden)
        for i in t.of_tribe(tribe, None if include_self else me):
            t.buff(i, attack * g, health * g)

    return battlecry


def _deck_swabbie(t: Turn, me: int, golden: bool, target: int | None) -> None:
    if t.tier < t.rules.tavern.max_tier:
        t.upgrade_cost = max(t.rules.tavern.min_upgrade_cost, t.upgrade_cost - _g(golden))


def _refreshing_anomaly(t: Turn, me: int, golden: bool, target: int | None) -> None:
    t.free_refreshes += _g(golden)


def _vulgar_homunculus(t: Turn, me: int, golden: bool, target: int | None) -> None:
    damage_hero(t, 2)


def _menagerie(amount: int) -> Battlecry:
    def battlecry(t: Turn, me: int, golden: bool, target: int | None) -> None:
        g = _g(golden)
        slots = t.one_per_type(exclude=me)
        while len(slots) > 3:
            slots.pop(int(t.rng.random() * len(slots)))
        for i in slots:
            t.buff(i, amount * g, amount * g)

    return battlecry


def _soul_devourer(t: Turn, me: int, golden: bool, target: int | None) -> None:
    if target is None:
        return
    shown = Board(t.tier, 1, tuple(m.combat() for m in t.board)).displayed()
    attack, health = shown[target]
    eaten = t.remove(target)
    t.pool.put(eaten.pool_copies)
    g = _g(golden)
    if t.played is not None:
        me = t.played
    elif target < me:
        me -= 1
    t.buff(me, attack * g, health * g)
    t.gold += 3 * g


def _southsea_strongarm(t: Turn, me: int, golden: bool, target: int | None) -> None:
    if target is not None:
        n = t.pirates_bought * _g(golden)
        t.buff(target, n, n)


def _random_elemental(t: Turn, exclude: str) -> list[str]:
    """One random Elemental of tier <= the player's from the pool (or none)."""
    return t.pool.pick_distinct(
        t.rng, 1, 1, t.tier, lambda c: bool(INFO[c].tribes & ELEMENTAL) and c != exclude
    )


def _stasis_elemental(t: Turn, me: int, golden: bool, target: int | None) -> None:
    for _ in range(_g(golden)):
        if not t.shop_room():
            return
        for card_id in _random_elemental(t, STASIS_ELEMENTAL):
            t.shop.append(t.shop_minion(card_id))
            t.shop_frozen.append(True)


def _tavern_tempest(t: Turn, me: int, golden: bool, target: int | None) -> None:
    for _ in range(_g(golden)):
        if not t.hand_room():
            return
        for card_id in _random_elemental(t, TAVERN_TEMPEST):
            t.hand.append(pool_minion(card_id))


def _defender_of_argus(t: Turn, me: int, golden: bool, target: int | None) -> None:
    g = _g(golden)
    for i in (me - 1, me + 1):
        if 0 <= i < len(t.board):
            t.buff(i, g, g)
            t.give(i, TAUNT)


def _primalfin_lookout(t: Turn, me: int, golden: bool, target: int | None) -> None:
    if t.of_tribe(MURLOC, me):
        for _ in range(_g(golden)):
            t.queue_discover(DiscoverSpec(1, t.tier, MURLOC, PRIMALFIN_LOOKOUT))


def _annihilan(t: Turn, me: int, golden: bool, target: int | None) -> None:
    # Damage taken counts from the hero's own Health (Patchwerk starts at 55).
    hero = t.hero
    full = t.rules.lobby.hero_health if hero is None else cards()[hero.hero].health or 0
    taken = max(full - t.health, 0)
    t.buff(me, 0, taken * _g(golden))


def _faceless_taverngoer(t: Turn, me: int, golden: bool, target: int | None) -> None:
    if target is None or target >= len(t.shop):
        return
    old = t.board[me]
    if old.card != FACELESS_TAVERNGOER:  # a repeated Battlecry finds it already transformed
        return
    t.pool.put(old.pool_copies)
    t.board[me] = make_minion(t.shop[target].card, golden)


def _murozond(t: Turn, me: int, golden: bool, target: int | None) -> None:
    if not t.last_opponent_cards or not t.hand_room():
        return
    card_id = t.last_opponent_cards[int(t.rng.random() * len(t.last_opponent_cards))]
    m = make_minion(card_info(card_id).id, golden)
    if m.golden:  # golden Murozond's golden copy gives a Triple Reward, as a triple's does
        m = MinionCard(m.card, True, m.attack, m.health, m.keywords, triple=True)
    t.hand.append(m)


def _strongshell(t: Turn, me: int, golden: bool, target: int | None) -> None:
    g = _g(golden)
    for i, m in enumerate(t.board):
        if m.keywords & TAUNT:
            t.buff(i, 2 * g, 2 * g)


ADAPTS = (
    "crackling_shield",
    "flaming_claws",
    "living_spores",
    "lightning_speed",
    "massive",
    "volcanic_might",
    "rocky_carapace",
    "poison_spit",
)


def adapt(t: Turn, slot: int) -> str:
    """One random Battlegrounds Adapt (rules-research Q22) on the minion at
    ``slot``."""
    m = t.board[slot]
    name = ADAPTS[int(t.rng.random() * len(ADAPTS))]
    if name == "crackling_shield":
        t.give(slot, DIVINE_SHIELD)
    elif name == "flaming_claws":
        t.buff(slot, 3, 0)
    elif name == "living_spores":
        t.board[slot] = MinionCard(
            m.card,
            m.golden,
            m.attack,
            m.health,
            m.keywords,
            m.magnetic,
            m.spores + 1,
            m.pool_copies,
            m.triple,
            m.enchants,
        )
    elif name == "lightning_speed":
        t.give(slot, WINDFURY)
    elif name == "massive":
        t.give(slot, TAUNT)
    elif name == "volcanic_might":
        t.buff(slot, 1, 1)
    elif name == "rocky_carapace":
        t.buff(slot, 0, 3)
    else:
        t.give(slot, POISONOUS)
    return name


def _amalgadon(t: Turn, me: int, golden: bool, target: int | None) -> None:
    for _ in range(t.type_count(exclude=me) * _g(golden)):
        adapt(t, me)


# ------------------------------------------------------------ after play


def _is(card: MinionCard, tribe: int) -> bool:
    return bool(INFO[card.card].tribes & tribe)


def _wrath_weaver(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    if _is(played, DEMON):
        damage_hero(t, 1)
        g = _g(golden)
        t.buff(me, 2 * g, 2 * g)


def _molten_rock(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    if _is(played, ELEMENTAL):
        t.buff(me, 0, _g(golden))


def _party_elemental(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    if _is(played, ELEMENTAL):
        for _ in range(_g(golden)):
            i = t.pick(t.of_tribe(ELEMENTAL, at))
            if i is not None:
                t.buff(i, 1, 1)


def _lil_rag(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    if _is(played, ELEMENTAL):
        tier = played.tier
        for _ in range(_g(golden)):
            i = t.pick(list(range(len(t.board))))
            if i is not None:
                t.buff(i, tier, tier)


def _lieutenant_garr(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    if _is(played, ELEMENTAL):
        t.buff(me, 0, len(t.of_tribe(ELEMENTAL)) * _g(golden))


def _kalecgos(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    fx = EFFECTS.get(played.card)
    if fx is not None and fx.battlecry is not None:
        g = _g(golden)
        for i in t.of_tribe(DRAGON):
            t.buff(i, g, g)


def _rabid_saurolisk(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    if INFO[played.card].deathrattle:
        g = _g(golden)
        t.buff(me, g, 2 * g)


def _salty_looter(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    if _is(played, PIRATE):
        g = _g(golden)
        t.buff(me, g, g)


def _nomi(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    if _is(played, ELEMENTAL):
        g = _g(golden)
        t.nomi_bonus += g
        for i, m in enumerate(t.shop):
            if INFO[m.card].tribes & ELEMENTAL:
                t.shop[i] = m.buffed(g, g)


# ------------------------------------------------------------ on summon


def _pack_leader(t: Turn, me: int, golden: bool, slot: int) -> None:
    if INFO[t.board[slot].card].tribes & BEAST:
        t.buff(slot, 2 * _g(golden), 0)


def _mama_bear(t: Turn, me: int, golden: bool, slot: int) -> None:
    if INFO[t.board[slot].card].tribes & BEAST:
        g = _g(golden)
        t.buff(slot, 4 * g, 4 * g)


def _murloc_tidecaller(t: Turn, me: int, golden: bool, slot: int) -> None:
    if INFO[t.board[slot].card].tribes & MURLOC:
        t.buff(me, _g(golden), 0)


def _bigfernal(t: Turn, me: int, golden: bool, slot: int) -> None:
    # "After you summon": a played Demon counts after its Battlecry (below).
    if slot != t.played and INFO[t.board[slot].card].tribes & DEMON:
        g = _g(golden)
        t.buff(me, g, g)


def _bigfernal_played(t: Turn, me: int, golden: bool, played: MinionCard, at: int | None) -> None:
    if at is not None and INFO[played.card].tribes & DEMON:
        g = _g(golden)
        t.buff(me, g, g)


# ------------------------------------------------------------ buy / sell


def _hoggarr(t: Turn, me: int, golden: bool, bought: MinionCard) -> None:
    if _is(bought, PIRATE):
        t.gold += _g(golden)


def _sellemental(t: Turn, golden: bool) -> None:
    for _ in range(_g(golden)):
        t.add_to_hand(make_minion(WATER_DROPLET))


def _steward_of_time(t: Turn, golden: bool) -> None:
    g = _g(golden)
    t.shop = [m.buffed(g, g) for m in t.shop]


def _freedealing_gambler(t: Turn, golden: bool) -> None:
    t.gold += 3 * _g(golden) - t.rules.economy.sell_value


# ------------------------------------------------------------ turn start / end


def _micro_machine(t: Turn, me: int, golden: bool) -> None:
    t.buff(me, _g(golden), 0)


def _hangry_dragon(t: Turn, me: int, golden: bool) -> None:
    if t.won_last_combat:
        g = _g(golden)
        t.buff(me, 2 * g, 2 * g)


def _micro_mummy(t: Turn, me: int, golden: bool) -> None:
    i = t.pick(t.others(me))
    if i is not None:
        t.buff(i, _g(golden), 0)


def _iron_sensei(t: Turn, me: int, golden: bool) -> None:
    i = t.pick(t.of_tribe(MECH, me))
    if i is not None:
        g = _g(golden)
        t.buff(i, 2 * g, 2 * g)


def _cobalt_scalebane(t: Turn, me: int, golden: bool) -> None:
    i = t.pick(t.others(me))
    if i is not None:
        t.buff(i, 3 * _g(golden), 0)


def _goldgrubber(t: Turn, me: int, golden: bool) -> None:
    n = sum(1 for m in t.board if m.golden) * 2 * _g(golden)
    t.buff(me, n, n)


def _majordomo(t: Turn, me: int, golden: bool) -> None:
    g = _g(golden)
    for _ in range(1 + t.elementals_played):
        t.buff(0, g, g)


def _lightfang(t: Turn, me: int, golden: bool) -> None:
    g = _g(golden)
    for i in t.one_per_type():
        t.buff(i, 2 * g, 2 * g)


def _mythrax(t: Turn, me: int, golden: bool) -> None:
    n = t.type_count() * _g(golden)
    t.buff(me, n, 2 * n)


def _razorgore(t: Turn, me: int, golden: bool) -> None:
    n = len(t.of_tribe(DRAGON)) * _g(golden)
    t.buff(me, n, n)


# ------------------------------------------------------------ registry

PRIMALFIN_LOOKOUT: Final = "BGS_020"
STASIS_ELEMENTAL: Final = "BGS_122"
TAVERN_TEMPEST: Final = "BGS_123"
FACELESS_TAVERNGOER: Final = "BGS_113"
WATER_DROPLET: Final = "BGS_115t"

E = RecruitEffects
EFFECTS: Final[dict[str, RecruitEffects]] = {
    # tier 1
    "CFM_315": E(battlecry=_summon_token("CFM_315t")),  # Alleycat
    "BGS_055": E(battlecry=_deck_swabbie),
    "BGS_027": E(start_of_turn=_micro_machine),
    "ULD_217": E(end_of_turn=_micro_mummy),
    "EX1_509": E(on_summon=_murloc_tidecaller),
    "EX1_506": E(battlecry=_summon_token("EX1_506a")),  # Murloc Tidehunter
    "BGS_116": E(battlecry=_refreshing_anomaly),
    "UNG_073": E(battlecry=_buff_target(1, 1), target=MURLOC),  # Rockpool Hunter
    "BGS_115": E(on_sell=_sellemental),
    "LOOT_013": E(battlecry=_vulgar_homunculus),
    "BGS_004": E(after_play=_wrath_weaver),
    # tier 2
    "BGS_049": E(on_sell=_freedealing_gambler),
    "BGS_082": E(battlecry=_menagerie(1)),  # Menagerie Mug
    "GVG_048": E(battlecry=_buff_others(MECH, 2, 0)),  # Metaltooth Leaper
    "BGS_127": E(after_play=_molten_rock),
    "BGS_001": E(battlecry=_buff_target(2, 2), target=DEMON),  # Nathrezim Overseer
    "BGS_017": E(on_summon=_pack_leader),
    "BGS_120": E(after_play=_party_elemental),
    "BGS_075": E(after_play=_rabid_saurolisk),
    "BGS_037": E(on_sell=_steward_of_time),
    # tier 3
    "BGS_128": E(battlecry=_buff_others(ELEMENTAL, 1, 1)),  # Arcane Assistant
    "BGS_053": E(battlecry=_buff_others(PIRATE, 3, 0)),  # Bloodsail Cannoneer
    "EX1_103": E(battlecry=_buff_others(MURLOC, 0, 2)),  # Coldlight Seer
    "CFM_610": E(battlecry=_buff_others(DEMON, 1, 1, include_self=True)),  # Crystalweaver
    "BT_010": E(battlecry=_buff_others(MURLOC, 1, 1)),  # Felfin Navigator
    "BGS_033": E(start_of_turn=_hangry_dragon),
    "DS1_070": E(battlecry=_buff_target(2, 2, TAUNT), target=BEAST),  # Houndmaster
    "GVG_027": E(end_of_turn=_iron_sensei),
    "DAL_575": E(summons=(2, 3)),  # Khadgar
    "BOT_312": E(magnetic=True),  # Replicating Menace
    "BGS_081": E(after_play=_salty_looter),
    "GVG_055": E(battlecry=_buff_target(2, 2), target=MECH),  # Screwjank Clunker
    "BGS_059": E(battlecry=_soul_devourer, target=DEMON),
    "BGS_048": E(battlecry=_southsea_strongarm, target=PIRATE),
    "BGS_122": E(battlecry=_stasis_elemental),
    "BGS_038": E(battlecry=_buff_target(2, 2), target=DRAGON),  # Twilight Emissary
    # tier 4
    "BOT_911": E(magnetic=True),  # Annoy-o-Module
    "BGS_204": E(on_summon=_bigfernal, after_play=_bigfernal_played),  # Bigfernal
    "ICC_029": E(end_of_turn=_cobalt_scalebane),
    "EX1_093": E(battlecry=_defender_of_argus),
    "BGS_066": E(end_of_turn=_goldgrubber),
    "BGS_105": E(end_of_turn=_majordomo),
    "BGS_083": E(battlecry=_menagerie(2)),  # Menagerie Jug
    "BGS_020": E(battlecry=_primalfin_lookout),
    "DAL_077": E(battlecry=_buff_target(0, 0, POISONOUS), target=MURLOC),  # Toxfin
    "CFM_816": E(battlecry=_buff_target(2, 2), target=BEAST),  # Virmen Sensei
    # tier 5
    "BGS_010": E(battlecry=_annihilan),
    "LOE_077": E(battlecries=(2, 3)),  # Brann Bronzebeard
    "BGS_072": E(on_buy=_hoggarr),
    "BGS_113": E(battlecry=_faceless_taverngoer, target=SHOP),
    "BGS_030": E(battlecry=_buff_others(MURLOC, 2, 2)),  # King Bagurgle
    "BGS_009": E(end_of_turn=_lightfang),
    "GVG_021": E(hero_immune=True),  # Mal'Ganis
    "BGS_021": E(on_summon=_mama_bear),
    "BGS_043": E(battlecry=_murozond),
    "BGS_202": E(end_of_turn=_mythrax),
    "BGS_104": E(after_play=_nomi),
    "BGS_036": E(end_of_turn=_razorgore),
    "ICC_807": E(battlecry=_strongshell),
    "BGS_123": E(battlecry=_tavern_tempest),
    # tier 6
    "BGS_069": E(battlecry=_amalgadon),
    "BGS_041": E(after_play=_kalecgos),
    "BGS_124": E(after_play=_lieutenant_garr),
    "BGS_100": E(after_play=_lil_rag),
}

PHASES = (
    "battlecry",
    "after_play",
    "on_summon",
    "on_buy",
    "on_sell",
    "start_of_turn",
    "end_of_turn",
    "magnetic",
    "battlecries",
    "summons",
    "hero_immune",
)


def battlecry_target(card_id: str) -> str | None:
    """What a card's Battlecry targets: ``"friendly"`` (a warband minion of
    its minion types), ``"shop"`` (a shop minion) or None (no target).

    >>> from bgsim.rules import battlecry_target
    >>> battlecry_target("UNG_073"), battlecry_target("BGS_113"), battlecry_target("BOT_606")
    ('friendly', 'shop', None)
    """
    fx = EFFECTS.get(card_id)
    if fx is None or fx.target is None:
        return None
    return "shop" if fx.target == SHOP else "friendly"


def phases(card_id: str) -> frozenset[str]:
    """The recruit phases a card (normal id) has an implementation for."""
    fx = EFFECTS.get(card_id)
    if fx is None:
        return frozenset()
    return frozenset(p for p in PHASES if getattr(fx, p))
