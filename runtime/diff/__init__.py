"""`mjrules diff A B`: how two variants differ, at the level of rules, of single hands, and of whole games.

```python
from mjrules.diff import diff, render_text
report = diff("base.mj", "house_rules.mj")               # rules + hands; games=N adds simulations
print(render_text(report))
report["same"], report["rules"], report["hands"]["differences"], report["games"]
```

- **rules** (mjrules.diff.rules): the IR compared section by section; every clause that differs, side by
  side, with the rule ids each side cites. Provenance, names and labels are ignored.
- **hands** (mjrules.diff.hands): canonical situations of every pattern of both variants plus a seeded
  random search with shrinking; every situation is judged by both, and those whose verdict, value,
  payments or reading differ are grouped, each group shown by its smallest situation with both results and
  their explanations. Situations that exist in one variant only (other hand size, tile set, way of winning)
  are counted as such; when the hand sizes or tile sets differ, the same family of hands is also compared at
  each variant's own size ("analogous hands").
- **games** (mjrules.diff.games, with games > 0): both variants simulated with the same seeds and agents;
  rates and the mean value side by side with 95% intervals, significant differences flagged.

A spec diffed with itself reports no difference. Evaluation uses `backend` (default: the reference
interpreter, which needs nothing built); results are cached per spec hash within the process.
"""
from __future__ import annotations

from typing import Any

from .hands import diff_hands
from .rules import diff_rules

__all__ = ["diff", "render_text", "score_command"]


def _info(spec: Any, v: Any) -> dict[str, Any]:
    return {"spec": str(spec) if not hasattr(spec, "spec_sha256") else v.name, "name": v.name, "title": v.title,
            "extends": v.extends, "spec_sha256": v.spec_sha256, "hand": v.deal.hand, "dealer_hand": v.deal.dealer_hand,
            "tiles": v.tiles.total, "players": v.players, "wild": v.wild.name if v.wild else None}


def diff(a: Any, b: Any, *, backend: str = "reference", hands: bool = True, search: int = 300, seed: int = 0,
         examples: int = 3, games: int = 0, agents: list[str] | None = None, jobs: int = 1,
         progress: bool = False) -> dict[str, Any]:
    """Compare two variants (shipped names, .mj paths or compiled IRs). Raises SpecError for a bad spec.

    search: random situations tried (after the canonical families); examples: situations kept per group
    of differences; games: hands simulated per variant (0: none); agents, jobs: as for mjrules.simulate."""
    from ..compiler import compile_variant
    from ..compiler.ir import Variant

    if games < 0 or search < 0 or examples < 1:
        raise ValueError("games and search must be >= 0, examples >= 1")
    va = a if isinstance(a, Variant) else compile_variant(str(a))
    vb = b if isinstance(b, Variant) else compile_variant(str(b))
    # agents as mjrules.simulate takes them: one name for every seat (of either variant), or one per seat
    if games and agents is not None and len(agents) != 1 and not len(agents) == va.players == vb.players:
        raise ValueError(f"give one agent for every seat, or {va.players}, one per seat (got {len(agents)})"
                         if va.players == vb.players else
                         f"give one agent for every seat ({va.name} has {va.players} seats, {vb.name} {vb.players})")
    rules = diff_rules(va, vb)
    h = diff_hands(va, vb, rules, backend=backend, search=search, seed=seed, examples=examples) if hands else None
    g = None
    if games:
        from .games import diff_games

        g = diff_games(a, b, games, seed=seed, agents=agents, backend=backend, jobs=jobs, progress=progress)
    counts = {"rules": len(rules),
              "hand_differences": len(h["differences"]) if h else None,
              "only_in_a": h["situations"]["only_a"] if h else None,
              "only_in_b": h["situations"]["only_b"] if h else None,
              "analogues": len(h["analogues"]) if h else None,
              "significant_game_metrics": len(g["significant"]) if g else None}
    same = not rules and not (h and (h["differences"] or h["only_in_one"] or h["analogues"])) \
        and not (g and g["significant"])
    return {"a": _info(a, va), "b": _info(b, vb), "same": same, "backend": backend, "counts": counts,
            "rules": rules, "hands": h, "games": g}


