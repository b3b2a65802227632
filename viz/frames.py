"""Turn a replay into a flat, indexable list of frames (pure Python, no pygame).

One frame per ``recruit`` and ``action`` record (that player's tavern, the action
in words by :mod:`viz.wording` and the card it touched), one per ``draft`` record
and draft choice (lobbies with heroes: the heroes offered, then the one chosen),
one per ``standings``
and ``end`` record, and for each ``combat`` record: an opening
frame (the two boards, who attacks first, start-of-combat bonuses), one frame
per start-of-combat trigger and per attack with its consequences (damage,
shields, poison, deaths, deathrattles, summons, buffs), and a result frame.

Combat frames are rebuilt with :mod:`combat_c.timeline`, so every board shown is
the engine's board at that moment. Each attack frame carries the boards before
the attack and a display list for after it: survivors with their new stats, the
minions that died (``dying``, still at their place) and new summons
(``summoned``), so the viewer can animate the step without knowing the rules.

Players are seats 0..n-1 in the data, shown to people as "player 1".."player n".
:class:`Frames` navigates them for one followed player (:meth:`Frames.step`,
:meth:`Frames.turn_start`, :meth:`Frames.first_fight`) or for everyone (None).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

from bgsim.actions import CHOOSE_HERO_BASE, POWER_BASE
from bgsim.cards import Card, UnknownCardError, cards
from bgsim.replay import Replay, ReplayError
from bgsim.trace import attacks_text
from combat_c import KEYWORD_BITS, Board, BoardSpecError, Event, parse_board
from combat_c.timeline import Boards, Unit, initial_boards
from combat_c.timeline import replay as replay_fight
from viz.wording import describe_action

# DESIGN.md hero health; a replay has no standings before the first round ends.
STARTING_HEALTH = 40
# Card keywords the engine does not track as bits but a player wants to see.
STATIC_KEYWORDS = ("deathrattle", "magnetic", "start_of_combat", "overkill", "frenzy")
_MENACES = ("BOT_312", "TB_BaconUps_032")  # Replicating Menace (attached: a Deathrattle)
_TRIGGER_LABELS = {
    "deathrattle": "Deathrattle",
    "start_of_combat": "Start of Combat",
    "overkill": "Overkill",
    "frenzy": "Frenzy",
    "reborn": "Reborn",
    "effect": "Effect",
}
# Hero powers that act at the Start of Combat (Al'Akir, Illidan, Y'Shaarj):
# each one's event opens a step of the fight, with the attack it makes.
_SOC_POWERS = ("TB_BaconShop_HP_086", "TB_BaconShop_HP_069", "TB_BaconShop_HP_103")
_WINGMEN = "TB_BaconShop_HP_069"


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    health: int
    tier: int
    alive: bool
    placement: int | None
    hero: str | None = None  # the hero's card id, once chosen (lobbies with heroes)


@dataclass(frozen=True, slots=True)
class CardView:
    """A card as drawn: stats as displayed, keyword names, tribes for the art."""

    card: str
    name: str
    attack: int
    health: int
    golden: bool
    tier: int
    keywords: tuple[str, ...]
    tribes: tuple[str, ...] = ()
    counter: int | None = None  # a hero power's counter (the '@' of its text)


@dataclass(frozen=True, slots=True)
class HeroView:
    """A player's hero and the state of its hero power, as a replay view has it."""

    hero: str  # card ids
    power: str
    name: str
    power_name: str
    cost: int  # what using the power costs now
    uses: int  # this turn
    spent: bool  # a once-per-game power already used
    counter: int
    passive: bool
    per_game: bool

    @property
    def status(self) -> str:
        """The power's state in words: passive, available, used (this turn) or spent."""
        if self.passive:
            return "passive"
        if self.spent:
            return "spent"
        return "used" if self.uses else "available"


@dataclass(frozen=True, slots=True)
class TavernView:
    gold: int
    tier: int
    upgrade_cost: int
    health: int
    frozen: bool
    shop: tuple[CardView, ...]
    hand: tuple[CardView, ...]
    board: tuple[CardView, ...]
    discover: tuple[CardView, ...]
    hero: HeroView | None = None


