import pytest

from bgsim.actions import (
    ACTIONS,
    NUM_ACTIONS,
    Buy,
    Choose,
    ChooseHero,
    EndTurn,
    Freeze,
    HeroPower,
    IllegalActionError,
    Move,
    Play,
    Refresh,
    Sell,
    Upgrade,
    decode,
    encode,
)

# The integer encoding is frozen: these exact codes must never change.
FROZEN = [
    (EndTurn(), 0),
    (Refresh(), 1),
    (Freeze(), 2),
    (Upgrade(), 3),
    (Buy(0), 4),
    (Buy(6), 10),
    (Sell(0), 11),
    (Sell(6), 17),
    (Choose(0), 18),
    (Choose(2), 20),
    (Move(0, 1), 21),
    (Move(1, 0), 27),
    (Move(6, 5), 62),
    (Play(0), 63),
    (Play(0, pos=0), 71),
    (Play(1, pos=3, target=0), 63 + 64 + 8 * 4 + 1),
    (Play(2, target=4), 63 + 128 + 5),
    (Play(9, pos=6, target=6), 702),
    (ChooseHero(0), 703),
    (ChooseHero(3), 706),
    (HeroPower(), 707),
    (HeroPower(target=0), 708),
    (HeroPower(target=6), 714),
    (HeroPower(shop=0), 715),
    (HeroPower(shop=6), 721),
    (HeroPower(player=0), 722),
    (HeroPower(player=7), 729),
]


@pytest.mark.parametrize(("action", "code"), FROZEN)
def test_frozen_codes(action, code):
    assert encode(action) == code == action.code
    assert decode(code) == action


def test_encoding_is_a_bijection():
    assert NUM_ACTIONS == 730 == len(ACTIONS)
    assert [a.code for a in ACTIONS] == list(range(NUM_ACTIONS))
    assert len(set(ACTIONS)) == NUM_ACTIONS
    assert all(a.src != a.dst for a in ACTIONS if isinstance(a, Move))


def test_readable_reprs():
    assert repr(Buy(2)) == "Buy(2)"
    assert repr(Play(hand=1, pos=3, target=0)) == "Play(hand=1, pos=3, target=0)"
    assert repr(Play(hand=4)) == "Play(hand=4)"
    assert repr(Move(0, 3)) == "Move(0, 3)"
    assert repr(EndTurn()) == "EndTurn()"
    assert repr(Choose(1)) == "Choose(1)"


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 2.0, True, "3"])
def test_decode_rejects_bad_codes(bad):
    with pytest.raises(IllegalActionError):
        decode(bad)


def test_actions_are_frozen_values():
    with pytest.raises(AttributeError):
        Buy(1).slot = 2  # type: ignore[misc]
    assert Buy(1) == Buy(1) and hash(Buy(1)) == hash(Buy(1)) and Buy(1) != Sell(1)
