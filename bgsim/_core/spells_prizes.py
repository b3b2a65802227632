"""The Darkmoon Prizes (Tickatus's): one spell registry entry per Prize, and
the rules that read what the lasting ones leave behind.

Every Prize costs 0 and acts in the recruit phase. The lasting ones (for the
rest of the game, or this turn) are counted in the hero's
:class:`~bgsim._core.hero_state.Prizes`, which the rules read through the
functions at the end of this module (``bgsim._core.hero_powers`` calls
them where prices, shop sizes, Battlecries, turn ends and combat damage
are decided). Gruul Rules is an enchantment on its minion (``enchants``).

Choices no source settles (data/heroes.toml, Tickatus):

- Spells aim at friendly minions (as every Battlegrounds spell of this
  patch); I'm Still Just a Rat in a Cage doubles the minion's own Attack.
- Evolving Tavern replaces each minion in Bob's Tavern with a random card
  of the next tier left in the pool (uniform over cards), keeping the slot's
  freeze; a tier-6 minion (no higher tier) stays.
- The Good Stuff and New Recruit also act on the shop on view when cast
  (+1 Health now; one more minion now, drawn as a refresh would).
- Open Bar counts the Refreshes of a turn from the moment it is cast; two
  Open Bars still make 5 free. The Unlimited Coins come back at the end of
  the turn they were cast (lost if the hand is full).
- Fresh Tab gives back this turn's gold (the turn's income), never lowering it.
- Raise the Stakes and All That Glitters make goldens that give no Triple
  Reward (the reward belongs to triples), keeping their buffs and copies.
- Ice Block is a Secret: one at a time. It is in play as one of the
  board's Secrets in combat, where the engine prevents the fatal damage of
  a lost fight and reveals it (the same card as The Great Akazamzarak's);
  the fight's result then spends it here.
- Time Thief offers plain copies of the last opponent's cards (golden ones
  golden); B.A.N.A.N.A.S. fills the hand with Bananas (+1/+1).
"""

from __future__ import annotations

from typing import Final

from bgsim._core.hero_state import HeroState, Prizes
from bgsim._core.heroes_game import PRIZES, discover_prize, offer_powers
from bgsim._core.minions import (
    DIVINE_SHIELD,
    GOLD_COIN,
    INFO,
    TAUNT,
    WINDFURY,
    MinionCard,
    SpellCard,
    make_minion,
)
from bgsim._core.player_state import DiscoverSpec, PlayerState
from bgsim._core.recruit_turn import Turn
from bgsim._core.spell_effects import SpellEffects

BANANAS: Final = "TRL_509t"
ICE_BLOCK: Final = "TB_Bacon_Secrets_12"
GRUUL_RULES: Final = "BGS_Treasures_009"
UNLIMITED_COIN: Final = "BGS_Treasures_014"
OPEN_BAR_REFRESHES: Final = 5
GRUUL_BUFF: Final = 2
GREAT_DEAL: Final = 2
MAX_TIER: Final = 6


def _prizes(t: Turn) -> Prizes:
    hero = t.hero
    if hero is None or hero.prizes is None:
        return Prizes()
    return hero.prizes


def _keep(t: Turn, prizes: Prizes) -> None:
    hero = t.hero
    if hero is not None:
        t.hero = hero.changed(prizes=prizes)


# ------------------------------------------------------------ one-off


def _pocket_change(t: Turn, target: int | None, card: SpellCard) -> None:
    for _ in range(2):
        t.add_to_hand(SpellCard(GOLD_COIN))


def _discover(min_tier: int, max_tier: int) -> SpellEffects:
    def cast(t: Turn, target: int | None, card: SpellCard) -> None:
        t.queue_discover(DiscoverSpec(min_tier, max_tier))

    return SpellEffects(cast)


def _on_the_house(t: Turn, target: int | None, card: SpellCard) -> None:
    t.queue_discover(DiscoverSpec(t.tier, t.tier))


