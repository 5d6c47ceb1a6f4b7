"""The spec language's vocabulary: builtin variables, functions, tile groups and enum values, with types."""
from __future__ import annotations

from dataclasses import dataclass

# Contexts an expression can be evaluated in:
#   hand      scoring one reading of a winning hand (patterns, modifiers, statuses, events, score)
#   win       the win settlement: hand, plus what the game knows (someone_won, winners)
#   game      the other settlements (draw, hand_end, wall_end, discard, kongs): facts of the table
#   rotation  choosing the next dealer
#   wall      the wall's retention: counts over every player
#   claim     whether a player may win on a discard
#   config    structural switches: options only
#   settle    the game's settlement of one win at the moment it happens (on_win): game, plus that win's facts
#   opening   a hand shown right after the deal (an `opening` clause, the settlement's `opening` block): game, plus
#             the seat showing (`shower`) and what it showed
#   match     a match's end, extension and results (the `match` block), asked after each hand: rotation, plus the
#             players' scores and ranks and where the match stands
HAND, WIN, GAME, ROTATION, WALL, CLAIM, CONFIG = "hand", "win", "game", "rotation", "wall", "claim", "config"
SETTLE, OPENING, MATCH = "settle", "opening", "match"
ALL_CONTEXTS = (HAND, WIN, GAME, ROTATION, WALL, CLAIM, CONFIG, SETTLE, OPENING, MATCH)
_TABLE = (GAME, SETTLE, OPENING)  # what the game knows of the table
_HW = (HAND, WIN)
_SITUATION = (HAND, WIN, CLAIM)

SET_KINDS = ("seq", "pung", "kong", "pair", "concealed_pung", "concealed_kong", "exposed_kong")
# where a reading places its winning tile (win_in): in the pair, a pung, a sequence's middle, a sequence's edge
# (12 waiting on 3, 89 on 7), or either end of a sequence that two kinds complete
PLACEMENTS = ("pair", "pung", "seq_middle", "seq_edge", "seq_sides")
WIN_BY = ("self_draw", "discard", "rob_kong", "kong_replacement", "rob_gold", "dealt", "none")

# stage of a reference: what may refer to what (a clause at stage s refers only to stages < s)
STAGE_SITUATION, STAGE_EVENT, STAGE_PRIMITIVE, STAGE_PATTERN, STAGE_MODIFIER = 0, 1, 1, 2, 3


@dataclass(frozen=True)
class Builtin:
    name: str
    type: str  # num | bool | winby
    contexts: tuple[str, ...]
    doc: str
    reading: bool = False  # depends on the reading (decomposition, wild assignment), not only the situation