@dataclass(frozen=True, slots=True)
class Fighter:
    """A minion on a fight board during one step.

    ``status`` is ``alive``, ``dying`` (died in this step; stats are its last) or
    ``summoned`` (appeared in this step). The other fields say what happened to
    it in this step.
    """

    eid: int
    card: CardView
    status: str = "alive"
    damage: int = 0
    shield_popped: bool = False
    poisoned: bool = False
    buffed: bool = False
    triggers: tuple[str, ...] = ()


Sides = tuple[tuple[Fighter, ...], tuple[Fighter, ...]]


@dataclass(frozen=True, slots=True)
class CombatStep:
    """One animated step of a fight; sides are in the record's order."""

    kind: str  # "start", "start_of_combat", "attack" or "result"
    number: int  # attacks so far (0 before the first)
    attacks: int  # attacks in the whole fight
    players: tuple[int, int]
    ghost: bool
    heroes: tuple[int, int]  # hero health as the fight starts
    tiers: tuple[int, int]
    before: Sides
    after: Sides
    attacker: int | None = None  # eid of the attacker or trigger source
    target: int | None = None
    first: int | None = None  # side attacking first (opening step)
    log: tuple[str, ...] = ()
    winner: int | None = None  # result step: 0, 1 or -1 (tie)
    damage: int | None = None


@dataclass(frozen=True, slots=True)
class Touched:
    """The card an action touched: ``zone``/``slot`` place it in the tavern after
    the action (both None when it left the tavern: sold, or a spell cast)."""

    card: CardView
    zone: str | None = None
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class Frame:
    index: int
    record: int  # index into Replay.records
    kind: str  # "draft", "recruit", "action", "combat", "standings" or "end"
    turn: int | None
    player: int | None  # the acting player (a fight: the first of the pair)
    players: tuple[int, ...]  # everyone the frame is about
    caption: str
    standings: tuple[Standing, ...]
    tavern: TavernView | None = None
    action: str | None = None  # the record's action text, e.g. "Buy(0)"
    words: str | None = None  # the action in words: "buys Scallywag (3 gold)"
    touched: Touched | None = None
    combat: CombatStep | None = None
    placements: tuple[int, ...] | None = None  # end frame: placement of each seat
    offers: tuple[str, ...] = ()  # draft frame: the heroes (or hero powers) offered
    chosen: int | None = None  # draft frame: the offer taken (None: still to choose)


@dataclass(frozen=True, slots=True)
class Shown:
    """What the viewer draws at an index for a chosen player (None: follow)."""

    frame: Frame  # the frame at the index (time, standings, fight)
    kind: str  # "tavern", "draft", "combat" or "standings"
    perspective: int | None  # whose tavern / friendly side / hero panel
    tavern: TavernView | None
    caption: str
    note: str | None = None  # what happens at this moment when another view is shown


def player_label(player: int, agents: Sequence[str]) -> str:
    agent = agents[player] if 0 <= player < len(agents) else "?"
    return f"player {player + 1} ({agent})"


def card_view(raw: Mapping[str, Any]) -> CardView:
    """A VIEW card of a replay record."""
    card_id = raw["card"]
    names = [str(k) for k in raw["keywords"]]
    card = _card(card_id)
    if card is not None:  # as on fight boards, whatever the replay's views carried
        names += [k for k in STATIC_KEYWORDS if card.has(k) and k not in names]
    return CardView(
        card=card_id,
        name=raw["name"],
        attack=raw["attack"],
        health=raw["health"],
        golden=raw["golden"],
        tier=raw["tier"],
        keywords=tuple(names),
        tribes=_tribes(card_id),
    )


def _tribes(card_id: str) -> tuple[str, ...]:
    db = cards()
    return tuple(sorted(db[card_id].tribes)) if card_id in db else ()