def _evolving_tavern(t: Turn, target: int | None, card: SpellCard) -> None:
    for i, m in enumerate(t.shop):
        tier = m.tier + 1
        if tier > MAX_TIER:
            continue
        picked = t.pool.pick_distinct(t.rng, 1, tier, tier)
        if picked:
            t.pool.put(m.pool_copies)
            t.shop[i] = t.shop_minion(picked[0])


def _might_of_stormwind(t: Turn, target: int | None, card: SpellCard) -> None:
    for i in range(len(t.board)):
        t.buff(i, 1, 1)


def _gruul_rules(t: Turn, target: int | None, card: SpellCard) -> None:
    if target is not None:
        m = t.board[target]
        t.board[target] = MinionCard(
            m.card,
            m.golden,
            m.attack,
            m.health,
            m.keywords,
            m.magnetic,
            m.spores,
            m.pool_copies,
            m.triple,
            (*m.enchants, GRUUL_RULES),
        )


def _time_thief(t: Turn, target: int | None, card: SpellCard) -> None:
    options = tuple(make_minion(card_id) for card_id in t.last_opponent_cards)
    if options:
        t.queue_discover(DiscoverSpec(1, 1, options=options))


def _time_thief_castable(s: PlayerState) -> str | None:
    return None if s.last_opponent_cards else "no last opponent yet"


def _training_session(t: Turn, target: int | None, card: SpellCard) -> None:
    hero = t.hero
    if hero is not None:
        offer_powers(t, hero.power)


def _needs_hero(s: PlayerState) -> str | None:
    return None if s.hero is not None else "this player has no hero power to replace"


def _keywords_and_stats(bits: int, attack: int, health: int) -> SpellEffects:
    def cast(t: Turn, target: int | None, card: SpellCard) -> None:
        if target is not None:
            if bits:
                t.give(target, bits)
            t.buff(target, attack, health)

    return SpellEffects(cast, target="minion")


def _rat_in_a_cage(t: Turn, target: int | None, card: SpellCard) -> None:
    if target is not None:
        t.buff(target, t.board[target].attack, 0)


def _can_be_golden(m: MinionCard) -> bool:
    return not m.golden and INFO[m.card].golden_id is not None


def _golden_copy(m: MinionCard) -> MinionCard:
    """``m`` made golden: golden base stats plus what it gained, its copies,
    no Triple Reward."""
    info = INFO[m.card]
    return MinionCard(
        m.card,
        True,
        max(info.golden_attack + m.attack - info.attack, 0),
        max(info.golden_health + m.health - info.health, 1),
        info.golden_keywords | (m.keywords & ~info.keywords),
        m.magnetic,
        m.spores,
        m.pool_copies,
        False,
        m.enchants,
    )


def _raise_the_stakes(t: Turn, target: int | None, card: SpellCard) -> None:
    if target is not None:
        t.add_to_hand(_golden_copy(t.remove(target)))


def _raise_valid(s: PlayerState, slot: int) -> bool:
    return _can_be_golden(s.board[slot])


def _bananas(t: Turn, target: int | None, card: SpellCard) -> None:
    while t.hand_room():
        t.add_to_hand(SpellCard(BANANAS))


def _fresh_tab(t: Turn, target: int | None, card: SpellCard) -> None:
    econ = t.rules.economy
    income = min(econ.starting_gold + (t.turn - 1) * econ.gold_per_turn, econ.max_gold)
    t.gold = max(t.gold, income)


def _rocking_and_rolling(t: Turn, target: int | None, card: SpellCard) -> None:
    t.free_refreshes += 3


def _big_winner(t: Turn, target: int | None, card: SpellCard) -> None:
    for group in sorted(PRIZES)[:-1]:
        discover_prize(t, group)


def _repeat_customer(t: Turn, target: int | None, card: SpellCard) -> None:
    if target is not None:
        t.add_to_hand(t.remove(target).buffed(2, 2))


def _not_golden(s: PlayerState, slot: int) -> bool:
    return not s.board[slot].golden


def _all_that_glitters(t: Turn, target: int | None, card: SpellCard) -> None:
    slot = t.pick([i for i, m in enumerate(t.shop) if _can_be_golden(m)])
    if slot is not None:
        t.shop[slot] = _golden_copy(t.shop[slot])


