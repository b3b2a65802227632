"""Hero powers that buff or change the warband's minions (one registry entry
per hero power, keyed by its card id; see :mod:`bgsim._core.power_effects`).

Sources and the choices no source settles are in ``data/heroes.toml``. What
each power keeps in its :class:`HeroState`:

- Edwin VanCleef: ``counter`` = minions bought this turn.
- Kael'thas Sunstrider: ``counter`` = minions bought since his last +2/+2 (0..2).
- Overlord Saurfang: ``counter`` = the Attack the power gives (the turn
  number, shown on the card); ``extra`` = ``(1,)`` while the next minion he
  buys this turn is to get it.
- C'Thun: ``counter`` = the repeats shown on the card; ``extra`` = ``(1,)``
  from the power's use to the end of the turn, when the buffs come.
- The Rat King: ``power`` = the version of this turn (King of Beasts...);
  ``extra`` = ``(mask,)``, the lobby's minion types (bits) read from the full
  pool when he is chosen.
- Y'Shaarj and Arch-Villain Rafaam: ``counter`` = 1 while the power is armed
  for the next combat (the combat engine reads Y'Shaarj's; Rafaam's is used
  and cleared after the fight).
- The Great Akazamzarak: ``extra`` = ``(secrets, ice_block_taken)``: the
  Secret card ids in play in the order they were put there, and whether Ice
  Block was ever picked. The Secrets' combat triggers are the combat engine's:
  the board carries them, and those the fight reveals leave play.
- The Lich King: nothing; Reborn Rites gives the minion Reborn, which his
  ``after_combat`` takes back from every minion whose card lacks it.
"""

from __future__ import annotations

from typing import Final, cast

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import (
    BEAST,
    DEMON,
    DIVINE_SHIELD,
    DRAGON,
    ELEMENTAL,
    INFO,
    MAX_STAT,
    MECH,
    MEGA_WINDFURY,
    MURLOC,
    PIRATE,
    REBORN,
    TRIBE_BITS,
    WINDFURY,
    MinionCard,
    card_info,
    make_minion,
    pool_minion,
)
from bgsim._core.power_effects import PowerEffects, hero_of
from bgsim._core.recruit_turn import Turn
from bgsim.cards import cards


def _no_shield(t: Turn, kind: str, index: int) -> bool:
    return not t.board[index].keywords & DIVINE_SHIELD


def _george(t: Turn, kind: str | None, index: int | None) -> None:
    if index is not None:
        t.give(index, DIVINE_SHIELD)


def _pyramad(t: Turn, kind: str | None, index: int | None) -> None:
    slot = t.pick(list(range(len(t.board))))
    if slot is not None:
        t.buff(slot, 0, 4)


def _board_not_empty(t: Turn) -> str | None:
    return None if t.board else "the warband is empty"


def _jaraxxus(t: Turn, kind: str | None, index: int | None) -> None:
    for slot in t.of_tribe(DEMON):
        t.buff(slot, 1, 1)


def _rakanishu(t: Turn, kind: str | None, index: int | None) -> None:
    if index is not None:
        t.buff(index, t.tier, t.tier)


# ------------------------------------------------------------ shared helpers


def _buff_bought(t: Turn, minion: MinionCard, attack: int, health: int) -> None:
    """Buff the minion just bought (the last card of the hand that is it)."""
    for i in range(len(t.hand) - 1, -1, -1):
        if t.hand[i] is minion:
            t.hand[i] = minion.buffed(attack, health)
            return


def _set_counter(t: Turn, value: int) -> None:
    hero = hero_of(t)
    if hero.counter != value:
        t.hero = hero.changed(counter=value)


def _reset_counter(t: Turn) -> None:
    _set_counter(t, 0)


def _count_up_each_turn(t: Turn) -> None:
    """A counter that starts at 1 on turn 1 and grows by 1 each later turn."""
    if t.turn > 1:
        _set_counter(t, hero_of(t).counter + 1)


def _arm(t: Turn, kind: str | None, index: int | None) -> None:
    _set_counter(t, 1)


def _disarm(t: Turn, won: bool, lost: bool) -> None:
    _set_counter(t, 0)


def _is_armed(hero: HeroState) -> bool:
    """Y'Shaarj's and Rafaam's power fires in the coming combat."""
    return hero.counter == 1


_ARMED: Final = (1,)


def _arm_this_turn(t: Turn, kind: str | None, index: int | None) -> None:
    """Arm an effect that comes later this turn (``extra``)."""
    t.hero = hero_of(t).changed(extra=_ARMED)


