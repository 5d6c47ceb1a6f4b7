"""The IR: frozen dataclasses, fully resolved, deterministic, dumpable to JSON. The back ends' contract."""
from __future__ import annotations

import dataclasses
import json
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

IR_VERSION = 1


@dataclass(frozen=True)
class Src:
    """Where an IR item came from: the rule ids its clause cites, and its spec file and line."""

    rules: tuple[str, ...]
    file: str
    line: int


@dataclass(frozen=True)
class Expr:
    """An expression. op and args:

    const (value,)          a number, bool or string
    enum (name,)            a win_by value such as self_draw
    var (name,)             a builtin variable (see compiler.builtins)
    call (name, arg...)     a builtin function; group arguments are `group` nodes
    group (name, kinds)     a tile group: kinds is a tuple of tile kinds
    opt (name,)             an option's value
    ref (kind, name)        kind is pattern | modifier | event | status (bools) or table | define | fan (numbers:
                            a fan's count after exclusions)
    add sub mul div pow neg  arithmetic;  eq ne lt le gt ge  comparisons;  in (x, a, b, ...)
    and or not              boolean;  if (cond, then, else);  max min (a, b, ...)
    """

    op: str
    args: tuple = ()

    def names(self, op: str) -> frozenset[str]:
        """The names this expression reads through `op` nodes (var: builtins, opt: options, call: functions)."""
        out = {self.args[0]} if self.op == op else set()
        for a in self.args:
            if isinstance(a, Expr):
                out |= a.names(op)
        return frozenset(out)


TRUE = Expr("const", (True,))


@dataclass(frozen=True)
class Option:
    name: str
    description: str
    default: Any
    type: str  # bool | num | str
    src: Src


@dataclass(frozen=True)
class Group:
    name: str
    kinds: tuple[int, ...]


@dataclass(frozen=True)
class Tiles:
    """The tile set: which kinds exist, how many copies, which are playable and which are scored flowers."""

    kinds: tuple[int, ...]
    copies: tuple[int, ...]  # 42 entries, 0 for kinds not in the set
    playable: tuple[int, ...]
    scored_flowers: tuple[int, ...]
    groups: tuple[Group, ...]
    src: Src
    marked: tuple[int, ...] = ()   # kinds of which one copy is marked (赤): the builtin `marked` counts them held

    @property
    def total(self) -> int:
        return sum(self.copies)


@dataclass(frozen=True)
class Deal:
    hand: int
    dealer_hand: int
    rounds: tuple[int, ...]
    dealer_extra: int
    src: Src


@dataclass(frozen=True)
class Procedure:
    """A dice procedure (seating or wall break), kept for replay fidelity."""

    name: str
    params: tuple[str, ...]
    cond: Expr | None
    src: Src


@dataclass(frozen=True)
class Wall:
    draw: str
    replacement: str
    retain: Expr
    final_round: int
    final_round_auto_win: bool
    last_discard_win_only: bool
    kong_needs_replacement: bool
    empty_in_replacement: str  # draw
    src: Src
    indicator_stacks: int = 0   # stacks in the dead wall, each a shown indicator over a hidden one (0: none)
    indicator_after: int = 0    # tiles from the wall's tail before the first stack (the replacement tiles)
    kong_indicators: tuple[KongIndicator, ...] = ()   # when a kong turns the next stack's indicator


@dataclass(frozen=True)
class KongIndicator:
    """`kong_indicator immediate|after_discard KIND... [when ...]`: a kong of these kinds turns the next indicator
    at once (before its replacement is drawn), or when its maker next discards (or declares another kong)."""

    timing: str                 # immediate | after_discard
    kinds: tuple[str, ...]      # exposed, added, concealed
    cond: Expr | None           # config context
    src: Src


@dataclass(frozen=True)
class Flowers:
    replace: str
    initial: str
    in_play: str
    src: Src


MAX_WILD_KINDS = 2  # wild kinds one hand may have (the kernel's limit)


