"""Games: the state machine of one hand (mjrules.game.state), agents, playing, logs, simulation, scenarios."""
from __future__ import annotations

from .actions import ACTION_IDS, N_ACTIONS, PHASES, IllegalAction, describe_action
from .agents import AGENTS, GreedyAgent, PassAgent, RandomAgent, ScriptedAgent, SeekerAgent, make_agent
from .play import (
    MAX_DECISIONS,
    first_dealer,
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
    "log_lines",
    "make_agent",
    "play_hand",
    "play_match",
    "replay_lines",
    "run",
]
