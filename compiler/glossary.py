"""The meaning of each word of the spec language, one line each: clauses, contexts, payers, operators, error codes.

The words themselves are defined where the compiler uses them (compiler/reader.py's TOP and SECTIONS, builtins.py,
the grammar, the codes the checker emits); this module gives each one its usage and meaning, for error hints
and for the generated reference (mjrules.cli.vocabulary, `mjrules show --vocabulary`, docs/reference/).
tests/test_vocabulary.py holds these tables to the compiler's words: a keyword, context, payer or error code
without a line here, or a line for one that no longer exists, fails it.
"""
from __future__ import annotations

VARIANT = "variant"   # the section name of the top-level clauses (reader.TOP)
PAYMENTS = "payments"  # the clauses inside the settlement's win, draw, hand_end and kong blocks

# (section, keyword) -> (usage, meaning). Sections: VARIANT, each of reader.SECTIONS, and PAYMENTS.
CLAUSES: dict[tuple[str, str], tuple[str, str]] = {
    # ---- the variant's own clauses ----
    (VARIANT, "source"): ('source "FILE"', "the seed text this spec follows (shown in the rule book)"),
    (VARIANT, "rules"): ("rules PREFIX FIRST..LAST [, FIRST..LAST ...]",
                         ("the rule ids the spec accounts for (`rules SR 1..20`: SR-01..SR-20; `rules RI 1..14, "
                          "20..46`: two runs); a citation outside "
                          "them is E021, and `mjrules check` counts those neither cited nor listed in `no_effect`")),
    (VARIANT, "no_effect"): ('no_effect "REASON"  # ID...', ("the rule ids its comment cites have no effect on play, "
                                                             "for this reason")),
    (VARIANT, "option"): ('option NAME "description" = DEFAULT',
                          ("a named switch, number or string (the default is a literal); expressions use it by name, "
                           "and a situation, a scenario or `--option NAME=VALUE` overrides it")),
    (VARIANT, "tiles"): ("tiles { ... }", "the tile set: the kinds used, their copies, scored flowers, named groups"),
    (VARIANT, "players"): ("players N", "seats at the table, 2 to 8"),
    (VARIANT, "seating"): ("seating random|highest_roll|thrower_counts_one [when ...]",
                           "how the first dealer of a match is chosen (several, each with a condition on options)"),
    (VARIANT, "hand"): ("hand N dealer M", "hand sizes: N = 3k + 1 tiles, the dealer's M = N + 1"),
    (VARIANT, "deal"): ("deal N N ... then dealer M",
                        ("the dealing rounds (tiles per player per round) and the dealer's extra tiles; they add up "
                         "to the hand sizes")),
    (VARIANT, "wall_break"): ("wall_break own_wall|count_players|dice_start [smaller_die] [reroll] [when ...]",
                              ("the wall-break dice procedure, kept for replay fidelity (the wall is shuffled "
                               "pre-broken)")),
    (VARIANT, "wall"): ("wall { ... }", "where draws and replacements come from, the dead wall, the end of the wall"),
    (VARIANT, "flowers"): ("flowers { ... }", ("how scored flowers are replaced (required when the tiles have "
                                               "scored flowers)")),
    (VARIANT, "wild"): ('wild NAME ["label"] { ... }',
                        ("the wild kind: how it is chosen, how many copies are live, what a wild may stand for and "
                         "may not do")),
    (VARIANT, "rob_wild"): ("rob_wild { ... }", ("robbing the flipped indicator (抢金): when, in what order, with "
                                                 "which patterns")),
    (VARIANT, "claims"): ("claims { ... }", ("chi, pon and kongs, their priority, robbing a kong, winning on a "
                                             "discard, and who wins a discard several claim")),
    (VARIANT, "abort"): ('abort NAME ["label"] [at wins | on first_turn] when CONDITION', (
        "an abortive draw (途中流局): the hand ends with no win and no hand-end payment when the condition holds, "
        "asked each time a discard is let go, or (at wins) when players claim a win on one tile; on first_turn, a "
        "player on his first turn, before any claim, may call it (the action `abort`) when it holds of him "
        "(`caller`)")),
    (VARIANT, "ready_declaration"): ("ready_declaration { ... }", ("declaring ready (报听, 立直): who, when, what it "
                                                                   "requires, what it locks, what it stakes")),
    (VARIANT, "pattern"): ('pattern NAME ["label"] shape standard|pairs|free|knitted [when CONDITION]',
                           ("a winning pattern. standard: sets (sequences, pungs, kongs; melds count) and a pair; "
                            "pairs: all pairs (four alike are two); free: no structure; knitted: a knitted straight "
                            "(1-4-7, 2-5-8 and 3-6-9, each in its own suit) in place of three sets, then sets and a "
                            "pair. The condition filters readings")),
    (VARIANT, "modifier"): ('modifier NAME ["label"] [for PATTERN...] when CONDITION',
                            "a flag of a reading (清一色), for the listed patterns or all"),
    (VARIANT, "event"): ('event NAME ["label"] when CONDITION',
                         "a fact of the situation, not of the reading (天胡, 杠上开花)"),
    (VARIANT, "status"): ('status NAME ["label"] when CONDITION | status NAME ["label"] otherwise',
                          "the reading's status: the first whose condition holds; the last says `otherwise`"),
    (VARIANT, "define"): ('define NAME ["label"] = EXPRESSION', ("a named value, usable by name (also inside `score`); "
                                                                 "its label, the rule's name, is shown beside its "
                                                                 "value in an explanation")),
    (VARIANT, "table"): ('table NAME ["label"] by pattern[, status] { columns ...; ROW : CELL... }',
                         ("a value table: a reading's cell is the largest of the rows for its pattern whose "
                          "modifiers all hold, in its status's column; expressions use the table by name")),
    (VARIANT, "fan"): ('fan NAME ["label"] POINTS [open POINTS] [bonus] [limit] [otherwise] [: COMBINATION] [= COUNT] '
                       '[when CONDITION]',
                       ("a counted scoring element worth POINTS each time it counts: `= COUNT` says how many times "
                        "(a condition counts once), `when` alone counts it once when it holds, `otherwise` once "
                        "when no other fan counts, `: seq|pung N same_suit|different_suits step D...|ranks R...` "
                        "makes it a combination of N sets, counted by the account-once rule. `bonus`: not one of "
                        "the hand's own fans (bonus_points). `open N`: worth N in a hand with an exposed meld "
                        "(食い下がり). `limit`: while a limit fan counts, no other fan does (役満). Expressions read a "
                        "fan's count by its name, fan_points the sum of all; each fan that counts is a line of the "
                        "explanation")),
    (VARIANT, "indicators"): ("indicators successor CYCLE, CYCLE, ...", (
        "what a face-up indicator points at (ドラ): the next kind of its cycle, each cycle written in its order "
        "(1m..9m, 東..北, 白..中 runs backwards; 765z as written). `indicated` and `hidden_indicated` count the "
        "winner's tiles they point at")),
    (VARIANT, "excludes"): ("excludes FAN : FAN...", ("the fans the first one implies (不计): while it counts they do "
                                                      "not")),
    (VARIANT, "score"): ("score { ... }", "the value of a reading, the minimums to declare, the forbidden wins"),
    (VARIANT, "settlement"): ("settlement { ... }", ("who pays whom: on a win, on a draw, at every hand's end, for "
                                                     "kongs; a cap on losses")),
    (VARIANT, "rotation"): ("rotation { ... }", "who deals next, and the new dealer streak"),
    (VARIANT, "play"): ("play { ... }", ("what a win does to the hand: end it, or the winners leave and play goes "
                                         "on until a condition holds")),
    (VARIANT, "declare"): ('declare NAME ["label"] [when ...] { ... }',
                           ("a choice every player makes at once after the deal, and what it binds for the hand "
                            "(定缺)")),
    (VARIANT, "exchange"): ('exchange NAME ["label"] [when ...] { ... }',
                            "tiles every player passes at once after the deal (换三张)"),
    (VARIANT, "map"): ("map NAME { value N : TILES...; ... }", "a named map from tiles to numbers (for `horses`)"),
    (VARIANT, "horses"): ("horses = COUNT { point_by MAP; count_from dealer|winner|payer; taken before_play|at_win }",
                          ("COUNT tiles turned at the first win (买马, 扎鸟); each points at the seat the map gives "
                           "it, counted from the dealer or the winner; `hits(SEAT)` counts those on a seat")),
    (VARIANT, "opening"): ('opening NAME ["label"] [= COUNT] when CONDITION',
                           ("a dealt hand a player may show right after the deal, before the first discard (起手胡), "
                            "when the condition holds of it (`shower` is its seat; COUNT, 1 by default, is how many "
                            "times it counts); the settlement's `opening` block pays each seat that showed")),
    (VARIANT, "match"): ("match hands = COUNT  |  match { ... }",
                         "a match (`mjrules.game.Match`, `play_match`): its length, the starting score, its end and "
                         "each player's result"),
    # ---- tiles ----
    ("tiles", "use"): ("use GROUP...", "the kinds in the tile set (`use suited honours flowers`)"),
    ("tiles", "copies"): ("copies N [for GROUP...]", ("copies of each kind (default 4); with `for`, of those kinds "
                                                      "only")),
    ("tiles", "scored_flowers"): ("scored_flowers GROUP...", ("kinds that are flowers: exposed and replaced when "
                                                              "drawn, never kept, counted by `flowers`")),
    ("tiles", "group"): ("group NAME = GROUP + GROUP ...", "a named tile group for clauses and expressions"),
    ("tiles", "marked"): ("marked TILES...", ("kinds of which one copy is marked (赤ドラ: 5m 5p 5s): a situation's "
                                              "`marked` lists the marked copies a hand holds, the builtin `marked` "
                                              "counts them")),
    # ---- wall ----
    ("wall", "draw"): ("draw head|tail", "the end of the wall play draws from (default head)"),
    ("wall", "replacement"): ("replacement tail|head", "the end kong replacements come from (default tail)"),
    ("wall", "retain"): ("retain = EXPRESSION", ("tiles left undrawn at the end of the wall (the dead wall), a wall "
                                                 "expression re-read as kongs and flowers change it (default 0)")),
    ("wall", "final_round"): ("final_round N [auto_win]",
                              ("when N or fewer drawable tiles are left, the next players draw one each without "
                               "discarding; auto_win: a drawn winning hand wins at once")),
    ("wall", "indicator_stacks"): ("indicator_stacks N after M", (
        "N stacks in the dead wall, after the M tiles at the wall's tail (the kong replacements), each a shown "
        "indicator over a hidden one: the first is turned at the deal, the others by kongs (kong_indicator); the "
        "situation's `indicators` are those turned, its `hidden_indicators` the tiles under them")),
    ("wall", "kong_indicator"): ("kong_indicator immediate|after_discard exposed|added|concealed... [when ...]", (
        "a kong of these kinds turns the next indicator at once (before its replacement is drawn), or when its "
        "maker next discards, before anyone may claim the discard (or before his next kong's own)")),
    ("wall", "last_discard"): ("last_discard win_only", "the hand's last discard may be claimed only to win"),
    ("wall", "kong_needs_replacement"): ("kong_needs_replacement", ("a kong is legal only while its replacement can "
                                                                    "still be drawn, the retention grown by it")),
    ("wall", "empty_in_replacement"): ("empty_in_replacement draw", ("the wall running out during a replacement ends "
                                                                     "the hand drawn")),
    # ---- flowers ----
    ("flowers", "replace"): ("replace tail|head", "the end a flower's replacement comes from"),
    ("flowers", "initial"): ("initial rounds from_dealer", ("flowers in the dealt hands are replaced in rounds, the "
                                                            "dealer first")),
    ("flowers", "in_play"): ("in_play immediately", "a flower drawn in play is exposed and replaced at once"),
    # ---- wild ----
    ("wild", "none"): ("none when CONDITION", ("no wild this hand when the condition (options only) holds: nothing is "
                                              "flipped and `wild_in_force` is false")),
    ("wild", "indicator"): ("indicator head|tail [dice_stack] [stays] [after_flowers] [flowers_to_dealer]",
                            ("an indicator is flipped from that end: at the stack the dice choose (dice_stack); "
                             "left face up and skipped by draws (stays); after the first flower replacement "
                             "(after_flowers); a flower flipped goes to the dealer and the next tile is flipped "
                             "(flowers_to_dealer)")),
    ("wild", "successor"): ("successor RANGE, RANGE, ...", ("the wild is the indicator's successor in its cycle "
                                                            "(`1m..9m, 東..北, 中..白`)")),
    ("wild", "same_as_indicator"): ("same_as_indicator", "the wild is the indicator's own kind"),
    ("wild", "fixed"): ("fixed TILE [when CONDITION]", ("the wild is always this kind, no indicator flipped; with a "
                                                         "condition (options only), only in the hands where it holds "
                                                         "(the first none or fixed that holds picks the mode)")),
    ("wild", "kinds"): ("kinds N [when CONDITION]", ("a successor wild has N kinds (1 or 2): the indicator's "
                                                     "successor and the kinds after it in its cycle; with a condition "
                                                     "(options only), in the hands where it holds")),
    ("wild", "live"): ("live N", ("how many copies of each wild kind are wilds (default: every copy, less the "
                                  "indicator's where it stays face up and is the wild kind)")),
    ("wild", "stands_for"): ("stands_for GROUP...", ("the kinds a wild may stand for (default: every playable "
                                                     "kind; `all`)")),
    ("wild", "face_value"): ("face_value", "a wild may also be itself (宝还原)"),
    ("wild", "no_calls"): ("no_calls", "wilds are never claimed or used in chi, pon or kong"),
    ("wild", "discard"): ("discard unclaimable", ("a discarded wild cannot be claimed or won on; `wild_discards` "
                                                  "counts it (飞宝)")),
    # ---- rob_wild ----
    ("rob_wild", "after"): ("after first_discard before_claims", ("when the indicator may be robbed: at the first "
                                                                  "discard, before anyone claims it")),
    ("rob_wild", "order"): ("order non_dealers dealer", ("who is asked first (non-dealers in play order, then the "
                                                         "dealer)")),
    ("rob_wild", "requires"): ("requires PATTERN...", "the patterns a hand must make with the indicator to rob it"),
    # ---- claims ----
    ("claims", "chi"): ("chi from previous|any  |  chi honours [when ...]",
                        ("who may chi: the discarder's next player, or anyone; `chi honours`: honour sequences may "
                         "be chi'd (while the condition holds)")),
    ("claims", "pon"): ("pon [from any]", "pon from any discard"),
    ("claims", "kong"): ("kong exposed added concealed", "the kongs allowed"),
    ("claims", "priority"): ("priority win > kong pon > chi", ("claim priority, highest first; kinds on one level "
                                                               "rank by play order")),
    ("claims", "rob_kong"): ("rob_kong none | rob_kong added|concealed... [by PATTERN...] [when CONDITION]",
                             ("which kongs may be robbed to win (抢杠): an added kong, a concealed one; `by` names the "
                              "patterns a robbing hand must win by (a concealed kong by 国士無双形 alone); one clause "
                              "per kind, each with its condition (options only)")),
    ("claims", "win_on_discard"): ("win_on_discard [when CONDITION]",
                                   ("winning on a discard is allowed (while the claim condition holds); without "
                                    "this clause, never")),
    ("claims", "winners"): ("winners first|all [prefer PATTERN...] [when ...]",
                            ("several players may win one discard: only the first in play order (a preferred "
                             "pattern first), or all of them")),
    ("claims", "pass_blocks_ron"): ("pass_blocks_ron [when ...]", ("a player who passed a win may not win on a "
                                                                   "discard until his next draw")),
    ("claims", "furiten"): ("furiten own_discards|passed|declared_passed ... [when ...]", (
        "what bars a win on a discard or a robbed kong (振聴); a seat's waits are the kinds that would complete its "
        "hand were it declared ready (no yaku needed). own_discards: a wait is among the seat's own discards of the "
        "hand (those called away too); passed: it let a tile of its waits go, until its own next discard; "
        "declared_passed: it let one go after it declared ready, to the end of the hand")),
    ("claims", "liability"): ("liability NAME when CONDITION", (
        "包: when a pon or exposed kong on a discard leaves the condition true of the claimer (`claimer`), the "
        "discarder becomes liable for a win of the claimer that counts NAME (a fan, pattern, modifier or event); "
        "the settlement pays through the player set `liable`")),
    ("claims", "no_swap_calling"): ("no_swap_calling [when ...]", (
        "喰い替え: after a chi or pon the claimer may not discard a tile of the claimed kind, nor, after a chi, the "
        "kind at the other end of the two tiles he showed; a call that would leave him no other discard is not "
        "offered")),
    # ---- ready_declaration ----
    ("ready_declaration", "by"): ("by non_dealers|all before first_discard|with_discard", (
        "who may declare ready, and when: before the first discard (报听), or on one's turn together with a discard "
        "(立直)")),
    ("ready_declaration", "requires"): ("requires [ready] [concealed] [drawable N]", (
        "what a declaration needs: a ready hand (after the declaration's discard, judged as declared), no meld in "
        "the open, at least N tiles left to draw")),
    ("ready_declaration", "stake"): ("stake = EXPRESSION", (
        "points the declarer puts into the pot once his declaration stands (its discard not won on); the pot is "
        "carried from hand to hand and the hand's first winner takes it")),
    ("ready_declaration", "locks_hand"): ("locks_hand", ("a declared hand is locked: every drawn tile that does not "
                                                         "win is discarded; no chi, pon or kong")),
    ("ready_declaration", "concealed_kong_keeping_waits"): (
     "concealed_kong_keeping_waits [when ...]", ("a declared player may make a concealed kong of the tile he just "
                                                  "drew, where it keeps his waits")),
    # ---- score ----
    ("score", "define"): ('define NAME ["label"] = EXPRESSION', "a named value, its label shown in explanations"),
    ("score", "value"): ("value = EXPRESSION", "the value of a reading; the best legal reading is scored"),
    ("score", "minimum"): ("minimum N [when|unless CONDITION]", "a reading worth less cannot be declared"),
    ("score", "forbid"): ('forbid "REASON" when CONDITION', ("a reading for which the condition holds cannot be "
                                                             "declared, for this reason")),
    ("score", "prefer"): ("prefer FAN...", ("between readings of equal value, one that counts one of these fans is "
                                            "taken (before the pattern order)")),
    ("score", "tiebreak"): ("tiebreak = EXPRESSION", ("between readings of equal value, the one where this is larger "
                                                       "is taken (several: in order, before `prefer`)")),
    # ---- settlement ----
    ("settlement", "win"): ("win { pay ... }", "payments to each winner (the win context)"),
    ("settlement", "draw"): ("draw { pay ... }", "payments when nobody won (the game context)"),
    ("settlement", "hand_end"): ("hand_end { pay ... }", "payments at every hand's end, won or drawn"),
    ("settlement", "wall_end"): ("wall_end { pay ...; refund ...; transfer ... }",
                                 ("payments when the hand ends with the wall, won or not (查叫, 退税): they may read "
                                  "each seat's hand (`ready`, `best_value`, `suits_held`)")),
    ("settlement", "on_win"): ("on_win { pay ...; refund ...; transfer ... }",
                               ("payments the game makes at each win as it happens (the settle context), from the "
                                "players still in; the payee is the winner")),
    ("settlement", "discard"): ("discard { pay ... }",
                                ("payments at each discard, the moment it is made and before anyone claims it (the "
                                 "game context; `discarder` is who made it, `discards_made` counts it); its "
                                 "conditions are asked at every discard")),
    ("settlement", "first_round"): ("first_round { pay ... }",
                                    ("payments once a hand, at the discard that brings the hand's discards to one per "
                                     "player (the first go-around), the moment it is made: as `discard`, asked once "
                                     "(跟庄 with `first_discards_match`)")),
    ("settlement", "opening"): ("opening { pay ... }",
                                ("payments at the deal, once for each seat that showed an opening hand (the "
                                 "`opening` context: `shower` is its seat and the default payee, `shown` the counts "
                                 "of what it showed, summed); play goes on")),
    ("settlement", "kong"): ("kong exposed|added|concealed [at_once] { pay ... }",
                             "payments for each kong of that kind: at the hand's end, or when it is made (at_once)"),
    ("settlement", "cap"): ("cap loss = EXPRESSION [when ...]", "each payer loses at most this much in one hand"),
    # ---- rotation ----
    ("rotation", "rotate"): ("rotate dealer|next|winner|discarder|last_drawer when CONDITION  |  rotate TARGET "
                             "otherwise",
                             ("who deals next: the first rule whose condition holds; the last says `otherwise`. dealer: "
                              "the same dealer; next: the dealer's next seat; winner: the first winner; discarder: "
                              "the first winner's discarder (a self-draw: next); last_drawer: the player who made "
                              "the hand's last draw (after a drawn hand, who drew the wall's last tile). winner and "
                              "discarder have no seat after a drawn hand: there they mean next, and an `otherwise` "
                              "rule may not name them")),
    ("rotation", "streak"): ("streak = EXPRESSION", ("the new dealer streak (default: one more when the dealer won "
                                                     "and keeps the deal, else 0)")),
    # ---- match ----
    ("match", "hands"): ("hands = COUNT", "the match is this many hands (options only)"),
    ("match", "rounds"): ("rounds = COUNT", (
        "the match is this many rounds (options only): a round ends when the deal has gone once round the table, "
        "a dealer's repeats not counted; the prevalent wind is the round's (East, South, West, North)")),
    ("match", "start"): ("start = SCORE", "each player's score at the start (options only; default 0)"),
    ("match", "end"): ('end ["label"] when CONDITION', (
        "after each hand, the match ends when the condition holds (the match context: the hand's rotation facts, "
        "`score(seat)`, `rank(seat)`, `highest_score`, `lowest_score`, `last_hand`, `round`); the label names the "
        "reason in the match's result")),
    ("match", "extend"): ("extend = ROUNDS when CONDITION", (
        "when the match reaches its length, it plays on into at most ROUNDS more rounds while the condition holds, "
        "asked then and after each hand of the extension")),
    ("match", "pot"): ("pot to first", "the stakes left on the table at the match's end go to the first-ranked player"),
    ("match", "result"): ("result = EXPRESSION", (
        "each seat's final result, asked per seat (`seat`) once the match is over (default: its score): "
        "`(score(seat) - 30000) / 1000 + nth(rank(seat), 15, 5, -5, -15)`")),
    # ---- play ----
    ("play", "after_win"): ("after_win end|leave", ("end: a win ends the hand (the default); leave: the winners "
                                                    "leave it and play goes on among the others")),
    ("play", "ends"): ("ends when CONDITION", ("with after_win leave, the hand ends after a win where this game "
                                               "condition holds (`winners == 3`), or when the wall ends")),
    # ---- declare ----
    ("declare", "choose"): ("choose GROUP GROUP ...", "the tile groups each player chooses one of (2 to 8)"),
    ("declare", "discard_first"): ("discard_first", "a player holding tiles of his choice must discard those first"),
    ("declare", "no_claim"): ("no_claim", "a player never claims a tile of his choice"),
    ("declare", "no_win_holding"): ("no_win_holding", "a player cannot win holding a tile of his choice"),
    # ---- exchange ----
    ("exchange", "tiles"): ("tiles N [same_suit]", ("how many tiles each player passes (all of one suit with "
                                                    "same_suit)")),
    ("exchange", "to"): ("to next|previous|opposite", "to whom, in play order"),
    # ---- map ----
    ("map", "value"): ("value N : TILES...", "these tiles map to N"),
    # ---- horses ----
    ("horses", "point_by"): ("point_by MAP", ("the map from a horse's tile to a seat: its number counts in play "
                                              "order from `count_from`'s seat (0 is that seat)")),
    ("horses", "count_from"): ("count_from dealer|winner|payer", ("the seat a horse's number counts from: the dealer "
                                                                  "(the default, 买马), the winner being settled (扎鸟) "
                                                                  "or the payer of each payment")),
    ("horses", "taken"): ("taken before_play|at_win", ("before_play (the default): set aside from the tail before "
                                                        "the first draw, turned at the first win; at_win: turned "
                                                        "from the wall's head when the first win is made, as many as "
                                                        "are left")),
    # ---- table ----
    ("table", "columns"): ("columns STATUS...", ("the status columns of a table `by pattern, status`; every other "
                                                 "line is a row `PATTERN [MODIFIER...] : CELL...`")),
    # ---- payments ----
    (PAYMENTS, "pay"): ("pay PAYER [to PAYEE] = AMOUNT [when CONDITION]",
                        ("every payer pays every payee except himself; the payee is the winner in `win` and `on_win`, "
                         "the konger in `kong`, and must be named elsewhere; a condition or amount that names "
                         "`payer` or `payee` is asked of each pair")),
    (PAYMENTS, "refund"): ("refund kong|last_kong [when CONDITION]",
                           ("each earlier kong payment (of every kong, or of the latest one) is paid back where its "
                            "receiver (`payer`) and its payer (`payee`) meet the condition (退税); not in `win`")),
    (PAYMENTS, "transfer"): ("transfer kong|last_kong from PAYER to PAYEE [when CONDITION]",
                             ("what the payer received for those kongs goes on to the payee (呼叫转移); not in "
                              "`win`")),
}

