import json
import re
import tomllib

import pytest

from bgsim import Lobby
from bgsim.resources import data_path
from bgsim.ruleset import Ruleset, RulesetError, load_ruleset, parse_ruleset


def test_shipped_ruleset_matches_design_sheet():
    rules = load_ruleset()
    assert isinstance(rules, Ruleset)
    assert rules.economy.starting_gold == 3
    assert rules.economy.max_gold == 10
    assert (rules.economy.buy_cost, rules.economy.sell_value, rules.economy.refresh_cost) == (
        3,
        1,
        1,
    )
    assert rules.tavern.upgrade_costs == (5, 7, 8, 9, 10)
    assert rules.tavern.shop_sizes == (3, 4, 4, 5, 5, 6)
    assert rules.pool.copies_per_tier == (16, 15, 13, 11, 9, 7)
    assert (rules.limits.hand_size, rules.limits.board_size) == (10, 7)
    assert rules.lobby.hero_health == 40
    assert rules.lobby.tribes_per_lobby == 5
    assert rules.upgrade_base_cost(2) == 5 and rules.upgrade_base_cost(6) == 10
    assert rules.tavern.max_shop_size == 7
    assert rules.recruit.actions_per_turn >= 10
    assert rules.lobby.max_turns >= 50
    assert rules.shop_size(6) == 6 and rules.copies(2) == 15


def test_ruleset_is_frozen():
    rules = load_ruleset()
    with pytest.raises(AttributeError):
        rules.economy.buy_cost = 1  # type: ignore[misc]


def test_every_number_has_a_source_comment():
    for line in data_path("ruleset.toml").read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            assert "#" in line, f"no source comment: {line}"


def _text(**swap: str) -> str:
    text = data_path("ruleset.toml").read_text()
    for old, new in swap.items():
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("buy_cost = 3", 'buy_cost = "three"', "economy.buy_cost"),
        ("buy_cost = 3", "", "economy.buy_cost: missing"),
        ("shop_sizes = [3, 4, 4, 5, 5, 6]", "shop_sizes = [3, 4]", "tavern.shop_sizes"),
        ("hand_size = 10", "hand_size = -1", "limits.hand_size"),
        ("hand_size = 10", "hand_size = 10\nhand_limit = 3", "limits.hand_limit: unknown"),
        ("tribes_per_lobby = 5", "tribes_per_lobby = true", "lobby.tribes_per_lobby"),
        ("board_size = 7", "board_size = 9", "limits.board_size"),
        ("board_size = 7", "board_size = 0", "limits.board_size: must be 1..7"),
        ("max_shop_size = 7", "max_shop_size = 5", "tavern.max_shop_size"),
        ("actions_per_turn = 20", "actions_per_turn = 0", "recruit.actions_per_turn"),
        ("max_turns = 150", "", "lobby.max_turns: missing"),
    ],
)
def test_malformed_ruleset_names_the_key(old, new, key):
    with pytest.raises(RulesetError, match=key.replace(".", r"\.")):
        parse_ruleset(_text(**{old: new}))


def test_invalid_toml():
    with pytest.raises(RulesetError, match="not valid TOML"):
        parse_ruleset("[economy\n")


# ------------------------------------------------------------ every key is read

# For every number in data/ruleset.toml, another legal value; a lobby of
# heuristic agents played under it must differ from the shipped rules' game.
CHANGES = {
    "lobby.players": 6,
    "lobby.hero_health": 25,
    "lobby.tribes_per_lobby": 4,
    "lobby.max_turns": 6,
    "lobby.heroes_offered": 3,
    "economy.starting_gold": 5,
    "economy.gold_per_turn": 2,
    "economy.max_gold": 6,
    "economy.buy_cost": 2,
    "economy.sell_value": 2,
    "economy.refresh_cost": 2,
    "economy.freeze_cost": 1,
    "tavern.max_tier": 5,
    "tavern.upgrade_costs": [3, 7, 8, 9, 10],
    "tavern.upgrade_discount_per_turn": 2,
    "tavern.min_upgrade_cost": 5,
    "tavern.shop_sizes": [4, 4, 4, 5, 5, 6],
    "tavern.max_shop_size": 6,
    "recruit.actions_per_turn": 8,
    "limits.hand_size": 1,
    "limits.board_size": 5,
    "limits.discover_choices": 2,
    "pool.copies_per_tier": [3, 15, 13, 11, 9, 7],
    "triples.copies": 2,
    "triples.reward_tier_offset": 2,
    "triples.reward_max_tier": 4,
}
# Keys a lobby rarely reaches, checked on a scenario instead: Stasis Elemental
# adding to a shop as large as the tavern allows.
SCENARIOS = {"tavern.max_shop_size"}
# Keys only a lobby with heroes reads.
WITH_HEROES = {"lobby.heroes_offered"}
# Values other keys must take along (a shorter tavern has fewer tiers to list).
ALONG = {
    "tavern.max_tier": {
        "tavern.upgrade_costs": [5, 7, 8, 9],
        "tavern.shop_sizes": [3, 4, 4, 5, 5],
        "pool.copies_per_tier": [16, 15, 13, 11, 9],
        "triples.reward_max_tier": 5,
    }
}


def _keys(table: dict, prefix: str = "") -> list[str]:
    out = []
    for key, value in table.items():
        if isinstance(value, dict):
            out += _keys(value, f"{prefix}{key}.")
        elif key != "id":  # the ruleset's name, read by run keys and replays
            out.append(prefix + key)
    return out