@dataclass(frozen=True)
class WildCase:
    """A wild mode a hand's options choose: `none` (no wild this hand), `fixed` (the kind `fixed`, no indicator
    flipped) or `kinds` (the indicator mode with `kinds` wild kinds: the indicator's successor and the kinds after
    it). `cond` reads options only."""

    mode: str  # none | fixed | kinds
    fixed: int | None
    kinds: int
    cond: Expr
    src: Src


@dataclass(frozen=True)
class HandWild:
    """The wild of one hand, as its options choose it: `mode` none | fixed | successor | indicator, the fixed
    kind (fixed), and how many wild kinds an indicator gives (successor: its successor and the kinds after it)."""

    mode: str
    fixed: int | None
    kinds: int

    @property
    def in_force(self) -> bool:
        return self.mode != "none"

    @property
    def flips(self) -> bool:
        """An indicator is flipped for this hand."""
        return self.mode in ("successor", "indicator")


@dataclass(frozen=True)
class Wild:
    name: str
    label: str
    indicator_end: str  # head | tail | none
    indicator_dice_stack: bool
    indicator_stays: bool
    after_flowers: bool
    flowers_to_dealer: bool
    mode: str  # successor | indicator | fixed: the mode when no case below holds
    cycles: tuple[tuple[int, ...], ...]
    fixed: int | None
    live: int  # live copies of each wild kind; 0: every copy not face up as the indicator (Wild.live_count)
    stands_for: tuple[int, ...]
    face_value: bool
    no_calls: bool
    discard_unclaimable: bool
    src: Src
    kinds: int = 1  # wild kinds the indicator gives when no `kinds` case holds
    cases: tuple[WildCase, ...] = ()  # options choosing another mode (none, fixed) or number of kinds, in order

    def hand(self, holds: Callable[[Expr], bool]) -> HandWild:
        """The hand's wild: the first none/fixed case whose condition holds, else the spec's own mode with the
        first `kinds` case that holds (else `kinds`). `holds` evaluates a condition on the hand's options."""
        kinds = self.kinds
        for c in self.cases:
            if c.mode == "kinds":
                continue
            if holds(c.cond):
                return HandWild(c.mode, c.fixed, 0 if c.mode == "none" else 1)
        if self.mode == "fixed":
            return HandWild("fixed", self.fixed, 1)
        for c in self.cases:
            if c.mode == "kinds" and holds(c.cond):
                kinds = c.kinds
                break
        return HandWild(self.mode, None, kinds)

    def wild_kinds(self, indicator: int, kinds: int = 1) -> tuple[int, ...]:
        """The wild kinds for a flipped indicator: its successor and the kinds - 1 after it in its cycle
        (indicator mode: the indicator's own kind)."""
        if self.mode == "indicator":
            return (indicator,)
        for cyc in self.cycles:
            if indicator in cyc:
                i = cyc.index(indicator) + 1
                return tuple(cyc[(i + j) % len(cyc)] for j in range(kinds))
        raise ValueError(f"indicator kind {indicator} is in no successor cycle")

    def wild_kind(self, indicator: int) -> int:
        """The (first) wild kind for a flipped indicator."""
        if self.mode == "fixed":
            return self.fixed  # type: ignore[return-value]
        return self.wild_kinds(indicator)[0]

    def live_count(self, kinds: tuple[int, ...], copies: tuple[int, ...], indicator_up: bool = True) -> int:
        """The most wild tiles one hand may hold for these wild kinds: `live` of each (default: each kind's
        copies, less the indicator's where it stays face up and is of a wild kind, as in indicator mode)."""
        up = indicator_up and self.indicator_stays and self.mode == "indicator"
        n = 0
        for k in kinds:
            c = copies[k] if 0 <= k < len(copies) else 0
            n += min(c, self.live) if self.live else c - (1 if up and k == kinds[0] and c else 0)
        return n


@dataclass(frozen=True)
class RobWild:
    order: tuple[str, ...]
    requires: tuple[str, ...]
    src: Src


@dataclass(frozen=True)
class WinnerRule:
    mode: str  # first | all
    prefer: tuple[str, ...]
    cond: Expr | None
    src: Src


