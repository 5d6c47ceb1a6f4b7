"""Games: the state machine of one hand, agents, playing, logs, simulation, scenarios.

    state       the state machine of one hand: the one implementation of the rules of play (compiled)
    rules       the rules a hand is played by, read from the IR once per variant and options (compiled)
    seat, rng   a seat's holdings and a winner; the seeded numbers (compiled)
    settle      what the game knows when the spec asks: payments (through mjrules.model.settle), rotation (compiled)
    actions     the action ids and phases, stable for every variant
    agents      the built-in agents and the loop that asks agents (compiled)
    phases, events, observe, serial
                exchanges and declarations before play; the log; a seat's observation as arrays; a saved state
    match       a match by the spec's `match` block: what passes from hand to hand, the scores, its end
    play, simulate, scenario
                hands and matches with agents, logs that replay; many seeded hands; scenarios
"""
from __future__ import annotations

from .actions import ACTION_IDS, N_ACTIONS, PHASES, IllegalAction, describe_action
from .agents import AGENTS, GreedyAgent, PassAgent, RandomAgent, ScriptedAgent, SeekerAgent, make_agent
from .play import (
    MAX_DECISIONS,
    first_dealer,
    seating_throws,
    log_lines,
    play_hand,
    play_match,
    replay_lines,
    run,
)
from .state import Game, StalledGame

__all__ = [
    "ACTION_IDS",
    "AGENTS",
    "MAX_DECISIONS",
    "N_ACTIONS",
    "PHASES",
    "Game",
    "GreedyAgent",
    "IllegalAction",
    "PassAgent",
    "RandomAgent",
    "ScriptedAgent",
    "SeekerAgent",
    "StalledGame",
    "describe_action",
    "first_dealer",
    "seating_throws",
    "log_lines",
    "make_agent",
    "play_hand",
    "play_match",
    "replay_lines",
    "run",
]