# ---- text ----------------------------------------------------------------------------------------------------

def score_command(spec: str, sit: dict[str, Any]) -> str:
    """The `mjrules score` command line that reproduces a situation."""
    def q(x: str) -> str:
        return f'"{x}"' if any(c in x for c in " []{}*") else x

    parts = ["mjrules", "score", spec, "--hand", q(sit.get("concealed", ""))]
    if sit.get("melds"):
        parts += ["--melds", q(" ".join(sit["melds"]))]
    if "win_tile" in sit:
        parts += ["--win-tile", sit["win_tile"]]
    wb = sit.get("win_by", "self_draw")
    if wb == "discard":
        parts += ["--discard-from", str(sit["discarder"])]
    elif wb != "self_draw":
        parts += ["--win-by", wb]
    for k, flag in (("seat", "--seat"), ("dealer", "--dealer"), ("wild", "--wild"), ("indicator", "--indicator"),
                    ("wild_discards", "--wild-discards"), ("dealer_streak", "--dealer-streak")):
        if k in sit:
            parts += [flag, str(sit[k])]
    if sit.get("flowers"):
        parts += ["--flowers", q(" ".join(sit["flowers"]))]
    for k in ("first_turn", "first_discard", "declared_ready"):
        if sit.get(k):
            parts.append("--" + k.replace("_", "-"))
    for k, v in (sit.get("options") or {}).items():
        parts += ["--option", f"{k}={'true' if v is True else 'false' if v is False else v}"]
    if wb == "rob_kong":
        return " ".join(parts) + f"  # rob_kong from seat {sit['discarder']}: use a situation file"
    return " ".join(parts)


def _sit_text(sit: dict[str, Any]) -> str:
    bits = [f"hand {sit.get('concealed', '')}"]
    if sit.get("melds"):
        bits.append("melds " + " ".join(sit["melds"]))
    wb = sit.get("win_by", "self_draw")
    how = {"self_draw": "self-draw", "discard": f"seat {sit.get('discarder')}'s discard",
           "rob_kong": f"robbing seat {sit.get('discarder')}'s kong", "kong_replacement": "a kong replacement",
           "rob_gold": "robbing the indicator", "dealt": "the deal"}[wb]
    bits.append(f"wins on {sit['win_tile']} by {how}" if "win_tile" in sit else f"wins by {how}")
    seat = sit.get("seat", 0)
    bits.append(f"seat {seat}" + (" (dealer)" if seat == sit.get("dealer", 0) else ""))
    if sit.get("wild"):
        bits.append(f"wild {sit['wild']}")
    for k, label in (("flowers", "flowers"), ("wild_discards", "wilds discarded"), ("dealer_streak", "dealer streak")):
        if sit.get(k):
            bits.append(f"{label} {' '.join(sit[k]) if isinstance(sit[k], list) else sit[k]}")
    for k in ("first_turn", "first_discard", "declared_ready"):
        if sit.get(k):
            bits.append(k.replace("_", " "))
    return ", ".join(bits)


def _verdict(r: dict[str, Any]) -> str:
    if not r.get("legal", True):
        return f"IMPOSSIBLE: {r['error']}"
    if r["win"]:
        st = f" [{r['status']}]" if r.get("status") else ""
        return f"WIN {' + '.join(r['patterns'])}{st}, value {r['value']}"
    return f"NO WIN: {r['reason']}"