@dataclass(frozen=True)
class Claims:
    chi_from: str  # previous | any | none
    chi_honours: Expr | None
    pon: bool
    kongs: tuple[str, ...]
    priority: tuple[tuple[str, ...], ...]
    rob_kong: tuple[str, ...]
    win_on_discard: Expr | None  # None: never
    win_on_discard_src: Src | None
    winners: tuple[WinnerRule, ...]
    pass_blocks_ron: Expr | None
    src: Src
    furiten: tuple[str, ...] = ()      # own_discards, passed, declared_passed: what bars a seat's win on a discard
    furiten_when: Expr | None = None   # config context: the furiten rules apply (None: no furiten clause)
    no_swap_calling: Expr | None = None   # config context: after chi or pon, no discard of the claimed kind (or
                                          # a chi's other end); None: swap-calling allowed
    liabilities: tuple[Liability, ...] = ()   # 包: a discarder made liable by the claim of his discard
    robs: tuple[RobRule, ...] = ()   # the rob_kong clauses (rob_kong: the kinds any of them names)


@dataclass(frozen=True)
class RobRule:
    """`rob_kong KINDS [by PATTERN...] [when CONDITION]`: a kong of these kinds (added, concealed) may be robbed by a
    hand that wins on its tile, by one of the patterns where some are named (a concealed kong by 国士無双形 alone),
    where the condition (options only) holds."""

    kinds: tuple[str, ...]
    patterns: tuple[str, ...]
    cond: Expr | None
    src: Src


@dataclass(frozen=True)
class Liability:
    """`liability NAME when CONDITION`: when a pon or exposed kong on a discard leaves the condition true of the
    claimer (`claimer`), the discarder becomes liable for a win of the claimer whose result counts NAME (a fan, a
    pattern, a modifier or an event); the settlement's player set `liable` names him (`liable` the seat, -1 none)."""

    name: str
    cond: Expr   # game context
    src: Src


@dataclass(frozen=True)
class ReadyDeclaration:
    by: str
    window: str
    requires_ready: bool
    locks_hand: bool
    concealed_kong_keeping_waits: Expr | None
    src: Src
    requires_concealed: bool = False   # no meld in the open (a concealed kong is none)
    requires_drawable: int = 0         # at least this many tiles left to draw
    stake: Expr | None = None          # config context: put into the pot when the declaration stands


@dataclass(frozen=True)
class Play:
    """What a win does to the hand: `after_win` end (the hand ends) or leave (the winners leave it and play goes on
    among the others until `ends` holds after a win, or the wall ends)."""

    after_win: str  # end | leave
    ends: Expr | None  # game context; None: the first win ends the hand
    src: Src


@dataclass(frozen=True)
class Choice:
    """One thing a declaration may name: a tile group."""

    name: str
    kinds: tuple[int, ...]


@dataclass(frozen=True)
class Declaration:
    """A choice every player makes at once after the deal (and the exchanges), and what it binds for the hand:
    holding a tile of the choice, discard those first; never claim one; cannot win holding one (定缺)."""

    name: str
    label: str
    choices: tuple[Choice, ...]
    discard_first: bool
    no_claim: bool
    no_win_holding: bool
    cond: Expr | None  # config: the hand has it only when this holds
    src: Src


@dataclass(frozen=True)
class Exchange:
    """Tiles every player passes at once after the deal (换三张): `count` tiles, all of one suit with
    same_suit, to the player `to` (next, previous or opposite in play order)."""

    name: str
    label: str
    count: int
    same_suit: bool
    to: str
    cond: Expr | None  # config
    src: Src


@dataclass(frozen=True)
class Opening:
    """A dealt hand a player may show right after the deal, before the first discard (起手胡): it qualifies when
    `cond` holds of the seat (`shower`), and counts `count` times; the settlement's `opening` block pays each
    seat that showed, once, reading `shown` (the counts of what it showed, summed). Play goes on."""

    name: str
    label: str
    count: Expr  # opening
    cond: Expr  # opening
    src: Src


@dataclass(frozen=True)
class Abort:
    """An abortive draw (途中流局): the hand ends with no win and no payment when `cond` holds, asked each time a
    discard is let go (nobody wins it: moment `passed`) or when players claim a win on one tile, before it is
    taken (moment `wins`)."""

    name: str
    label: str
    moment: str  # passed | wins | first_turn (a player may call it on his first turn: `caller` is his seat)
    cond: Expr   # game context
    src: Src


