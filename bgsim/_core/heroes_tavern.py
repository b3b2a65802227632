"""Hero powers that change Bob's Tavern (one registry entry per hero power,
keyed by its card id; see :mod:`bgsim._core.power_effects`).

Sources and the choices no source settles are in ``data/heroes.toml``.

What the powers keep in ``HeroState``:

- Aranna Starseeker: ``counter`` is the refreshes left before her power
  becomes Spectral Sight (the drafted hero id stays hers).
- Captain Eudora: ``counter`` is the digs left; Zephrys: the wishes left.
- Shudderwock: ``counter`` is 1 while the next Battlecry triggers twice.
- Silas Darkmoon: ``counter`` is the tickets toward the next Prize;
  ``extra`` is ``(tickets, carried)``: ``tickets[i]`` says whether shop slot
  ``i`` holds a Darkmoon Ticket, and ``carried`` is True between a turn's
  start and its shop roll, when ``tickets`` are those of the frozen minions
  the roll keeps (they come first in the new shop).
- Maiev Shadowsong: ``extra`` holds one ``(minion, turn)`` pair per Dormant
  minion, the turn it awakens at; they take tavern slots and their pool
  copies stay with her (``HeroState.pool_copies``).
"""

from __future__ import annotations

from typing import Final, cast

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import (
    DRAGON,
    INFO,
    MECH,
    MURLOC,
    MinionCard,
    SpellCard,
    make_minion,
    pool_minion,
)
from bgsim._core.player_state import DiscoverSpec
from bgsim._core.power_effects import PowerEffects, hero_of
from bgsim._core.recruit_turn import Turn
from bgsim._core.spells import DARKMOON_PRIZE, RECRUITMENT_MAP

SPECTRAL_SIGHT: Final = "TB_BaconShop_HP_065t2"  # Aranna, Unleashed's power
ARANNA_REFRESHES: Final = 5
EUDORA_DIGS: Final = 5
ZEPHRYS_WISHES: Final = 3
TICKETS_PER_PRIZE: Final = 3
TICKET_CHANCE: Final = 1 / 3  # data/heroes.toml: the fan implementation's rate
MAIEV_TURNS: Final = 2


def _millificent(t: Turn) -> None:
    """Mechs in Bob's Tavern have +1/+1: each Mech a shop roll brings gets
    it once (the frozen minions a roll keeps, at the left, have it already)."""
    for i in range(t.kept, len(t.shop)):
        m = t.shop[i]
        if INFO[m.card].tribes & MECH:
            t.shop[i] = m.buffed(1, 1)


def _tess(t: Turn, kind: str | None, index: int | None) -> None:
    """Refresh with plain copies of the last opponent's warband, golden if
    golden (created cards: they hold no pool copies and give no Triple
    Reward)."""
    for m in t.shop:
        t.pool.put(m.pool_copies)
    shown = [make_minion(card_id) for card_id in t.last_opponent_cards]
    t.shop = shown[: t.rules.tavern.max_shop_size]
    t.shop_frozen = [False] * len(t.shop)


def _tess_usable(t: Turn) -> str | None:
    return None if t.last_opponent_cards else "no last opponent yet"


# ------------------------------------------------------------ shared pieces


def _is_dragon(card_id: str) -> bool:
    return bool(INFO[card_id].tribes & DRAGON)


def _is_murloc(card_id: str) -> bool:
    return bool(INFO[card_id].tribes & MURLOC)


def _has_battlecry(card_id: str) -> bool:
    return INFO[card_id].battlecry


def _add_to_shop(t: Turn, card_ids: list[str]) -> None:
    """Pool copies join Bob's Tavern at the right end (unfrozen)."""
    for card_id in card_ids:
        t.shop.append(t.shop_minion(card_id))
        t.shop_frozen.append(False)


def _return_shop(t: Turn) -> None:
    """Every shop minion goes back to the pool (a refresh that replaces
    frozen minions too)."""
    for m in t.shop:
        t.pool.put(m.pool_copies)
    t.shop = []
    t.shop_frozen = []