def _width(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _result_lines(tag: str, r: dict[str, Any], indent: str) -> list[str]:
    out = [f"{indent}{tag}  {_verdict(r)}"]
    if r.get("note"):
        out.append(f"{indent}     ({r['note']})")
    for ln in r.get("explain", []) or []:
        if ln["text"].startswith("seat ") and " pays seat " in ln["text"]:
            continue
        out.append(f"{indent}     {ln['rule'] or '-':<7} {ln['text']}")
    if r.get("payments"):
        out.append(f"{indent}     payments: " + "  ".join(f"seat {k}: {v:+}" for k, v in r["payments"].items()))
    return out


def render_text(rep: dict[str, Any], limit: int = 20) -> str:
    """The report for people; `limit` caps the groups shown per section (0: all)."""
    A, B = rep["a"], rep["b"]
    cap = (lambda xs: xs) if limit <= 0 else (lambda xs: xs[:limit])
    out = [f"diff A = {A['name']} ({A['title']})  vs  B = {B['name']} ({B['title']})"]
    for tag, x in (("A", A), ("B", B)):
        out.append(f"  {tag}: {x['spec']}: {x['players']} players, {x['hand']}-tile hands ({x['dealer_hand']} for "
                   f"the dealer), {x['tiles']} tiles, wild: {x['wild'] or 'none'}"
                   + (f", extends {x['extends']}" if x["extends"] else ""))
    rules = rep["rules"]
    by_rule = (rep["hands"] or {}).get("by_rule", {})
    out += ["", f"Rules: {len(rules)} clause{'s differ' if len(rules) != 1 else ' differs'}" if rules
            else "Rules: no difference"]
    section = None
    for e in rules:
        if e["section"] != section:
            section = e["section"]
            out.append(f"  {section}")
        mark = {"changed": "~", "only_a": "-", "only_b": "+"}[e["change"]]
        out.append(f"    {mark} [{e['id']}] {e['key']}" + ("   (shows in whole games only)" if e["level"] == "game" else ""))
        out.append(f"        A  {e['a'] if e['a'] is not None else '(none)'}" + (f"   [{' '.join(e['a_rules'])}]" if e["a_rules"] else ""))
        out.append(f"        B  {e['b'] if e['b'] is not None else '(none)'}" + (f"   [{' '.join(e['b_rules'])}]" if e["b_rules"] else ""))
        if rep["hands"] is not None and e["level"] == "hand":
            shown = by_rule.get(e["id"], [])
            none = ("no differing situation found" if rep["hands"]["situations"]["compared"]
                    else "no situation is legal in both (see the analogous hands)")
            out.append("        hands: " + (" ".join(shown[:8]) + (f" (+{len(shown) - 8})" if len(shown) > 8 else "")
                                            if shown else none))
    h = rep["hands"]
    if h is not None:
        s = h["situations"]
        out += ["", (f"Hands: {s['families'] + s['random']} situations ({s['families']} canonical, {s['random']} "
                     f"random); {s['compared']} legal in both, {s['only_a']} only in A, {s['only_b']} only in B, "
                     f"{s['neither']} in neither")]
        if s.get("engine_errors"):
            out.append(f"  ENGINE ERRORS: {s['engine_errors']} evaluations raised (see --json)")
        diffs = h["differences"]
        if not diffs:
            out.append("  no situation legal in both is judged differently")
        else:
            kinds: dict[str, int] = {}
            for d in diffs:
                kinds[d["kind"]] = kinds.get(d["kind"], 0) + 1
            out.append(f"  {len(diffs)} kinds of difference: " + ", ".join(f"{k} {n}" for k, n in kinds.items()))
        for d in cap(diffs):
            out.append(f"  [{d['id']}] {d['kind']} differs, {d['count']} situation{'s' if d['count'] != 1 else ''} "
                       f"(found by {d['found_by']}: {d['family']})")
            out.append(f"      {_sit_text(d['situation'])}")
            out.append(f"      $ {score_command(A['spec'], d['situation'])}")
            out += _result_lines("A", d["a"], "      ")
            out += _result_lines("B", d["b"], "      ")
            if d["rules"]:
                out.append(f"      rule differences involved: {' '.join(d['rules'][:10])}"
                           + (" ..." if len(d["rules"]) > 10 else ""))
        if limit > 0 and len(diffs) > limit:
            out.append(f"  ... {len(diffs) - limit} more kinds (--limit 0 shows all; --json lists every one)")
        only = h["only_in_one"]
        if only:
            out += ["", f"Situations that exist in one variant only: {s['only_a']} only in A, {s['only_b']} only in B"]
            for o in cap(only):
                other = "B" if o["side"] == "a" else "A"
                out.append(f"  [{o['id']}] {o['count']} only in {o['side'].upper()}, e.g. {_sit_text(o['situation'])}")
                out.append(f"      {o['side'].upper()}  {_verdict(o['result'])}")
                out.append(f"      {other}  impossible: {o['why']}")
            if limit > 0 and len(only) > limit:
                out.append(f"  ... {len(only) - limit} more")
        ana = h["analogues"]
        if ana:
            out += ["", ("Analogous hands (the same family of hands at each variant's own hand size and tiles): "
                         f"{len(ana)} kinds differ")]
            for a in cap(ana):
                out.append(f"  [{a['id']}] {a['kind']} differs: {a['family']}")
                out.append(f"      A: {_sit_text(a['a_situation'])}")
                out += _result_lines("A", a["a"], "      ")
                out.append(f"      B: {_sit_text(a['b_situation'])}")
                out += _result_lines("B", a["b"], "      ")
            if limit > 0 and len(ana) > limit:
                out.append(f"  ... {len(ana) - limit} more")
    g = rep["games"]
    if g is not None:
        from ..game.simulate import agents_note

        out += ["", (f"Games: {g['games']} hands each, seed {g['seed']}, agents {','.join(g['agents'])}, "
                     f"{g['backend']} backend (95% intervals; * = the difference's interval excludes 0)")]
        if agents_note(g["agents"]):
            out.append(f"  note: {agents_note(g['agents'])}")
        w = max(_width(m["metric"]) for m in g["metrics"])

        def fmt(x: dict[str, Any], rate: bool) -> str:
            if x["value"] is None:
                return "-"
            if rate:
                return f"{x['value']:.1%} [{x['ci'][0]:.1%}, {x['ci'][1]:.1%}]"
            return f"{x['value']:.2f}" + (f" [{x['ci'][0]:.2f}, {x['ci'][1]:.2f}]" if x["ci"] else "")

        out.append(f"  {_pad('metric', w)}  {'A':<26} {'B':<26} B - A")
        for m in g["metrics"]:
            rate = m["type"] == "rate"
            if m["difference"] is None:
                d = "-"
            elif rate:
                d = f"{m['difference']:+.1%}" + (f" [{m['difference_ci'][0]:+.1%}, {m['difference_ci'][1]:+.1%}]"
                                                 if m["difference_ci"] else "")
            else:
                d = f"{m['difference']:+.2f}" + (f" [{m['difference_ci'][0]:+.2f}, {m['difference_ci'][1]:+.2f}]"
                                                 if m["difference_ci"] else "")
            out.append(f"  {_pad(m['metric'], w)}  {fmt(m['a'], rate):<26} {fmt(m['b'], rate):<26} {d}"
                       + ("  *" if m["significant"] else ""))
        out.append(f"  significant: {', '.join(g['significant']) or 'none'}")
    c = rep["counts"]
    out += ["", "Summary: " + ("no difference" if rep["same"] else
                               f"{c['rules']} rule clause{'s' if c['rules'] != 1 else ''} differ{'' if c['rules'] != 1 else 's'}"
                               + (f"; {c['hand_differences']} kinds of hand difference, {c['only_in_a']} situations "
                                  f"only in A, {c['only_in_b']} only in B" if c["hand_differences"] is not None else "")
                               + (f"; {c['significant_game_metrics']} game metrics differ significantly"
                                  if c["significant_game_metrics"] is not None else ""))]
    return "\n".join(out) + "\n"