@dataclass(frozen=True)
class TileMap:
    """A named map from tiles to numbers: `entries` are (number, kinds)."""

    name: str
    entries: tuple[tuple[int, tuple[int, ...]], ...]
    src: Src

    def value(self, kind: int) -> int | None:
        for v, kinds in self.entries:
            if kind in kinds:
                return v
        return None


@dataclass(frozen=True)
class Horses:
    """Tiles turned to point at seats (买马, 扎鸟): `count` tiles, set aside from the tail before play and turned
    at the first win (taken before_play), or turned from the wall's head at the first win (at_win); each points
    at the seat `map` gives it, counted in play order from `count_from` (the dealer, or the winner being
    settled)."""

    count: Expr  # config
    map: str
    src: Src
    count_from: str = "dealer"  # dealer | winner | payer
    taken: str = "before_play"  # before_play | at_win


@dataclass(frozen=True)
class Pattern:
    name: str
    label: str
    shape: str  # standard | pairs | free
    cond: Expr | None
    src: Src


@dataclass(frozen=True)
class Modifier:
    name: str
    label: str
    applies_to: tuple[str, ...]
    cond: Expr
    src: Src


@dataclass(frozen=True)
class Event:
    name: str
    label: str
    cond: Expr
    src: Src


@dataclass(frozen=True)
class Status:
    name: str
    label: str
    cond: Expr | None  # None: otherwise
    src: Src


@dataclass(frozen=True)
class Combo:
    """A combination fan's shape: `size` sets of one kind (seq: sequences; pung: pungs and kongs) related by
    suit (same: one suit; different: each in its own suit) and by rank: consecutive sets (their lowest ranks
    sorted) step by one of `steps`, or their lowest ranks are exactly `ranks` (1-based)."""

    kind: str
    size: int
    suits: str
    steps: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()


@dataclass(frozen=True)
class Fan:
    """A counted scoring element: `points` each time it counts. `count` (a number; a condition counts 1) says how
    many times, or `combo` makes it a combination fan, counted by the account-once rule (see mjrules.model.fans);
    `otherwise`: it counts once when no other fan does (bonus fans aside); `bonus`: it is not part of the hand's
    own fans (`bonus_points`) and never stops an `otherwise` fan. `excludes`: the fans it implies, not counted
    with it (不计)."""

    name: str
    label: str
    points: Any
    count: Expr | None
    combo: Combo | None
    otherwise: bool
    bonus: bool
    excludes: tuple[str, ...]
    src: Src
    open_points: Any = None   # the points while the hand has an exposed meld (食い下がり), when not `points`
    limit: bool = False       # a limit fan: while one counts, no fan that is not a limit counts (役満)

    def points_for(self, exposed: bool) -> Any:
        """The points of one count: `open_points` when the hand is open and the fan says so."""
        return self.open_points if exposed and self.open_points is not None else self.points


@dataclass(frozen=True)
class Define:
    name: str
    expr: Expr
    src: Src
    label: str = ""   # the rule's display name, shown beside the define's value in an explanation


@dataclass(frozen=True)
class TableRow:
    pattern: str
    modifiers: tuple[str, ...]
    cells: tuple[Any, ...]
    src: Src


@dataclass(frozen=True)
class Table:
    """A value table: rows keyed by a pattern plus modifiers; one cell per column of column_var."""

    name: str
    label: str
    column_var: str | None  # status, or None for a single column
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]
    src: Src


@dataclass(frozen=True)
class Minimum:
    amount: Any
    cond: Expr | None
    src: Src


@dataclass(frozen=True)
class Forbid:
    reason: str
    cond: Expr
    src: Src


@dataclass(frozen=True)
class Score:
    value: Expr
    value_src: Src
    minimum: tuple[Minimum, ...]
    forbids: tuple[Forbid, ...]
    prefer: tuple[str, ...] = ()   # fans: among readings of equal value, one that counts one of these is taken
    tiebreak: tuple[Expr, ...] = ()   # among readings of equal value, the larger of these (in order) first


