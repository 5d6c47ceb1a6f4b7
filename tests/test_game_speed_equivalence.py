"""Speed work on the game engine and the agents must not change a single game: seeded hands of every shipped
variant (random and greedy agents, native backend) hash to the golden values recorded before that work.

Regenerate (only after an intended change of behaviour): python3 tests/test_game_speed_equivalence.py
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
    from mjrules.play import log_lines, play_hand

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
def test_greedy_memos_agree_with_distance(variant):
    """The greedy agent's remembered free-shape estimate and shanten equal mjrules.distance's own."""
    import random

    import mjrules
    from mjrules import agents
    from mjrules.distance import free_estimate, standard_shanten
    from mjrules.situation import Situation

    v = mjrules.load(variant).variant
    rng = random.Random(7)
    wall = [k for k in v.tiles.playable for _ in range(v.tiles.copies[k])]
    for _ in range(150):
        hand = sorted(rng.sample(wall, v.win_size - 1))
        c = [0] * 34
        for k in hand:
            c[k] += 1
        held = Situation(concealed=tuple(hand))
        for p in v.patterns:
            if p.shape == "free":
                assert agents._free_estimate(v, p, c, held) == free_estimate(v, p, c, held), (p.name, hand)
        for n in range(5):
            assert agents._standard_shanten(c, n) == standard_shanten(c, n), hand


def test_fast_situation_is_a_situation():
    """The game and the parser build Situations with situation._new_situation: exactly the dataclass's."""
    from mjrules import game, situation
    from mjrules.situation import Situation

    assert game._new_situation is situation._new_situation
    args = (2, 1, (3, 4, 5), (), 5, "rob_kong", 0, None, None, (35, 36), 0, 4, False, True, False, {}, 2, True)
    if situation._new_situation is Situation:
        pytest.skip("Situation changed shape: it is built with the dataclass's own constructor")
    fast = situation._new_situation(*args)
    assert fast == Situation(*args) and type(fast) is Situation and vars(fast) == vars(Situation(*args))
    assert list(vars(fast)) == list(vars(Situation(*args)))


if __name__ == "__main__":  # pragma: no cover
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps({v: compute(v) for v in SHIPPED}, indent=1, sort_keys=True) + "\n")
    print("wrote", GOLDEN)
