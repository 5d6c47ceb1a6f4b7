"""Rotation targets after a drawn hand (#60): `last_drawer` deals next; `winner` and `discarder` have no seat
there, so an `otherwise` rule may not name them."""
from __future__ import annotations

import mjrules
import pytest
from mjrules.compiler import SpecError
from mjrules.game.play import play_hand

OVERLAY = """variant ld "last drawer deals" extends sichuan_xuezhan {
  rotation {
    rotate winner when someone_won   # SC-17
    rotate TARGET otherwise          # SC-17
  }
}
"""


def spec(tmp_path, target: str) -> str:
    path = tmp_path / "ld.mj"
    path.write_text(OVERLAY.replace("TARGET", target), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_the_last_drawer_deals_after_a_drawn_hand(tmp_path, backend):
    eng = mjrules.load(spec(tmp_path, "last_drawer"), backend=backend)
    drawn = 0
    for seed in range(60):
        g = play_hand(eng, ["random"] * 4, seed=seed)
        last = next(e[1] for e in reversed(g.log) if e[0] == "draw")
        if g.outcome["winners"]:
            assert g.outcome["next_dealer"] == g.outcome["winners"][0]["seat"]
        else:
            drawn += 1
            assert g.outcome["next_dealer"] == last
    assert drawn >= 3


@pytest.mark.parametrize("target", ["winner", "discarder"])
def test_otherwise_may_not_name_a_seat_a_drawn_hand_lacks(tmp_path, target):
    with pytest.raises(SpecError) as e:
        mjrules.load(spec(tmp_path, target))
    assert e.value.codes == ["E033"] and "drawn hand" in e.value.render()
