"""Your own agents in the tools: ``--agent NAME=module:Class``, the
``bgsim.agents`` entry-point group, fingerprints in the results database."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bgsim.registry import (
    LineupError,
    check_lineup,
    fingerprint,
    make_agent,
    parse_agent_option,
    parse_lineup,
    parse_spec,
)

AGENT = '''
import random


class Cautious:
    """Ends every turn at once (or takes the first Discover option)."""

    def __init__(self, patience: int = 1):
        if patience < 1:
            raise ValueError("patience must be at least 1")
        self.patience = patience

    def reset(self, seat, seed):
        self.rng = random.Random(seed)

    def act(self, observation, legal_actions):
        return legal_actions[0]


class NotAnAgent:
    pass
'''


def write_agents(folder: Path, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "my_agents.py"
    path.write_text(AGENT + extra, encoding="utf-8")
    return path


def bgsim(*args: str, cwd: Path, path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(path)}
    return subprocess.run(
        [sys.executable, "-m", "bgsim.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_custom_agent_plays_a_tournament_and_a_changed_one_starts_a_new_run(tmp_path):
    source = write_agents(tmp_path / "code")
    db = tmp_path / "results.db"
    args = (
        "tournament",
        "--agent",
        "mine=my_agents:Cautious",
        "--lineup",
        "mine[patience=2]:1,random:7",
        "--games",
        "2",
        "--db",
        str(db),
    )
    first = bgsim(*args, "--json", cwd=tmp_path, path=tmp_path / "code")
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)["agents"]
    assert summary["mine[patience=2]"]["seats"] == 2
    again = bgsim(*args, cwd=tmp_path, path=tmp_path / "code")
    assert "resuming: 2 of 2 games" in again.stdout and "note:" not in again.stdout
    source.write_text(source.read_text() + "\n# a change\n", encoding="utf-8")
    changed = bgsim(*args, cwd=tmp_path, path=tmp_path / "code")
    assert changed.returncode == 0, changed.stderr
    assert "played by other code or options of mine[patience=2]" in changed.stdout
    assert "starting a new run" in changed.stdout and "resuming" not in changed.stdout


def test_a_helper_module_the_agent_imports_is_part_of_its_code(tmp_path):
    """An agent module outside a package counts the modules it loads from its
    folder: editing a helper starts a new run too. Unrelated files do not."""
    folder = tmp_path / "code"
    write_agents(folder, "\nfrom my_helpers import PATIENCE\n")
    helper = folder / "my_helpers.py"
    helper.write_text("PATIENCE = 1\n", encoding="utf-8")
    (folder / "notes.py").write_text("x = 1\n", encoding="utf-8")
    script = (
        "from bgsim.registry import fingerprint, parse_spec\n"
        "print(fingerprint(parse_spec('mine', {'mine': 'my_agents:Cautious'})))\n"
    )

    def printed() -> str:
        env = {**os.environ, "PYTHONPATH": str(folder)}
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    first = printed()
    (folder / "notes.py").write_text("x = 2\n", encoding="utf-8")
    assert printed() == first  # not imported by the agent
    helper.write_text("PATIENCE = 2\n", encoding="utf-8")
    assert printed() != first


def test_play_and_demo_take_custom_agents(tmp_path):
    write_agents(tmp_path / "code")
    played = bgsim(
        "play",
        "--agent",
        "mine=my_agents:Cautious",
        "--lineup",
        "mine:2,random:6",
        cwd=tmp_path,
        path=tmp_path / "code",
    )
    assert played.returncode == 0, played.stderr
    assert "(mine, " in played.stdout  # the agent and the hero it drafted


@pytest.mark.parametrize(
    ("agent", "lineup", "message"),
    [
        ("mine", "random:8", "bad --agent 'mine'"),
        ("Mine=my_agents:Cautious", "random:8", "bad --agent"),
        (
            "mine=nowhere_at_all:Cautious",
            "mine:1,random:7",
            "cannot import 'nowhere_at_all' (No module named 'nowhere_at_all'); "
            "run from the module's folder or put that folder on PYTHONPATH",
        ),
        ("mine=my_agents:Missing", "mine:1,random:7", "has no class 'Missing'"),
        ("mine=my_agents:NotAnAgent", "mine:1,random:7", "is not an agent"),
        ("mine=my_agents:Cautious", "mine[speed=3]:1,random:7", "has no option 'speed'"),
        ("mine=my_agents:Cautious", "mine[patience=0]:1,random:7", "patience must be at least 1"),
        (
            "mine=my_agents:Cautious",
            "mine[patience=abc]:1,random:7",
            "option 'patience' must be an integer, got 'abc'",
        ),
    ],
)
def test_bad_custom_agents_get_one_clear_line(tmp_path, agent, lineup, message):
    write_agents(tmp_path / "code")
    db = tmp_path / "r.db"
    done = bgsim(
        "tournament",
        "--agent",
        agent,
        "--lineup",
        lineup,
        "--games",
        "1",
        "--db",
        str(db),
        cwd=tmp_path,
        path=tmp_path / "code",
    )
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not db.exists()  # checked before any database is made


def test_installed_packages_register_agents_by_entry_point(tmp_path):
    code = tmp_path / "site"
    write_agents(code)
    dist = code / "my_agents-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-agents\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[bgsim.agents]\ncautious = my_agents:Cautious\n")
    done = bgsim("play", "--lineup", "cautious:1,random:7", "--seed", "3", cwd=tmp_path, path=code)
    assert done.returncode == 0, done.stderr
    assert "(cautious, " in done.stdout


TYPED = """

