"""Seeded games do not change unnoticed: hands of every shipped variant (random and greedy agents, native
backend) hash to the golden values recorded when the rules of play last changed on purpose; and the native back
end's shape distance (what the greedy agent plays by) is the reference's.

Regenerate (only after an intended change of behaviour, in a commit that says why):
    python3 tests/test_game_golden.py
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden" / "games" / "hashes.json"
SHIPPED = ["shangrao", "fuzhou_jiangxi", "fuzhou_fujian"]
SEEDS = {"random": 20, "greedy": 3}


def hand_hash(engine, kind: str, seed: int) -> str:
    from mjrules.game import log_lines, play_hand

    g = play_hand(engine, [kind] * engine.variant.players, seed=seed)
    # the events and the whole outcome (payments and ledger); the header's spec hash is left out on purpose
    text = "\n".join(log_lines(g)[1:]) + "\n" + json.dumps(g.outcome, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def compute(variant: str) -> dict[str, str]:
    import mjrules

    eng = mjrules.load(variant)
    return {f"{kind}/{seed}": hand_hash(eng, kind, seed) for kind, n in SEEDS.items() for seed in range(n)}


@pytest.mark.parametrize("variant", SHIPPED)
def test_games_unchanged(variant):
    want = json.loads(GOLDEN.read_text())[variant]
    got = compute(variant)
    diff = [k for k in want if got.get(k) != want[k]]
    assert not diff, f"{variant}: these seeded hands changed: {diff}"


@pytest.mark.parametrize("variant", SHIPPED)
def test_native_shape_distance_is_the_references(variant):
    """NativeEngine.estimator() (C) and ReferenceEngine.estimator() (mjrules.model.distance) agree on random hands of
    every size, with and without wilds and melds."""
    import random

    import mjrules

    nat, ref = mjrules.load(variant, backend="native"), mjrules.load(variant, backend="reference")
    en, er = nat.estimator(), ref.estimator()
    assert type(en) is not type(er), "the native estimator is the C one"
    v = nat.variant
    rng = random.Random(7)
    wall = [k for k in v.tiles.playable if k < 34 for _ in range(v.tiles.copies[k])]
    for i in range(300):
        melds = rng.choice([0, 0, 0, 1, 2])
        hand = rng.sample(wall, v.win_size - 1 - 3 * melds + rng.choice([0, 1]))
        c = bytearray(42)
        for k in hand:
            c[k] += 1
        wild = rng.choice([-1, -1, hand[0]])
        wild2 = rng.choice([-1, -1, hand[-1]]) if wild >= 0 else -1   # two wild kinds (广东's 双鬼), or one
        assert en.estimate(c, melds, wild, wild2) == er.estimate(c, melds, wild, wild2), (hand, melds, wild, wild2)
        assert en.after_discards(c, melds, wild, wild2) == er.after_discards(c, melds, wild, wild2), \
            (hand, melds, wild, wild2)
        if wild >= 0 and wild2 >= 0 and wild2 != wild:   # each tile of either kind is one wild
            alone = bytearray(c)
            alone[wild] += alone[wild2]
            alone[wild2] = 0
            assert en.estimate(c, melds, wild, wild2) == en.estimate(alone, melds, wild), (hand, melds, wild, wild2)
    assert en.errors == 0


def test_fast_situation_is_a_situation():
    """The game and the parser build Situations with situation.new_situation: exactly the dataclass's."""
    from mjrules.model import situation
    from mjrules.game import state
    from mjrules.model.situation import Situation

    assert state.new_situation is situation.new_situation
    args = (2, 1, (3, 4, 5), (), 5, "rob_kong", 0, None, None, (35, 36), 0, 4, False, True, False, {}, 2, True)
    if situation.new_situation is Situation:
        pytest.skip("Situation changed shape: it is built with the dataclass's own constructor")
    fast = situation.new_situation(*args)
    assert fast == Situation(*args) and type(fast) is Situation and vars(fast) == vars(Situation(*args))
    assert list(vars(fast)) == list(vars(Situation(*args)))


if __name__ == "__main__":  # pragma: no cover
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps({v: compute(v) for v in SHIPPED}, indent=1, sort_keys=True) + "\n")
    print("wrote", GOLDEN)