@dataclass(frozen=True)
class Payment:
    """payer pays payee `amount`, for each pair of distinct players in the two sets (the condition, when it names
    payer or payee, is asked of each pair). `action` pay; or refund (each earlier payment of `what` whose payer
    and payee meet the condition is paid back) or transfer (what the payer received for `what` goes on to the
    payee); `what` is kong (every kong payment of the hand) or last_kong (those of the latest kong)."""

    payer: str
    payee: str
    amount: Expr
    cond: Expr | None
    src: Src
    action: str = "pay"
    what: str = ""


@dataclass(frozen=True)
class Settlement:
    win: tuple[Payment, ...]
    draw: tuple[Payment, ...]
    hand_end: tuple[Payment, ...]
    kong_exposed: tuple[Payment, ...]
    kong_added: tuple[Payment, ...]
    kong_concealed: tuple[Payment, ...]
    cap_loss: Expr | None
    cap_cond: Expr | None
    cap_src: Src | None
    wall_end: tuple[Payment, ...] = ()
    on_win: tuple[Payment, ...] = ()
    at_once: tuple[str, ...] = ()  # kong kinds paid when made, not at the hand's end
    discard: tuple[Payment, ...] = ()  # paid at each discard, the moment it is made (before any claim)
    first_round: tuple[Payment, ...] = ()  # paid once, at the discard that makes one per player (before any claim)
    opening: tuple[Payment, ...] = ()  # paid at the deal to each seat that showed an opening hand
    play_only: tuple[tuple[str, str], ...] = ()  # (rule id, why): on_win clauses a hand scored alone cannot pay


@dataclass(frozen=True)
class RotateRule:
    target: str  # dealer | next | winner | discarder
    cond: Expr | None  # None: otherwise
    src: Src


@dataclass(frozen=True)
class Rotation:
    rules: tuple[RotateRule, ...]
    streak: Expr | None
    streak_src: Src | None


@dataclass(frozen=True)
class MatchEnd:
    label: str
    cond: Expr    # the match context, asked after every hand
    src: Src


@dataclass(frozen=True)
class Match:
    """A match (mjrules.game.Match): its length in hands or in rounds (a round: the deal goes once round the table,
    repeats not counted), the players' starting score, the conditions that end it early, an extension while a
    condition holds, where stakes left on the table go at its end, and each seat's final result."""

    hands: Expr | None = None     # config: a fixed number of hands
    rounds: Expr | None = None    # config: a number of rounds
    start: Expr | None = None     # config: each player's starting score (0)
    ends: tuple[MatchEnd, ...] = ()
    extend_rounds: Expr | None = None   # config: at most this many more rounds ...
    extend_cond: Expr | None = None     # ... while this holds (the match context)
    pot_to: str = ""              # "first": the first-ranked player takes the stakes left at the end
    result: Expr | None = None    # the match context, per seat (`seat`): each seat's final result (default: score)
    src: Src | None = None


