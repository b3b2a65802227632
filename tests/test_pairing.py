import random

from bgsim.pairing import pair_players


def _flat(pairs):
    return sorted(p for pair in pairs for p in pair)


def test_everyone_fights_once():
    pairs = pair_players(range(8), {}, None, random.Random(0))
    assert len(pairs) == 4 and _flat(pairs) == list(range(8))


def test_last_opponent_is_avoided_when_possible():
    last = {0: 1, 1: 0, 2: 3, 3: 2, 4: 5, 5: 4, 6: 7, 7: 6}
    for seed in range(200):
        pairs = pair_players(range(8), last, None, random.Random(seed))
        assert all(last[a] != b for a, b in pairs)
        assert _flat(pairs) == list(range(8))


def test_repeat_when_unavoidable():
    assert pair_players([2, 5], {2: 5, 5: 2}, None, random.Random(0)) in (((2, 5),), ((5, 2),))


def test_odd_count_fights_the_ghost():
    for seed in range(50):
        pairs = pair_players([0, 1, 3, 4, 6], {0: 7}, 7, random.Random(seed))
        assert _flat(pairs) == [0, 1, 3, 4, 6, 7]
        ghost_pairs = [p for p in pairs if 7 in p]
        assert len(ghost_pairs) == 1 and ghost_pairs[0][1] == 7 and ghost_pairs[0][0] != 0


def test_odd_count_without_a_ghost_sits_one_out():
    pairs = pair_players([0, 1, 2], {}, None, random.Random(1))
    assert len(pairs) == 1 and len(set(_flat(pairs))) == 2


def test_pairings_are_random():
    seen = {pair_players(range(8), {}, None, random.Random(s)) for s in range(30)}
    assert len(seen) > 20
