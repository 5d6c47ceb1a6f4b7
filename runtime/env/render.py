"""A table as text, for a person watching an environment (render_mode "ansi" or "human"): every seat's hand
(a spectator's view), melds, flowers and discards, whose decision it is, and the payments once the hand is over."""
from __future__ import annotations

from typing import Any

from ..model.tiles import format_tiles, tile_name


def render_table(game: Any) -> str:
    """The table of `game` as lines of text."""
    g = game
    wild = ", ".join(tile_name(k) for k in (g.wild, g.wild2) if k >= 0)
    head = f"{g.v.name}: {g.phase_name}, {g.drawable} tiles to draw, dealer seat {g.dealer}"
    if wild:
        head += f", wild {wild}"
    lines = [head]
    deciding = set(g.pending()) if not g.over else set()
    for p, s in enumerate(g.seats):
        mark = ">" if p in deciding else " "
        parts = [format_tiles(g.hand(p)) or "-"]
        if s.melds:
            parts.append("melds " + " ".join(str(m) for m in s.melds))
        if s.flowers:
            parts.append("flowers " + format_tiles(sorted(s.flowers)))
        if s.declared_ready:
            parts.append("ready")
        lines.append(f"{mark} seat {p}: " + "  ".join(parts))
        lines.append(f"    discards {' '.join(tile_name(k) for k in s.discards) or '-'}")
    if g.claim_tile >= 0:
        lines.append(f"on offer: {tile_name(g.claim_tile)}")
    if g.over:
        o = g.outcome
        won = ", ".join(f"seat {w['seat']} by {w['win_by']}" for w in o["winners"]) or "nobody (a draw)"
        pay = "  ".join(f"seat {p}: {int(x):+d}" for p, x in sorted(o["payments"].items(), key=lambda t: int(t[0])))
        lines.append(f"over: won by {won}; payments {pay}")
    else:
        for p, acts in g.pending().items():
            lines.append(f"seat {p} may: " + ", ".join(" ".join(x if isinstance(x, str) else "".join(x)
                                                                for x in a.values()) for a in acts))
    return "\n".join(lines)


def render(mode: str | None, game: Any) -> str | None:
    """An environment's render(): the table as text for "ansi", printed for "human"; None (with Gymnasium's
    warning) without a render mode."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
        return None
    text = render_table(game) if game is not None else "(no hand dealt: call reset())"
    if mode == "human":
        print(text)
        return None
    return text
