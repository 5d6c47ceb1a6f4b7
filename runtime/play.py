"""Playing hands and matches with agents; event logs that replay to the identical result."""
from __future__ import annotations

import json
from typing import Any

from .agents import Agent, GreedyAgent, RandomAgent, ScriptedAgent, make_agent
from .fastplay import fast_hand, plan_for
from .game import Game, IllegalAction

MAX_DECISIONS = 5000


class StalledGame(RuntimeError):
    """A hand that did not end within MAX_DECISIONS decisions (a bug, never a rule)."""


def run(game: Game, agents: list[Agent]) -> Game:
    """Ask the agents until the hand is over."""
    steps = 0
    while not game.over:
        seat, legal = game.next_decision()  # min(game.pending()) and its actions
        agent = agents[seat]
        choose = type(agent).choose
        if choose is RandomAgent.choose:  # it never reads the view
            action = agent.choose(None, legal)
        elif choose is GreedyAgent.choose:  # it reads the game's own state rather than the view's names
            action = agent.choose_in(game, seat, legal)
        else:
            action = agent.choose(game.view(seat), legal)
        game.act(seat, action)
        steps += 1
        if steps > MAX_DECISIONS:
            raise StalledGame(f"no end after {MAX_DECISIONS} decisions (seed {game.seed})")
    return game


def play_hand(engine: Any, agents: list[str] | list[Agent] | None = None, *, seed: int = 0, dealer: int = 0,
              dealer_streak: int = 0, options: dict[str, Any] | None = None) -> Game:
    """Deal and play one hand; agents are names ('random', 'greedy') or Agent objects."""
    n = engine.variant.players
    names = agents or ["random"] * n
    if all(a in ("random", "greedy") for a in names) and len(names) == n and isinstance(seed, int):
        plan = plan_for(engine, options)
        if plan is not None and ("greedy" not in names or plan.table.greedy_ok):  # the C loop: the same hand
            g = fast_hand(plan, seed, dealer, dealer_streak, [seed * 31 + i for i in range(n)], list(names))
            g.agent_names = list(names)
            return g
    ag = [make_agent(a, engine.variant, seed * 31 + i) if isinstance(a, str) else a for i, a in enumerate(names)]
    g = Game(engine, seed=seed, dealer=dealer, dealer_streak=dealer_streak, options=options)
    g.agent_names = [a if isinstance(a, str) else type(a).__name__ for a in names]
    return run(g, ag)


def play_match(engine: Any, hands: int, agents: list[str] | None = None, *, seed: int = 0,
               options: dict[str, Any] | None = None) -> dict[str, Any]:
    """N hands with rotation and streaks; running totals per seat."""
    n = engine.variant.players
    totals = [0] * n
    dealer, streak = first_dealer(engine.variant, seed), 0
    games = []
    for i in range(hands):
        g = play_hand(engine, agents, seed=seed * 100_003 + i, dealer=dealer, dealer_streak=streak, options=options)
        for p, v in g.outcome["payments"].items():
            totals[int(p)] += v
        games.append(g)
        dealer, streak = g.outcome["next_dealer"], g.outcome["next_streak"]
    return {"hands": games, "totals": totals}


def first_dealer(variant: Any, seed: int) -> int:
    """The seating procedure's first dealer (replay fidelity: the dice come from the seed)."""
    import random

    rng = random.Random(seed ^ 0x5EA7)
    n = variant.players
    proc = variant.seating[0].name if variant.seating else "random"
    if proc == "thrower_counts_one":
        s = rng.randint(1, 6) + rng.randint(1, 6)
        return (s - 1) % n
    if proc == "highest_roll":
        seats = list(range(n))
        while True:
            rolls = {p: rng.randint(1, 6) + rng.randint(1, 6) for p in seats}
            top = max(rolls.values())
            seats = [p for p, r in rolls.items() if r == top]
            if len(seats) == 1:
                return seats[0]
    return rng.randrange(n)


# ---- logs -------------------------------------------------------------------------------------------------

def log_lines(g: Game) -> list[str]:
    """The hand as JSON lines: a header (variant, spec hash, seed, options, dealer), then every event."""
    v = g.v
    header = {"log": "mjrules-hand", "version": 1, "variant": v.name, "spec_sha256": v.spec_sha256,
              "seed": g.seed, "dealer": g.dealer, "dealer_streak": g.dealer_streak,
              "options": {k: val for k, val in g.options.items() if val != v.option_defaults().get(k)},
              "agents": getattr(g, "agent_names", None)}
    return [json.dumps(header, ensure_ascii=False)] + [json.dumps(e, ensure_ascii=False) for e in g.events]


def replay_lines(engine: Any, lines: list[str]) -> dict[str, Any]:
    """Re-run a logged hand from its seed and actions; report identical, or the first difference."""
    header = json.loads(lines[0])
    events = [json.loads(x) for x in lines[1:] if x.strip()]
    if header.get("spec_sha256") != engine.variant.spec_sha256:
        return {"identical": False, "line": 1, "difference": "the spec changed since the log was written "
                f"({header.get('spec_sha256', '?')[:12]} != {engine.variant.spec_sha256[:12]})"}
    n = engine.variant.players
    scripts: list[list[dict]] = [[] for _ in range(n)]
    for e in events:
        if e["type"] == "action":
            scripts[e["seat"]].append(e["action"])
    g = Game(engine, seed=header["seed"], dealer=header["dealer"], dealer_streak=header["dealer_streak"],
             options=header.get("options") or {})
    try:
        run(g, [ScriptedAgent(s) for s in scripts])
    except (LookupError, IllegalAction) as e:
        return {"identical": False, "line": None, "difference": f"the replay diverged: {e}"}
    for i, (a, b) in enumerate(zip(events, g.events)):
        if a != b:
            return {"identical": False, "line": i + 2, "difference": f"logged {a} but replayed {b}"}
    if len(events) != len(g.events):
        return {"identical": False, "line": min(len(events), len(g.events)) + 2,
                "difference": f"logged {len(events)} events but replayed {len(g.events)}"}
    return {"identical": True, "outcome": g.outcome}