class Typed(Cautious):
    def __init__(self, k: int = 1, x: float | None = None, flag: bool = False,
                 name: str = "", free=None):
        super().__init__()


class Listed(Cautious):
    OPTIONS = ("depth", "extra")

    def __init__(self, depth: int = 1, **extra):
        super().__init__()
"""


def test_registry_in_process(tmp_path, monkeypatch):
    write_agents(tmp_path, TYPED)
    monkeypatch.syspath_prepend(str(tmp_path))
    name, target = parse_agent_option("mine=my_agents:Cautious")
    specs = parse_lineup("mine[patience=3]:1,heuristic:7", agents={name: target})
    assert specs[0].target == "my_agents:Cautious" and specs[0].label == "mine[patience=3]"
    agent = make_agent(specs[0])
    assert agent.name == "mine[patience=3]" and agent.patience == 3
    check_lineup(specs)
    # the fingerprint follows the code and the options
    before = fingerprint(specs[0])
    assert fingerprint(parse_spec("mine[patience=4]", {name: target})) != before
    # Values are checked against int, float and bool annotations (None allowed
    # beside them), and pass untouched for any other annotation or none.
    typed = {"typed": "my_agents:Typed"}
    for bad, message in [
        ("k=1.5", "'k' must be an integer, got 1.5"),
        ("k=true", "'k' must be an integer, got True"),
        ("x=fast", "'x' must be a finite number, got 'fast'"),
        ("x=nan", "'x' must be a finite number, got nan"),
        ("x=inf", "'x' must be a finite number, got inf"),
        ("flag=1", "'flag' must be true or false, got 1"),
    ]:
        with pytest.raises(LineupError, match=re.escape(message)):
            make_agent(parse_spec(f"typed[{bad}]", typed))
    for good in ("k=2", "x=3", "x=0.5", "flag", "flag=false", "name=7", "free=anything"):
        make_agent(parse_spec(f"typed[{good}]", typed))
    # An OPTIONS tuple names the options; their __init__ annotations still check them.
    listed = {"listed": "my_agents:Listed"}
    with pytest.raises(LineupError, match=re.escape("'depth' must be an integer, got 'abc'")):
        make_agent(parse_spec("listed[depth=abc]", listed))
    make_agent(parse_spec("listed[depth=2,extra=abc]", listed))
    with pytest.raises(LineupError, match="takes 9 seats"):
        parse_lineup("random:9")
    with pytest.raises(LineupError, match=re.escape("'heuristic:0' takes no seat; leave it out")):
        parse_lineup("heuristic:0,random:8")
    with pytest.raises(LineupError, match="given twice"):
        parse_spec("mcts[c=1,c=2]")
    for bad in (None, 5, ["random:8"]):
        message = f'lineup must be a string like "heuristic:8", got {bad!r}'
        with pytest.raises(TypeError, match=re.escape(message)):
            parse_lineup(bad)
    with pytest.raises(TypeError, match=re.escape('an agent spec must be a string like "mcts')):
        parse_spec(None)


@pytest.mark.parametrize("module", ["agents", "combat_c", "bgsim", "viz"])
def test_a_module_named_like_one_of_bgsims_packages_is_told_why(module, tmp_path, monkeypatch):
    """bgsim's own package comes first, so a user's agents.py is never read."""
    importlib.import_module(module)  # as the bgsim command finds it: installed, not here
    (tmp_path / f"{module}.py").write_text(AGENT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    spec = parse_spec("mine", {"mine": f"{module}:Cautious"})
    message = f"'{module}' is bgsim's own package; give your module another name"
    with pytest.raises(LineupError, match=re.escape(message)):
        make_agent(spec)


def test_a_custom_agent_plays_on_the_ray_backend(tmp_path):
    pytest.importorskip("ray", reason="needs the ray extra")
    write_agents(tmp_path / "code")
    done = bgsim(
        "tournament",
        "--agent",
        "mine=my_agents:Cautious",
        "--lineup",
        "mine:1,random:7",
        "--games",
        "2",
        "--workers",
        "2",
        "--backend",
        "ray",
        "--db",
        str(tmp_path / "ray.db"),
        "--json",
        cwd=tmp_path,
        path=tmp_path / "code",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agents"]["mine"]["seats"] == 2


CHATTY = """