def _with(changes: dict) -> Ruleset:
    table = tomllib.loads(data_path("ruleset.toml").read_text())
    for key, value in changes.items():
        section, name = key.split(".")
        table[section][name] = value
    lines = [f'id = "{table["id"]}-changed"']
    for section, values in table.items():
        if isinstance(values, dict):
            lines.append(f"[{section}]")
            lines += [f"{k} = {json.dumps(v)}" for k, v in values.items()]
    return parse_ruleset("\n".join(lines))


def _heuristic_game(rules: Ruleset, seed: int = 0, heroes: bool = False) -> list:
    from agents.heuristic import HeuristicAgent

    lobby = Lobby(seed, rules, heroes=heroes)
    agents = [HeuristicAgent() for _ in range(rules.lobby.players)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, seed * 10 + seat)
    while not lobby.done:
        player = lobby.to_act()[0]
        lobby.apply(player, agents[player].act(lobby.observe(player), lobby.legal_actions(player)))
    return lobby.log


def test_every_ruleset_key_has_a_changed_value_to_test():
    keys = _keys(tomllib.loads(data_path("ruleset.toml").read_text()))
    assert sorted(keys) == sorted(CHANGES)


@pytest.fixture(scope="module")
def shipped_game() -> list:
    return _heuristic_game(load_ruleset())


@pytest.mark.parametrize("key", sorted(set(CHANGES) - SCENARIOS))
def test_a_lobby_under_a_changed_ruleset_sees_the_change(key, shipped_game):
    rules = _with({key: CHANGES[key], **ALONG.get(key, {})})
    if key in WITH_HEROES:
        assert _heuristic_game(rules, heroes=True) != _heuristic_game(load_ruleset(), heroes=True)
    else:
        assert _heuristic_game(rules) != shipped_game


def test_max_shop_size_bounds_what_stasis_elemental_adds():
    from tavern_helpers import act, mk, st

    from bgsim import Play

    shop = [mk("BGS_115") for _ in range(6)]
    for size, want in ((7, 7), (6, 6)):
        rules = _with({"tavern.max_shop_size": size})
        state = st(shop=shop, hand=[mk("BGS_122")], tier=3)
        assert len(act(state, Play(0, 0), rules=rules).shop) == want


def test_per_tier_numbers_refuse_tiers_the_ruleset_lacks():
    rules = load_ruleset()
    assert (rules.shop_size(1), rules.upgrade_base_cost(2), rules.copies(6)) == (3, 5, 7)
    for ask, tier in ((rules.shop_size, 0), (rules.upgrade_base_cost, 1), (rules.copies, 7)):
        with pytest.raises(ValueError, match="must be a tier"):
            ask(tier)


@pytest.mark.parametrize("heroes", [False, True])
def test_a_one_tier_tavern_plays_whole_lobbies(heroes):
    # No tier to upgrade to: an empty upgrade_costs list, Upgrade never legal.
    rules = _with(
        {
            "tavern.max_tier": 1,
            "tavern.upgrade_costs": [],
            "tavern.shop_sizes": [3],
            "pool.copies_per_tier": [16],
            "triples.reward_max_tier": 1,
        }
    )
    log = _heuristic_game(rules, seed=2, heroes=heroes)
    assert log and not any("Upgrade" in str(entry) for entry in log)


def test_tier_lists_of_the_wrong_length_name_the_count_wanted():
    with pytest.raises(
        RulesetError, match=r"tavern.upgrade_costs: expected 0 values for max_tier 1"
    ):
        _with({"tavern.max_tier": 1, "tavern.upgrade_costs": [5]})
    with pytest.raises(RulesetError, match=r"tavern.shop_sizes: expected 1 value for max_tier 1"):
        _with({"tavern.max_tier": 1, "tavern.upgrade_costs": [], "tavern.shop_sizes": []})
    with pytest.raises(RulesetError, match=r"tavern.max_tier: the card pool has tiers 1..6"):
        _with({"tavern.max_tier": 0})


def test_a_ruleset_made_by_hand_is_checked_by_the_game():
    import dataclasses

    from bgsim import TurnModel

    rules = load_ruleset()
    bad = {
        "economy.buy_cost": dataclasses.replace(
            rules, economy=dataclasses.replace(rules.economy, buy_cost=-5)
        ),
        "lobby.players": dataclasses.replace(
            rules, lobby=dataclasses.replace(rules.lobby, players=0)
        ),
        "limits.board_size": dataclasses.replace(
            rules, limits=dataclasses.replace(rules.limits, board_size=8)
        ),
        "not of its key's type": dataclasses.replace(
            rules, tavern=dataclasses.replace(rules.tavern, upgrade_costs=[5, 7, 8, 9, 10])
        ),
    }
    for names, ruleset in bad.items():
        with pytest.raises(RulesetError, match=re.escape(names)):
            Lobby(1, ruleset)
        with pytest.raises(RulesetError, match=re.escape(names)):
            ruleset.check()
    assert rules.check() is rules
    # a forward model under a ruleset with fewer tiers than the observed game
    one_tier = _with(
        {
            "tavern.max_tier": 1,
            "tavern.upgrade_costs": [],
            "tavern.shop_sizes": [3],
            "pool.copies_per_tier": [16],
            "triples.reward_max_tier": 1,
        }
    )
    obs = Lobby(1).observe(0)
    with pytest.raises(ValueError, match=r"rules: its tavern has tiers 1\.\.1"):
        TurnModel.from_observation(obs, one_tier)
    with pytest.raises(TypeError, match="path must be a file path"):
        load_ruleset(5)