# where a section's clauses go (for the reference's headings)
SECTION_TITLES: dict[str, str] = {
    VARIANT: "the variant block",
    PAYMENTS: "inside the settlement's blocks",
}

# reader.PAY_SETS: the players a payment names
PAYERS: dict[str, str] = {
    "others": "every player (a payer never pays himself, so: everyone else); where winners leave, those still in",
    "discarder": "the discarder of the winning tile, or the konger whose kong was robbed",
    "dealer": "the dealer",
    "non_dealers": "every player but the dealer; where winners leave, those still in",
    "winner": "each winner (not in `draw`)",
    "konger": "the player who made the kong (kong blocks only)",
    "players": ("every player, still in the hand or not; a condition naming `payer` and `payee` picks the pairs "
                "(not in `win`)"),
    "feeder": "(on_win) the discarder of the kong a winning replacement followed (杠爆全包)",
    "shower": "(opening) the seat that showed its dealt hand: the payee of the `opening` block",
    "liable": "(on_win) the seat liable for the win being paid (包: a `liability` its result counts); none when none is",
}

# builtins.ALL_CONTEXTS: where an expression is evaluated, and so what it may name
CONTEXTS: dict[str, str] = {
    "hand": "scoring one reading of a winning hand: patterns, modifiers, events, statuses, tables, defines, the "
            "score",
    "win": "the win settlement: the hand, plus `value` and what the game knows (`someone_won`, `winners`, "
           "`dealer_won`)",
    "game": ("the other settlements (draw, hand_end, wall_end, discard, kong) and the cap: facts of the table (of the "
             "finished hand, or as it stands at a discard or kong paid at once)"),
    "rotation": "the rotation rules and the streak",
    "wall": "the wall's `retain`: counts over every player",
    "claim": "`win_on_discard`: may this player win on this discard?",
    "config": ("structural switches (`chi honours when`, `winners ... when`, `seating ... when`) and the counts of "
               "`horses` and `match`: options only"),
    "settle": ("the game's settlement of one win as it happens (`on_win`): the table, plus that win's facts "
               "(`winner`, `value`, `win_by`, `horse_hits`, `fed`, and its patterns by name)"),
    "opening": ("a hand shown at the deal (an `opening` clause and the settlement's `opening` block): the table, "
                "plus `shower` (the seat showing) and `shown` (the counts of what it showed)"),
    "match": ("a match's `end`, `extend` and `result`, asked after a hand: the rotation's facts of that hand, plus "
              "the scores (`score(seat)`, `rank(seat)`, `highest_score`, `lowest_score`) and where the match stands "
              "(`last_hand`, `round`, `hands_played`, `extension`; `seat` in `result`)"),
}