def _golden(card_id: str, copies: tuple[str, ...]) -> MinionCard:
    """A golden minion of a pool card holding ``copies`` (no Triple Reward:
    the reward belongs to triples)."""
    info = INFO[card_id]
    return MinionCard(
        card_id,
        True,
        info.golden_attack,
        info.golden_health,
        info.golden_keywords,
        pool_copies=copies,
    )


def _take_more(t: Turn, card_id: str, wanted: int) -> tuple[str, ...]:
    """Up to ``wanted`` more copies of a card taken from the pool."""
    taken: list[str] = []
    for _ in range(wanted):
        if t.pool.take(card_id):
            taken.append(card_id)
    return tuple(taken)


def _shop_not_empty(t: Turn) -> str | None:
    return None if t.shop else "Bob's Tavern is empty"


# ------------------------------------------------------------ Ysera


def _ysera(t: Turn) -> None:
    """Every new shop gets one Dragon more than the tier's shop size (frozen
    minions the roll kept count toward it), at the right end."""
    wanted = min(t.rules.shop_size(t.tier) + 1, t.rules.tavern.max_shop_size)
    if len(t.shop) < wanted:
        _add_to_shop(t, t.pool.draw_matching(t.rng, 1, t.tier, 1, _is_dragon))


# ------------------------------------------------------------ Aranna Starseeker


def _aranna_refresh(t: Turn) -> None:
    """Count her own refreshes; after the fifth her power is Spectral Sight."""
    hero = hero_of(t)
    left = hero.counter - 1
    if left > 0:
        t.hero = hero.changed(counter=left)
    else:
        t.hero = hero.changed(counter=0, power=SPECTRAL_SIGHT)


def _seven(t: Turn, usual: int) -> int:
    return t.rules.tavern.max_shop_size


# ------------------------------------------------------------ Infinite Toki


def _toki(t: Turn, kind: str | None, index: int | None) -> None:
    """A refresh (frozen minions replaced too) whose last minion comes from
    the tier above his; at the top tier an ordinary refresh."""
    size = t.rules.shop_size(t.tier)
    higher = t.tier + 1
    if higher > t.rules.tavern.max_tier:
        t.roll_shop(False, size)
        return
    t.roll_shop(False, size - 1)
    above = t.pool.draw_matching(t.rng, higher, higher, 1)
    # No copy left of the tier above: the slot is filled as usual.
    _add_to_shop(t, above or t.pool.draw(t.rng, t.tier, 1))


# ------------------------------------------------------------ Dinotamer Brann


def _brann(t: Turn, kind: str | None, index: int | None) -> None:
    """A refresh with Battlecry minions only; slots the pool cannot fill stay empty."""
    _return_shop(t)
    size = t.rules.shop_size(t.tier)
    _add_to_shop(t, t.pool.draw_matching(t.rng, 1, t.tier, size, _has_battlecry))


# ------------------------------------------------------------ Jandice Barov


def _non_golden(t: Turn, kind: str, index: int) -> bool:
    return not t.board[index].golden


def _jandice(t: Turn, kind: str | None, index: int | None) -> None:
    """The minion and a random tavern minion swap places, enchantments and
    pool copies with them; the one sent to the tavern arrives unfrozen."""
    assert index is not None
    j = t.pick(list(range(len(t.shop))))
    assert j is not None
    mine = t.board[index]
    t.board[index] = t.shop[j]
    t.shop[j] = mine
    t.shop_frozen[j] = False


# ------------------------------------------------------------ Malygos


def _malygos(t: Turn, kind: str | None, index: int | None) -> None:
    """Replace a warband or tavern minion, in place, with a random pool
    minion of its tier (a golden one with a golden one)."""
    assert index is not None
    if kind == "shop":
        t.shop[index] = _transform(t, t.shop[index], True)
    else:
        t.board[index] = _transform(t, t.board[index], False)