def unit_view(unit: Unit, extra: tuple[str, ...] = ()) -> CardView:
    """A combat unit as a card: keyword bits plus the card's own static keywords."""
    db = cards()
    card = _card(unit.card)
    names = [k for k, bit in KEYWORD_BITS.items() if unit.keywords & bit]
    if card is not None:
        names += [k for k in STATIC_KEYWORDS if card.has(k) and k not in names]
    names += [k for k in extra if k not in names]
    tier = db.normal(card).tier if card is not None else 0
    return CardView(
        card=unit.card,
        name=card.name if card is not None else unit.card,
        attack=unit.attack,
        health=unit.health,
        golden=unit.golden,
        tier=tier,
        keywords=tuple(names),
        tribes=tuple(sorted(card.tribes)) if card is not None else (),
    )


def _card(card_id: str) -> Card | None:
    try:
        return cards()[card_id]
    except UnknownCardError:
        return None


def hero_view(raw: Mapping[str, Any]) -> HeroView:
    """The ``hero`` part of a replay VIEW (schema 2)."""
    hero_id, power_id = str(raw["hero"]), str(raw["power"])
    hero = _card(hero_id)
    power = _card(power_id)
    return HeroView(
        hero=hero_id,
        power=power_id,
        name=hero.name if hero is not None else hero_id,
        power_name=power.name if power is not None else power_id,
        cost=int(raw.get("cost", 0)),
        uses=int(raw.get("uses", 0)),
        spent=bool(raw.get("spent", False)),
        counter=int(raw.get("counter", 0)),
        passive=power.passive if power is not None else False,
        per_game=power is not None and "once per game" in power.text.lower(),
    )


def hero_card(hero: str, health: int = 0) -> CardView:
    """A hero as a card for the detail box (its Health as the card's)."""
    card = _card(hero)
    return CardView(hero, card.name if card is not None else hero, 0, health, False, 0, ())


def power_card(view: HeroView) -> CardView:
    """A hero power as a card for the detail box (its counter for the '@')."""
    return CardView(view.power, view.power_name, 0, 0, False, 0, (), counter=view.counter)


def tavern_view(raw: Mapping[str, Any]) -> TavernView:
    hero = raw.get("hero")
    return TavernView(
        gold=raw["gold"],
        tier=raw["tier"],
        upgrade_cost=raw["upgrade_cost"],
        health=raw["health"],
        frozen=raw["frozen"],
        shop=tuple(card_view(c) for c in raw["shop"]),
        hand=tuple(card_view(c) for c in raw["hand"]),
        board=tuple(card_view(c) for c in raw["board"]),
        discover=tuple(card_view(c) for c in raw["discover"]),
        hero=hero_view(hero) if isinstance(hero, Mapping) else None,
    )