# ------------------------------------------------------------ lasting


def _good_stuff(t: Turn, target: int | None, card: SpellCard) -> None:
    prizes = _prizes(t)
    _keep(t, prizes.changed(good_stuff=prizes.good_stuff + 1))
    for i, m in enumerate(t.shop):
        t.shop[i] = m.buffed(0, 1)


def _new_recruit(t: Turn, target: int | None, card: SpellCard) -> None:
    prizes = _prizes(t)
    _keep(t, prizes.changed(recruits=prizes.recruits + 1))
    if t.shop_room():
        for card_id in t.pool.draw(t.rng, t.tier, 1):
            t.shop.append(t.shop_minion(card_id))
            t.shop_frozen.append(False)


def _family_discount(t: Turn, target: int | None, card: SpellCard) -> None:
    prizes = _prizes(t)
    _keep(t, prizes.changed(discount=prizes.discount + 1))


def _open_bar(t: Turn, target: int | None, card: SpellCard) -> None:
    _keep(t, _prizes(t).changed(open_bar=True))


def _great_deal(t: Turn, target: int | None, card: SpellCard) -> None:
    prizes = _prizes(t)
    _keep(t, prizes.changed(great_deals=prizes.great_deals + 1))


def _unlimited_coin(t: Turn, target: int | None, card: SpellCard) -> None:
    t.gold += 1
    prizes = _prizes(t)
    _keep(t, prizes.changed(coins=prizes.coins + 1))


def _branns_blessing(t: Turn, target: int | None, card: SpellCard) -> None:
    _keep(t, _prizes(t).changed(brann=True))


def _ice_block(t: Turn, target: int | None, card: SpellCard) -> None:
    prizes = _prizes(t)
    _keep(t, prizes.changed(ice_blocks=prizes.ice_blocks + 1))


def _ice_block_castable(s: PlayerState) -> str | None:
    hero = s.hero
    if hero is None:
        return "this player has no hero to protect"
    if hero.prizes is not None and hero.prizes.ice_blocks:
        return "an Ice Block is already waiting (one copy of a Secret at a time)"
    return None


def _has_hero(s: PlayerState) -> str | None:
    return None if s.hero is not None else "this player has no hero"


SPELLS: Final[dict[str, SpellEffects]] = {
    # Prize turn 1 (Big Banana is King Mukla's too: bgsim._core.spells)
    "BGS_Treasures_001": SpellEffects(_pocket_change),  # Pocket Change
    "BGS_Treasures_004": _discover(1, 1),  # Gacha Gift
    "BGS_Treasures_007": SpellEffects(_might_of_stormwind),  # Might of Stormwind
    "BGS_Treasures_013": SpellEffects(_good_stuff, castable=_has_hero),  # The Good Stuff
    "BGS_Treasures_029": SpellEffects(_rocking_and_rolling),  # Rocking and Rolling
    "BGS_Treasures_033": SpellEffects(_new_recruit, castable=_has_hero),  # New Recruit
    # Prize turn 2
    "BGS_Treasures_006": SpellEffects(_evolving_tavern),  # Evolving Tavern
    GRUUL_RULES: SpellEffects(_gruul_rules, target="minion"),  # Gruul Rules
    "BGS_Treasures_010": SpellEffects(_time_thief, castable=_time_thief_castable),  # Time Thief
    "BGS_Treasures_012": SpellEffects(_on_the_house),  # On the House
    UNLIMITED_COIN: SpellEffects(_unlimited_coin, castable=_has_hero),  # The Unlimited Coin
    "BGS_Treasures_026": _keywords_and_stats(TAUNT, 5, 5),  # The Bouncer
    "BGS_Treasures_030": SpellEffects(_branns_blessing, castable=_has_hero),  # Brann's Blessing
    "BGS_Treasures_036": SpellEffects(_great_deal, castable=_has_hero),  # Great Deal
    # Prize turn 3
    "BGS_Treasures_011": SpellEffects(_training_session, castable=_needs_hero),  # Training Session
    "BGS_Treasures_015": _keywords_and_stats(DIVINE_SHIELD, 0, 0),  # Buy the Holy Light
    "BGS_Treasures_018": SpellEffects(_rat_in_a_cage, target="minion"),  # Rat in a Cage
    "BGS_Treasures_019": SpellEffects(_bananas),  # B.A.N.A.N.A.S.
    "BGS_Treasures_020": _discover(6, 6),  # Top Shelf
    "BGS_Treasures_034": SpellEffects(
        _repeat_customer, target="minion", valid=_not_golden
    ),  # Repeat Customer
    "BGS_Treasures_037": SpellEffects(_all_that_glitters),  # All That Glitters
    ICE_BLOCK: SpellEffects(_ice_block, castable=_ice_block_castable),  # Ice Block
    # Prize turn 4
    "BGS_Treasures_016": SpellEffects(
        _raise_the_stakes, target="minion", valid=_raise_valid
    ),  # Raise the Stakes
    "BGS_Treasures_022": SpellEffects(_family_discount, castable=_has_hero),  # Friends and Family
    "BGS_Treasures_023": SpellEffects(_open_bar, castable=_has_hero),  # Open Bar
    "BGS_Treasures_025": SpellEffects(_fresh_tab),  # Fresh Tab
    "BGS_Treasures_028": _keywords_and_stats(DIVINE_SHIELD | WINDFURY, 10, 10),  # A Dog A Bone
    "BGS_Treasures_032": SpellEffects(_big_winner),  # Big Winner!
}
"""Every Darkmoon Prize but Big Banana, by card id."""


