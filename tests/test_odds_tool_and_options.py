"""The odds tool (combat --arrange, card names in board specs) and what a
newcomer meets first: --version, defaults in --help, refitted models written
to --out and loaded by an agent option, the source-tree import message."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agents.belief import Development
from agents.board_order import best_order, reorder
from bgsim.cli import build_parser, main
from bgsim.registry import LineupError, fingerprint, make_agent, parse_spec
from bgsim.resources import data_path
from combat_c import BoardSpecError, parse_board, simulate
from combat_c.board import card_id_of, name_index

ROOT = Path(__file__).resolve().parent.parent
BEASTS = ROOT / "examples" / "boards" / "beasts.json"
DEMONS = ROOT / "examples" / "boards" / "demons.json"


# ------------------------------------------------------------- card names


def test_board_specs_take_card_names():
    by_name = parse_board(
        {
            "tier": 3,
            "minions": [
                {"card": "Kaboom Bot", "golden": True},
                {"card": "  harvest   GOLEM "},
                {"card": "Mechano-Egg", "magnetic": ["Replicating Menace"]},
            ],
        }
    )
    by_id = parse_board(
        {
            "tier": 3,
            "minions": [
                {"card": "BOT_606", "golden": True},
                {"card": "EX1_556"},
                {"card": "BOT_537", "magnetic": ["BOT_312"]},
            ],
        }
    )
    assert by_name == by_id
    assert by_name.minions[0].golden and by_name.minions[2].magnetic == ("BOT_312",)


def test_unknown_and_ambiguous_names_are_clear_errors():
    with pytest.raises(
        BoardSpecError, match=r"minions\[0\]\.card: unknown card 'Kabom Bot'.*Kaboom Bot"
    ):
        parse_board({"tier": 1, "minions": [{"card": "Kabom Bot"}]})
    with pytest.raises(BoardSpecError, match="unknown card 'Gold Coin'"):  # a spell, not a minion
        parse_board({"tier": 1, "minions": [{"card": "Gold Coin"}]})

    class Entry:
        def __init__(self, id_, name):
            self.id, self.name, self.is_spell = id_, name, False

    shared = name_index([Entry("X_1", "Twin"), Entry("X_2", "Twin"), Entry("Y_1", "Solo")])
    assert card_id_of("solo", "card", shared) == "Y_1"
    with pytest.raises(BoardSpecError, match=r"'Twin' is the name of 2 cards \(X_1, X_2\)"):
        card_id_of("Twin", "minions[3].card", shared)


def test_combat_cli_reads_names(tmp_path, capsys):
    a = tmp_path / "a.json"
    a.write_text(json.dumps({"tier": 2, "minions": [{"card": "Kaboom Bot"}]}))
    b = tmp_path / "b.json"
    b.write_text(json.dumps({"tier": 2, "minions": [{"card": "Kaboom Bot", "golden": True}]}))
    assert main(["combat", str(a), str(b), "--runs", "200", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["runs"] == 200
    b.write_text(json.dumps({"tier": 2, "minions": [{"card": "Kaboom Robot"}]}))
    assert main(["combat", str(a), str(b)]) == 2
    err = capsys.readouterr().err
    assert "unknown card 'Kaboom Robot'" in err and len(err.strip().splitlines()) == 1


# --------------------------------------------------------------- arrange


def test_arrange_beats_or_equals_the_given_order():
    a, b = parse_board(BEASTS), parse_board(DEMONS)
    found = best_order(a, b, runs=400, seed=3)
    assert not found.exhaustive and found.tried > len(a.minions)
    # On the search's own fights the best order is at least the given one...
    assert found.searched_best >= found.searched_given
    given = simulate(a, b, 400, 3)
    assert found.searched_given == pytest.approx(given.win + given.tie / 2)
    # ...and on fresh fights this order is far better (the given one wins 37%).
    assert found.best.win > found.given.win + 0.2
    assert found.best.lethal_taken <= found.given.lethal_taken
    assert sorted(found.order) == list(range(len(a.minions)))
    again = best_order(a, b, runs=400, seed=3)  # deterministic for a seed
    assert again.order == found.order and again.best.as_dict() == found.best.as_dict()


def test_arrange_tries_every_order_of_a_small_board():
    a = parse_board(
        {
            "tier": 2,
            "minions": [{"card": "Alleycat"}, {"card": "Kaboom Bot"}, {"card": "Scallywag"}],
        }
    )
    b = parse_board({"tier": 2, "minions": [{"card": "Annoy-o-Module"}, {"card": "Alleycat"}]})
    found = best_order(a, b, runs=300, seed=1)
    assert found.exhaustive and found.tried == 6
    best_score = max(
        (lambda o: o.win + o.tie / 2)(simulate(reorder(a, order), b, 300, 1))
        for order in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    )
    assert found.searched_best == pytest.approx(best_score)


def test_reorder_moves_murk_eye_with_its_figure():
    board = parse_board(
        {
            "tier": 3,
            "minions": [
                {"card": "Old Murk-Eye", "attack": 4, "health": 4},
                {"card": "Murloc Tidehunter"},
            ],
        }
    )
    moved = reorder(board, (1, 0))
    assert moved.shown_murk_eye == (1,) and moved.minions[1].card == "EX1_062"


def test_combat_arrange_cli(capsys):
    assert main(["combat", str(BEASTS), str(DEMONS), "--arrange", "--runs", "300"]) == 0
    out = capsys.readouterr().out
    assert "best order of" in out and "given order" in out and "best-given" in out
    assert "A kills B" in out and "B kills A" in out
    assert main(["combat", str(BEASTS), str(DEMONS), "--arrange", "--runs", "300", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["best"]["win"] >= got["given"]["win"] and len(got["order"]) == 7
    assert main(["combat", str(BEASTS), str(DEMONS), "--arrange", "--trace"]) == 2


# ----------------------------------------------------------- the command line


def test_version_and_defaults_in_help(capsys):
    assert main(["--version"]) == 0 and capsys.readouterr().out.startswith("bgsim ")
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices
    text = sub["tournament"].format_help()
    assert "(default: 0)" in text and "(default: results.db)" in text
    for name in ("random", "greedy [runs, guesses, belief]", "value_model", "curve"):
        assert name in " ".join(text.split()), name
    assert "(default: 10000)" in sub["combat"].format_help()
    assert "(default: 2)" in sub["demo"].format_help()


def test_refitted_belief_goes_to_out_and_loads_by_option(tmp_path, capsys):
    shipped = data_path("belief.json").read_bytes()
    out = tmp_path / "fits" / "belief.json"
    assert main(["belief", "--fit", "--games", "1", "--out", str(out)]) == 2
    assert "play more" in capsys.readouterr().err and not out.exists()
    assert main(["belief", "--fit", "--games", "3", "--out", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert data_path("belief.json").read_bytes() == shipped  # the package's file is untouched
    written = Development.load(out)
    greedy = make_agent(parse_spec(f"greedy[belief={out}]"))
    assert greedy._dev == written
    mcts = make_agent(parse_spec(f"mcts[belief={out},iterations=20]"))
    assert mcts._dev == written
    from bgsim import Lobby

    lobby = Lobby(seed=2)
    mcts.reset(0, 1)
    for _ in range(30):  # the search guesses enemies through the file's table
        if lobby.done:
            break
        player = lobby.to_act()[0]
        agent_act = mcts.act if player == 0 else (lambda obs, legal: legal[-1])
        lobby.apply(player, agent_act(lobby.observe(player), lobby.legal_actions(player)))
    assert mcts.iterations_done > 0
    with pytest.raises(LineupError, match=r"belief=nope\.json: cannot read it"):
        make_agent(parse_spec("greedy[belief=nope.json]"))


def test_value_model_file_loads_by_option_and_counts_in_the_fingerprint(tmp_path):
    doc = json.loads(data_path("value_model.json").read_text())
    doc["weights"][0][0] += 1.0
    path = tmp_path / "vm.json"
    path.write_text(json.dumps(doc))
    agent = make_agent(parse_spec(f"mcts[value=model,value_model={path}]"))
    assert agent._model.weights[0][0] == pytest.approx(doc["weights"][0][0])
    spec = parse_spec(f"mcts[value=model,value_model={path}]")
    before = fingerprint(spec)
    doc["weights"][0][0] += 1.0
    path.write_text(json.dumps(doc))
    assert fingerprint(spec) != before  # results of another model never resume these
    with pytest.raises(LineupError, match="value_model=PATH needs value=model"):
        make_agent(parse_spec(f"mcts[value_model={path}]"))
    path.write_text("{}")
    with pytest.raises(LineupError, match="not a bgsim value model"):
        make_agent(parse_spec(f"mcts[value=model,value_model={path}]"))


def test_model_out_refuses_a_directory(tmp_path, capsys):
    assert main(["belief", "--fit", "--games", "1", "--out", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_python_inside_the_source_tree_says_what_happened(tmp_path):
    tree = tmp_path / "bgsim-checkout"
    skip = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "_compiled.json", "tools")
    for name in ("bgsim", "combat_c", "agents", "data"):
        shutil.copytree(ROOT / name, tree / name, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tree)
    # No editable-install finder: like `pip install .`, whose copy lives elsewhere.
    code = (
        "import sys; sys.meta_path[:] = [f for f in sys.meta_path "
        "if 'editable' not in repr(f).lower()]; import bgsim"
    )
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert "importing bgsim from its source tree" in last and "pip install -e ." in last
    assert str(tree) in last


def test_play_tournament_and_demo_have_heroes_by_default():
    parser = build_parser()
    for command in (["play"], ["tournament", "--lineup", "random:8", "--games", "1"], ["demo"]):
        assert parser.parse_args(command).heroes == "on", command
        assert parser.parse_args([*command, "--heroes", "off"]).heroes == "off"
    assert parser.parse_args(["bench", "lobby"]).heroes is None  # the lobby figure: off


def test_trace_as_json_is_the_fight_record(capsys):
    demons = BEASTS.with_name("demons.json")
    assert main(["combat", str(BEASTS), str(demons), "--trace", "--json", "--seed", "1"]) == 0
    fight = json.loads(capsys.readouterr().out)
    assert (fight["outcome"], fight["damage"], fight["attacks"]) == ("win", 8, 21)
    assert fight["events"][0]["kind"] == "start" and fight["seed"] == 1


def test_a_fight_file_with_an_unknown_key_and_an_empty_tribe_are_refused(tmp_path, capsys):
    board = json.loads(BEASTS.read_text())
    path = tmp_path / "fight.json"
    path.write_text(json.dumps({"name": "x", "a": board, "b": board, "c": 1}))
    assert main(["combat", str(path)]) == 2
    assert "unknown key 'c'" in capsys.readouterr().err
    assert main(["cards", "--tribe", ""]) == 2
    assert "unknown tribe ''" in capsys.readouterr().err


def test_every_order_fights_with_the_boards_hero_and_secrets():
    """The arrangement search reorders minions only: a hero, its power and its
    Secrets (an Ice Block that saves a low hero) come along, and --arrange
    --json writes them back out."""
    aka = parse_board(
        {
            "tier": 4,
            "health": 3,
            "hero": "TB_BaconShop_HERO_21",
            "secrets": ["TB_Bacon_Secrets_12"],
            "minions": [{"card": "Alleycat"}, {"card": "Rat Pack"}, {"card": "Imprisoner"}],
        }
    )
    moved = reorder(aka, (2, 0, 1))
    assert (moved.hero, moved.hero_power, moved.hero_power_armed, moved.secrets) == (
        aka.hero,
        aka.hero_power,
        aka.hero_power_armed,
        aka.secrets,
    )
    enemy = parse_board({"tier": 6, "minions": [{"card": "Cave Hydra", "attack": 40}]})
    found = best_order(aka, enemy, runs=200, seed=1)
    assert found.board.secrets == ("TB_Bacon_Secrets_12",)
    # Ice Block saves the 3-health hero from the lethal hit in every order tried.
    assert found.given.lethal_taken == found.best.lethal_taken == 0.0
