"""Playing hands and matches with agents; event logs that replay to the identical result."""
from __future__ import annotations

import json
from typing import Any

from .agents import AGENTS, ScriptedAgent, make_agent
from .agents import run as run_game
from .rng import Rng
from .state import Game, IllegalAction

MAX_DECISIONS = 5000


def run(game: Game, agents: list[Any]) -> Game:
    """Ask the agents (one per seat) until the hand is over (StalledGame after MAX_DECISIONS decisions)."""
    return run_game(game, agents, MAX_DECISIONS)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the built-in agent of `seat` in the hand of `seed`."""
    return seed * 31 + seat


def play_hand(engine: Any, agents: list[Any] | None = None, *, seed: int = 0, dealer: int = 0,
              dealer_streak: int = 0, options: dict[str, Any] | None = None, prevalent_wind: int = 0,
              dice: Any = None, pot: Any = 0) -> Game:
    """Deal and play one hand; agents are names ('random', 'greedy', 'seeker') or agent objects. prevalent_wind:
    the round's wind, 0 East .. 3 North (a match's play_match advances it); dice: the wall break's two dice
    (default: the seed's); pot: the stakes left on the table by earlier hands (a ready declaration's `stake`)."""
    n = engine.variant.players
    names = list(agents or ["random"])
    if len(names) == 1:
        names *= n   # one name (or agent): every seat
    if len(names) != n:
        raise ValueError(f"give one agent for every seat, or {n}, one per seat (got {len(names)})")
    ag = [make_agent(a, engine.variant, agent_seed(seed, i)) if isinstance(a, str) else a for i, a in enumerate(names)]
    g = Game(engine, seed=seed, dealer=dealer, dealer_streak=dealer_streak, options=options,
             prevalent_wind=prevalent_wind, dice=dice, pot=pot)
    g.agent_names = [a if isinstance(a, str) else type(a).__name__ for a in names]
    return run(g, ag)


def play_match(engine: Any, hands: int | None = None, agents: list[Any] | None = None, *, seed: int = 0,
               options: dict[str, Any] | None = None, seating_dice: Any = None) -> dict[str, Any]:
    """A match by the spec's `match` block (mjrules.game.match): its length in hands or rounds, its end and
    extension, the players' scores from its `start`, and each seat's final `result`; `hands` plays that many hands
    instead of its length (its `end` rules still end it early). The first dealer comes from the spec's seating
    procedure (`seating`: its throws, from `seating_dice` where given, else from the seed); each hand takes the
    dealer, streak, prevalent wind and stakes the one before left. The result: the hands (games) and the match's
    `Match.result()` (scores, ranks, totals of the payments, the pot, why it ended, the results, the seating)."""
    from .match import Match

    m = Match(engine, options, seating=seating_throws(engine.variant, seed, seating_dice), hands=hands)
    games = []
    while not m.over:
        g = play_hand(engine, agents, seed=seed * 100_003 + m.hands_played, options=options, **m.deal())
        if not games:
            g.seating = m.seating   # the first hand's log says how its dealer was chosen
        m.record(g)
        games.append(g)
    return {"hands": games, **m.result()}


def first_dealer(variant: Any, seed: int, dice: Any = None) -> int:
    """The seating procedure's first dealer (seating_throws' dealer)."""
    return int(seating_throws(variant, seed, dice)["dealer"])


def seating_throws(variant: Any, seed: int, dice: Any = None) -> dict[str, Any]:
    """The seating procedure played out: {"procedure", "throws": [{"seat", "dice": [a, b]}...], "dealer"}.
    thrower_counts_one: seat 0 throws two dice and counts their sum round the table from itself (counted as one);
    highest_roll: every seat throws, the highest sum deals, those tied throw again; random: no throw. `dice`: the
    throws' dice in order (a list of pairs), used before the seed's; a list too short goes on from the seed."""
    rng = Rng(seed ^ 0x5EA7)
    n = variant.players
    proc = variant.seating[0].name if variant.seating else "random"
    given = [list(d) for d in (dice or [])]
    for d in given:
        if len(d) != 2 or any(type(x) is not int or not 1 <= x <= 6 for x in d):
            raise ValueError(f"seating dice are pairs of numbers 1..6, not {d!r}")
    throws: list[dict[str, Any]] = []

    def throw(seat: int) -> int:
        a, b = rng.below(6) + 1, rng.below(6) + 1   # (drawn even when given: the seed's later throws stay)
        if given:
            a, b = given.pop(0)
        throws.append({"seat": seat, "dice": [a, b]})
        return a + b

    if proc == "thrower_counts_one":
        dealer = (throw(0) - 1) % n
    elif proc == "highest_roll":
        seats = list(range(n))
        while True:
            rolls = {p: throw(p) for p in seats}
            top = max(rolls.values())
            seats = [p for p, r in rolls.items() if r == top]
            if len(seats) == 1:
                dealer = seats[0]
                break
    else:
        if given:
            raise ValueError("this variant's seating throws no dice (its first dealer is drawn at random)")
        dealer = rng.below(n)
    return {"procedure": proc, "throws": throws, "dealer": dealer}


# ---- logs -------------------------------------------------------------------------------------------------

def log_header(g: Game) -> dict[str, Any]:
    """The first line of a hand's log: what shapes the game besides the actions, and where its spec is."""
    v = g.v
    pot_in = g.pot - sum(x for _, x in g.stakes)   # the stakes carried in from earlier hands
    return {"log": "mjrules-hand", "version": 1, "variant": v.name, "spec": getattr(g.engine, "spec", v.name),
            "spec_sha256": v.spec_sha256, "seed": g.seed, "dealer": g.dealer, "dealer_streak": g.dealer_streak, "dice": list(g.dice),
            "prevalent_wind": g.prevalent_wind, "options": dict(g.r.overrides), "agents": g.agent_names,
            **({"seating": g.seating} if g.seating is not None else {}), **({"pot": pot_in} if pot_in else {})}


