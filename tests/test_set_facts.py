"""Reading facts over the sets (#58, #60): the pair is visible (a 2-5-8 pair, 将), sets are counted by kind and
group, and a set kind used as a value gets an error that says how to count it. Both back ends."""
from __future__ import annotations

import mjrules
import pytest
from mjrules.compiler import SpecError, compile_text

SPEC = """
variant jiang "2-5-8 pair" {
  rules JG 1..2
  tiles {
    use suited honours    # JG-01
    copies 4              # JG-01
    group jiang258 = 258m258p258s
  }
  players 4               # JG-01
  hand 13 dealer 14       # JG-01
  deal 4 4 4 1 then dealer 1  # JG-01
  wall {
    draw head             # JG-01
    replacement tail      # JG-01
    retain = 0            # JG-01
  }
  claims {
    pon                   # JG-01
    win_on_discard        # JG-01
  }
  pattern 小胡 "Basic Win, 2-5-8 pair" shape standard when sets(pair, jiang258) == 1   # JG-02
  score {
    value = 1 + sets(pung, all)   # JG-02
  }
  settlement {
    win {
      pay others = value      # JG-02
    }
  }
  rotation {
    rotate next otherwise     # JG-01
  }
}
"""

CASES = [
    ("111m456m789p234s55s", "5s", True, 2),    # the pair is 5s: a win, whatever the sets hold (one pung)
    ("111m456m789p234s44s", "4s", False, 0),   # a 4s pair is no 将
    ("222m456m789p234s11s", "1s", False, 0),   # 222m is a pung of 2m, but the pair is 1s
    ("222m555m888m222p55p", "5p", True, 5),    # four pungs of 2, 5, 8 and a 2-5-8 pair
]


@pytest.fixture(scope="module", params=["reference", "native"])
def engine(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("spec") / "jiang.mj"
    path.write_text(SPEC, encoding="utf-8")
    return mjrules.load(str(path), backend=request.param)


@pytest.mark.parametrize(("concealed", "win_tile", "win", "value"), CASES)
def test_the_pair_is_visible(engine, concealed, win_tile, win, value):
    r = engine.evaluate({"concealed": concealed, "win_tile": win_tile})
    assert (r.win, r.value) == (win, value), r.reason


def test_a_set_kind_is_not_a_value():
    bad = SPEC.replace("when sets(pair, jiang258) == 1", "when pair in (2m, 5m, 8m)")
    with pytest.raises(SpecError) as e:
        compile_text(bad, "jiang.mj")
    text = e.value.render()
    assert "'pair' is a kind of set, not a value" in text and "sets(pair, GROUP)" in text
