import numpy as np
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
    as_action,
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


# ------------------------------------------------------------ malformed actions


@pytest.mark.parametrize(
    "action, message",
    [
        (Buy(7), r"Buy\(7\) is outside the action space \(shop slots are 0..6\)"),
        (Buy(-1), "outside the action space"),
        (Play(10), "hand slots are 0..9"),
        (Play(0, pos=7), "positions are 0..6"),
        (Move(1, 1), "src and dst differ"),
        (
            HeroPower(target=1, shop=2),
            r"aims at one thing at most, got HeroPower\(target=1, shop=2\)",
        ),
        (Buy(1.5), "slot must be an integer slot number, not float 1.5"),
        (Buy(None), "slot must be an integer slot number, not NoneType"),
        (Buy(True), "not bool True"),
        (Play(hand=0, pos=False), "pos must be an integer slot number, not bool"),
    ],
)
def test_an_action_outside_the_action_space_has_no_code(action, message):
    with pytest.raises(IllegalActionError, match=message):
        encode(action)
    with pytest.raises(IllegalActionError, match=message):
        as_action(action)


def test_actions_with_numpy_integer_fields_are_the_shared_instances():
    for action in (
        Buy(np.int64(2)),
        Play(np.int32(1), pos=np.uint8(0)),
        HeroPower(player=np.int8(3)),
    ):
        plain = as_action(action)
        assert plain is ACTIONS[encode(action)] and plain == action


def test_a_lobby_plays_an_action_with_numpy_fields():
    from bgsim import Lobby

    lobby = Lobby(1, heroes=False)
    lobby.apply(0, Buy(np.int64(0)))
    assert len(lobby.state(0).hand) == 1


def test_legal_mask_refuses_what_is_not_an_action():
    from bgsim.envs.encoding import legal_mask

    assert legal_mask([np.int64(3), Buy(0)]).nonzero()[0].tolist() == [3, 4]
    for bad in ([-1], [NUM_ACTIONS], [Buy(9)], [None]):
        with pytest.raises(IllegalActionError):
            legal_mask(bad)


def test_an_action_of_two_kinds_is_refused():
    class BuyEnd(Buy, EndTurn):
        pass

    with pytest.raises(IllegalActionError, match=r"two kinds \(EndTurn and Buy\)"):
        encode(BuyEnd(3))
    with pytest.raises(IllegalActionError, match="two kinds"):
        as_action(BuyEnd(3))