def _transform(t: Turn, old: MinionCard, in_shop: bool) -> MinionCard:
    tier = INFO[old.card].tier
    t.pool.put(old.pool_copies)
    drawn = t.pool.draw_matching(t.rng, tier, tier, 1)
    if not drawn:
        # Nothing of that tier is left (the target held no copy of it): it stays.
        for card_id in old.pool_copies:
            t.pool.take(card_id)
        return old
    card_id = drawn[0]
    if old.golden:
        return _golden(card_id, (card_id, *_take_more(t, card_id, 2)))
    return t.shop_minion(card_id) if in_shop else pool_minion(card_id)


# ------------------------------------------------------------ Yogg-Saron


def _yogg_usable(t: Turn) -> str | None:
    if not t.shop:
        return "Bob's Tavern is empty"
    if not t.hand_room():
        return "the hand is full"
    return None


def _yogg(t: Turn, kind: str | None, index: int | None) -> None:
    """A random tavern minion to hand with +1/+1 (not a purchase)."""
    j = t.pick(list(range(len(t.shop))))
    assert j is not None
    minion = t.shop.pop(j)
    t.shop_frozen.pop(j)
    t.add_to_hand(minion.buffed(1, 1))


# ------------------------------------------------------------ Maiev Shadowsong


def _maiev(t: Turn, kind: str | None, index: int | None) -> None:
    """The tavern minion goes Dormant: out of the shop into her hero state,
    awakening ``MAIEV_TURNS`` turns later."""
    assert index is not None
    hero = hero_of(t)
    minion = t.shop.pop(index)
    t.shop_frozen.pop(index)
    t.hero = hero.changed(extra=(*hero.extra, (minion, t.turn + MAIEV_TURNS)))


def _maiev_awaken(t: Turn) -> None:
    """At the start of a turn, each Dormant minion whose time has come goes to
    her hand with +1 Attack; with a full hand it dies in the tavern and its
    copies go back to the pool."""
    hero = hero_of(t)
    if not hero.extra:
        return
    asleep: list[tuple[MinionCard, int]] = []
    for minion, turn in hero.extra:
        if turn > t.turn:
            asleep.append((minion, turn))
        else:
            t.add_to_hand(minion.buffed(1, 0))
    t.hero = hero.changed(extra=tuple(asleep))


def _maiev_dormant(hero: HeroState) -> tuple[tuple[MinionCard, int], ...]:
    return cast(tuple[tuple[MinionCard, int], ...], hero.extra)


def _maiev_slots(t: Turn, usual: int) -> int:
    """Dormant minions take tavern slots: a new shop draws that many fewer."""
    return max(usual - len(hero_of(t).extra), 0)


# ------------------------------------------------------------ Fungalmancer Flurgl


def _flurgl(t: Turn, minion: MinionCard) -> None:
    """After a Murloc is sold, a random Murloc of his tier or lower joins the
    tavern (if it has room)."""
    if INFO[minion.card].tribes & MURLOC and t.shop_room():
        _add_to_shop(t, t.pool.draw_matching(t.rng, 1, t.tier, 1, _is_murloc))


# ------------------------------------------------------------ Dancin' Deryl


def _deryl(t: Turn, minion: MinionCard) -> None:
    """After a sale, +1/+1 to a random tavern minion, twice (it may be the same)."""
    for _ in range(2):
        j = t.pick(list(range(len(t.shop))))
        if j is None:
            return
        t.shop[j] = t.shop[j].buffed(1, 1)


# ------------------------------------------------------------ Silas Darkmoon


def _tickets(hero: HeroState) -> tuple[bool, ...]:
    return hero.extra[0] if hero.extra else ()


def _silas_marks(hero: HeroState) -> tuple[bool, ...]:
    """The tickets on the shop's slots (none while a turn's roll is pending)."""
    return () if hero.extra and hero.extra[1] else _tickets(hero)


