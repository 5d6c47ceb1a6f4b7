"""What every engine offers for play, whatever its backend (the mixin both back ends' engines share)."""
from __future__ import annotations

from typing import Any

from ..compiler.ir import Variant


class Plays:
    """What every engine offers for play, whatever its backend: new games of its variant."""

    variant: Variant
    spec: str = ""

    def new_game(self, *, seed: int = 0, dealer: int = 0, dealer_streak: int = 0,
                 options: dict[str, Any] | None = None) -> Any:
        """A new hand of this variant, dealt from `seed`: a mjrules.game.Game to drive through its step API."""
        from ..game import Game

        return Game(self, seed=seed, dealer=dealer, dealer_streak=dealer_streak, options=options)