# ------------------------------------------------------------ Edwin VanCleef


def _edwin(t: Turn, kind: str | None, index: int | None) -> None:
    bought = hero_of(t).counter
    if index is not None and bought:
        t.buff(index, bought, bought)


def _count_buy(t: Turn, minion: MinionCard) -> None:
    _set_counter(t, hero_of(t).counter + 1)


# ------------------------------------------------------------ Reno Jackson


def _can_be_golden(t: Turn, kind: str, index: int) -> bool:
    m = t.board[index]
    return not m.golden and INFO[m.card].golden_id is not None


def golden_copy(m: MinionCard) -> MinionCard:
    """``m`` turned golden in place: golden base stats plus the buffs it had,
    the keywords it gained, its magnets, spores and pool copies kept (no
    Triple Reward: no triple made it).

    >>> str(golden_copy(make_minion("BOT_606").buffed(1, 0)))
    'golden Kaboom Bot 5/4'
    """
    info = INFO[m.card]
    kw = info.golden_keywords | (m.keywords & ~info.keywords)
    if kw & MEGA_WINDFURY:
        kw &= ~WINDFURY
    attack = info.golden_attack + m.attack - info.attack
    health = info.golden_health + m.health - info.health
    return MinionCard(
        m.card,
        True,
        min(max(attack, info.golden_attack), MAX_STAT),
        min(max(health, info.golden_health), MAX_STAT),
        kw,
        m.magnetic,
        m.spores,
        m.pool_copies,
        False,
    )


def _reno(t: Turn, kind: str | None, index: int | None) -> None:
    if index is not None:
        t.board[index] = golden_copy(t.board[index])


# ------------------------------------------------------------ The Lich King


def _no_reborn(t: Turn, kind: str, index: int) -> bool:
    return not t.board[index].keywords & REBORN


def _lich_king(t: Turn, kind: str | None, index: int | None) -> None:
    if index is not None:
        t.give(index, REBORN)


def _own_keywords(m: MinionCard) -> int:
    info = INFO[m.card]
    return info.golden_keywords if m.golden else info.keywords


def _reborn_rites_end(t: Turn, won: bool, lost: bool) -> None:
    """Reborn Rite lasts one combat: Reborn goes from minions whose card lacks it."""
    for i, m in enumerate(t.board):
        if m.keywords & REBORN and not _own_keywords(m) & REBORN:
            t.board[i] = _without_reborn(m)
    for i, c in enumerate(t.hand):
        if isinstance(c, MinionCard) and c.keywords & REBORN and not _own_keywords(c) & REBORN:
            t.hand[i] = _without_reborn(c)


def _without_reborn(m: MinionCard) -> MinionCard:
    return MinionCard(
        m.card,
        m.golden,
        m.attack,
        m.health,
        m.keywords & ~REBORN,
        m.magnetic,
        m.spores,
        m.pool_copies,
        m.triple,
    )


# ------------------------------------------------------------ C'Thun


def _cthun_end(t: Turn) -> None:
    hero = hero_of(t)
    if not hero.extra:
        return
    slots = list(range(len(t.board)))
    for _ in range(hero.counter + 1):
        slot = t.pick(slots)
        if slot is not None:
            t.buff(slot, 1, 1)
    t.hero = hero.changed(counter=hero.counter + 1, extra=())


# ------------------------------------------------------------ Kael'thas


def _kaelthas(t: Turn, minion: MinionCard) -> None:
    bought = hero_of(t).counter + 1
    if bought == 3:
        _buff_bought(t, minion, 2, 2)
        bought = 0
    _set_counter(t, bought)


# ------------------------------------------------------------ Overlord Saurfang


def _saurfang_buy(t: Turn, minion: MinionCard) -> None:
    hero = hero_of(t)
    if hero.extra:
        _buff_bought(t, minion, hero.counter, 0)
        t.hero = hero.changed(extra=())


def _saurfang_turn(t: Turn) -> None:
    _count_up_each_turn(t)
    hero = hero_of(t)
    if hero.extra:  # armed last turn and nothing bought: the effect is gone
        t.hero = hero.changed(extra=())


# ------------------------------------------------------------ The Rat King