def _silas_keep(t: Turn) -> None:
    """Before the turn's shop roll: the tickets of the frozen minions it keeps."""
    hero = hero_of(t)
    tickets = _tickets(hero)
    kept = tuple(
        i < len(tickets) and tickets[i] for i, frozen in enumerate(t.shop_frozen) if frozen
    )
    t.hero = hero.changed(extra=(kept, True))


def _silas_roll(t: Turn) -> None:
    """Each minion a new shop brings has a ticket one time in three."""
    hero = hero_of(t)
    kept = _tickets(hero) if hero.extra and hero.extra[1] else ()
    tickets = list(kept[: len(t.shop)])
    while len(tickets) < len(t.shop):
        tickets.append(t.rng.random() < TICKET_CHANCE)
    t.hero = hero.changed(extra=(tuple(tickets), False))


def _silas_bought(t: Turn, slot: int) -> None:
    """Buying a ticketed minion gives its ticket; every third ticket a Prize
    that Discovers from his tier now (lost with a full hand)."""
    hero = hero_of(t)
    tickets = list(_tickets(hero))
    ticket = tickets.pop(slot) if slot < len(tickets) else False
    count = hero.counter
    if ticket:
        count += 1
        if count >= TICKETS_PER_PRIZE:
            count = 0
            t.add_to_hand(SpellCard(DARKMOON_PRIZE, t.tier))
    t.hero = hero.changed(counter=count, extra=(tuple(tickets), False))


# ------------------------------------------------------------ Zephrys, the Great


def _zephrys_pair(t: Turn) -> str | None:
    """The minion with two non-golden copies on the warband and in hand (the
    one seen first, warband left to right, then hand), if any."""
    counts: dict[str, int] = {}
    order: list[str] = []
    for card in (*t.board, *t.hand):
        if isinstance(card, MinionCard) and not card.golden:
            if card.card not in counts:
                counts[card.card] = 0
                order.append(card.card)
            counts[card.card] += 1
    for card_id in order:
        if counts[card_id] >= 2 and INFO[card_id].golden_id is not None:
            return card_id
    return None


def _zephrys_usable(t: Turn) -> str | None:
    if hero_of(t).counter <= 0:
        return "no wishes left"
    if not t.hand_room():
        return "the hand is full"
    if _zephrys_pair(t) is None:
        return "no two copies of a minion to find the third of"
    return None


def _zephrys(t: Turn, kind: str | None, index: int | None) -> None:
    """The third copy to hand (the pool's if one is left, else created); the
    tavern's triple check then makes the golden."""
    card_id = _zephrys_pair(t)
    assert card_id is not None
    hero = hero_of(t)
    t.hero = hero.changed(counter=hero.counter - 1)
    t.add_to_hand(pool_minion(card_id) if t.pool.take(card_id) else make_minion(card_id))


# ------------------------------------------------------------ Captain Eudora


def _eudora(t: Turn, kind: str | None, index: int | None) -> None:
    """A dig; the last of five finds a golden minion of her tier or lower
    (a pool copy and up to two more of the same card)."""
    hero = hero_of(t)
    left = hero.counter - 1
    if left > 0:
        t.hero = hero.changed(counter=left)
        return
    t.hero = hero.changed(counter=EUDORA_DIGS)
    for card_id in t.pool.draw(t.rng, t.tier, 1):
        t.add_to_hand(_golden(card_id, (card_id, *_take_more(t, card_id, 2))))


# ------------------------------------------------------------ on upgrading


def _alexstrasza(t: Turn) -> None:
    """Reaching tier 5: Discover a Dragon, twice (any tier)."""
    if t.tier == 5:
        for _ in range(2):
            t.queue_discover(DiscoverSpec(1, t.rules.tavern.max_tier, DRAGON))


def _elise(t: Turn) -> None:
    """A Recruitment Map of the tier just reached."""
    t.add_to_hand(SpellCard(RECRUITMENT_MAP, t.tier))


# ------------------------------------------------------------ Shudderwock


