"""The game's rules as a policy may consult them, for any player state.

Agents decide from an :class:`~bgsim.Observation`; hand-written policies also
want to ask the rules about a state they imagine: which actions are legal
(:func:`legal_actions`, :func:`why_illegal`), where the hero power may aim
now (:func:`power_actions`) and what a spell costs (:func:`spell_cost`), what a Battlecry may target
(:func:`battlecry_targets`, :func:`battlecry_target`), which Mechs a Magnetic
minion may join (:func:`attach_targets`), and the facts of a card
(:func:`card_info`; keyword and minion-type bits for
:attr:`MinionCard.keywords` and :attr:`CardInfo.tribes`). To play a turn
forward, use :class:`~bgsim.TurnModel`.

>>> from bgsim import Lobby, rules
>>> obs = Lobby(seed=4).observe(0)
>>> rules.legal_actions(obs.state, obs.rules)[:2]
[EndTurn(), Buy(0)]
>>> rules.card_info(obs.shop[0].card).tier
1
>>> bool(rules.card_info("BGS_001").tribes & rules.DEMON)  # Nathrezim Overseer
True
"""

from bgsim._core.hero_powers import is_active, power_cost
from bgsim._core.minions import (
    ALL_TRIBES,
    BEAST,
    DEMON,
    DIVINE_SHIELD,
    DRAGON,
    ELEMENTAL,
    GOLD_COIN,
    KEYWORD_BITS,
    MECH,
    MEGA_WINDFURY,
    MURLOC,
    PIRATE,
    POISONOUS,
    REBORN,
    TAUNT,
    TRIBE_BITS,
    TRIPLE_REWARD,
    WINDFURY,
    CardInfo,
    SpellCard,
    card_info,
    make_minion,
    pool_minion,
)
from bgsim._core.player_state import PlayerState
from bgsim._core.recruit_effects import battlecry_target
from bgsim._core.spells import spell_cost as _spell_cost
from bgsim._core.tavern import (
    _power_actions,
    action_mask,
    attach_targets,
    battlecry_targets,
    check_rules,
    legal_actions,
    prices,
    spell_targets,
    why_illegal,
)
from bgsim.actions import Action
from bgsim.ruleset import Ruleset

__all__ = [
    "ALL_TRIBES",
    "BEAST",
    "DEMON",
    "DIVINE_SHIELD",
    "DRAGON",
    "ELEMENTAL",
    "GOLD_COIN",
    "KEYWORD_BITS",
    "MECH",
    "MEGA_WINDFURY",
    "MURLOC",
    "PIRATE",
    "POISONOUS",
    "REBORN",
    "TAUNT",
    "TRIBE_BITS",
    "TRIPLE_REWARD",
    "WINDFURY",
    "CardInfo",
    "action_mask",
    "attach_targets",
    "battlecry_target",
    "battlecry_targets",
    "card_info",
    "legal_actions",
    "make_minion",
    "pool_minion",
    "power_actions",
    "power_cost",
    "prices",
    "spell_cost",
    "spell_targets",
    "why_illegal",
]


def spell_cost(card: SpellCard) -> int:
    """What casting a spell in hand costs in gold (most cost nothing).

    >>> from bgsim import SpellCard
    >>> spell_cost(SpellCard("TB_BaconShop_HP_047t"))  # Elise Starseeker's Recruitment Map
    3
    """
    return _spell_cost(card)


def power_actions(state: PlayerState, rules: Ruleset) -> list[Action]:
    """The ``HeroPower`` actions legal now (empty when the player has no
    hero power to use: passive, spent, too dear, no valid target, or not
    recruiting): the legal actions' hero power part, without listing the rest.

    >>> from bgsim import HeroState, Lobby, PlayerState, load_ruleset
    >>> power_actions(Lobby(seed=1).state(0), load_ruleset())  # no hero
    []
    >>> rakanishu = HeroState("TB_BaconShop_HERO_75", "TB_BaconShop_HP_085")
    >>> state = PlayerState(0, 1, 1, 3, 5, 40, board=(make_minion("BGS_004"),), hero=rakanishu)
    >>> power_actions(state, load_ruleset())  # Tavern Lighting: 2 gold, a friendly minion
    [HeroPower(target=0)]
    """
    check_rules(rules)
    if not isinstance(state, PlayerState):
        raise TypeError(f"state must be a bgsim PlayerState, not {type(state).__name__}")
    hero = state.hero
    if (
        hero is None
        or state.hero_offers
        or state.ended
        or state.discover
        or state.actions >= rules.recruit.actions_per_turn
        or not is_active(hero)
    ):
        return []
    return list(_power_actions(state, rules))