VARIABLES: dict[str, Builtin] = {b.name: b for b in [
    Builtin("win_by", "winby", _SITUATION + (ROTATION, MATCH, SETTLE),
            "how the hand was won: self_draw, discard, rob_kong, kong_replacement, rob_gold, dealt "
            "(none in rotation after a draw)"),
    Builtin("is_dealer", "bool", _SITUATION + (SETTLE,), "the winner (or claimant) is the dealer"),
    Builtin("seat", "num", _SITUATION + (MATCH,),
            "the winner's seat, 0..players-1 (in a match's `result`: the seat whose result it is; -1 elsewhere there)"),
    Builtin("dealer", "num", _SITUATION + _TABLE + (ROTATION, MATCH), "the dealer's seat"),
    Builtin("discarder", "num", _SITUATION, "the discarder's (or robbed konger's) seat; -1 on a self-draw"),
    Builtin("first_turn", "bool", _SITUATION, "the player has not drawn or claimed yet (天胡, 地胡, 抢金 windows)"),
    Builtin("first_discard", "bool", _SITUATION, "the discard won on is the first discard of the hand"),
    Builtin("declared_ready", "bool", _SITUATION, "the player declared ready (报听)"),
    Builtin("last_tile", "bool", _SITUATION, "the win is on the wall's last drawable tile, drawn or discarded (海底)"),
    Builtin("after_kong", "bool", _SITUATION,
            "the discard won on was made right after its discarder's own kong replacement draw (杠上炮)"),
    Builtin("first_draw", "bool", _SITUATION,
            "a self-drawn win on the player's first draw, with no claim made in the hand before it (地胡)"),
    Builtin("wild_discards", "num", _SITUATION, "wilds this player discarded earlier in the hand (飞宝)"),
    Builtin("dealer_streak", "num", _SITUATION + _TABLE + (ROTATION, MATCH), "consecutive dealer wins before this hand (連莊)"),
    Builtin("flowers", "num", _HW, "scored flower tiles this player collected"),
    Builtin("kongs", "num", _HW + (WALL,), "kongs declared (every player's in a wall context)"),
    Builtin("kongs_exposed", "num", _HW + (WALL,), "exposed and added kongs (every player's in a wall context)"),
    Builtin("kongs_concealed", "num", _HW + (WALL,), "concealed kongs (every player's in a wall context)"),
    Builtin("melds", "num", _HW, "melds declared, concealed kongs included"),
    Builtin("no_melds", "bool", _HW, "no meld at all, not even a concealed kong"),
    Builtin("exposed_melds", "num", _HW, "melds declared in the open: every meld but concealed kongs"),
    Builtin("wilds", "num", _HW, "wild tiles in the winning hand, a fact of the situation that events may test"),
    Builtin("wild_in_force", "bool", _HW, "a wild kind is in force this hand: the hand's options choose a wild "
            "mode other than `none`, and its kind is known (fixed, or named by the situation's wild or indicator)"),
    Builtin("pair_wilds", "num", _HW, "wild tiles in the reading's pair (0 without a pair)", True),
    Builtin("wilds_at_face", "bool", _HW, "every wild in the reading stands for its own face (宝还原)", True),
    Builtin("fours", "num", _HW, "kinds with all four copies among the winner's tiles, not declared as a kong (四歸一)", True),
    Builtin("no_sequences", "bool", _HW, "no sequence in the reading, melds included", True),
    Builtin("distinct", "bool", _HW, "no kind appears twice in the reading", True),
    Builtin("one_suit", "bool", _HW, "every tile is of one suit (wilds take the suit they stand for; no honours)", True),
    Builtin("waits_all", "bool", _HW, "the pre-draw hand would have won on every kind (宝调)"),
    Builtin("wait_kinds", "num", _HW, "how many kinds would have completed the hand before its winning tile, "
            "by its shape (a kind whose every copy is in sight still counts)"),
    Builtin("seat_wind", "num", _SITUATION, "the winner's seat wind: 0 East (the dealer), 1 South, 2 West, 3 North"),
    Builtin("prevalent_wind", "num", _SITUATION + (SETTLE,), "the round's wind: 0 East, 1 South, 2 West, 3 North"),
    Builtin("last_of_kind", "bool", _SITUATION,
            "the winning tile is the last of its kind: the other copies are in sight, discarded or in exposed melds (和绝张)"),
    Builtin("win_at_seq_end", "bool", _HW,
            "a concealed sequence of the reading has the winning tile's kind as its first or last tile", True),
    Builtin("win_at_seq_middle", "bool", _HW,
            "a concealed sequence of the reading has the winning tile's kind as its middle tile", True),
    Builtin("win_at_pair", "bool", _HW, "the reading's pair is of the winning tile's kind", True),
    Builtin("ready_first_turn", "bool", _SITUATION,
            "the player declared ready on its first turn, with no claim made in the hand before it (ダブル立直)"),
    Builtin("ready_uninterrupted", "bool", _SITUATION,
            "the win comes within one go-around of the player's ready declaration, no claim made since (一発)"),
    Builtin("indicated", "num", _HW,
            "tiles of the winner's hand, melds included, that face-up indicators point at (each tile once per "
            "indicator pointing at its kind; the spec's `indicators successor ...` says what each points at)"),
    Builtin("hidden_indicated", "num", _HW,
            "the same for the indicators under them, shown only to a winner who declared ready (裏)"),
    Builtin("marked", "num", _HW, "marked copies among the winner's tiles, melds included (赤: the `marked` tiles)"),
    Builtin("knitted", "bool", _HW,
            "the suited tiles fit one knitted arrangement: in each suit every rank leaves the same remainder by 3, "
            "and no two suits the same remainder (147m 258p 369s and the like)", True),
    Builtin("fan_points", "num", _HW, "the points of every fan that counts, each times its count", True),
    Builtin("bonus_points", "num", _HW, "the points of the bonus fans that count, each times its count", True),
    Builtin("value", "num", (WIN, SETTLE), "the hand value of the winner"),
    Builtin("someone_won", "bool", (WIN, ROTATION, MATCH) + _TABLE, "the hand ended with a win (so far, in on_win)"),
    Builtin("winners", "num", (WIN, ROTATION, MATCH) + _TABLE, "how many players won the hand (so far, in on_win)"),
    Builtin("dealer_won", "bool", (WIN, ROTATION, MATCH) + _TABLE, "the dealer is among the winners"),
    Builtin("robbed", "bool", (GAME,), "(kong settlements) the kong was robbed"),
    Builtin("declared_players", "num", (GAME, ROTATION, MATCH), "players who declared ready in the hand"),
    Builtin("kong_players", "num", (GAME, ROTATION, MATCH), "players who made a kong in the hand"),
    Builtin("kongs_made", "num", (GAME, ROTATION, MATCH), "kongs made in the hand, by every player"),
    Builtin("win_claims", "num", (GAME,),
            "players claiming a win on the tile on offer (an `abort ... at wins` asks it before the wins are taken)"),
    Builtin("aborted", "bool", (GAME, ROTATION, MATCH), "the hand ended in an abortive draw (`abort`)"),
    Builtin("caller", "num", (GAME,), "(an `abort ... on first_turn`) the seat whose turn it is, who may call it"),
    Builtin("claimer", "num", (GAME,), "(a `liability`) the seat that claimed the discard"),
    Builtin("liable", "num", (SETTLE,),
            "(on_win) the seat liable for the win (包: a `liability` whose name the win counts), -1 when none"),
    Builtin("first_discards_match", "bool", (GAME, ROTATION, MATCH),
            "the first discard of every player, dealer first, was the same kind with no claim between (前燒)"),
    Builtin("discards_made", "num", (ROTATION, MATCH) + _TABLE,
            "discards made in the hand so far (in a `discard` block, the one being paid included)"),
    Builtin("player_count", "num", (ROTATION, MATCH) + _TABLE, "players at the table (the variant's `players`)"),
    Builtin("first_winners", "num", (ROTATION, MATCH) + _TABLE,
            "how many players won on the hand's first winning tile (more than one: 一炮多响)"),
    Builtin("players_in", "num", (ROTATION, MATCH) + _TABLE, "players who have not won (are still in the hand)"),
    Builtin("wall_ended", "bool", (ROTATION, MATCH) + _TABLE, "the hand ended because the wall did"),
    Builtin("highest_score", "num", (MATCH,), "(match) the highest of the players' scores"),
    Builtin("lowest_score", "num", (MATCH,), "(match) the lowest of the players' scores"),
    Builtin("last_hand", "bool", (MATCH,),
            "(match) the hand just played was dealt by the last dealer of the match's last round (of an extension "
            "round, while one is played)"),
    Builtin("round", "num", (MATCH,),
            "(match) the round of the hand just played, from 0 (its prevalent wind: 0 East, 1 South, ...)"),
    Builtin("hands_played", "num", (MATCH,), "(match) the hands played so far, the last one included"),
    Builtin("extension", "bool", (MATCH,), "(match) the hand just played was in an extension round (`extend`)"),
    Builtin("payer", "num", _TABLE, "(a payment) the paying seat, asked of each pair of payer and payee"),
    Builtin("payee", "num", _TABLE, "(a payment) the paid seat, asked of each pair of payer and payee"),
    Builtin("winner", "num", (SETTLE,), "(on_win) the winner's seat"),
    Builtin("shower", "num", (OPENING,), "(opening) the seat showing its dealt hand"),
    Builtin("shown", "num", (OPENING,),
            "(the settlement's opening block) how many openings the shower showed, each times its count"),
    Builtin("win_place", "num", (SETTLE,),
            "(on_win) the place of the win being settled among the wins on one tile, from 1, in play order from "
            "the discarder (the nearest winner is 1; a self-draw is 1; a hand scored alone is its first win)"),
    Builtin("horse_hits", "num", (SETTLE,), "(on_win) horses that point at the winner (买马): hits(winner)"),
    Builtin("fed", "bool", (SETTLE,),
            "(on_win) the win is on a kong's replacement and that kong was made on a discard: its discarder is "
            "the payer set `feeder` (杠爆全包)"),
]}


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[str, ...]  # num | group | num* (variadic)
    type: str
    contexts: tuple[str, ...]
    doc: str
    reading: bool = False