class Frames(Sequence[Frame]):
    """The frames of one replay, with the per-player navigation the viewer needs."""

    def __init__(
        self,
        frames: Sequence[Frame],
        players: int,
        agents: Sequence[str],
        header: Mapping[str, Any] | None = None,
    ) -> None:
        self._frames = tuple(frames)
        self.players = players
        self.agents = tuple(agents)
        self.header: Mapping[str, Any] = header or {}
        self._taverns: dict[int, list[int]] = defaultdict(list)
        for f in self._frames:
            if f.tavern is not None and f.player is not None:
                self._taverns[f.player].append(f.index)

    @overload
    def __getitem__(self, index: int) -> Frame: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Frame]: ...
    def __getitem__(self, index: int | slice) -> Frame | Sequence[Frame]:
        return self._frames[index]

    def __len__(self) -> int:
        return len(self._frames)

    def __iter__(self) -> Iterator[Frame]:
        return iter(self._frames)

    def involves(self, index: int, player: int | None) -> bool:
        """Whether the frame belongs in the playback of ``player`` (None: all):
        the player's tavern and fights, and every standings and end frame. The
        fights of an eliminated player's ghost are not that player's any more."""
        f = self._frames[index]
        if player is None or f.kind in ("standings", "end"):
            return True
        if f.combat is not None and f.combat.ghost and f.combat.players[1] == player:
            return False
        return player in f.players

    @property
    def winner(self) -> int:
        """The seat placed first by the replay's end record (seat 0 without one)."""
        for f in reversed(self._frames):
            if f.placements is not None and 1 in f.placements:
                return f.placements.index(1)
        return 0

    @property
    def turns(self) -> tuple[int, ...]:
        """The turn numbers the frames cover, in order."""
        return tuple(dict.fromkeys(f.turn for f in self._frames if f.turn is not None))

    def start(self, player: int | None) -> int:
        """The first frame of ``player``'s playback."""
        return 0 if self.involves(0, player) else self.step(0, 1, player)

    def turn_start(self, turn: int, player: int | None = None) -> int | None:
        """The first frame of ``turn`` in ``player``'s playback (None: no such frame)."""
        return next(
            (f.index for f in self._frames if f.turn == turn and self.involves(f.index, player)),
            None,
        )

    def first_fight(self, player: int | None = None, turn: int | None = None) -> int | None:
        """The opening frame of ``player``'s first fight (of ``turn`` when given)."""
        return next(
            (
                f.index
                for f in self._frames
                if f.combat is not None
                and f.combat.kind == "start"
                and (turn is None or f.turn == turn)
                and self.involves(f.index, player)
            ),
            None,
        )

    def latest_tavern(self, index: int, player: int) -> Frame | None:
        """The player's last recruit/action frame at or before ``index``."""
        mine = self._taverns.get(player, [])
        k = bisect_right(mine, index)
        return self._frames[mine[k - 1]] if k else None

    def step(self, index: int, delta: int, player: int | None = None) -> int:
        """The next (+1) or previous (-1) frame involving the player, or ``index``."""
        i = index + delta
        while 0 <= i < len(self._frames):
            if self.involves(i, player):
                return i
            i += delta
        return index

    def jump_turn(self, index: int, delta: int, player: int | None = None) -> int:
        """First frame (involving the player) of the next turn, or of this turn /
        the previous one when going back, like a media player's chapter keys."""
        turn = self._frames[index].turn
        if delta > 0:
            i = self.step(index, 1, player)
            while i != index and self._frames[i].turn == turn:
                j = self.step(i, 1, player)
                if j == i:
                    break
                i = j
            return i
        start = self._turn_start(index, player)
        if start != index:
            return start
        prev = self.step(index, -1, player)
        return self._turn_start(prev, player) if prev != index else index

    def jump_record(self, index: int, delta: int, player: int | None = None) -> int:
        """The nearest frame of another record (skips the rest of a fight)."""
        record = self._frames[index].record
        i = index
        while True:
            j = self.step(i, delta, player)
            if j == i:
                return i
            i = j
            if self._frames[i].record != record:
                if delta < 0:  # land on the first frame of that record
                    r = self._frames[i].record
                    while (k := self.step(i, -1, player)) != i and self._frames[k].record == r:
                        i = k
                return i

    def _turn_start(self, index: int, player: int | None) -> int:
        turn = self._frames[index].turn
        i = index
        while (j := self.step(i, -1, player)) != i and self._frames[j].turn == turn:
            i = j
        return i

    def shown(self, index: int, player: int | None = None) -> Shown:
        """What to draw at ``index`` when following ``player`` (None: the acting one).

        A tavern or fight of someone else is replaced by the chosen player's latest
        tavern at that time; standings and fights the player is in are shown as is.
        """
        f = self._frames[index]
        if f.kind in ("standings", "end"):
            return Shown(f, "standings", player, None, f.caption)
        if f.kind == "draft" and (player is None or player == f.player):
            return Shown(f, "draft", f.player, f.tavern, f.caption)
        if f.kind == "combat":
            assert f.combat is not None
            pair = f.combat.players
            if player is None or player in pair:
                side = player if player is not None else pair[0]
                return Shown(f, "combat", side, None, f.caption)
        elif player is None or player == f.player:
            return Shown(f, "tavern", f.player, f.tavern, f.caption)
        assert player is not None
        last = self.latest_tavern(index, player)
        label = player_label(player, self.agents)
        turn = f"Turn {f.turn} — " if f.turn is not None else ""
        if last is None:
            caption = f"{turn}{label}: no turn played yet"
            return Shown(f, "tavern", player, None, caption, f.caption)
        what = f"last {last.words}" if last.words else "turn start"
        if last.turn != f.turn:
            what += f" (turn {last.turn})"
        return Shown(f, "tavern", player, last.tavern, f"{turn}{label}: {what}", f.caption)


