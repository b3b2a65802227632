"""No command writes a file the user did not name: ``play``, ``demo``,
``tournament``, ``plot``, ``report``, ``runs``, ``value`` and ``belief``
run next to files that were there before, which keep their bytes (hashed
before and after), and the only new files are the ones the command names.
An interrupted write leaves no half file behind, and a named pipe or device
given as an output is refused, never replaced."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_helpers import digest, refused, run

from bgsim.outputs import atomic_write

# Files a user may already have next to bgsim's outputs, with names bgsim
# once used for its scratch files.
THEIRS = {
    "play-00000.jsonl": "my notes\n",
    "demo-00000.jsonl": "more notes\n",
    ".x.jsonl.tmp": "not bgsim's either\n",
    "notes.txt": "keep me\n",
}


def _theirs(folder):
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in THEIRS.items():
        (folder / name).write_text(text)
    return digest(folder)


def _new(before: dict[str, str], after: dict[str, str]) -> set[str]:
    for name, sha in before.items():
        assert after.get(name) == sha, f"{name} was changed or removed"
    return set(after) - set(before)


def test_play_writes_only_its_replay(tmp_path, capsys):
    before = _theirs(tmp_path / "d")
    code, _, err = run(capsys, "play", "--lineup", "random:8", "--replay", tmp_path / "d/x.jsonl")
    assert code == 0, err
    assert _new(before, digest(tmp_path / "d")) == {"x.jsonl"}
    # Played again, the replay is replaced whole and nothing else moves.
    before = digest(tmp_path / "d")
    code, _, err = run(capsys, "play", "--lineup", "random:8", "--replay", tmp_path / "d/x.jsonl")
    assert code == 0 and _new(before, digest(tmp_path / "d")) == set()


def test_demo_writes_only_its_database_plots_report_and_replay(tmp_path, capsys):
    before = _theirs(tmp_path / "d")
    args = ("demo", "--lineup", "random:8", "--games", "2", "--workers", "1", "--out")
    code, _, err = run(capsys, *args, tmp_path / "d")
    assert code == 0, err
    new = _new(before, digest(tmp_path / "d"))
    figures = ("win_rate", "placements", "mean_placement", "health", "heroes")
    plots = {f"plots/{n}.html" for n in figures}
    assert new == {"results.db", "replay.jsonl", "report.html", *plots}


def test_a_demo_interrupted_after_its_games_says_they_are_kept(tmp_path, capsys, monkeypatch):
    import viz.report

    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(viz.report, "write_report", stop)
    args = ("demo", "--lineup", "random:8", "--games", "2", "--workers", "1", "--out")
    code, _, err = run(capsys, *args, tmp_path / "d")
    assert code == 130 and "interrupted after the games: all 2 are stored in" in err
    new = set(digest(tmp_path / "d"))
    assert "results.db" in new and "report.html" not in new and "replay.jsonl" not in new


def test_a_tournament_writes_only_its_database_and_replays(tmp_path, capsys):
    before = _theirs(tmp_path / "d")
    _theirs(tmp_path / "d" / "reps")
    before = digest(tmp_path / "d")
    args = ("tournament", "--lineup", "random:8", "--games", "3", "--json")
    code, _, err = run(capsys, *args, "--db", tmp_path / "d/r.db", "--replays", tmp_path / "d/reps")
    assert code == 0, err
    new = _new(before, digest(tmp_path / "d"))
    replays = {n for n in new if n.startswith("reps/")}
    assert new - replays == {"r.db"} and len(replays) == 3
    assert all(n.endswith(("-00000.jsonl", "-00001.jsonl", "-00002.jsonl")) for n in replays)


def test_plot_writes_only_its_figures(tmp_path, capsys):
    code, _, err = run(
        capsys, "tournament", "--lineup", "random:8", "--games", "2", "--db", tmp_path / "r.db"
    )
    assert code == 0, err
    before = _theirs(tmp_path / "plots")
    db = digest(tmp_path)
    code, _, err = run(capsys, "plot", tmp_path / "r.db", "--out", tmp_path / "plots")
    assert code == 0, err
    new = _new(before, digest(tmp_path / "plots"))
    assert new == {
        "win_rate.html",
        "placements.html",
        "mean_placement.html",
        "health.html",
        "heroes.html",  # the games had heroes (the default)
    }
    assert {k: v for k, v in digest(tmp_path).items() if not k.startswith("plots/")} == {
        k: v for k, v in db.items() if not k.startswith("plots/")
    }


def test_an_interrupted_replay_leaves_the_old_file_and_no_scratch(tmp_path, capsys, monkeypatch):
    before = _theirs(tmp_path / "d")
    (tmp_path / "d" / "x.jsonl").write_text("the old replay\n")
    before = digest(tmp_path / "d")
    calls = []

    def stop(state):
        calls.append(1)
        if len(calls) > 50:
            raise KeyboardInterrupt
        return original(state)

    import bgsim.replay

    original = bgsim.replay.player_view
    monkeypatch.setattr(bgsim.replay, "player_view", stop)
    code, _, err = run(capsys, "play", "--lineup", "random:8", "--replay", tmp_path / "d/x.jsonl")
    assert code == 130 and "interrupted" in err
    assert digest(tmp_path / "d") == before  # the old replay whole, no temporary file left


def test_atomic_write_removes_its_scratch_file_on_any_error(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(ValueError), atomic_write(target) as f:
        f.write("new, but never finished")
        raise ValueError("disk full")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    with atomic_write(target) as f:
        f.write("new")
    assert target.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask  # not a scratch file's 0600


def test_report_writes_only_its_page_and_runs_writes_nothing(tmp_path, capsys):
    code, _, err = run(
        capsys, "tournament", "--lineup", "random:8", "--games", "2", "--db", tmp_path / "r.db"
    )
    assert code == 0, err
    before = _theirs(tmp_path)
    code, out, err = run(capsys, "runs", tmp_path / "r.db")
    assert code == 0 and "1 run in" in out, err
    assert _new(before, digest(tmp_path)) == set()
    code, _, err = run(capsys, "report", tmp_path / "r.db", "--out", tmp_path / "page.html")
    assert code == 0, err
    assert _new(before, digest(tmp_path)) == {"page.html"}
    # Written again, the page is replaced whole and nothing else moves.
    before = digest(tmp_path)
    code, _, err = run(capsys, "report", tmp_path / "r.db", "--out", tmp_path / "page.html")
    assert code == 0 and _new(before, digest(tmp_path)) == set()


def test_a_refitted_model_goes_only_to_its_out_file(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    before = _theirs(tmp_path / "d")
    code, _, err = run(capsys, "belief", "--fit", "--games", "3", "--out", tmp_path / "d/b.json")
    assert code == 0, err
    assert _new(before, digest(tmp_path / "d")) == {"b.json"}
    assert not (tmp_path / "data-home").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.parametrize(
    "args",
    [
        ("play", "--lineup", "random:8", "--replay", "{pipe}"),
        ("report", "{db}", "--out", "{pipe}"),
        ("value", "--games", "1", "--out", "{pipe}"),
        ("data", "build", "--out", "{pipe}"),
        ("tournament", "--lineup", "random:8", "--games", "1", "--db", "{pipe}"),
    ],
)
def test_a_pipe_given_as_an_output_is_refused_not_replaced(args, tmp_path, capsys):
    pipe = tmp_path / "out.pipe"
    os.mkfifo(pipe)
    db = tmp_path / "r.db"
    if "{db}" in args:
        code, _, err = run(capsys, "tournament", "--lineup", "random:8", "--games", "1", "--db", db)
        assert code == 0, err
    before = sorted(p.name for p in tmp_path.iterdir())
    code, _, err = run(capsys, *(a.format(pipe=pipe, db=db) for a in args))
    assert code == 2 and "not a regular file" in err and len(err.strip().splitlines()) == 1, err
    assert pipe.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_atomic_write_names_the_target_when_the_system_refuses(tmp_path):
    from bgsim.outputs import OutputError

    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(OutputError, match="not a regular file"), atomic_write(tmp_path / "pipe"):
        pass
    missing = tmp_path / "gone" / "x.txt"  # its folder does not exist
    with pytest.raises(OutputError, match=r"x\.txt: cannot be written"), atomic_write(missing):
        pass


@pytest.mark.parametrize(
    "args",
    [
        ("docs", "--out", ""),
        ("belief", "--fit", "--games", "3", "--out", ""),
        ("value", "--games", "1", "--out", ""),
        ("data", "build", "--out", ""),
        ("play", "--lineup", "random:8", "--replay", ""),
        ("play", "--lineup", "random:8", "--ruleset", ""),
        ("tournament", "--lineup", "random:8", "--games", "1", "--replays", "", "--db", "r.db"),
        ("combat", "", "b.json"),
    ],
)
def test_an_empty_path_is_refused_not_taken_for_the_default(args, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and "Traceback" not in out + err
    assert "''" in err and "not a usable path" in err, err
    assert list(tmp_path.iterdir()) == []  # nothing written, here or at a default place


@pytest.mark.parametrize(
    "args",
    [
        ("play", "--lineup", "random:8", "--replay", "-"),
        ("value", "--games", "1", "--out", "-"),
        ("tournament", "--lineup", "random:8", "--games", "1", "--db", "-"),
        ("demo", "--games", "1", "--lineup", "random:8", "--out", "-"),
    ],
)
def test_a_dash_is_not_taken_for_a_file_named_so(args, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(capsys, args, "'-'", "standard output is not a file here")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
def test_a_folder_no_file_can_be_made_in_is_refused_before_the_work(tmp_path):
    """The access check passes for root even in /proc; a scratch file made and
    removed at once finds out, and leaves nothing behind."""
    from bgsim.outputs import OutputError, output_dir, output_file

    with pytest.raises(OutputError, match="/proc"):
        output_file("/proc/bgsim-model.json", "--out", make=False)
    output_dir(tmp_path, make=False)
    output_file(tmp_path / "model.json", make=False)
    assert list(tmp_path.iterdir()) == []


def test_a_database_that_cannot_be_written_gets_no_journal_files(tmp_path, capsys):
    import shutil
    import subprocess

    db = tmp_path / "r.db"
    assert run(capsys, "tournament", "--lineup", "random:8", "--games", "1", "--db", db)[0] == 0
    chattr = shutil.which("chattr")
    made = chattr and subprocess.run([chattr, "+i", str(db)], capture_output=True).returncode == 0
    if not made:
        pytest.skip("needs chattr +i (root on a file system that supports it)")
    try:
        code, _, err = run(capsys, "tournament", "--lineup", "random:8", "--games", "2", "--db", db)
        assert code == 2 and "cannot be written" in err
        assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]
    finally:
        subprocess.run([chattr, "-i", str(db)], check=True)


def test_plots_interrupted_while_drawing_leave_the_old_set_and_no_new_folder(
    tmp_path, capsys, monkeypatch
):
    import viz.plots

    code, _, err = run(
        capsys, "tournament", "--lineup", "random:8", "--games", "2", "--db", tmp_path / "r.db"
    )
    assert code == 0, err
    old = tmp_path / "old"
    old.mkdir()
    for name in ("win_rate", "placements", "mean_placement", "health", "heroes"):
        (old / f"{name}.html").write_text("old")
    drawn = []
    real = viz.plots.standalone_html

    def stop_at_the_third(fig, div_id="figure"):
        drawn.append(div_id)
        if len(drawn) == 3:
            raise KeyboardInterrupt
        return real(fig, div_id)

    monkeypatch.setattr(viz.plots, "standalone_html", stop_at_the_third)
    for out in (old, tmp_path / "new"):
        drawn.clear()
        code, _, err = run(capsys, "plot", tmp_path / "r.db", "--out", out)
        assert code == 130 and "interrupted" in err
    # Interrupted while writing, once its folders are made: they go again.
    monkeypatch.setattr(viz.plots, "standalone_html", real)

    def interrupted(pages):
        raise KeyboardInterrupt

    monkeypatch.setattr(viz.plots, "write_together", interrupted)
    code, _, err = run(capsys, "plot", tmp_path / "r.db", "--out", tmp_path / "new" / "sub")
    assert code == 130 and "interrupted" in err
    assert {p.name: p.read_text() for p in old.iterdir()} == dict.fromkeys(
        ("win_rate.html", "placements.html", "mean_placement.html", "health.html", "heroes.html"),
        "old",
    )
    assert not (tmp_path / "new").exists()


def test_files_written_together_land_all_or_none(tmp_path):
    from bgsim.outputs import OutputError, write_together

    (tmp_path / "a.txt").write_text("old")
    (tmp_path / "b.txt").mkdir()  # the second target cannot be a file
    with pytest.raises(OutputError, match=r"b\.txt"):
        write_together({tmp_path / "a.txt": "new", tmp_path / "b.txt": b"new"})
    assert (tmp_path / "a.txt").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_paths_given_by_the_user_are_echoed_escaped(tmp_path, capsys):
    boards = Path(__file__).resolve().parent.parent / "examples" / "boards"
    odd = tmp_path / "b\x1b[31m.json"
    odd.write_bytes((boards / "beasts.json").read_bytes())
    code, out, err = run(capsys, "combat", odd, boards / "demons.json", "--runs", "10")
    assert code == 0, err
    assert "b\\x1b[31m.json (A)" in out and "\x1b" not in out
    db = tmp_path / "r\x07.db"
    code, out, err = run(capsys, "tournament", "--lineup", "random:8", "--games", "1", "--db", db)
    assert code == 0, err
    assert "results in " in out and "r\\x07.db" in out and "\x07" not in out
    code, out, err = run(capsys, "report", db, "--out", tmp_path / "r\x1b.html")
    assert code == 0 and "wrote " in out and "\x1b" not in out


def test_a_model_path_a_lineup_cannot_hold_is_not_suggested_as_one(tmp_path, capsys):
    code, out, err = run(capsys, "belief", "--fit", "--games", "3", "--out", tmp_path / "x,y].json")
    assert code == 0, err
    assert "copy the file to a plain name" in out and "--lineup" not in out


def test_a_read_only_file_is_refused_before_the_game(tmp_path, capsys):
    # Renaming over a file needs only its folder to be writable: bgsim checks
    # the file's own permission, before any work.
    mine = tmp_path / "r.jsonl"
    mine.write_text("precious\n")
    mine.chmod(0o444)
    args = ("play", "--lineup", "random:8", "--seed", "1", "--replay", mine)
    refused(capsys, args, "r.jsonl", "is read-only")
    assert mine.read_text() == "precious\n" and sorted(tmp_path.iterdir()) == [mine]


def test_an_output_keeps_the_mode_of_the_file_it_replaces_and_goes_through_a_link(tmp_path):
    private = tmp_path / "private.txt"
    private.write_text("old")
    private.chmod(0o600)
    with atomic_write(private) as f:
        f.write("new")
    assert private.read_text() == "new" and private.stat().st_mode & 0o777 == 0o600
    link = tmp_path / "link.txt"
    link.symlink_to(private)
    with atomic_write(link, "wb") as f:
        f.write(b"through")
    assert link.is_symlink() and private.read_text() == "through"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "private.txt"]


@pytest.mark.parametrize("blocker", ["report.html", "replay.jsonl"])
def test_a_demo_checks_every_output_before_its_games(blocker, tmp_path, capsys):
    out = tmp_path / "demo"
    (out / blocker).mkdir(parents=True)
    args = ("demo", "--out", out, "--games", "1", "--lineup", "random:8", "--workers", "1")
    refused(capsys, args, blocker, "is a directory")
    assert [p.name for p in out.iterdir()] == [blocker]  # no database, no plots


def test_a_tournament_checks_every_replay_file_before_its_first_game(tmp_path, capsys):
    args = ("tournament", "--lineup", "random:8", "--games", "1", "--seed", "3")
    code, _, err = run(capsys, *args, "--db", tmp_path / "first.db", "--replays", tmp_path / "a")
    assert code == 0, err
    (first,) = (tmp_path / "a").iterdir()
    taken = tmp_path / "b" / first.name.replace("-00000", "-00002")
    taken.mkdir(parents=True)  # the third game's replay name, taken by a folder
    args = (*args[:4], "3", *args[5:], "--db", tmp_path / "r.db", "--replays", tmp_path / "b")
    refused(capsys, args, taken.name, "is a directory")
    assert not (tmp_path / "r.db").exists() and list((tmp_path / "b").iterdir()) == [taken]
