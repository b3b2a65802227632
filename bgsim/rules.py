"""The game's rules as a policy may consult them, for any player state.

Agents decide from an :class:`~bgsim.Observation`; hand-written policies also
want to ask the rules about a state they imagine: which actions are legal
(:func:`legal_actions`, :func:`why_illegal`), what a Battlecry may target
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

from bgsim._core.hero_powers import power_cost
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
    card_info,
    make_minion,
    pool_minion,
)
from bgsim._core.recruit_effects import battlecry_target
from bgsim._core.tavern import (
    action_mask,
    attach_targets,
    battlecry_targets,
    legal_actions,
    prices,
    spell_targets,
    why_illegal,
)

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
    "power_cost",
    "prices",
    "spell_targets",
    "why_illegal",
]