def build_frames(replay: Replay) -> Frames:
    """Every frame of a replay (raises :class:`ReplayError` for a fight the engine's
    timeline cannot rebuild, e.g. an invalid board spec)."""
    agents = replay.agents
    n = replay.players
    standings = [Standing(p, STARTING_HEALTH, 1, True, None) for p in range(n)]
    frames: list[Frame] = []
    turn: int | None = None

    def add(**fields: Any) -> None:
        frames.append(Frame(index=len(frames), standings=tuple(standings), **fields))

    last_state: dict[int, Mapping[str, Any]] = {}  # each player's view before the record
    offered: dict[int, tuple[str, ...]] = {}  # each player's draft offers
    for r, rec in enumerate(replay.records):
        kind = rec["type"]
        turn = rec.get("turn", turn)
        if kind == "draft" or (kind == "action" and rec["turn"] == 0):
            p = rec["player"]
            if kind == "draft":
                offered[p] = tuple(str(o) for o in rec["offers"])
                names = ", ".join(_name(o) for o in offered[p])
                what, chosen, view, words = f"offered {names}", None, None, None
            else:
                said = describe_action(rec["action"], rec["code"], last_state.get(p), rec["state"])
                what = words = said.text
                last_state[p] = rec["state"]
                view = tavern_view(rec["state"])
                chosen = _chosen(rec["action"], rec["code"])
                if view.hero is not None:
                    standings[p] = replace(standings[p], hero=view.hero.hero, health=view.health)
            add(
                record=r,
                kind="draft",
                turn=0,
                player=p,
                players=(p,),
                caption=f"Draft — {player_label(p, agents)}: {what}",
                tavern=view,
                action=rec.get("action"),
                words=words,
                offers=offered.get(p, ()),
                chosen=chosen,
            )
        elif kind in ("recruit", "action"):
            p = rec["player"]
            view = tavern_view(rec["state"])
            words = touched = None
            if kind == "action":
                said = describe_action(rec["action"], rec["code"], last_state.get(p), rec["state"])
                words = said.text
                if said.card is not None:
                    touched = Touched(card_view(said.card), said.zone, said.slot)
            last_state[p] = rec["state"]
            if kind == "action" and rec["action"] == "EndTurn()":
                # The turn's last EndTurn is logged after the fights it starts:
                # until they are shown, the hero keeps its recruit-phase health.
                view = replace(view, health=standings[p].health)
            standings[p] = replace(standings[p], health=view.health, tier=view.tier)
            if view.hero is not None and standings[p].hero != view.hero.hero:
                standings[p] = replace(standings[p], hero=view.hero.hero)
            what = words if words is not None else "turn starts"
            caption = f"Turn {turn} — {player_label(p, agents)}: {what}"
            add(
                record=r,
                kind=kind,
                turn=turn,
                player=p,
                players=(p,),
                caption=caption,
                tavern=view,
                action=rec.get("action"),
                words=words,
                touched=touched,
            )
        elif kind == "combat":
            for step in _combat_steps(rec, replay.where(r), agents):
                add(
                    record=r,
                    kind=kind,
                    turn=turn,
                    player=step.players[0],
                    players=step.players,
                    caption=_combat_caption(turn, step, agents),
                    combat=step,
                )
        elif kind == "standings":
            for s in rec["players"]:
                p = s["player"]
                if 0 <= p < n:
                    standings[p] = Standing(
                        p, s["health"], s["tier"], s["alive"], s.get("placement"), standings[p].hero
                    )
            leader = max(standings, key=lambda s: (s.alive, s.health))
            alive = sum(s.alive for s in standings)
            caption = (
                f"Turn {turn} — standings: {alive} alive, "
                f"leader {player_label(leader.player, agents)} at {leader.health}"
            )
            add(record=r, kind=kind, turn=turn, player=None, players=(), caption=caption)
        elif kind == "end":
            placements = tuple(rec["placements"])
            for p, place in enumerate(placements):
                standings[p] = replace(standings[p], placement=place, alive=place == 1)
            winner = placements.index(1)
            caption = f"Game over — 1st: {player_label(winner, agents)}"
            add(
                record=r,
                kind=kind,
                turn=turn,
                player=None,
                players=(),
                caption=caption,
                placements=placements,
            )
    return Frames(frames, n, agents, replay.header)


