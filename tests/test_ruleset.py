import pytest

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