@dataclass(frozen=True)
class Variant:
    """A checked, fully resolved variant."""

    name: str
    title: str
    labels: tuple[str, ...]
    source: str
    extends: str | None
    rule_prefix: str
    rule_ids: tuple[str, ...]
    spec_sha256: str
    players: int
    tiles: Tiles
    deal: Deal
    seating: tuple[Procedure, ...]
    wall_break: tuple[Procedure, ...]
    wall: Wall
    flowers: Flowers | None
    wild: Wild | None
    rob_wild: RobWild | None
    claims: Claims
    ready_declaration: ReadyDeclaration | None
    patterns: tuple[Pattern, ...]
    modifiers: tuple[Modifier, ...]
    events: tuple[Event, ...]
    statuses: tuple[Status, ...]
    defines: tuple[Define, ...]
    tables: tuple[Table, ...]
    score: Score
    settlement: Settlement
    rotation: Rotation
    options: tuple[Option, ...]
    no_effect: tuple[tuple[str, str], ...]
    citations: tuple[tuple[str, tuple[str, ...]], ...]
    play: Play | None = None
    declarations: tuple[Declaration, ...] = ()
    exchanges: tuple[Exchange, ...] = ()
    maps: tuple[TileMap, ...] = ()
    horses: Horses | None = None
    match: Match | None = None  # a match's length, end and results (mjrules.game.Match)
    fans: tuple[Fan, ...] = ()        # counted fans, in the spec's order (their explanation order)
    openings: tuple[Opening, ...] = ()  # hands a player may show at the deal (起手胡), in the spec's order
    aborts: tuple[Abort, ...] = ()      # abortive draws, in the spec's order
    table_defines: tuple[Define, ...] = ()  # defines only the table can evaluate (they read payer, hits, ...)
    indicator_cycles: tuple[tuple[int, ...], ...] = ()  # `indicators successor ...`: what each indicator points at
    places_win: bool = False   # some expression asks win_in: each placement of the winning tile is a reading

    @property
    def win_size(self) -> int:
        """Tiles in a complete hand (kongs counted as three): the dealer's hand size."""
        return self.deal.dealer_hand

    def option_defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def to_json(self) -> str:
        return dump_json(self)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def to_data(obj: Any) -> Any:
    """The IR as plain JSON data: dataclasses become objects (with a `_` type tag for Expr-free nodes)."""
    if isinstance(obj, Expr):
        return [obj.op, *[to_data(a) for a in obj.args]]
    if dataclasses.is_dataclass(obj):
        return {name: to_data(getattr(obj, name)) for name in _field_names(type(obj))}
    if isinstance(obj, (tuple, list)):
        return [to_data(x) for x in obj]
    return obj


# id(variant) -> (weak reference, its JSON): a Variant is immutable, so its JSON is computed once. The
# native backend's cache key hashes it on every load.
_DUMPED: dict[int, tuple[weakref.ref, str]] = {}


def _remember(variant: Variant, text: str) -> None:
    key = id(variant)
    try:
        ref = weakref.ref(variant, lambda _r, key=key: _DUMPED.pop(key, None))
    except TypeError:  # pragma: no cover - not weakly referenceable
        return
    _DUMPED[key] = (ref, text)


def dump_json(variant: Variant) -> str:
    """Deterministic JSON: sorted keys, fixed separators, one trailing newline."""
    hit = _DUMPED.get(id(variant))
    if hit is not None and hit[0]() is variant:
        return hit[1]
    data = {"ir_version": IR_VERSION, "variant": to_data(variant)}
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
    _remember(variant, text)
    return text


def _decode(tp: Any, data: Any) -> Any:
    """JSON data of type `tp` back to IR values (see _decoder)."""
    return _decoder(tp)(data)


_DECODERS: dict[Any, Callable[[Any], Any]] = {}


def _same(data: Any) -> Any:
    return data


_HINTS: dict[str, Any] = {}


def _hint(annotation: Any) -> Any:
    """A field's annotation as a type: what typing.get_type_hints gives for the IR's dataclasses (their
    annotations are strings naming this module's classes and builtins), evaluated once per string."""
    if not isinstance(annotation, str):
        return annotation
    tp = _HINTS.get(annotation)
    if tp is None:
        tp = _HINTS[annotation] = eval(annotation, globals())  # this module's own annotations
    return tp


def _decoder(tp: Any) -> Callable[[Any], Any]:
    """The decoding function for a type, built once per type: the type hints of each dataclass are
    evaluated once per process rather than once per object. None decodes to None for every type."""
    fn = _DECODERS.get(tp)
    if fn is not None:
        return fn
    import types
    import typing

    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        fn = _decoder(args[0]) if len(args) == 1 else _same  # e.g. int | None stays as it is
    elif tp is Expr:
        def fn(data: Any) -> Any:
            return None if data is None else Expr(data[0], tuple([_decode_expr_arg(a) for a in data[1:]]))
    elif origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])

            def fn(data: Any) -> Any:
                return None if data is None else tuple([item(x) for x in data])
        else:
            items = [_decoder(a) for a in args]

            def fn(data: Any) -> Any:
                return None if data is None else tuple([f(x) for f, x in zip(items, data)])
    elif dataclasses.is_dataclass(tp):
        fields = [(f.name, _decoder(_hint(f.type))) for f in dataclasses.fields(tp)]

        def fn(data: Any) -> Any:
            return None if data is None else tp(**{name: f(data[name]) for name, f in fields})
    else:
        fn = _same
    _DECODERS[tp] = fn
    return fn