def log_spec(header: dict[str, Any]) -> str:
    """The spec a log's header names: a shipped variant by its name, else the spec file it was played with."""
    from ..compiler import shipped_names

    name, spec = header.get("variant"), header.get("spec")
    if name in shipped_names() or not spec:
        return str(name)
    return str(spec)


def log_lines(g: Game) -> list[str]:
    """The hand as JSON lines: a header (variant, spec hash, seed, options, dealer, agents), then every event."""
    return [json.dumps(log_header(g), ensure_ascii=False)] + [json.dumps(e, ensure_ascii=False) for e in g.events]


def replay_lines(engine: Any, lines: list[str]) -> dict[str, Any]:
    """Re-run a logged hand and report identical, or the first difference. A hand of built-in agents is played
    again by those agents from the header's seed (so the header's agents are verified too); any other hand
    replays its logged actions."""
    header = json.loads(lines[0])
    events = [json.loads(x) for x in lines[1:] if x.strip()]
    if header.get("spec_sha256") != engine.variant.spec_sha256:
        return {"identical": False, "line": 1, "difference": "the spec changed since the log was written "
                f"({str(header.get('spec_sha256', '?'))[:12]} != {engine.variant.spec_sha256[:12]})"}
    n = engine.variant.players
    agents = header.get("agents")
    builtin = isinstance(agents, list) and len(agents) == n and all(a in AGENTS for a in agents)
    if builtin:
        players = [make_agent(a, engine.variant, agent_seed(header["seed"], i)) for i, a in enumerate(agents)]
    else:
        scripts: list[list[dict]] = [[] for _ in range(n)]
        for e in events:
            if e.get("type") == "action" and isinstance(e.get("seat"), int) and 0 <= e["seat"] < n:
                scripts[e["seat"]].append(e.get("action"))
        players = [ScriptedAgent(s) for s in scripts]
    g = Game(engine, seed=header["seed"], dealer=header["dealer"], dealer_streak=header["dealer_streak"],
             options=header.get("options") or None, prevalent_wind=header.get("prevalent_wind", 0),
             dice=header.get("dice"), pot=header.get("pot", 0))
    g.agent_names = agents
    try:
        run(g, players)
    except (LookupError, IllegalAction) as e:
        at = len(g.log) + 2  # the line of the first event the replay could not make
        return {"identical": False, "line": at, "difference": f"the replay diverged: {e}"}
    again = log_header(g)
    for key in ("seed", "dealer", "dealer_streak", "options", "agents"):
        if header.get(key) != again[key]:
            return {"identical": False, "line": 1,
                    "difference": f"the header's {key} {header.get(key)!r} is not the game's {again[key]!r}"}
    for i, (a, b) in enumerate(zip(events, g.events)):
        if a != b:
            return {"identical": False, "line": i + 2, "difference": f"logged {a} but replayed {b}"}
    if len(events) != len(g.events):
        return {"identical": False, "line": min(len(events), len(g.events)) + 2,
                "difference": f"logged {len(events)} events but replayed {len(g.events)}"}
    return {"identical": True, "outcome": g.outcome}
