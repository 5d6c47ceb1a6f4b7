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


if __name__ == "__main__":  # pragma: no cover
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps({v: compute(v) for v in SHIPPED}, indent=1, sort_keys=True) + "\n")
    print("wrote", GOLDEN)