def _name(card_id: str) -> str:
    card = _card(card_id)
    return card.name if card is not None else card_id


def _chosen(text: str, code: int) -> int | None:
    """The option a ``ChooseHero`` action record took."""
    m = re.match(r"^\s*ChooseHero\((\d+)\)\s*$", text)
    if m:
        return int(m.group(1))
    return code - CHOOSE_HERO_BASE if CHOOSE_HERO_BASE <= code < POWER_BASE else None


def _combat_caption(turn: int | None, step: CombatStep, agents: Sequence[str]) -> str:
    p, q = step.players
    vs = f"{player_label(p, agents)} vs {player_label(q, agents)}"
    if step.ghost:
        vs += " (ghost)"
    if step.kind == "start":
        what = "start"
    elif step.kind == "start_of_combat":
        what = "start of combat"
    elif step.kind == "attack":
        what = f"attack {step.number}/{step.attacks}"
    elif step.winner is None or step.winner < 0:
        what = "tie, no damage"
    else:
        winner = step.players[step.winner]
        what = f"player {winner + 1} wins, {step.damage} damage"
    return f"Turn {turn} — fight: {vs} — {what}"


def _board(spec: Any, where: str) -> Board:
    try:
        return parse_board(spec)
    except BoardSpecError as exc:
        field = f".{exc.field}" if exc.field else ""
        raise ReplayError(f"{where}{field}: {exc.problem}") from None


def _event(raw: Mapping[str, Any]) -> Event:
    slot = raw.get("slot")
    return Event(
        kind=str(raw["kind"]),
        side=int(raw["side"]),
        slot=None if slot is None else int(slot),
        eid=int(raw["eid"]),
        target=int(raw["target"]),
        card=raw.get("card"),
        golden=bool(raw["golden"]),
        keywords=int(raw["keywords"]),
        a=int(raw["a"]),
        b=int(raw["b"]),
    )


