"""Readable views of a compiled variant: expressions in spec syntax, a Markdown rule book, a summary line."""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mjrules.model.tiles import chinese_name, format_tiles, suit_of, tile_name

if TYPE_CHECKING:  # the IR is read by attribute only: importing it would load the compiler (and lark)
    from mjrules.compiler.ir import Expr, Payment, Src, Table, Variant

__all__ = ["format_expr", "render_markdown", "render_summary_line"]

# ---- expressions -------------------------------------------------------------------------------------
# Binding levels, loosest first, as in grammar/mjspec.lark: an operand whose level is below what its
# position needs is parenthesised.
_IF, _OR, _AND, _NOT, _CMP, _SUM, _PROD, _POWER, _ATOM = range(9)
_ARITH = {"add": ("+", _SUM), "sub": ("-", _SUM), "mul": ("*", _PROD), "div": ("/", _PROD)}
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def _value(x: Any) -> str:
    """A constant as the spec writes it: true/false, a quoted string, or a number."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, str):
        return '"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(x)


def _is_negative(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x < 0


def _group_text(name: str, kinds: tuple[int, ...]) -> str:
    # the checker labels a sum of groups (terminals + honours) just "group": show its tiles instead
    return format_tiles(kinds) if name == "group" else name


def _sub(e: Expr, need: int) -> str:
    text, level = _fmt(e)
    return f"({text})" if level < need else text


def _fmt(e: Expr) -> tuple[str, int]:
    op, a = e.op, e.args
    if op == "const":
        return _value(a[0]), _POWER if _is_negative(a[0]) else _ATOM
    if op in ("enum", "var", "opt"):
        return str(a[0]), _ATOM
    if op == "ref":
        return str(a[1]), _ATOM
    if op == "group":
        return _group_text(a[0], a[1]), _ATOM
    if op == "call":
        return f"{a[0]}({', '.join(_sub(x, _IF) for x in a[1:])})", _ATOM
    if op in ("max", "min"):
        return f"{op}({', '.join(_sub(x, _IF) for x in a)})", _ATOM
    if op in _ARITH:  # left-associative: the right operand binds one level tighter
        sym, level = _ARITH[op]
        return f" {sym} ".join([_sub(a[0], level)] + [_sub(x, level + 1) for x in a[1:]]), level
    if op == "pow":  # right-associative, and its base is an atom
        return f"{_sub(a[0], _ATOM)} ^ {_sub(a[1], _POWER)}", _POWER
    if op == "neg":
        inner = _sub(a[0], _POWER)
        return "-" + (f"({inner})" if inner.startswith("-") else inner), _POWER
    if op in _COMPARE:
        return f"{_sub(a[0], _SUM)} {_COMPARE[op]} {_sub(a[1], _SUM)}", _CMP
    if op == "in":
        return f"{_sub(a[0], _SUM)} in ({', '.join(_sub(x, _IF) for x in a[1:])})", _CMP
    if op == "not":
        return "not " + _sub(a[0], _NOT), _NOT
    if op == "and":
        return " and ".join(_sub(x, _NOT) for x in a), _AND
    if op == "or":  # the one non-minimal rule: `a or (b and c)`, as the specs write it, never `a or b and c`
        return " or ".join(_sub(x, _NOT) for x in a), _OR
    if op == "if":
        return f"if {_sub(a[0], _OR)} then {_sub(a[1], _OR)} else {_sub(a[2], _IF)}", _IF
    raise ValueError(f"unknown expression op {op!r}")


def format_expr(e: Expr) -> str:
    """An IR expression in spec syntax, with only the parentheses its precedence needs."""
    return _fmt(e)[0]


# ---- Markdown helpers --------------------------------------------------------------------------------
# compiler.builtins.BUILTIN_GROUPS, by name (tests keep the two in step); any other group is the spec's own
_BUILTIN_GROUP_NAMES = frozenset({"m", "p", "s", "suited", "honours", "winds", "dragons", "terminals", "simples",
                                  "flowers", "seasons", "plants", "all"})
_SUITS = (("m", "Characters"), ("p", "Dots"), ("s", "Bamboo"), ("z", "Honours"), ("f", "Flowers"))


def _ids(src: Src | None) -> str:
    """' [SR-12, SR-01]' for an item citing rules, else ''."""
    return f" [{', '.join(src.rules)}]" if src is not None and src.rules else ""


def _rules(src: Src | None) -> str:
    return ", ".join(src.rules) if src is not None else ""


def _code(e: Expr | None, none: str = "—") -> str:
    return none if e is None else f"`{format_expr(e)}`"


def _when(e: Expr | None, none: str = "") -> str:
    """' when `cond`', or `none` for an unconditional item."""
    if e is None or (e.op == "const" and e.args[0] is True):
        return none
    return f" when {_code(e)}"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> list[str]:
    head = [_cell(h) for h in header]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def _tiles(kinds: Iterable[int]) -> str:
    kinds = tuple(kinds)
    return f"`{format_tiles(kinds)}`" if kinds else "none"


def _cycle(cyc: tuple[int, ...]) -> str:
    names = [tile_name(k) for k in cyc]
    shown = names if len(names) <= 4 else names[:2] + ["…", names[-1]]
    return "`" + "→".join(shown + [names[0]]) + "`"


def _group_named(v: Variant, kinds: tuple[int, ...]) -> str:
    for g in v.tiles.groups:
        if tuple(g.kinds) == tuple(kinds):
            return f"`{g.name}` ({len(kinds)} kinds: {_tiles(kinds)})"
    return f"{len(kinds)} kinds: {_tiles(kinds)}"


def _word(table: dict[str, str], value: str) -> str:
    return table.get(value, f"`{value}`")


def _payment(p: Payment) -> str:
    if p.action == "refund":
        return f"- every {_word(_WHAT, p.what)} payment is paid back{_when(p.cond)}{_ids(p.src)}"
    if p.action == "transfer":
        return (f"- `{p.payer}` hands `{p.payee}` what it received for {_word(_WHAT, p.what)}{_when(p.cond)}"
                f"{_ids(p.src)}")
    return f"- `{p.payer}` pays `{p.payee}` {_code(p.amount)}{_when(p.cond)}{_ids(p.src)}"


_WHAT = {"kong": "kong", "last_kong": "the latest kong"}


def _section(out: list[str], title: str, src: Src | None = None) -> None:
    out += ["", f"## {title}{_ids(src)}", ""]


# ---- Markdown sections -------------------------------------------------------------------------------
def _tiles_section(v: Variant, out: list[str]) -> None:
    t = v.tiles
    _section(out, "Tiles", t.src)
    out.append(f"- Kinds: {len(t.kinds)}, {_tiles(t.kinds)}")
    for suit, label in _SUITS:
        ks = [k for k in t.kinds if suit_of(k) == suit]
        if ks:
            out.append(f"  - {label} ({suit}): {' '.join(chinese_name(k) for k in ks)}")
    by_copies: dict[int, list[int]] = {}
    for k in t.kinds:
        by_copies.setdefault(t.copies[k], []).append(k)
    copies = "; ".join(f"{n} of each of {_tiles(ks)}" for n, ks in sorted(by_copies.items(), reverse=True))
    out.append(f"- Total: {t.total} tiles; copies: {copies}")
    out.append("- Playable (kept in the hand): " + ("every kind" if t.playable == t.kinds else _tiles(t.playable)))
    out.append("- Scored flowers (set aside when drawn and replaced): " + _tiles(t.scored_flowers))
    user = [g for g in t.groups if g.name not in _BUILTIN_GROUP_NAMES]
    for g in user:
        out.append(f"- Group `{g.name}` = {_tiles(g.kinds)} ({' '.join(chinese_name(k) for k in g.kinds)})")
    if not user:
        out.append("- Groups of its own: none")


def _players_section(v: Variant, out: list[str]) -> None:
    d = v.deal
    _section(out, "Players and deal")
    out.append(f"- Players: {v.players}")
    out.append(f"- Hands: {d.hand} tiles, the dealer {d.dealer_hand}")
    out.append(f"- Dealing: rounds of {', '.join(map(str, d.rounds))} tiles, "
               f"then the dealer takes {d.dealer_extra} more{_ids(d.src)}")
    for label, procs in (("Seating (first dealer)", v.seating), ("Wall break", v.wall_break)):
        for p in procs:
            out.append(f"- {label}: `{' '.join((p.name, *p.params))}`{_when(p.cond)}{_ids(p.src)}")
        if not procs:
            out.append(f"- {label}: none")


def _wall_section(v: Variant, out: list[str]) -> None:
    w = v.wall
    _section(out, "Wall", w.src)
    out.append(f"- Draws come from the {w.draw}; replacement tiles from the {w.replacement}")
    if w.retain.op == "const" and w.retain.args[0] == 0:
        out.append("- Retained tiles (never drawn): none (`retain = 0`): the wall is drawn to its last tile")
    else:
        out.append(f"- Retained tiles (never drawn): {_code(w.retain)}, counted over every player")
    if w.final_round:
        auto = "; a drawn tile that wins is won automatically" if w.final_round_auto_win else ""
        out.append(f"- Final round: when a normal draw is due and at most {w.final_round} drawable tiles remain "
                   f"(D), the next min(D, {w.final_round}) players each draw one tile, without discarding{auto}")
    else:
        out.append("- Final round: none; play goes on until the last drawable tile")
    out.append("- Last discard: " + ("only a win may be claimed on it" if w.last_discard_win_only
                                     else "claimed like any other"))
    out.append("- Kong guard: " + ("a kong is legal only while its replacement tile can still be drawn"
                                   if w.kong_needs_replacement else "none"))
    out.append("- Wall exhausted during a replacement: " + _word({"draw": "the hand ends drawn"},
                                                                 w.empty_in_replacement))


def _flowers_section(v: Variant, out: list[str]) -> None:
    f = v.flowers
    if f is None:
        return
    _section(out, "Flowers", f.src)
    out.append(f"- Replacements come from the {f.replace}")
    out.append("- After the deal: " + _word({"rounds_from_dealer": "replaced in rounds, dealer first; flowers "
                                             "drawn in a round wait for the next round"}, f.initial))
    out.append("- During play: " + _word({"immediately": "a drawn flower is exposed and replaced at once, "
                                          "repeatedly"}, f.in_play))


def _wild_section(v: Variant, out: list[str]) -> None:
    w = v.wild
    if w is None:
        return
    _section(out, f"Wild: {w.name}" + (f" ({w.label})" if w.label != w.name else ""), w.src)
    if w.indicator_end == "none":
        out.append("- Indicator: none")
    else:
        how = f"flipped from the {w.indicator_end} of the wall"
        how += ", at the stack the dice count to" if w.indicator_dice_stack else ""
        how += ", after the flowers are replaced" if w.after_flowers else ""
        how += "; a flipped flower goes to the dealer and another tile is flipped" if w.flowers_to_dealer else ""
        how += "; it stays face up in the wall and draws skip it" if w.indicator_stays else ""
        out.append("- Indicator: " + how)
    if w.mode == "successor":
        out.append("- Wild kind: the successor of the indicator's kind in its cycle: "
                   + ", ".join(_cycle(c) for c in w.cycles))
    elif w.mode == "indicator":
        out.append("- Wild kind: the indicator's kind")
    else:
        fixed = "?" if w.fixed is None else f"`{tile_name(w.fixed)}` ({chinese_name(w.fixed)})"
        out.append(f"- Wild kind: always {fixed}")
    if w.kinds > 1:
        out.append(f"- Wild kinds: {w.kinds}, the indicator's successor and the kinds after it")
    for c in w.cases:   # options choosing another mode, in order
        if c.mode == "none":
            out.append(f"- No wild{_when(c.cond)}{_ids(c.src)}")
        elif c.mode == "fixed":
            fixed = "?" if c.fixed is None else f"`{tile_name(c.fixed)}` ({chinese_name(c.fixed)})"
            out.append(f"- The wild is {fixed}, nothing flipped,{_when(c.cond)}{_ids(c.src)}")
        else:
            out.append(f"- {c.kinds} wild kinds (the indicator's successor and the kinds after it){_when(c.cond)}"
                       f"{_ids(c.src)}")
    out.append("- Live copies: " + (f"{w.live}" if w.live else "every copy of each wild kind, less a face-up "
                                                              "indicator of that kind"))
    out.append(f"- Stands for: {_group_named(v, w.stands_for)}")
    out.append("- Face value: " + ("a wild may also be itself" if w.face_value else "no"))
    out.append("- Calls: " + ("a wild is never used in chi, pon or kong" if w.no_calls else "allowed"))
    out.append("- Discarding a wild: " + ("nobody may claim it or win on it; `wild_discards` counts it"
                                          if w.discard_unclaimable else "an ordinary discard"))


def _claims_section(v: Variant, out: list[str]) -> None:
    if v.rob_wild is not None:
        r, name = v.rob_wild, v.wild.name if v.wild else "wild"
        _section(out, "Rob-wild window", r.src)
        out.append(f"- After the first discard, before any claim, a player may win by robbing the {name} indicator")
        out.append(f"- Order: {' then '.join(f'`{o}`' for o in r.order)}")
        out.append(f"- Requires the pattern: {', '.join(r.requires) or 'any'}")
    c = v.claims
    _section(out, "Claims", c.src)
    chi = _word({"previous": "from the previous player (上家) only", "any": "from any player",
                 "none": "not allowed"}, c.chi_from)
    honours = "honour sequences not allowed" if c.chi_honours is None else \
        "honour sequences allowed" + _when(c.chi_honours)
    out.append(f"- Chi: {chi}; {honours}")
    out.append("- Pon: " + ("allowed" if c.pon else "not allowed"))
    out.append("- Kongs: " + (", ".join(c.kongs) or "none"))
    out.append("- Priority: `" + " > ".join(" = ".join(level) for level in c.priority) + "`")
    out.append("- Rob kong: " + ("; ".join(", ".join(rr.kinds) + " kongs may be robbed"
                                           + (f" by {', '.join(rr.patterns)}" if rr.patterns else "")
                                           + (f" when {_code(rr.cond)}" if rr.cond is not None else "")
                                           for rr in c.robs) if c.robs else "never"))
    wod = "never" if c.win_on_discard is None else _when(c.win_on_discard, " always").lstrip()
    out.append(f"- Win on a discard: {wod}")
    for w in c.winners:
        who = "the first claimant in play order" if w.mode == "first" else "every claimant wins"
        prefer = f", but {', '.join(w.prefer)} beats play order" if w.prefer else ""
        out.append(f"- Winners: {who}{prefer}{_when(w.cond)}{_ids(w.src)}")
    if c.pass_blocks_ron is not None:
        out.append("- Passing a win: the player may not win on a discard until his next draw"
                   + _when(c.pass_blocks_ron))
    if c.furiten:
        what = {"own_discards": "a wait among his own discards", "passed": "a wait he let go (until his next discard)",
                "declared_passed": "a wait he let go after declaring ready (to the end of the hand)"}
        out.append("- Furiten: no win on a discard or a robbed kong after " + "; ".join(what[f] for f in c.furiten)
                   + _when(c.furiten_when))
    if c.no_swap_calling is not None:
        out.append("- No swap-calling: after chi or pon, no discard of the claimed kind (or a chi's other end)"
                   + _when(c.no_swap_calling))
    r = v.ready_declaration
    if r is not None:
        _section(out, "Ready declaration", r.src)
        who = _word({"non_dealers": "non-dealers", "all": "every player"}, r.by)
        window = _word({"before_first_discard": "before the first discard",
                        "with_discard": "on his turn, together with a discard"}, r.window)
        out.append(f"- Who: {who}, {window}")
        out.append("- Requires a ready hand: " + ("yes" if r.requires_ready else "no"))
        if r.requires_concealed:
            out.append("- Requires a concealed hand (no meld in the open)")
        if r.requires_drawable:
            out.append(f"- Requires at least {r.requires_drawable} tiles left to draw")
        if r.stake is not None:
            out.append(f"- Stake: {format_expr(r.stake)} into the pot when the declaration stands; the hand's first "
                       "winner takes the pot")
        out.append("- Locks the hand: " + ("yes: every drawn tile that does not win is discarded; no chi, pon or "
                                           "kong" if r.locks_hand else "no"))
        ck = "not allowed" if r.concealed_kong_keeping_waits is None else \
            "allowed" + _when(r.concealed_kong_keeping_waits)
        out.append(f"- A concealed kong that keeps the waits: {ck}")


_SHAPES = {"standard": "standard (sets and a pair)", "pairs": "pairs", "free": "free (the condition decides)"}


def _hand_section(v: Variant, out: list[str]) -> None:
    _section(out, "Patterns")
    out += _table(["Pattern", "Label", "Shape", "Condition", "Rules"],
                  [[p.name, p.label, _word(_SHAPES, p.shape), _code(p.cond, "always"), _rules(p.src)]
                   for p in v.patterns])
    _section(out, "Modifiers")
    if v.modifiers:
        out += _table(["Modifier", "Label", "Applies to", "Condition", "Rules"],
                      [[m.name, m.label, " ".join(m.applies_to), _code(m.cond), _rules(m.src)] for m in v.modifiers])
    else:
        out.append("None.")
    _section(out, "Events")
    if v.events:
        out += _table(["Event", "Label", "Condition", "Rules"],
                      [[e.name, e.label, _code(e.cond), _rules(e.src)] for e in v.events])
    else:
        out.append("None.")
    _section(out, "Statuses")
    if v.statuses:
        out.append("Checked in this order; the first that holds applies.")
        out.append("")
        for i, s in enumerate(v.statuses, 1):
            cond = "otherwise" if s.cond is None else f"when {_code(s.cond)}"
            out.append(f"{i}. **{s.name}** ({s.label}) {cond}{_ids(s.src)}")
    else:
        out.append("None.")
    _section(out, "Defines")
    for d in v.defines:
        out.append(f"- `{d.name}` = {_code(d.expr)}{_ids(d.src)}")
    for d in v.table_defines:
        out.append(f"- `{d.name}` = {_code(d.expr)} (where the game settles){_ids(d.src)}")
    if not v.defines and not v.table_defines:
        out.append("None.")


def _table_section(t: Table, out: list[str]) -> None:
    out += ([""] if out[-1] else []) + [f"### Table `{t.name}`: {t.label}{_ids(t.src)}", ""]
    by = f"; columns by `{t.column_var}`" if t.column_var else "; one value per row"
    out.append(f"Rows by pattern and modifiers{by}.")
    out.append("")
    with_rules = any(r.src.rules for r in t.rows)
    header = ["Pattern + modifiers", *(t.columns if t.column_var else ["Value"])] + (["Rules"] if with_rules else [])
    rows = [[" ".join((r.pattern, *r.modifiers)), *map(_value, r.cells)] + ([_rules(r.src)] if with_rules else [])
            for r in t.rows]
    out += _table(header, rows)


def _value_sections(v: Variant, out: list[str]) -> None:
    _section(out, "Tables")
    for t in v.tables:
        _table_section(t, out)
    if not v.tables:
        out.append("None.")
    s = v.score
    _section(out, "Score")
    out.append(f"- Value: {_code(s.value)}{_ids(s.value_src)}")
    for m in s.minimum:
        out.append(f"- Minimum to declare a win: {_value(m.amount)}{_when(m.cond)}{_ids(m.src)}")
    if not s.minimum:
        out.append("- Minimum to declare a win: none")
    for f in s.forbids:
        out.append(f"- Forbidden when {_code(f.cond)}: {f.reason}{_ids(f.src)}")
    st = v.settlement
    _section(out, "Settlement")
    out.append("Each line: every player of the payer set pays every other player of the payee set.")
    at_once = lambda kind: " (paid when it is made)" if kind in st.at_once else " (paid at the hand's end)"  # noqa: E731
    for title, pays in (("Win (settled with the hand's value)", () if st.on_win else st.win),
                        ("Each win, settled by the game as it happens (on_win; a hand scored alone is paid as the "
                         "hand's first win, every player in)", st.on_win),
                        ("Draw", st.draw), ("End of every hand", st.hand_end), ("End of the wall", st.wall_end),
                        ("Each discard, paid the moment it is made", st.discard),
                        ("The first go-around, paid at its last discard", st.first_round),
                        ("Each hand shown at the deal (opening), paid before the first discard", st.opening),
                        ("Exposed kong" + at_once("exposed"), st.kong_exposed),
                        ("Added kong" + at_once("added"), st.kong_added),
                        ("Concealed kong" + at_once("concealed"), st.kong_concealed)):
        out += ["", f"### {title}", ""]
        out += [_payment(p) for p in pays] or ["None."]
    out += ["", "### Cap", ""]
    if st.cap_loss is None:
        out.append("None.")
    else:
        out.append(f"- Each payer loses at most {_code(st.cap_loss)} per hand{_when(st.cap_cond)}{_ids(st.cap_src)}")
    ro = v.rotation
    _section(out, "Rotation")
    out.append("The first rule that holds chooses the next dealer.")
    out.append("")
    targets = {"dealer": "the dealer keeps the deal", "next": "the deal passes to the next player",
               "winner": "the winner deals next", "discarder": "the discarder deals next"}
    for i, r in enumerate(ro.rules, 1):
        cond = "otherwise" if r.cond is None else f"when {_code(r.cond)}"
        out.append(f"{i}. `{r.target}` {cond}: {_word(targets, r.target)}{_ids(r.src)}")
    out.append("")
    out.append("Dealer streak: " + ("no `streak` formula" if ro.streak is None else _code(ro.streak) + _ids(ro.streak_src)))


def _flow_section(v: Variant, out: list[str]) -> None:
    """What a win does to the hand, the steps before play, horses and tile maps."""
    _section(out, "Game flow", v.play.src if v.play else None)
    if v.play is None or v.play.after_win == "end":
        out.append("- A win ends the hand.")
    else:
        out.append("- A winner leaves the hand; play goes on among the others from the seat after the (last) winner"
                   + (f", until {_code(v.play.ends)}" if v.play.ends is not None else "") + ", or the wall's end.")
    for x in v.exchanges:
        out.append(f"- Before play, {x.name} ({x.label}){_when(x.cond)}: every player passes {x.count} tiles"
                   f"{' of one suit' if x.same_suit else ''} to the {x.to} player, all at once{_ids(x.src)}")
    for d in v.declarations:
        binds = [w for w, on in (("discarded first", d.discard_first), ("never claimed", d.no_claim),
                                 ("never held in a win", d.no_win_holding)) if on]
        out.append(f"- Before play, {d.name} ({d.label}){_when(d.cond)}: every player names one of "
                   f"{', '.join(c.name for c in d.choices)}, all at once; its tiles are {', '.join(binds) or 'free'}"
                   f"{_ids(d.src)}")
    for o in v.openings:
        out.append(f"- At the deal, a player may show {o.name} ({o.label}) when {_code(o.cond)}"
                   + ("" if o.count.op == "const" and o.count.args == (1,) else f", counted {_code(o.count)} times")
                   + f"; the settlement's `opening` block pays it{_ids(o.src)}")
    if v.horses is not None:
        h = v.horses
        taken = ("from the tail, set aside before play and turned at the first win" if h.taken == "before_play"
                 else "turned from the wall's head at the first win (as many as are left)")
        out.append(f"- Horses: {_code(h.count)} tiles {taken}; each points at a seat counted from the "
                   f"{h.count_from} by map `{h.map}`{_ids(h.src)}")
    for m in v.maps:
        out.append(f"- Map `{m.name}`: " + "; ".join(f"{n} ← {_tiles(k)}" for n, k in m.entries) + _ids(m.src))
    m = v.match
    if m is not None:
        out.append(f"- A match is {_code(m.hands)} hands" if m.hands is not None else
                   f"- A match is {_code(m.rounds)} rounds (the deal goes round the table; repeats do not count)")
        if m.start is not None:
            out[-1] += f"; each player starts with {_code(m.start)}"
        out[-1] += _ids(m.src)
        for e in m.ends:
            out.append(f"- The match ends ({e.label}) after a hand when {_code(e.cond)}{_ids(e.src)}")
        if m.extend_cond is not None:
            out.append(f"- At its length it goes on, at most {_code(m.extend_rounds)} more rounds, while "
                       f"{_code(m.extend_cond)}")
        if m.pot_to:
            out.append("- Stakes left on the table at the end go to the player ranked first")
        if m.result is not None:
            out.append(f"- Each seat's result: {_code(m.result)}")


def _coverage(v: Variant) -> tuple[dict[str, tuple[str, ...]], dict[str, list[str]], list[str]]:
    cited = dict(v.citations)
    no_effect: dict[str, list[str]] = {}
    for rid, reason in v.no_effect:
        no_effect.setdefault(rid, []).append(reason)
    missing = [r for r in v.rule_ids if r not in cited and r not in no_effect]
    return cited, no_effect, missing


def _rule_ids_section(v: Variant, out: list[str]) -> None:
    cited, no_effect, _ = _coverage(v)
    _section(out, "Rule ids")
    rows = []
    for rid in v.rule_ids:
        reasons = no_effect.get(rid, [])
        # a no_effect clause is itself a citation; show its reason once
        clauses = [c for c in cited.get(rid, ()) if not any(c.endswith(" no_effect " + r) for r in reasons)]
        where = [f"no effect: {r}" if clauses else r for r in reasons] + list(clauses)
        status = "; ".join(["cited"] * bool(clauses) + ["no effect"] * bool(reasons)) or "NOT COVERED"
        rows.append([rid, status, "; ".join(where) or "NOT COVERED"])
    out += _table(["Rule", "Status", "Where"], rows)


def _options_section(v: Variant, out: list[str]) -> None:
    _section(out, "Options")
    if v.options:
        out += _table(["Option", "Type", "Default", "Description", "Rules"],
                      [[o.name, o.type, _value(o.default), o.description, _rules(o.src)] for o in v.options])
    else:
        out.append("None.")


def render_markdown(v: Variant) -> str:
    """The variant as a Markdown rule book, every item with the rule ids it cites."""
    first, last = (v.rule_ids[0], v.rule_ids[-1]) if v.rule_ids else ("none", "none")
    out = [f"# {v.title} (`{v.name}`)", "",
           f"- Labels: {' · '.join(v.labels)}",
           f"- Source: `{v.source}`",
           f"- Rule ids: {first} … {last} ({len(v.rule_ids)} ids)",
           f"- Extends: {v.extends or 'nothing'}",
           f"- Spec sha256: `{v.spec_sha256[:16]}`",
           f"- Summary: {render_summary_line(v)}"]
    _tiles_section(v, out)
    _players_section(v, out)
    _wall_section(v, out)
    _flowers_section(v, out)
    _wild_section(v, out)
    _claims_section(v, out)
    _flow_section(v, out)
    _hand_section(v, out)
    _value_sections(v, out)
    _options_section(v, out)
    _rule_ids_section(v, out)
    return "\n".join(out) + "\n"


def render_summary_line(v: Variant) -> str:
    """'NAME (TITLE): 5 patterns, 3 modifiers, 7 options, rule ids 20/20 covered[; not covered: ...]'."""
    _, _, missing = _coverage(v)
    n = len(v.rule_ids)
    line = (f"{v.name} ({v.title}): {len(v.patterns)} patterns, {len(v.modifiers)} modifiers, "
            f"{len(v.options)} options, rule ids {n - len(missing)}/{n} covered")
    return line + (f"; not covered: {', '.join(missing)}" if missing else "")