RAT_KING: Final = "TB_BaconShop_HP_041"
KINGS: Final[dict[int, str]] = {
    BEAST: "TB_BaconShop_HP_041a",
    MECH: "TB_BaconShop_HP_041b",
    MURLOC: "TB_BaconShop_HP_041c",
    DEMON: "TB_BaconShop_HP_041d",
    DRAGON: "TB_BaconShop_HP_041f",
    PIRATE: "TB_BaconShop_HP_041g",
    ELEMENTAL: "TB_BaconShop_HP_041h",
}
"""The Rat King's power version for each minion type."""
_KING_TYPE: Final = {power: bit for bit, power in KINGS.items()}
_EVERY_TYPE: Final = sum(TRIBE_BITS.values())


def _lobby_types(t: Turn) -> None:
    """Remember the lobby's minion types: those of the pool's cards (it is
    full when heroes are chosen; Amalgadon, of every type, says nothing)."""
    mask = 0
    for card_id in t.pool.counts():
        tribes = INFO[card_id].tribes
        if tribes != _EVERY_TYPE:
            mask |= tribes
    t.hero = hero_of(t).changed(extra=(mask,))


def _rat_king_turn(t: Turn) -> None:
    """A new type each turn, never the one he had (data/heroes.toml)."""
    hero = hero_of(t)
    mask = cast(int, hero.extra[0]) if hero.extra else 0
    current = _KING_TYPE.get(hero.power, 0)
    choices = [bit for bit in KINGS if mask & bit and bit != current]
    if not choices:
        choices = [bit for bit in KINGS if bit != current]
    bit = choices[int(t.rng.random() * len(choices))]
    t.hero = hero.changed(power=KINGS[bit])


def _rat_king_buy(t: Turn, minion: MinionCard) -> None:
    if INFO[minion.card].tribes & _KING_TYPE.get(hero_of(t).power, 0):
        _buff_bought(t, minion, 2, 2)


# ------------------------------------------------------------ Sindragosa


def _sindragosa(t: Turn) -> None:
    for i, m in enumerate(t.shop):
        if t.shop_frozen[i]:
            t.shop[i] = m.buffed(2, 1)


# ------------------------------------------------------------ Arch-Villain Rafaam


def _rafaam_kills(t: Turn, kills: int, first: str | None) -> None:
    """Armed: a plain copy of the first enemy minion that died goes to hand
    (a pool card's copy from the pool while one is left, else created)."""
    if not hero_of(t).counter:
        return
    _set_counter(t, 0)
    db = cards()
    if first is None or first not in db or not db[first].is_minion:
        return
    info = card_info(first)
    if not db[first].golden and info.in_pool and t.pool.take(info.id):
        t.add_to_hand(pool_minion(info.id))
    else:
        t.add_to_hand(make_minion(first))


# ------------------------------------------------------------ The Great Akazamzarak

SECRETS: Final = tuple(sorted(c.id for c in cards() if c.secret))
"""The Battlegrounds Secrets his power discovers."""
ICE_BLOCK: Final = "TB_Bacon_Secrets_12"
COMPETITIVE_SPIRIT: Final = "TB_Bacon_Secrets_13"
MAX_SECRETS: Final = 5  # Hearthstone's limit of Secrets in play (hearthstone.wiki.gg/wiki/Secret)


def secrets_in_play(hero: HeroState) -> tuple[str, ...]:
    """The Great Akazamzarak's Secrets in play, in the order they came.

    >>> from bgsim import HeroState
    >>> secrets_in_play(HeroState("TB_BaconShop_HERO_21", "TB_BaconShop_HP_020"))
    ()
    """
    return cast(tuple[str, ...], hero.extra[0]) if hero.extra else ()


def _ice_block_taken(hero: HeroState) -> bool:
    return bool(hero.extra) and cast(bool, hero.extra[1])


def _offerable(hero: HeroState) -> list[str]:
    have = secrets_in_play(hero)
    taken = _ice_block_taken(hero)
    return [s for s in SECRETS if s not in have and not (s == ICE_BLOCK and taken)]


def _akazamzarak_usable(t: Turn) -> str | None:
    # Ten Secrets, at most five in play and Ice Block once: with room for
    # one more, at least four are left to offer.
    if len(secrets_in_play(hero_of(t))) >= MAX_SECRETS:
        return f"he already has {MAX_SECRETS} Secrets in play"
    return None


def _akazamzarak(t: Turn, kind: str | None, index: int | None) -> None:
    candidates = _offerable(hero_of(t))
    offers: list[str] = []
    for _ in range(min(3, len(candidates))):
        offers.append(candidates.pop(int(t.rng.random() * len(candidates))))
    t.hero_offers = tuple(offers)