def _combat_steps(rec: Mapping[str, Any], line: str, agents: Sequence[str]) -> list[CombatStep]:
    """The steps of a combat record; errors name it by ``line``, its file
    and line."""
    where = f"{line}: combat (turn {rec['turn']})"
    a, b = (_board(spec, f"{line}: combat.boards[{k}]") for k, spec in enumerate(rec["boards"]))
    try:
        events = [_event(ev) for ev in rec["events"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"{where}: bad event ({exc!r})") from None
    pair = (int(rec["players"][0]), int(rec["players"][1]))
    names = (f"player {pair[0] + 1}", f"player {pair[1] + 1}")
    extras: dict[int, tuple[str, ...]] = {}
    eid = 0
    for spec in rec["boards"]:
        for m in spec["minions"]:
            eid += 1
            if any(x in _MENACES for x in m.get("magnetic", ())):
                extras[eid] = ("deathrattle",)

    states: list[Boards] = [initial_boards(a, b)]
    try:
        states += [boards for _, boards in replay_fight(a, b, events)]
    except ValueError as exc:
        raise ReplayError(f"{where}: the fight's events do not replay ({exc})") from None
    attacks = sum(ev.kind == "attack" for ev in events)
    end = next((k for k, ev in enumerate(events) if ev.kind == "end"), len(events))
    starts = [0]
    attacked = False
    for k, ev in enumerate(events[:end]):
        # Illidan's attacks belong to his hero power's step and come before
        # the attack order starts.
        wingman = ev.kind == "attack" and k > 0 and _is_power(events[k - 1], (_WINGMEN,))
        attacked = attacked or (ev.kind == "attack" and not wingman)
        soc = ev.kind == "trigger" and ev.trigger == "start_of_combat" and not attacked
        soc = soc or (_is_power(ev, _SOC_POWERS) and not attacked)
        if ((ev.kind == "attack" and not wingman) or soc) and k > 0:
            starts.append(k)
    bounds = list(zip(starts, [*starts[1:], end], strict=True))

    base: dict[str, Any] = {
        "players": pair,
        "ghost": bool(rec["ghost"]),
        "heroes": (a.health, b.health),
        "tiers": (a.tier, b.tier),
        "attacks": attacks,
    }
    steps = []
    number = 0
    for k0, k1 in bounds:
        first = events[k0] if k0 < len(events) else None
        swing = next((e for e in events[k0:k1] if e.kind == "attack"), None)
        if first is not None and first.kind == "attack":
            number += 1
            kind = "attack"
        elif first is not None and first.kind in ("trigger", "hero"):
            kind = "start_of_combat"
            number += first.kind == "hero" and swing is not None  # Illidan's attack
        else:
            kind = "start"
        before, after, info = _step(events, states, k0, k1, extras, names)
        attacker = target = first_side = None
        if kind == "attack":
            assert first is not None
            attacker, target = first.eid, first.target
        elif kind == "start_of_combat" and first is not None and first.kind == "hero":
            attacker = first.eid or None
            target = swing.target if swing is not None else None
        elif kind == "start_of_combat":
            assert first is not None
            attacker = first.eid
            target = next((e.eid for e in events[k0:k1] if e.kind == "damage"), None)
        elif first is not None and first.kind == "start":
            first_side = first.side
        steps.append(
            CombatStep(
                kind=kind,
                number=number,
                before=before,
                after=after,
                attacker=attacker,
                target=target,
                first=first_side,
                log=info,
                **base,
            )
        )
    final = tuple(
        tuple(Fighter(u.eid, unit_view(u, extras.get(u.eid, ()))) for u in side)
        for side in states[end]
    )
    winner, damage = int(rec["winner"]), int(rec["damage"])
    if winner < 0:
        line = f"Tie after {attacks_text(attacks)}: no damage."
    else:
        loser = names[1 - winner]
        line = f"{names[winner]} wins after {attacks_text(attacks)}: {damage} damage to {loser}"
        if rec["ghost"] and winner == 0:
            line += " (a ghost takes no damage)"
    steps.append(
        CombatStep(
            kind="result",
            number=attacks,
            before=(final[0], final[1]),
            after=(final[0], final[1]),
            log=(line,),
            winner=winner,
            damage=damage,
            **base,
        )
    )
    return steps


def _is_power(ev: Event, powers: tuple[str, ...]) -> bool:
    """Whether ``ev`` is one of these hero powers acting."""
    return ev.kind == "hero" and ev.card in powers


def _effect_name(card_id: str | None) -> str:
    """A hero power's or Secret's name, as the card data has it."""
    return cards()[card_id].name if card_id and card_id in cards() else str(card_id)


def _step(
    events: Sequence[Event],
    states: Sequence[Boards],
    k0: int,
    k1: int,
    extras: Mapping[int, tuple[str, ...]],
    names: tuple[str, str],
) -> tuple[Sides, Sides, tuple[str, ...]]:
    """Boards before events[k0:k1], the display list after them, and log lines."""

    def view(u: Unit) -> CardView:
        return unit_view(u, extras.get(u.eid, ()))

    start = states[k0]
    before = tuple(tuple(Fighter(u.eid, view(u)) for u in side) for side in start)
    order = [[u.eid for u in side] for side in start]
    last: dict[int, tuple[int, Unit]] = {u.eid: (s, u) for s in (0, 1) for u in start[s]}
    dying: set[int] = set()
    summoned: set[int] = set()
    damage: Counter[int] = Counter()
    popped: set[int] = set()
    poisoned: set[int] = set()
    buffed: set[int] = set()
    triggers: dict[int, list[str]] = defaultdict(list)
    log: list[str] = []

    def who(eid: int) -> str:
        if eid not in last:
            return f"minion #{eid}"
        side, u = last[eid]
        return f"{names[side]}'s {unit_view(u).name} {u.attack}/{max(u.health, 0)}"

    for k in range(k0, k1):
        ev = events[k]
        after = states[k + 1]
        if ev.kind == "start":
            log.append(f"{names[ev.side]} attacks first")
        elif ev.kind == "attack":
            log.append(f"{who(ev.eid)} attacks {who(ev.target)}")
        elif ev.kind == "damage":
            damage[ev.eid] += ev.a
            log.append(f"  {who(ev.eid)} takes {ev.a} damage")
        elif ev.kind == "shield":
            popped.add(ev.eid)
            log.append(f"  {who(ev.eid)} loses Divine Shield")
        elif ev.kind == "poison":
            poisoned.add(ev.eid)
            log.append(f"  {who(ev.eid)} is destroyed by Poisonous")
        elif ev.kind == "death":
            dying.add(ev.eid)
            log.append(f"  {who(ev.eid)} dies")
        elif ev.kind == "summon":
            summoned.add(ev.eid)
            board = after[ev.side]
            pos = next((i for i, u in enumerate(board) if u.eid == ev.eid), len(board))
            right = board[pos + 1].eid if pos + 1 < len(board) else None
            row = order[ev.side]
            # Next to its right neighbour, so a deathrattle summon takes the dead one's place.
            row.insert(row.index(right) if right in row else len(row), ev.eid)
        elif ev.kind == "stats" and ev.eid in last:
            _, old = last[ev.eid]
            if ev.a > old.attack or ev.b > old.health:
                buffed.add(ev.eid)
        elif ev.kind == "trigger":
            label = _TRIGGER_LABELS.get(ev.trigger or "", "Effect")
            triggers[ev.eid].append(label)
            log.append(f"  {who(ev.eid)}: {label}")
        elif ev.kind == "hand" and ev.card:
            name = cards()[ev.card].name if ev.card in cards() else ev.card
            log.append(f"  {names[ev.side]} gets {name} in hand")
        elif ev.kind == "hero":
            power = _effect_name(ev.card)
            if ev.eid:
                triggers[ev.eid].append(power)
            if ev.b:  # Deathwing's aura
                log.append(f"  {names[ev.side]}'s {power}: every minion has +{ev.b} Attack")
            elif ev.eid:
                log.append(f"  {names[ev.side]}'s {power}: {who(ev.eid)}")
            else:
                log.append(f"  {names[ev.side]}'s {power}")
        elif ev.kind == "secret":
            secret = _effect_name(ev.card)
            if ev.eid:
                triggers[ev.eid].append(f"Secret: {secret}")
            log.append(f"  {names[ev.side]}'s Secret is revealed: {secret}")
        for s in (0, 1):
            for u in after[s]:
                last[u.eid] = (s, u)
        if ev.kind == "summon" and ev.eid in last:
            u = last[ev.eid][1]
            log.append(f"  {names[ev.side]} summons {unit_view(u).name} {u.attack}/{u.health}")

    after_sides = []
    for s in (0, 1):
        fighters = []
        for eid in order[s]:
            if eid not in last:
                continue
            status = "dying" if eid in dying else "summoned" if eid in summoned else "alive"
            fighters.append(
                Fighter(
                    eid=eid,
                    card=view(last[eid][1]),
                    status=status,
                    damage=damage[eid],
                    shield_popped=eid in popped,
                    poisoned=eid in poisoned,
                    buffed=eid in buffed,
                    triggers=tuple(dict.fromkeys(triggers[eid])),
                )
            )
        after_sides.append(tuple(fighters))
    return (before[0], before[1]), (after_sides[0], after_sides[1]), tuple(log)