def _shudderwock(t: Turn, kind: str | None, index: int | None) -> None:
    t.hero = hero_of(t).changed(counter=1)


def _shudderwock_count(t: Turn, usual: int) -> int:
    """The armed power doubles the next Battlecry's triggers (Brann's
    included: 2 x 2) and is spent."""
    hero = hero_of(t)
    if not hero.counter:
        return usual
    t.hero = hero.changed(counter=0)
    return usual * 2


def _disarm(t: Turn) -> None:
    hero = hero_of(t)
    if hero.counter:
        t.hero = hero.changed(counter=0)


POWERS: Final[dict[str, PowerEffects]] = {
    # Millificent Manastorm: Tinker
    "TB_BaconShop_HP_015": PowerEffects(on_roll=_millificent),
    # Tess Greymane: Bob's Burgles
    "TB_BaconShop_HP_077": PowerEffects(use=_tess, usable=_tess_usable),
    # Ysera: Dream Portal
    "TB_BaconShop_HP_062": PowerEffects(on_roll=_ysera),
    # Aranna Starseeker: Demon Hunter Training, then Aranna, Unleashed's Spectral Sight
    "TB_BaconShop_HP_065": PowerEffects(
        on_refresh=_aranna_refresh,
        counter_name="refreshes_left",
        counter_start=ARANNA_REFRESHES,
    ),
    SPECTRAL_SIGHT: PowerEffects(shop_size=_seven),
    # Infinite Toki: Temporal Tavern
    "TB_BaconShop_HP_028": PowerEffects(use=_toki),
    # Dinotamer Brann: Battle Brand
    "TB_BaconShop_HP_048": PowerEffects(use=_brann),
    # Jandice Barov: Swap, Lock, & Shop It
    "TB_BaconShop_HP_084": PowerEffects(
        target="minion", use=_jandice, valid=_non_golden, usable=_shop_not_empty
    ),
    # Malygos: Arcane Alteration
    "TB_BaconShop_HP_052": PowerEffects(target="minion_or_shop", use=_malygos),
    # Yogg-Saron, Hope's End: Puzzle Box
    "TB_BaconShop_HP_039": PowerEffects(use=_yogg, usable=_yogg_usable),
    # Maiev Shadowsong: Imprison
    "TB_BaconShop_HP_068": PowerEffects(
        target="shop",
        use=_maiev,
        start_of_turn=_maiev_awaken,
        shop_size=_maiev_slots,
        dormant=_maiev_dormant,
    ),
    # Fungalmancer Flurgl: Gone Fishing
    "TB_BaconShop_HP_056": PowerEffects(on_sell=_flurgl),
    # Dancin' Deryl: Hat Trick
    "TB_BaconShop_HP_042": PowerEffects(on_sell=_deryl),
    # Silas Darkmoon: Come One, Come All!
    "TB_BaconShop_HP_101": PowerEffects(
        start_of_turn=_silas_keep,
        on_roll=_silas_roll,
        bought_from=_silas_bought,
        shop_marks=_silas_marks,
        counter_name="tickets",
    ),
    # Zephrys, the Great: Three Wishes
    "TB_BaconShop_HP_102": PowerEffects(
        use=_zephrys,
        usable=_zephrys_usable,
        counter_name="wishes_left",
        counter_start=ZEPHRYS_WISHES,
    ),
    # Captain Eudora: Buried Treasure
    "TB_BaconShop_HP_074": PowerEffects(
        use=_eudora, counter_name="digs_left", counter_start=EUDORA_DIGS
    ),
    # Alexstrasza: Queen of Dragons
    "TB_BaconShop_HP_064": PowerEffects(on_upgrade=_alexstrasza),
    # Elise Starseeker: Lead Explorer
    "TB_BaconShop_HP_047": PowerEffects(on_upgrade=_elise),
    # Shudderwock: Burbling
    "TB_BaconShop_HP_022": PowerEffects(
        use=_shudderwock, battlecries=_shudderwock_count, end_of_turn=_disarm
    ),
}
