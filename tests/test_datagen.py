"""`bgsim data build` reproduces the committed cards.json (needs the data extra)."""

import pytest

from bgsim.resources import data_path

pytest.importorskip("hearthstone_data", reason="needs the data extra")


def test_data_build_is_byte_identical(tmp_path):
    from bgsim.cli import main

    out = tmp_path / "cards.json"
    assert main(["data", "build", "--out", str(out)]) == 0
    assert out.read_bytes() == data_path("cards.json").read_bytes()