FUNCTIONS: dict[str, Function] = {f.name: f for f in [
    Function("all_in", ("group",), "bool", _HW, "every tile of the reading, melds included, is in the group", True),
    Function("contains", ("group",), "bool", _HW, "the reading holds every kind of the group", True),
    Function("count_in", ("group",), "num", _HW, "tiles of the reading in the group", True),
    Function("every_group", ("group",), "bool", _HW,
             "every set and pair of the reading, and every meld, holds a tile of the group (带幺九); false for a "
             "reading without groups (a free shape's)", True),
    Function("spacing", ("num",), "bool", _HW,
             "same-suit tiles of the reading differ in rank by at least n (十三烂: 3)", True),
    Function("flower_fours", ("group",), "num", _HW + (WALL,),
             "kinds of the group of which all copies were collected as flowers"),
    Function("flower_complete", ("group",), "num", _HW + (WALL,),
             "1 if every kind of the group was collected as a flower, else 0 (summed over players in a wall context)"),
    Function("first_discards_in", ("group",), "bool", (GAME, ROTATION, MATCH),
             "every player has made his first discard, all of one kind of the group, with no claim before the last "
             "(四風連打 with winds)"),
    Function("melds_in", ("num", "group"), "num", _TABLE,
             "the seat's pungs and kongs (melds, concealed kongs included) of a kind of the group"),
    Function("kinds_in", ("num", "group"), "num", _TABLE,
             "kinds of the group of which the seat holds a tile in its concealed hand (九種九牌: 9 or more yaojiu)"),
    Function("clean_discards", ("num", "group"), "bool", _TABLE,
             "the seat's discards of the hand are all of the group and none was claimed (流し満貫 with yaojiu); "
             "false before its first discard"),
    Function("ready", ("num",), "bool", _TABLE, "the seat's concealed hand is ready: some tile would complete it"),
    Function("ready_as_declared", ("num",), "bool", _TABLE + (ROTATION, MATCH),
             "the seat has declared ready, or its hand would be ready were it declared (the declaration's own value "
             "counted, as a declaration's `requires ready` judges it): 聴牌 at an exhaustive draw"),
    Function("best_value", ("num",), "num", _TABLE,
             "the highest value the seat's hand would win with, each completing tile judged as a win on a discard "
             "(0 when it is not ready)"),
    Function("suits_held", ("num",), "num", _TABLE, "how many of the suits m, p, s the seat's tiles hold, melds included"),
    Function("in_hand", ("num",), "bool", _TABLE, "the seat has not won: it is still in the hand"),
    Function("won", ("num",), "bool", _TABLE, "the seat has won"),
    Function("kong_money", ("num",), "num", _TABLE, "what the seat received for kongs so far in the hand"),
    Function("hits", ("num",), "num", _TABLE,
             "horses turned so far that point at the seat (买马, 扎鸟; counted from the dealer or from the winner "
             "being settled, as `horses` says; 0 before any is turned)"),
    Function("held_fours", ("num",), "num", _TABLE, "kinds of which the seat holds all four copies in its concealed hand"),
    Function("held_pungs", ("num",), "num", _TABLE,
             "kinds of which the seat holds three copies or more in its concealed hand"),
    Function("held_pairs", ("num",), "num", _TABLE, "kinds of which the seat holds two copies or more in its concealed hand"),
    Function("held_in", ("num", "group"), "num", _TABLE, "tiles of the group in the seat's concealed hand"),
    Function("sets", ("setkind", "group"), "num", _HW,
             "the sets of the reading, melds included, of a kind (seq, pung: pungs and kongs, kong, pair, "
             "concealed_pung: pungs and kongs never shown, concealed_kong, exposed_kong) whose lowest tile is in the "
             "group; a pung completed by a claimed winning tile is shown, unless a concealed sequence of the reading "
             "could hold that tile", True),
    Function("wind_sets", ("setkind", "num"), "num", _HW,
             "the sets of a kind (as in sets) of the n-th wind: 0 East, 1 South, 2 West, 3 North", True),
    Function("waiting_hand", ("tiles",), "bool", _HW,
             "before its winning tile the hand was these concealed tiles, or the same ranks in another suit, and "
             "nothing else (no meld)"),
    Function("win_in", ("placement",), "bool", _HW,
             "the reading places its winning tile so (pair, pung, seq_middle, seq_edge: 12 waiting on 3 or 89 on 7, "
             "seq_sides: a sequence two kinds complete). A spec that asks this scores every placement of the winning "
             "tile as a reading of its own, and a pung it completes by a claimed tile is shown", True),
    Function("alike", ("setkind",), "num", _HW,
             "pairs of identical sets of the kind in the reading, melds included, each set in one pair at most "
             "(two identical sequences: 1; three: 1; four: 2)", True),
    Function("score", ("num",), "num", (MATCH,),
             "(match) the seat's score: the match's `start` plus every payment so far (and the pot, once `pot to` "
             "has given it)"),
    Function("rank", ("num",), "num", (MATCH,),
             "(match) the seat's place by score, 1 for the highest; equal scores are ranked in seating order from "
             "the match's first dealer"),
    Function("nth", ("num", "num*"), "num", (GAME, ROTATION, WALL, CONFIG, SETTLE, OPENING, MATCH),
             "the value at a place in the list, counted from 1: nth(rank(seat), 15, 5, -5, -15); 0 past its end"),
    Function("round_up", ("num", "num"), "num", ALL_CONTEXTS,
             "the first multiple of the step at or above the number: round_up(x, 100); a step of 0 or less "
             "leaves the number"),
    Function("max", ("num*",), "num", ALL_CONTEXTS, "the largest argument"),
    Function("min", ("num*",), "num", ALL_CONTEXTS, "the smallest argument"),
]}

# ---- tile groups ----------------------------------------------------------------------------------------
M, P, S = range(9), range(9, 18), range(18, 27)
HONOURS = tuple(range(27, 34))
FLOWERS = tuple(range(34, 42))

BUILTIN_GROUPS: dict[str, tuple[int, ...]] = {
    "m": tuple(M), "p": tuple(P), "s": tuple(S),
    "suited": tuple(range(27)),
    "honours": HONOURS,
    "winds": HONOURS[:4],
    "dragons": HONOURS[4:],
    "terminals": (0, 8, 9, 17, 18, 26),
    "simples": tuple(k for k in range(27) if k % 9 not in (0, 8)),
    "flowers": FLOWERS,
    "seasons": FLOWERS[:4],
    "plants": FLOWERS[4:],
    "all": tuple(range(34)),
}
