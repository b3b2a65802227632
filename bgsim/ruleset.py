"""The numbers of a ruleset, loaded from ``data/ruleset.toml`` into frozen values."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast, get_type_hints

from bgsim.cards import TRIBES
from bgsim.resources import data_path
from combat_c.guarded import InputError, read_text, shown, too_deep

# Bounds on a ruleset's numbers: any number, and the counts a lobby holds or
# loops over (turns, actions in a turn, copies of a minion in the pool).
MAX_NUMBER = 1_000_000
MAX_COUNT = 1000


class RulesetError(ValueError):
    """A ruleset file is missing a key, has an unknown key, or a bad value;
    the message names the key.

    >>> try:
    ...     parse_ruleset("[economy")
    ... except RulesetError as error:
    ...     print(str(error)[:25])
    <string>: not valid TOML:
    """


@dataclass(frozen=True)
class LobbyRules:
    players: int
    hero_health: int
    tribes_per_lobby: int
    max_turns: int
    heroes_offered: int


@dataclass(frozen=True)
class EconomyRules:
    starting_gold: int
    gold_per_turn: int
    max_gold: int
    buy_cost: int
    sell_value: int
    refresh_cost: int
    freeze_cost: int


@dataclass(frozen=True)
class TavernRules:
    max_tier: int
    upgrade_costs: tuple[int, ...]
    upgrade_discount_per_turn: int
    min_upgrade_cost: int
    shop_sizes: tuple[int, ...]
    max_shop_size: int


@dataclass(frozen=True)
class RecruitRules:
    actions_per_turn: int


@dataclass(frozen=True)
class LimitRules:
    hand_size: int
    board_size: int
    discover_choices: int


@dataclass(frozen=True)
class PoolRules:
    copies_per_tier: tuple[int, ...]


@dataclass(frozen=True)
class TripleRules:
    copies: int
    reward_tier_offset: int
    reward_max_tier: int


@dataclass(frozen=True)
class Ruleset:
    """The numbers of a ruleset, by section: ``lobby``, ``economy``,
    ``tavern``, ``recruit``, ``limits``, ``pool`` and ``triples``; every key of
    ``data/ruleset.toml`` with its source in a comment there.

    >>> rules = load_ruleset()
    >>> rules.economy.buy_cost, rules.tavern.upgrade_costs, rules.shop_size(3)
    (3, (5, 7, 8, 9, 10), 4)
    """

    id: str
    lobby: LobbyRules
    economy: EconomyRules
    tavern: TavernRules
    recruit: RecruitRules
    limits: LimitRules
    pool: PoolRules
    triples: TripleRules

    def upgrade_base_cost(self, to_tier: int) -> int:
        """Undiscounted cost of upgrading to ``to_tier`` (2..max_tier).

        >>> load_ruleset().upgrade_base_cost(2)
        5
        """
        costs = self.tavern.upgrade_costs
        if type(to_tier) is not int or not 2 <= to_tier < len(costs) + 2:
            raise ValueError(f"to_tier must be a tier 2..{len(costs) + 1}, got {to_tier!r}")
        return costs[to_tier - 2]

    def shop_size(self, tier: int) -> int:
        """How many minions a shop of tavern tier ``tier`` (1..max_tier) offers.

        >>> load_ruleset().shop_size(1)
        3
        """
        sizes = self.tavern.shop_sizes
        if type(tier) is not int or not 1 <= tier <= len(sizes):
            raise ValueError(f"tier must be a tier 1..{len(sizes)}, got {tier!r}")
        return sizes[tier - 1]

    def copies(self, tier: int) -> int:
        """Copies of each minion of tier ``tier`` (1..max_tier) in the pool.

        >>> load_ruleset().copies(1)
        16
        """
        copies = self.pool.copies_per_tier
        if type(tier) is not int or not 1 <= tier <= len(copies):
            raise ValueError(f"tier must be a tier 1..{len(copies)}, got {tier!r}")
        return copies[tier - 1]

    def to_table(self) -> dict[str, Any]:
        """The ruleset as the table its TOML file holds (replays store it, so
        a game by any ruleset can be played again).

        >>> table = load_ruleset().to_table()
        >>> table["economy"]["buy_cost"], Ruleset.from_table(table) == load_ruleset()
        (3, True)
        """
        return cast(dict[str, Any], json.loads(json.dumps(dataclasses.asdict(self))))

    def digest(self) -> str:
        """A fingerprint of every number of the ruleset (its ``id`` too): two
        rulesets that play alike share it, and a file edited under the same
        ``id`` gets another. The results database keys runs by it.

        >>> rules = load_ruleset()
        >>> table = rules.to_table()
        >>> table["economy"]["buy_cost"] = 2
        >>> len(rules.digest()), rules.digest() == Ruleset.from_table(table).digest()
        (16, False)
        """
        text = json.dumps(self.to_table(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def check(self) -> Ruleset:
        """This ruleset, once its numbers pass the checks a file's pass
        (:class:`RulesetError` naming the bad key otherwise). A ruleset made
        by hand or with ``dataclasses.replace`` skips them, so the game
        (``Lobby``, the environments, ``TurnModel``) checks what it is given.

        >>> import dataclasses
        >>> rules = load_ruleset()
        >>> econ = dataclasses.replace(rules.economy, buy_cost=-5)
        >>> dataclasses.replace(rules, economy=econ).check()
        Traceback (most recent call last):
        ...
        bgsim.ruleset.RulesetError: ruleset: economy.buy_cost: must be 0..1,000,000, got -5
        """
        if _CHECKED.get(id(self)) is self:
            return self
        try:
            table = self.to_table()
        except (TypeError, ValueError):
            table = None
        if table is None or Ruleset.from_table(table, "ruleset") != self:
            raise RulesetError(
                "ruleset: a value is not of its key's type (integers, true/false, "
                "text, tuples of integers): make rulesets with load_ruleset, "
                "parse_ruleset or Ruleset.from_table"
            )
        if len(_CHECKED) >= 64:
            _CHECKED.clear()
        _CHECKED[id(self)] = self
        return self

    @classmethod
    def from_table(cls, table: Any, source: str = "<table>") -> Ruleset:
        """A ruleset from a table like :meth:`to_table`'s, checked as a file
        is (:class:`RulesetError` naming the bad key).

        >>> Ruleset.from_table({"id": "x"})
        Traceback (most recent call last):
        ...
        bgsim.ruleset.RulesetError: <table>: lobby: missing
        """
        try:
            rules = _build(cls, table, "")
            _check(rules)
        except RulesetError as exc:
            raise RulesetError(f"{source}: {exc}") from None
        return rules


# Rulesets that passed check(), by id (each entry keeps its object alive, so
# the id stays its own).
_CHECKED: dict[int, Ruleset] = {}


def _convert(value: Any, kind: Any, key: str) -> Any:
    if kind is bool:
        if not isinstance(value, bool):
            raise RulesetError(f"{key}: expected true or false, got {shown(value)}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(f"{key}: expected an integer, got {shown(value)}")
        if not 0 <= value <= MAX_NUMBER:
            raise RulesetError(f"{key}: must be 0..{MAX_NUMBER:,}, got {shown(value)}")
        return value
    if kind is str:
        if not isinstance(value, str) or not 0 < len(value) <= 200:
            raise RulesetError(
                f"{key}: expected a string of 1 to 200 characters, got {shown(value)}"
            )
        return value
    if kind == tuple[int, ...]:
        if not isinstance(value, list):
            raise RulesetError(f"{key}: expected a list of integers, got {shown(value)}")
        return tuple(_convert(v, int, f"{key}[{i}]") for i, v in enumerate(value))
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _build(kind, value, key)
    raise RulesetError(f"{key}: unsupported type {kind!r}")  # pragma: no cover


def _build(cls: type, table: Any, prefix: str) -> Any:
    if not isinstance(table, dict):
        raise RulesetError(f"{prefix or 'ruleset'}: expected a table, got {shown(table)}")
    hints = get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(table) - set(names))
    if unknown:
        raise RulesetError(f"{prefix + '.' if prefix else ''}{unknown[0]}: unknown key")
    values = {}
    for name in names:
        key = f"{prefix}.{name}" if prefix else name
        if name not in table:
            raise RulesetError(f"{key}: missing")
        values[name] = _convert(table[name], hints[name], key)
    return cls(**values)


def _check(rules: Ruleset) -> None:
    max_tier = rules.tavern.max_tier
    if not 1 <= max_tier <= 6:
        raise RulesetError("tavern.max_tier: the card pool has tiers 1..6")
    lengths = {
        "tavern.upgrade_costs": (rules.tavern.upgrade_costs, max_tier - 1),
        "tavern.shop_sizes": (rules.tavern.shop_sizes, max_tier),
        "pool.copies_per_tier": (rules.pool.copies_per_tier, max_tier),
    }
    for key, (values, want) in lengths.items():
        if len(values) != want:
            many = "value" if want == 1 else "values"
            raise RulesetError(f"{key}: expected {want} {many} for max_tier {max_tier}")
    if rules.economy.max_gold < rules.economy.starting_gold:
        raise RulesetError("economy.max_gold: smaller than economy.starting_gold")
    if not 1 <= rules.limits.board_size <= 7:
        raise RulesetError(
            "limits.board_size: must be 1..7 (the combat engine holds at most 7 minions)"
        )
    if not 2 <= rules.lobby.players <= 8:
        raise RulesetError("lobby.players: a lobby has 2 to 8 players")
    if not 1 <= rules.lobby.tribes_per_lobby <= len(TRIBES):
        raise RulesetError(f"lobby.tribes_per_lobby: must be 1..{len(TRIBES)}")
    if not 1 <= rules.triples.reward_max_tier <= max_tier:
        raise RulesetError("triples.reward_max_tier: must be 1..tavern.max_tier")
    if rules.triples.copies < 2:
        raise RulesetError("triples.copies: a triple needs at least 2 copies")
    if not 1 <= rules.lobby.heroes_offered <= 4:
        raise RulesetError("lobby.heroes_offered: the draft offers 1 to 4 heroes")
    if rules.lobby.hero_health < 1 or rules.lobby.max_turns < 1:
        raise RulesetError("lobby: hero_health and max_turns must be at least 1")
    if not max(rules.tavern.shop_sizes) <= rules.tavern.max_shop_size <= 7:
        raise RulesetError("tavern.max_shop_size: must hold every shop size and be at most 7")
    if rules.limits.hand_size > 10 or rules.limits.discover_choices > 3:
        raise RulesetError("limits: the action encoding holds at most 10 cards and 3 options")
    if not 1 <= rules.recruit.actions_per_turn <= MAX_COUNT:
        raise RulesetError(f"recruit.actions_per_turn: must be 1..{MAX_COUNT}")
    if rules.lobby.max_turns > MAX_COUNT:
        raise RulesetError(f"lobby.max_turns: must be 1..{MAX_COUNT}")
    if max(rules.pool.copies_per_tier) > MAX_COUNT:
        raise RulesetError(f"pool.copies_per_tier: at most {MAX_COUNT} copies of a minion")


def parse_ruleset(text: str, source: str = "<string>") -> Ruleset:
    """Parse ruleset TOML; raise :class:`RulesetError` naming the bad key.

    >>> from bgsim.resources import data_path
    >>> text = data_path("ruleset.toml").read_text()
    >>> text = text.replace("starting_gold = 3", "starting_gold = 5")
    >>> parse_ruleset(text).economy.starting_gold
    5
    """
    if not isinstance(text, str):
        raise RulesetError(f"{source}: expected TOML text, got {type(text).__name__}")
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise RulesetError(f"{source}: not valid TOML: nested too deeply") from None
    except ValueError as exc:  # an integer past Python's digit limit
        raise RulesetError(f"{source}: not valid TOML: {str(exc)[:80]}") from None
    if too_deep(table):
        raise RulesetError(f"{source}: not valid TOML: nested too deeply")
    return Ruleset.from_table(table, source)


def load_ruleset(path: str | Path | None = None) -> Ruleset:
    """Load ``data/ruleset.toml`` (or ``path``) as a frozen :class:`Ruleset`.

    >>> load_ruleset().id
    'bg-20.0.0-77662'
    """
    if path is not None and not isinstance(path, str | Path):
        raise TypeError(f"path must be a file path (str or Path) or None, got {shown(path)}")
    path = path if path is not None else data_path("ruleset.toml")
    try:
        text = read_text(path)  # the path as given: Path("") would be the current folder
    except InputError as exc:
        raise RulesetError(str(exc)) from None
    return parse_ruleset(text, str(path))
