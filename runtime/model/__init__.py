"""The hand model, shared by both back ends and the game: what a hand is and what is said of it.

    tiles       tile kinds, notation, melds (compiled)
    situation   a hand in its context, read from a dict and checked against a variant (compiled)
    result      the Result of evaluate, its explanation made when first read (compiled)
    frozen      the read-only lists and dicts a result's explanation is made of
    settle      the one settlement: the seats a payment names and the payments a block makes (compiled)
    arith       a spec's numbers: their range and checked arithmetic
    interp      the interpreter of IR expressions (compiled), which the reference back end, the settlement and
                the game evaluate spec expressions with
    wildmode    the wild of one hand, as its options choose it
    check       the bare win check on kind counts
    shape       the cheap shape test a game asks before judging a hand
    distance    the distance to ready (shanten-like, counting wilds)
    plays       what every engine offers for play (new games)
"""