print("loaded")


class Chatty(Cautious):
    def act(self, observation, legal_actions):
        print("thinking...")
        return legal_actions[0]
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_what_an_agent_prints_stays_off_the_json_document(tmp_path, workers):
    source = write_agents(tmp_path / "code", CHATTY)
    done = bgsim(
        "tournament",
        "--agent",
        "chatty=my_agents:Chatty",
        "--lineup",
        "chatty:1,random:7",
        "--games",
        "2",
        "--workers",
        workers,
        "--db",
        str(tmp_path / "r.db"),
        "--json",
        cwd=tmp_path,
        path=source.parent,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["agents"]["chatty"]["seats"] == 2
    assert "loaded" in done.stderr and "thinking..." in done.stderr


def test_an_agent_whose_name_is_a_read_only_property_is_told_why(tmp_path, monkeypatch):
    from bgsim.registry import LineupError, make_agent

    (tmp_path / "named_agent.py").write_text(
        "class Named:\n"
        "    name = property(lambda self: 'fixed')\n"
        "    def reset(self, seat, seed): pass\n"
        "    def act(self, observation, legal_actions): return legal_actions[0]\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = parse_spec("n", {"n": "named_agent:Named"})
    with pytest.raises(LineupError, match="bgsim names each agent by its lineup label"):
        make_agent(spec)


def test_the_gym_env_takes_your_own_agents_as_opponents_and_as_the_learner(tmp_path, monkeypatch):
    gymnasium = pytest.importorskip("gymnasium")
    import bgsim
    from bgsim.envs import GYM_ID

    (tmp_path / "gym_mine.py").write_text(AGENT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    env = gymnasium.make(
        GYM_ID, opponents="mine:1,random:6", agents={"mine": "gym_mine:Cautious"}, seat=0
    )
    env.reset(seed=3)
    assert [spec.name for spec in env.unwrapped.opponents][:2] == ["mine", "random"]
    learner = make_agent(parse_spec("heuristic"))
    learner.reset(0, 1)
    inner = env.unwrapped
    for _ in range(30):  # the README's recipe for a bgsim agent as the learner
        action = learner.act(inner.lobby.observe(inner.seat), inner.lobby.legal_actions(inner.seat))
        _obs, _reward, terminated, truncated, info = env.step(bgsim.encode(action))
        assert "illegal_action" not in info
        if terminated or truncated:
            break
    with pytest.raises(ValueError, match="opponents fill the 7 seats beside the learner's"):
        gymnasium.make(GYM_ID, opponents="heuristic:8")
    with pytest.raises(ValueError, match="random is a bundled agent"):
        gymnasium.make(GYM_ID, opponents="random:7", agents={"random": "gym_mine:Cautious"})
    with pytest.raises(TypeError, match="agents must be a dict"):
        gymnasium.make(GYM_ID, opponents="random:7", agents=["gym_mine:Cautious"])
