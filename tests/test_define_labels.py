"""A factor of the value shows under its rule's name (#60): a define's label is printed beside its value."""
from __future__ import annotations

import mjrules
import pytest


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_the_four_alike_factor_is_named(backend):
    r = mjrules.load("fuzhou_jiangxi", backend=backend).evaluate(
        {"concealed": "111123m456m789m99m", "win_tile": "9m"})
    line = next(x for x in r.explain if x["text"].startswith("G "))
    assert line["text"] == "G (四規一: x2 per kind held four times) = 2" and line["rule"] == "JX-13"
    assert r.value == 10   # 平胡 1 x 清一色 5 x 四規一 2