def _decode_expr_arg(a: Any) -> Any:
    if isinstance(a, list):
        if a and isinstance(a[0], str) and a[0] in _EXPR_OPS:
            return Expr(a[0], tuple(_decode_expr_arg(x) for x in a[1:]))
        return tuple(a)
    return a


_EXPR_OPS = {"const", "enum", "var", "call", "group", "opt", "ref", "add", "sub", "mul", "div", "pow", "neg",
             "eq", "ne", "lt", "le", "gt", "ge", "in", "and", "or", "not", "if", "max", "min"}


def load_json(text: str) -> Variant:
    """The inverse of dump_json: rebuild the IR from its JSON."""
    data = json.loads(text)
    if data.get("ir_version") != IR_VERSION:
        raise ValueError(f"IR version {data.get('ir_version')} is not {IR_VERSION}")
    return _decode(Variant, data["variant"])


def hand_exprs(v: Variant) -> list[Expr]:
    """Every expression scoring a hand reads: patterns, modifiers, events, statuses, defines, the score (value,
    forbids, minimums, tiebreaks) and the fans' counts."""
    out: list[Expr | None] = [p.cond for p in v.patterns] + [m.cond for m in v.modifiers]
    out += [e.cond for e in v.events] + [s.cond for s in v.statuses] + [d.expr for d in v.defines]
    out += [v.score.value] + [f.cond for f in v.score.forbids] + [m.cond for m in v.score.minimum]
    out += list(v.score.tiebreak) + [f.count for f in v.fans]
    return [e for e in out if e is not None]


def expr_nodes(e: Expr) -> list[Expr]:
    """An expression and all its sub-expressions, iteratively."""
    out, todo = [], [e]
    while todo:
        x = todo.pop()
        out.append(x)
        todo += [a for a in x.args if isinstance(a, Expr)]
    return out


def fan_reads(fans: list[Fan] | tuple[Fan, ...], defines: dict[str, Expr]) -> dict[str, set[str]]:
    """Per fan (by name), the fans its count after exclusions reads: those its count reads (through defines too;
    every fan where it reads fan_points or bonus_points), those that exclude it, for an `otherwise` fan every
    other one but the bonus fans, and for a fan that is not a limit every limit fan. The checker refuses a cycle
    (E027); the native fan sum works the fans out in an order that follows it (codegen.fan_order)."""
    names = {f.name for f in fans}
    deps: dict[str, set[str]] = {f.name: set() for f in fans}
    for f in fans:
        if f.count is not None:
            seen: set[str] = set()
            todo = [f.count]
            while todo:
                x = todo.pop()
                if x.op == "ref" and x.args[0] == "fan":
                    deps[f.name].add(x.args[1])
                elif x.op == "ref" and x.args[0] == "define" and x.args[1] not in seen:
                    seen.add(x.args[1])
                    d = defines.get(x.args[1])
                    if d is not None:
                        todo.append(d)
                elif x.op == "var" and x.args[0] in ("fan_points", "bonus_points"):
                    deps[f.name] |= names
                todo += [a for a in x.args if isinstance(a, Expr)]
        for x in f.excludes:
            if x in deps:
                deps[x].add(f.name)
        if f.otherwise:
            deps[f.name] |= {g.name for g in fans if g is not f and not g.bonus}
        if not f.limit:   # a fan that is not a limit counts only while no limit fan does
            deps[f.name] |= {g.name for g in fans if g.limit}
    return deps


def reads_vars(v: Variant, names: tuple[str, ...]) -> bool:
    """Does scoring a hand read one of these builtin variables?"""
    return any(x.op == "var" and x.args[0] in names for e in hand_exprs(v) for x in expr_nodes(e))


def asks_placement(v: Variant) -> bool:
    """Does scoring a hand ask where its winning tile is placed (win_in)? Then each placement is a reading."""
    return any(x.op == "call" and x.args[0] == "win_in" for e in hand_exprs(v) for x in expr_nodes(e))
