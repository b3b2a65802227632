"""Small helpers for deterministic combat scenarios."""

from __future__ import annotations

from dataclasses import dataclass, field

from combat_c import CARD_IDS, CARDS, Board, CombatResult, Minion, resolve
from combat_c.timeline import Boards, Unit, initial_boards, replay

ID = {c.name: c.id for c in CARDS}
COVERED: set[str] = set()


def covers(*names: str):
    """Mark a test as the scenario for these cards (checked by the coverage test)."""
    for name in names:
        COVERED.add(ID[name])

    def mark(fn):
        return fn

    return mark


def m(name: str, golden: bool = False, **changes) -> Minion:
    return Minion.of(ID[name], golden=golden, **changes)


def plain(attack: int, health: int, **changes) -> Minion:
    """A vanilla, tribeless minion (a Plant with the given stats)."""
    return Minion.of("UNG_999t2t1", attack=attack, health=health, **changes)


def name_of(unit: Unit) -> str:
    index, golden = CARD_IDS[unit.card]
    return ("Golden " if golden else "") + CARDS[index].name


def view(units: tuple[Unit, ...]) -> list[tuple[str, int, int]]:
    return [(name_of(u), u.attack, u.health) for u in units]


@dataclass
class Fight:
    a: list[Minion]
    b: list[Minion]
    seed: int = 0
    tiers: tuple[int, int] = (1, 1)
    health: tuple[int, int] = (40, 40)
    tribes: int | None = None
    result: CombatResult = field(init=False)
    steps: list = field(init=False)

    def __post_init__(self) -> None:
        self.board_a = Board(self.tiers[0], self.health[0], tuple(self.a))
        self.board_b = Board(self.tiers[1], self.health[1], tuple(self.b))
        self.result = resolve(self.board_a, self.board_b, self.seed, tribes=self.tribes)
        self.steps = list(replay(self.board_a, self.board_b, self.result.events))

    @property
    def events(self):
        return self.result.events

    def initial(self) -> Boards:
        return initial_boards(self.board_a, self.board_b)

    def final(self) -> Boards:
        return self.steps[-1][1] if self.steps else self.initial()

    def index(self, kind: str, card: str | None = None, nth: int = 0) -> int:
        """Index of the nth event of this kind (and card name, if given)."""
        seen = 0
        for i, (ev, _) in enumerate(self.steps):
            if ev.kind != kind:
                continue
            if card is not None and (ev.card is None or name_of_id(ev.card) != card):
                continue
            if seen == nth:
                return i
            seen += 1
        raise AssertionError(f"no {kind} event #{nth} for {card} in {self.kinds()}")

    def settled(self, kind: str, card: str | None = None, nth: int = 0) -> Boards:
        """Both boards once everything after that event has resolved: just
        before the next attack (or at the end)."""
        start = self.index(kind, card, nth)
        last = self.steps[start][1]
        for ev, boards in self.steps[start + 1 :]:
            if ev.kind in ("attack", "end"):
                break
            last = boards
        return last

    def before_first_attack(self) -> Boards:
        last = self.initial()
        for ev, boards in self.steps:
            if ev.kind == "attack":
                break
            last = boards
        return last

    def attackers(self) -> list[int]:
        return [ev.eid for ev in self.events if ev.kind == "attack"]

    def kinds(self) -> list[str]:
        return [ev.kind for ev in self.events]


def name_of_id(card_id: str) -> str:
    index, golden = CARD_IDS[card_id]
    return ("Golden " if golden else "") + CARDS[index].name