# the operators of the expression language, loosest first (grammar/mjspec.lark)
OPERATORS: tuple[tuple[str, str], ...] = (
    ("if C then A else B", "A where C holds, else B (both branches of one type)"),
    ("A or B", "either holds"),
    ("A and B", "both hold"),
    ("not A", "A does not hold"),
    ("== != < <= > >=", "comparisons (strings and win_by values: == and != only)"),
    ("x in (a, b, ...)", "x equals one of the values"),
    ("+ -", "sum, difference"),
    ("* /", "product, quotient (a division by zero gives 0)"),
    ("^", "power, right-associative: 2 ^ 3 ^ 2 is 2 ^ 9"),
    ("-x", "negation"),
    ("f(x, ...)", "a builtin function"),
    ("( )", "grouping; line breaks inside parentheses are ignored, so a long expression may span lines"),
)
OPERATOR_WORDS = "+ - * / ^, == != < <= > >=, and, or, not, in (...), if ... then ... else"
LINE_BREAK_HINT = ("a line break ends a clause, even in the middle of an expression: to go on on the next line, wrap "
                   "the expression in parentheses ( ... ), inside which line breaks are ignored")

# every error code the compiler emits -> its meaning
ERRORS: dict[str, str] = {
    "E001": "unexpected character (or a spec that is not UTF-8 text)",
    "E002": "input refused: too large (> 1,000,000 characters) or too many tokens (> 200,000)",
    "E003": "unexpected end of file: an unclosed `{`",
    "E004": "unmatched `}`",
    "E005": "unterminated string",
    "E006": "expected an expression after `=`, `when`, `unless` or an operator",
    "E007": "a spec starts with `variant NAME {`",
    "E008": "a clause must start with a keyword",
    "E009": "unexpected word after an expression",
    "E010": "other syntax errors (with the tokens expected there)",
    "E011": "unclosed `(` in an expression",
    "E012": "unknown clause keyword in a section",
    "E013": "a clause's words are wrong (its usage is in the hint)",
    "E014": "an unexpected extra word, value or cells",
    "E015": "unknown name",
    "E016": "unknown tile group",
    "E017": "type error",
    "E018": "duplicate name, clause or table row",
    "E019": "a required clause is missing",
    "E020": "a clause cites a rule id twice",
    "E021": "unknown rule id (outside the spec's `rules`)",
    "E022": "an option without a default",
    "E023": "inconsistent sizes or tile sets (hand size, deal, tiles dealt, overlapping cycles)",
    "E024": "cannot find a variant or a base variant",
    "E025": "`extends` cycle, or a chain too deep",
    "E026": "a name used where it is not available (its context or stage)",
    "E027": "a define that depends on itself",
    "E028": "a table error (unknown row pattern or modifier, cell count, missing row or column)",
    "E029": "bad tiles in a spec",
    "E030": "unknown function, or wrong arguments",
    "E031": "a block where none is allowed, or a missing block",
    "E032": "a condition on a clause that cannot be conditional",
    "E033": "status or rotate rules: `otherwise` missing, or not last",
    "E034": "a clause missing its value or condition",
    "E035": "`remove` names nothing in the base",
    "E036": "nested too deeply: more than 40 brackets and blocks, or an expression of more than 120 levels",
    "E037": "more than 1,000 terms in one `and`/`or`, values in one `in`, or arguments to one call",
    "E038": "division by a constant zero",
    "E039": "a number or a constant expression outside the range of values, +-10^300",
    "E040": "more than 1,000 of one kind of item (patterns, modifiers, ...) or rows in one table",
    "E041": "a settlement with both a win block and an on_win block",
    "E042": "a ready declaration's stake without `by ... with_discard` (a stake is put in when the declaration's "
            "discard is not won on)",
}