def _akazamzarak_pick(t: Turn, secret: str) -> None:
    hero = hero_of(t)
    taken = _ice_block_taken(hero) or secret == ICE_BLOCK
    t.hero = hero.changed(extra=((*secrets_in_play(hero), secret), taken))


def _secrets_revealed(t: Turn, revealed: tuple[str, ...]) -> None:
    """Secrets revealed in a fight leave play."""
    hero = hero_of(t)
    have = secrets_in_play(hero)
    rest = tuple(s for s in have if s not in revealed)
    if rest != have:
        t.hero = hero.changed(extra=(rest, _ice_block_taken(hero)))


def _competitive_spirit(t: Turn) -> None:
    """The one Secret that triggers in the recruit phase: at the start of
    his turn his minions get +1/+1, and it is gone. With no minion it does
    not trigger and stays, as a Secret with nothing to act on does."""
    hero = hero_of(t)
    have = secrets_in_play(hero)
    if COMPETITIVE_SPIRIT not in have or not t.board:
        return
    for i in range(len(t.board)):
        t.buff(i, 1, 1)
    rest = tuple(s for s in have if s != COMPETITIVE_SPIRIT)
    t.hero = hero.changed(extra=(rest, _ice_block_taken(hero)))


_RAT_KING: Final = PowerEffects(
    on_choose=_lobby_types, start_of_turn=_rat_king_turn, on_buy=_rat_king_buy
)

POWERS: Final[dict[str, PowerEffects]] = {
    # George the Fallen: Boon of Light
    "TB_BaconShop_HP_010": PowerEffects(target="minion", use=_george, valid=_no_shield),
    # Pyramad: Brick by Brick
    "TB_BaconShop_HP_040": PowerEffects(use=_pyramad, usable=_board_not_empty),
    # Lord Jaraxxus: Bloodfury
    "TB_BaconShop_HP_036": PowerEffects(use=_jaraxxus),
    # Rakanishu: Tavern Lighting
    "TB_BaconShop_HP_085": PowerEffects(target="minion", use=_rakanishu),
    # Edwin VanCleef: Sharpen Blades
    "TB_BaconShop_HP_001": PowerEffects(
        target="minion", use=_edwin, on_buy=_count_buy, start_of_turn=_reset_counter
    ),
    # Reno Jackson: Gonna Be Rich!
    "TB_BaconShop_HP_046": PowerEffects(
        target="minion", use=_reno, valid=_can_be_golden, per_game=True
    ),
    # The Lich King: Reborn Rites
    "TB_BaconShop_HP_024": PowerEffects(
        target="minion", use=_lich_king, valid=_no_reborn, after_combat=_reborn_rites_end
    ),
    # C'Thun: Saturday C'Thuns!
    "TB_BaconShop_HP_104": PowerEffects(
        use=_arm_this_turn, end_of_turn=_cthun_end, counter_name="repeats"
    ),
    # Kael'thas Sunstrider: Verdant Spheres
    "TB_BaconShop_HP_066": PowerEffects(on_buy=_kaelthas),
    # Overlord Saurfang: For the Horde!
    "BG20_HERO_102p": PowerEffects(
        use=_arm_this_turn,
        on_buy=_saurfang_buy,
        start_of_turn=_saurfang_turn,
        counter_name="attack_bonus",
        counter_start=1,
    ),
    # The Rat King: A Tale of Kings, and the version of each turn
    RAT_KING: _RAT_KING,
    **{power: _RAT_KING for power in KINGS.values()},
    # Sindragosa: Stay Frosty
    "TB_BaconShop_HP_014": PowerEffects(end_of_turn=_sindragosa),
    # Y'Shaarj: Embrace Your Rage (armed here; the summon is the combat engine's)
    "TB_BaconShop_HP_103": PowerEffects(use=_arm, after_combat=_disarm, armed=_is_armed),
    # Arch-Villain Rafaam: I'll Take That!
    "TB_BaconShop_HP_053": PowerEffects(use=_arm, on_kills=_rafaam_kills, armed=_is_armed),
    # The Great Akazamzarak: Prestidigitation
    "TB_BaconShop_HP_020": PowerEffects(
        use=_akazamzarak,
        usable=_akazamzarak_usable,
        on_pick=_akazamzarak_pick,
        start_of_turn=_competitive_spirit,
        secrets=secrets_in_play,
        on_secrets=_secrets_revealed,
    ),
}
