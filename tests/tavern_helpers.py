"""Small builders for recruit-phase tests: minions, player states, a full pool,
and a random generator stand-in that returns a fixed sequence."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace

from bgsim._core import tavern
from bgsim._core.minions import INFO, HandCard, MinionCard, make_minion
from bgsim._core.player_state import PlayerState
from bgsim._core.pool import Pool, starting_copies
from bgsim.actions import Action
from bgsim.cards import TRIBES
from bgsim.ruleset import Ruleset, load_ruleset

RULES = load_ruleset()


def mk(
    card_id: str,
    attack: int | None = None,
    health: int | None = None,
    golden: bool = False,
    **changes: object,
) -> MinionCard:
    """A minion of this card (from the pool if it is a normal pool card)."""
    normal = INFO.get(card_id)
    from_pool = normal is not None and normal.in_pool and not golden
    m = make_minion(card_id, golden=golden, from_pool=from_pool)
    if attack is not None:
        m = replace(m, attack=attack)
    if health is not None:
        m = replace(m, health=health)
    return replace(m, **changes) if changes else m


def st(
    board: Iterable[MinionCard] = (),
    hand: Iterable[HandCard] = (),
    shop: Iterable[MinionCard] = (),
    gold: int = 10,
    tier: int = 6,
    health: int = 40,
    **changes: object,
) -> PlayerState:
    shop = tuple(shop)
    values: dict = dict(
        player=0,
        turn=5,
        tier=tier,
        gold=gold,
        upgrade_cost=RULES.upgrade_base_cost(tier + 1) if tier < 6 else 0,
        health=health,
        shop=shop,
        shop_frozen=(False,) * len(shop),
        hand=tuple(hand),
        board=tuple(board),
    )
    values.update(changes)
    return PlayerState(**values)


def full_pool() -> Pool:
    return Pool(starting_copies(TRIBES, RULES))


class SeqRng(random.Random):
    """A generator whose ``random()`` returns the given values in turn."""

    def __init__(self, values: Sequence[float]) -> None:
        super().__init__(0)
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def act(
    state: PlayerState,
    *actions: Action,
    pool: Pool | None = None,
    rng: random.Random | None = None,
    rules: Ruleset = RULES,
) -> PlayerState:
    pool = pool if pool is not None else full_pool()
    rng = rng if rng is not None else random.Random(0)
    for action in actions:
        state = tavern.apply_action(state, action, pool, rng, rules)
    return state


def stats(minions: Iterable[HandCard]) -> list[tuple[str, int, int]]:
    """(card id as shown, attack, health) of each minion."""
    return [(m.card_id, m.attack, m.health) for m in minions]  # type: ignore[union-attr]


def play_random_lobby(seed: int, rules=None):
    """Play one lobby to the end choosing uniformly among legal actions;
    returns (lobby, actions taken)."""
    from bgsim.lobby import Lobby

    lobby = Lobby(seed, rules)
    rng = random.Random(seed ^ 0x5EED)
    actions = 0
    while not lobby.done:
        turn = lobby.turn
        for player in lobby.to_act():
            while lobby.turn == turn and not lobby.state(player).ended:
                legal = lobby.legal_actions(player)
                lobby.apply(player, legal[int(rng.random() * len(legal))])
                actions += 1
    return lobby, actions


def drive_lobby(lobby, choose, last_turn: int) -> int:
    """Play ``lobby`` up to ``last_turn`` with ``choose(player, state, legal,
    turn)`` picking every action; return how many actions were chosen."""
    chosen = 0
    while not lobby.done and lobby.turn <= last_turn:
        turn = lobby.turn
        for p in lobby.to_act():
            while not lobby.done and lobby.turn == turn and p in lobby.to_act():
                lobby.apply(p, choose(p, lobby.state(p), lobby.legal_actions(p), turn))
                chosen += 1
    return chosen
