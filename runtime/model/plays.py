"""What every engine offers for play, whatever its backend (the mixin both back ends' engines share)."""
from __future__ import annotations

from typing import Any

from ..compiler.ir import Variant


class Plays:
    """What every engine offers for play, whatever its backend: new games of its variant."""

    variant: Variant
    spec: str = ""

    def new_game(self, *, seed: int = 0, dealer: int = 0, dealer_streak: int = 0,
                 options: dict[str, Any] | None = None, prevalent_wind: int = 0) -> Any:
        """A new hand of this variant, dealt from `seed`: a mjrules.game.Game to drive through its step API.
        prevalent_wind: the round's wind, 0 East .. 3 North."""
        from ..game import Game

        return Game(self, seed=seed, dealer=dealer, dealer_streak=dealer_streak, options=options,
                    prevalent_wind=prevalent_wind)
