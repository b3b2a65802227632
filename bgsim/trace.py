"""Turn a fight's event log into lines a player can read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from combat_c import CARD_IDS, CARDS, HERO_POWERS, SECRET_NAMES, Board, CombatResult, Event

_KEYWORD_NAMES = (
    (1, "Taunt"),
    (2, "Divine Shield"),
    (4, "Poisonous"),
    (8, "Windfury"),
    (16, "Mega-Windfury"),
    (32, "Reborn"),
)
_TRIGGER_NAMES = {
    "deathrattle": "Deathrattle",
    "start_of_combat": "Start of Combat",
    "overkill": "Overkill",
    "frenzy": "Frenzy",
    "reborn": "Reborn",
    "effect": "effect",
}


@dataclass
class _Unit:
    name: str
    side: int
    atk: int
    hp: int
    kw: int


def card_name(card_id: str | None) -> str:
    """A card's name: a minion (golden ones say so), a hero power or a Secret.

    >>> card_name("TB_BaconUps_079"), card_name("TB_Bacon_Secrets_12")
    ('Golden Wrath Weaver', 'Ice Block')
    """
    if card_id is None:
        return "?"
    if card_id in HERO_POWERS:
        return HERO_POWERS[card_id]
    if card_id in SECRET_NAMES:
        return SECRET_NAMES[card_id]
    index, golden = CARD_IDS[card_id]
    return ("Golden " if golden else "") + CARDS[index].name


def attacks_text(count: int) -> str:
    """A fight's length in words.

    >>> attacks_text(1), attacks_text(12)
    ('1 attack', '12 attacks')
    """
    return f"{count} attack{'' if count == 1 else 's'}"


def _keywords(bits: int) -> list[str]:
    return [name for bit, name in _KEYWORD_NAMES if bits & bit]


def format_fight(
    a: Board, b: Board, result: CombatResult, names: tuple[str, str] = ("A", "B")
) -> list[str]:
    """One line per event of ``result`` (a fight of ``a`` against ``b``)."""
    units: dict[int, _Unit] = {}
    eid = 0
    for side, board in enumerate((a, b)):
        for m, (atk, hp) in zip(board.minions, board.displayed(), strict=True):
            eid += 1
            kw = sum(bit for bit, name in _KEYWORD_NAMES if getattr(m, _attr(name)))
            units[eid] = _Unit(card_name(m.card_id), side, atk, hp, kw)

    def who(e: int) -> str:
        u = units.get(e)
        return f"{names[u.side]}'s {u.name} {u.atk}/{u.hp}" if u else f"#{e}"

    lines = []
    for ev in result.events:
        u = units.get(ev.eid)
        if ev.kind == "start":
            lines.append(f"{names[ev.side]} attacks first.")
        elif ev.kind == "attack":
            lines.append(f"{who(ev.eid)} attacks {who(ev.target)}")
        elif ev.kind == "damage" and u:
            u.hp = ev.b
            lines.append(f"  {names[u.side]}'s {u.name} takes {ev.a} damage ({u.hp} health left)")
        elif ev.kind == "shield" and u:
            u.kw = ev.keywords
            lines.append(f"  {names[u.side]}'s {u.name} loses Divine Shield")
        elif ev.kind == "poison" and u:
            lines.append(f"  {names[u.side]}'s {u.name} is destroyed by Poisonous")
        elif ev.kind == "death" and u:
            lines.append(f"  {names[u.side]}'s {u.name} dies")
        elif ev.kind == "summon":
            units[ev.eid] = _Unit(card_name(ev.card), ev.side, ev.a, ev.b, ev.keywords)
            extra = ", ".join(_keywords(ev.keywords))
            extra = f" ({extra})" if extra else ""
            lines.append(
                f"  {names[ev.side]} summons {card_name(ev.card)} {ev.a}/{ev.b}{extra} "
                f"at position {(ev.slot or 0) + 1}"
            )
        elif ev.kind == "stats" and u:
            if (u.atk, u.hp) != (ev.a, ev.b):
                lines.append(f"  {names[u.side]}'s {u.name} is now {ev.a}/{ev.b}")
            u.atk, u.hp = ev.a, ev.b
        elif ev.kind == "keywords" and u:
            gained = _keywords(ev.keywords & ~u.kw)
            u.kw = ev.keywords
            if gained:
                lines.append(f"  {names[u.side]}'s {u.name} gains {', '.join(gained)}")
        elif ev.kind == "trigger":
            label = _TRIGGER_NAMES.get(ev.trigger or "", "effect")
            lines.append(f"  {names[ev.side]}'s {card_name(ev.card)}: {label}")
        elif ev.kind == "hand":
            lines.append(f"  {names[ev.side]} adds {card_name(ev.card)} to hand")
        elif ev.kind == "hero":
            lines.append(_hero_line(names[ev.side], card_name(ev.card), ev, who))
        elif ev.kind == "secret":
            about = f" ({who(ev.eid)})" if ev.eid else ""
            lines.append(f"  {names[ev.side]}'s Secret is revealed: {card_name(ev.card)}{about}")
        elif ev.kind == "end":
            if ev.side < 0:
                lines.append(f"Tie after {attacks_text(ev.b)}: no damage.")
            else:
                won = f"{names[ev.side]} wins after {attacks_text(ev.b)}"
                lines.append(f"{won} and deals {ev.a} damage.")
    return lines


def _hero_line(name: str, power: str, ev: Event, who: Callable[[int], str]) -> str:
    """A hero power acting: Deathwing's aura, Rafaam's capture, or a power
    touching a minion (Al'Akir's, Illidan's attackers, Greybough's summons)."""
    if ev.b:
        return f"{name}'s hero power {power}: every minion has +{ev.b} Attack"
    if ev.card == RAFAAM:
        return f"  {name}'s hero power {power}: takes a copy of {who(ev.eid)}"
    target = f" on {who(ev.eid)}" if ev.eid else ""
    return f"  {name}'s hero power {power}{target}"


RAFAAM = "TB_BaconShop_HP_053"


def _attr(name: str) -> str:
    return name.lower().replace("-", "_").replace(" ", "_")
