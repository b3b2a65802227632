"""bgsim: a Hearthstone Battlegrounds (patch 20.0) simulator and agent lab.

``import bgsim`` is all a script needs. A :class:`Lobby` runs an eight-player
game; each player acts from an :class:`Observation` (own tavern, public
standings, enemy warbands as last seen in combat) by choosing one of its
legal actions (:class:`Buy`, :class:`Play`, :class:`EndTurn` ...), each with a
stable integer code (:func:`encode`, :func:`decode`). An :class:`Agent` is
anything with ``reset(seat, seed)`` and ``act(observation, legal_actions)``.
A :class:`TurnModel` plays one player's turn forward for a search.

>>> import bgsim
>>> lobby = bgsim.Lobby(seed=7)
>>> while not lobby.done:
...     player = lobby.to_act()[0]
...     obs = lobby.observe(player)  # what the player may know
...     lobby.apply(player, lobby.legal_actions(player)[0])  # always ends the turn
>>> lobby.placements[0] in range(1, 9)
True

The combat engine is the ``combat_c`` package (``combat_c.simulate``,
``combat_c.resolve``); the bundled agents and the tournament runner are the
``agents`` package; ``bgsim.envs`` holds the PettingZoo and Gymnasium
environments. Beside the names below, the reference has pages for
``bgsim.rules`` (the rules asked about any player state), ``bgsim.registry``
(agents by name, lineups), ``bgsim.replay`` (game records) and
``bgsim.seeds`` (derived seeds).
"""

from bgsim import compiled

compiled.guard()  # before any compiled module loads (see bgsim/compiled.py)

# ruff: noqa: E402
from bgsim import rules
from bgsim._core.hero_state import HeroState
from bgsim._core.minions import HandCard, MinionCard, SpellCard
from bgsim._core.player_state import DiscoverSpec, PlayerState
from bgsim._core.turn_model import Guess, LastSeen, TurnModel
from bgsim.actions import (
    ACTIONS,
    NUM_ACTIONS,
    Action,
    Buy,
    Choose,
    ChooseHero,
    EndTurn,
    Freeze,
    HeroPower,
    IllegalActionError,
    Move,
    Play,
    Refresh,
    Sell,
    Upgrade,
    as_action,
    decode,
    encode,
)
from bgsim.agent import Agent, Budget, BudgetError
from bgsim.cards import TRIBES, Card, CardDB, UnknownCardError, cards
from bgsim.lobby import Lobby
from bgsim.observation import Observation, PlayerInfo, SeenBoard
from bgsim.ruleset import Ruleset, RulesetError, load_ruleset, parse_ruleset

__version__ = "0.2.0"

__all__ = [
    "ACTIONS",
    "NUM_ACTIONS",
    "TRIBES",
    "Action",
    "Agent",
    "Budget",
    "BudgetError",
    "Buy",
    "Card",
    "CardDB",
    "Choose",
    "ChooseHero",
    "DiscoverSpec",
    "EndTurn",
    "Freeze",
    "Guess",
    "HandCard",
    "HeroPower",
    "HeroState",
    "IllegalActionError",
    "LastSeen",
    "Lobby",
    "MinionCard",
    "Move",
    "Observation",
    "Play",
    "PlayerInfo",
    "PlayerState",
    "Refresh",
    "Ruleset",
    "RulesetError",
    "SeenBoard",
    "Sell",
    "SpellCard",
    "TurnModel",
    "UnknownCardError",
    "Upgrade",
    "as_action",
    "cards",
    "decode",
    "encode",
    "load_ruleset",
    "parse_ruleset",
    "rules",
]