# ------------------------------------------------------------ the rules they change


def price(prizes: Prizes | None, kind: str, usual: int) -> int:
    """What a buy or a refresh costs with these Prizes (Friends and Family
    Discount, Open Bar)."""
    if prizes is None:
        return usual
    if kind == "buy":
        return usual - prizes.discount
    if kind == "refresh" and prizes.open_bar and prizes.refreshes < OPEN_BAR_REFRESHES:
        return 0
    return usual


def shop_size(t: Turn, usual: int) -> int:
    """New Recruit's extra minions (Bob's Tavern holds at most its maximum)."""
    prizes = _prizes(t)
    if not prizes.recruits:
        return usual
    return min(usual + prizes.recruits, t.rules.tavern.max_shop_size)


def battlecries(hero: HeroState, usual: int) -> int:
    """Brann's Blessing: Battlecries trigger twice (Brann's own count if more)."""
    prizes = hero.prizes
    return max(usual, 2) if prizes is not None and prizes.brann else usual


def start_of_turn(t: Turn) -> None:
    """This turn's Prize counts start again."""
    prizes = _prizes(t)
    if prizes.refreshes or prizes.coins or prizes.brann:
        _keep(t, prizes.changed(refreshes=0, coins=0, brann=False))


def on_refresh(t: Turn) -> None:
    prizes = _prizes(t)
    if prizes.open_bar:
        _keep(t, prizes.changed(refreshes=prizes.refreshes + 1))


def end_of_turn(t: Turn) -> None:
    """Gruul Rules' minions grow, Great Deal lowers the upgrade, The
    Unlimited Coins come back."""
    for i, m in enumerate(t.board):
        n = m.enchants.count(GRUUL_RULES)
        if n:
            t.buff(i, GRUUL_BUFF * n, GRUUL_BUFF * n)
    prizes = _prizes(t)
    if prizes.great_deals and t.tier < t.rules.tavern.max_tier:
        t.upgrade_cost = max(t.upgrade_cost - GREAT_DEAL * prizes.great_deals, 0)
    if prizes.coins:
        _keep(t, prizes.changed(coins=0))
        for _ in range(prizes.coins):
            t.add_to_hand(SpellCard(UNLIMITED_COIN))


def ice_block_spent(t: Turn) -> None:
    """An Ice Block Prize was revealed in combat: it leaves play."""
    prizes = _prizes(t)
    if prizes.ice_blocks:
        _keep(t, prizes.changed(ice_blocks=prizes.ice_blocks - 1))
