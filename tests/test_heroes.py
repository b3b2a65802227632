"""data/heroes.toml (the hero research sheet) agrees with the card data."""

import tomllib

import pytest

from bgsim.cards import TRIBES, cards
from bgsim.resources import data_path

PHASES = {"draft", "start_of_turn", "recruit", "end_of_turn", "combat", "lobby"}
TARGETS = {"none", "friendly minion", "shop minion", "minion", "player"}
USES = {"per_turn", "per_game", "passive"}
FIELDS = (
    "name",
    "health",
    "hero_power",
    "power_name",
    "cost",
    "text",
    "passive",
    "targets",
    "uses",
    "phases",
    "counters",
    "creates",
    "behaviour",
    "source",
    "disabled",
)


@pytest.fixture(scope="module")
def sheet():
    return tomllib.loads(data_path("heroes.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def heroes(sheet):
    return {k: v for k, v in sheet.items() if k != "draft"}


def test_hero_list_equals_draftable_heroes(heroes):
    assert len(heroes) == 54
    assert set(heroes) == {h.id for h in cards().heroes}


def test_draft_table(sheet, heroes):
    draft = sheet["draft"]
    assert draft["offered"] == 2 and draft["offered_with_perks"] == 4
    assert draft["distinct_in_lobby"] is True
    assert draft["pool_size"] == len(heroes)
    assert draft["source"] and draft["pool_source"]
    assert draft["armor"] is False
    for hero_id, tribe in draft["tribe_subset"].items():
        assert tribe in TRIBES and heroes[hero_id]["tribe"] == tribe
    assert {k for k, v in heroes.items() if "tribe" in v} == set(draft["tribe_subset"])
    assert set(draft["disabled_heroes"]) == {k for k, v in heroes.items() if v["disabled"]}
    assert set(draft["lobby_powers"]) <= set(heroes)
    assert set(draft["early_access"]) == {k for k, v in heroes.items() if v.get("early_access")}


def test_health_patchwerk_55_others_40(sheet, heroes):
    db = cards()
    for hero_id, row in heroes.items():
        expected = 55 if row["name"] == "Patchwerk" else sheet["draft"]["starting_health"]
        assert row["health"] == expected == db[hero_id].health, row["name"]


def test_rows_copy_the_card_data(heroes):
    db = cards()
    for hero_id, row in heroes.items():
        for field in FIELDS:
            assert field in row, (hero_id, field)
        hero = db[hero_id]
        power = db.hero_power(hero)
        assert row["name"] == hero.name
        assert row["hero_power"] == power.id
        assert row["power_name"] == power.name
        assert row["cost"] == power.cost, row["name"]
        assert row["text"] == power.text, row["name"]


def test_rows_use_the_agreed_vocabulary(heroes):
    for hero_id, row in heroes.items():
        assert row["targets"] in TARGETS, hero_id
        assert row["uses"] in USES, hero_id
        assert row["phases"] and set(row["phases"]) <= PHASES, hero_id
        assert row["passive"] == (row["uses"] == "passive"), hero_id
        if row["passive"]:
            assert row["targets"] == "none" and row["cost"] == 0, hero_id
        for counter in row["counters"]:
            assert {"name", "start", "visible"} <= set(counter), hero_id
        assert len(row["behaviour"]) > 40 and row["source"], hero_id
        assert isinstance(row["disabled"], bool)


def test_passive_label_matches_the_text(heroes):
    # Chenvaala and Ragnaros say "Hero Power" yet have nothing to activate.
    no_label = {"TB_BaconShop_HERO_78", "TB_BaconShop_HERO_11"}
    for hero_id, row in heroes.items():
        labelled = row["text"].startswith("Passive Hero Power")
        assert row["passive"] == (labelled or hero_id in no_label), row["name"]
        assert row["passive"] == cards().hero_power(hero_id).passive, row["name"]


def test_once_per_game_powers(heroes):
    per_game = {row["name"] for row in heroes.values() if row["uses"] == "per_game"}
    assert per_game == {"Reno Jackson", "Skycap'n Kragg"}
    for row in heroes.values():
        assert (row["uses"] == "per_game") == ("Once per game" in row["text"]), row["name"]


def test_created_ids_exist_and_match_created_by(heroes):
    db = cards()
    for row in heroes.values():
        for card_id in row["creates"]:
            assert card_id in db, (row["name"], card_id)
        pairs = db.created_by.get(row["hero_power"], ())
        expected = [i for pair in pairs for i in pair if i is not None]
        assert row["creates"] == expected, row["name"]


def test_notable_creations(heroes):
    made = {row["name"]: set(row["creates"]) for row in heroes.values()}
    assert "TB_BaconShop_HP_047t" in made["Elise Starseeker"]  # Recruitment Map
    assert "TB_BaconShop_HP_087t" in made["Ragnaros the Firelord"]  # Sulfuras
    assert {"TB_BaconShop_HP_105t", "TB_BaconUps_307"} <= made["N'Zoth"]
    assert "TB_BaconShop_HP_033t" in made["The Curator"]
    assert {"TRL_509t", "BGS_Treasures_000"} <= made["King Mukla"]
    assert "TB_BaconShop_HP_008a" in made["Lich Baz'hial"] & made["Lord Barov"]
    assert "TB_BaconShop_HERO_59t" in made["Aranna Starseeker"]
    secrets = {c for c in made["The Great Akazamzarak"] if cards()[c].secret}
    assert len(secrets) == 10
    prizes = {c for c in made["Tickatus"] if cards()[c].prize_turn}
    assert {cards()[c].prize_turn for c in prizes} == {1, 2, 3, 4}
    finley = made["Sir Finley Mrrgglton"]
    assert len(finley) == 49 and "TB_BaconShop_HP_057" not in finley
    assert all(cards()[c].type == "hero_power" for c in finley)
