"""Hand-level diff of two variants (see mjrules.diff): situations whose verdict, value or payments differ.

Situations come from two sources, both deterministic:

- **families** (mjrules.diff.cases): for each variant, canonical winning hands of every shape its patterns
  can take, at its own hand size and with its own tiles, with 0 to 3 wilds and each way of winning;
- **search**: a seeded random search over sets-plus-pair hands with random melds, wilds and contexts; a
  situation that differs is shrunk toward fewer flowers, simpler contexts, fewer melds and fewer wilds while
  it keeps the same kind of difference.

Every situation is evaluated in both variants. A situation that is impossible in one of them (SituationError:
other hand size, other tile set, a way of winning the variant lacks) is counted as existing in one variant
only; for a variant without wilds, the wild markers are dropped (the same physical tiles, none of them
wild). Differences are grouped by their kind (verdict, value, payments, reading) and the two results (the
pattern, status and value, or the class of the refusal); each group keeps its structurally smallest
situations, canonical ones first.
"""
from __future__ import annotations

import json
import random
import re
from typing import Any

from ..model.situation import SituationError
from ..model.tiles import parse_tile, tile_name
from .cases import Cand, K, family_candidates, random_candidate
from .cases import fmt_concealed as _fmt

# ---- evaluation with a cache -------------------------------------------------------------------------------

_ENGINES: dict[tuple[str, str], Any] = {}
_RESULTS: dict[tuple[str, str, str], dict[str, Any]] = {}


def engine(v: Any, backend: str) -> Any:
    key = (v.spec_sha256, backend)
    if key not in _ENGINES:
        from ..engine import load

        _ENGINES[key] = load(v, backend=backend)
    return _ENGINES[key]


def skey(sit: dict[str, Any]) -> str:
    return json.dumps(sit, sort_keys=True, ensure_ascii=False)


def adapt(v: Any, sit: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The situation as `v` sees it: without wilds in a variant that has none (same tiles, none wild)."""
    if v.wild is None and ("wild" in sit or "indicator" in sit or "*" in sit.get("concealed", "")):
        s = {k: x for k, x in sit.items() if k not in ("wild", "indicator")}
        s["concealed"] = sit.get("concealed", "").replace("*", "")
        return s, "this variant has no wilds: the same tiles, none of them wild"
    return sit, None


def outcome(v: Any, backend: str, sit: dict[str, Any]) -> dict[str, Any]:
    """The verdict of `v` on a situation: legal or not, and if legal the result the engine gives."""
    s, note = adapt(v, sit)
    key = (v.spec_sha256, backend, skey(s))
    if key in _RESULTS:
        return _RESULTS[key]
    try:
        r = engine(v, backend).evaluate(s)
        out = {"legal": True, "win": r["win"], "pattern": r["pattern"], "patterns": list(r["patterns"]),
               "status": r["status"], "value": r["value"], "reason": r["reason"], "payments": r["payments"],
               "explain": r["explain"]}
    except SituationError as e:
        out = {"legal": False, "error": str(e)}
    except Exception as e:  # noqa: BLE001 -- an engine failure is counted and reported, never a traceback
        out = {"legal": False, "error": f"engine error: {type(e).__name__}: {e}", "engine_error": True}
    if note and out.get("legal"):
        out = dict(out, note=note, situation=s)
    _RESULTS[key] = out
    return out


def side_sig(r: dict[str, Any]) -> tuple:
    if not r.get("legal"):
        return ("illegal",)
    if r["win"]:
        return ("win", r["pattern"], r["status"], r["value"])
    return ("lose", re.sub(r"\d+", "#", r["reason"]))


def difference(ra: dict[str, Any], rb: dict[str, Any]) -> str | None:
    """verdict | value | payments | reading, or None when the two results agree."""
    if ra["win"] != rb["win"]:
        return "verdict"
    if ra["value"] != rb["value"]:
        return "value"
    if ra["payments"] != rb["payments"]:
        return "payments"
    if ra["win"] and (ra["patterns"], ra["status"]) != (rb["patterns"], rb["status"]):
        return "reading"
    return None


def shrink(va: Any, vb: Any, backend: str, sit: dict[str, Any], key: tuple) -> dict[str, Any]:
    """Simplify a differing situation while it keeps the same kind of difference (`key`)."""

    def same(s: dict[str, Any]) -> bool:
        ra, rb = outcome(va, backend, s), outcome(vb, backend, s)
        return ra["legal"] and rb["legal"] and group_key(ra, rb) == key

    changed = True
    while changed:
        changed = False
        for s in _simpler(sit, va, vb, backend):
            if same(s):
                sit, changed = s, True
                break
    return sit


def _simpler(sit: dict[str, Any], va: Any, vb: Any, backend: str):
    for k in ("flowers",):
        for i in range(len(sit.get(k, []))):
            s = dict(sit)
            s[k] = sit[k][:i] + sit[k][i + 1:]
            if not s[k]:
                del s[k]
            yield s
    for k in ("wild_discards", "dealer_streak", "first_turn", "first_discard", "declared_ready"):
        if k in sit:
            s = {x: y for x, y in sit.items() if x != k}
            if k == "first_turn":
                s.pop("first_discard", None)
            yield s
    if sit.get("win_by", "self_draw") != "self_draw":
        s = {x: y for x, y in sit.items() if x not in ("win_by", "discarder", "first_discard")}
        if "win_tile" not in s:
            s["win_tile"] = tile_name(K(sit["concealed"].replace("*", ""))[-1])
        yield s
    for i, m in enumerate(sit.get("melds", [])):
        ks = K(m.strip("[]{}"))[:3]
        s = dict(sit)
        s["melds"] = sit["melds"][:i] + sit["melds"][i + 1:]
        if not s["melds"]:
            del s["melds"]
        wild = parse_tile(sit["wild"]).kind if "wild" in sit else None
        cc = K(sit["concealed"].replace("*", "")) + ks
        s["concealed"] = _fmt(cc, wild)
        yield s
    if "wild" in sit and "*" in sit["concealed"]:
        wild = parse_tile(sit["wild"]).kind
        cc = K(sit["concealed"].replace("*", ""))
        stands: list[int] = []
        for v in (va, vb):
            r = outcome(v, backend, sit)
            for ln in r.get("explain", []) or []:
                for t in re.findall(r"wilds as ([0-9a-z ]+)", ln["text"]):
                    stands += [parse_tile(x).kind for x in t.split()]
                for t in re.findall(r"(\d)\*([mpsz])", ln["text"]):
                    stands.append(parse_tile(t[0] + t[1]).kind)
        for k in dict.fromkeys(stands):
            if k == wild:
                continue
            c2 = list(cc)
            c2[c2.index(wild)] = k
            s = dict(sit)
            s["concealed"] = _fmt(c2, wild)
            wt = parse_tile(sit["win_tile"]).kind if "win_tile" in sit else None
            if wt == wild and wild not in c2:
                s["win_tile"] = tile_name(k)
            yield s
    if "wild" in sit and "*" not in sit["concealed"]:
        yield {x: y for x, y in sit.items() if x != "wild"}
    if sit.get("seat", 0) != 1 and sit.get("win_by") != "dealt":
        yield dict(sit, seat=1)


# ---- the hand diff -----------------------------------------------------------------------------------------------

def group_key(ra: dict[str, Any], rb: dict[str, Any]) -> tuple:
    return (difference(ra, rb), side_sig(ra), side_sig(rb))


def sit_cost(sit: dict[str, Any]) -> tuple:
    """How big a situation is: wilds, melds, flowers, special context, then its text (smaller is simpler)."""
    special = sum(1 for k in ("wild_discards", "dealer_streak", "first_turn", "first_discard", "declared_ready")
                  if sit.get(k))
    way = {"self_draw": 0, "discard": 1, "dealt": 2}.get(sit.get("win_by", "self_draw"), 3)
    return (sit.get("concealed", "").count("*"), len(sit.get("melds", [])), len(sit.get("flowers", [])), special,
            way, sit.get("seat", 0) != 1, len(sit.get("concealed", "")), skey(sit))


def _brief(r: dict[str, Any]) -> dict[str, Any]:
    keep = ("legal", "win", "pattern", "patterns", "status", "value", "reason", "payments", "explain", "note",
            "situation", "error")
    return {k: r[k] for k in keep if k in r}


def _rules_of(r: dict[str, Any]) -> set[str]:
    return {x for ln in r.get("explain", []) or [] for x in ln.get("rules", [])}


def _names_of(r: dict[str, Any]) -> set[str]:
    names = set(r.get("patterns", []) or [])
    if r.get("status"):
        names.add(r["status"])
    for ln in r.get("explain", []) or []:
        m = re.match(r"table (\S+?)\[", ln["text"]) or re.match(r"(\S+) = ", ln["text"])
        if m:
            names.add(m.group(1))
    return names


def link(rules: list[dict[str, Any]], ra: dict[str, Any], rb: dict[str, Any]) -> list[str]:
    """The hand-level rule differences a finding involves: by name, or by a rule id its explanation cites."""
    out = []
    na, nb, ida, idb = _names_of(ra), _names_of(rb), _rules_of(ra), _rules_of(rb)
    for e in rules:
        if e["level"] != "hand":
            continue
        by_name = e["name"] is not None and e["section"] != "options" and (
            (e["a"] is not None and e["name"] in na) or (e["b"] is not None and e["name"] in nb))
        by_id = bool(set(e["a_rules"]) & ida) or bool(set(e["b_rules"]) & idb)
        if by_name or by_id:
            out.append(e["id"])
    return out


def diff_hands(va: Any, vb: Any, rules: list[dict[str, Any]], *, backend: str = "reference", search: int = 300,
               seed: int = 0, examples: int = 3) -> dict[str, Any]:
    """Situations on which the two variants disagree, grouped; see the module docstring."""
    cands = family_candidates(va, "a") + family_candidates(vb, "b")
    cands.sort(key=lambda c: c.cost)
    seen: set[str] = set()
    groups: dict[tuple, dict[str, Any]] = {}
    only: dict[tuple, dict[str, Any]] = {}
    by_family: dict[str, dict[str, tuple[dict, dict]]] = {"a": {}, "b": {}}
    counts = {"families": 0, "random": 0, "compared": 0, "only_a": 0, "only_b": 0, "neither": 0, "engine_errors": 0}

    def consider(c: Cand, searched: bool) -> None:
        k = skey(c.sit)
        if k in seen:
            return
        seen.add(k)
        counts["random" if searched else "families"] += 1
        ra, rb = outcome(va, backend, c.sit), outcome(vb, backend, c.sit)
        for r in (ra, rb):
            if r.get("engine_error"):
                counts["engine_errors"] += 1
        if ra["legal"] and rb["legal"]:
            counts["compared"] += 1
            key = group_key(ra, rb)
            if key[0] is None:
                return
            sit = shrink(va, vb, backend, c.sit, key) if searched else c.sit
            if sit is not c.sit:
                ra, rb = outcome(va, backend, sit), outcome(vb, backend, sit)
            g = groups.get(key)
            found_by = "search" if searched else "families"
            if g is None:
                groups[key] = {"kind": key[0], "count": 1, "found_by": found_by, "family": c.family,
                               "examples": [(sit, ra, rb)]}
            else:
                g["count"] += 1
                if all(skey(sit) != skey(x[0]) for x in g["examples"]):
                    # structurally smaller only: on a tie the first found (a canonical family) stays first
                    if sit_cost(sit)[:6] < sit_cost(g["examples"][0][0])[:6]:
                        g["found_by"], g["family"] = found_by, c.family
                    g["examples"] = sorted(g["examples"] + [(sit, ra, rb)],
                                           key=lambda x: sit_cost(x[0])[:6])[:examples]
            return
        side = "a" if ra["legal"] else "b" if rb["legal"] else None
        if side is None:
            counts["neither"] += 1
            return
        counts["only_" + side] += 1
        home, other = (ra, rb) if side == "a" else (rb, ra)
        fam_core = c.family
        if not searched:
            by_family[side].setdefault(fam_core, (c.sit, home))
        why = re.sub(r"\b\d+\b", "#", other["error"])
        why = re.sub(r"\b\d[mpsz]\*?", "T", why)
        okey = (side, side_sig(home)[:2], why)
        if okey not in only:
            only[okey] = {"side": side, "count": 1, "situation": c.sit, "result": _brief(home),
                          "why": other["error"], "family": c.family}
        else:
            only[okey]["count"] += 1

    for c in cands:
        consider(c, False)
    rng = random.Random(seed)
    homes = [(va, "a"), (vb, "b")]
    tries = 0
    while tries < search:
        v, o = homes[tries % 2]
        tries += 1
        c = random_candidate(v, rng, o)
        if c is not None:
            consider(c, True)

    # analogous situations: the same family at each variant's own size and tiles
    analogues: dict[tuple, dict[str, Any]] = {}
    for fam, (sa, ra) in by_family["a"].items():
        if fam not in by_family["b"]:
            continue
        sb, rb = by_family["b"][fam]
        key = group_key(ra, rb)
        if key[0] is None:
            continue
        if key not in analogues:
            analogues[key] = {"kind": key[0], "count": 1, "family": fam, "a_situation": sa, "b_situation": sb,
                              "a": _brief(ra), "b": _brief(rb)}
        else:
            analogues[key]["count"] += 1

    order = {"verdict": 0, "value": 1, "payments": 2, "reading": 3}
    diffs = []
    for key, g in sorted(groups.items(), key=lambda kv: (order[kv[0][0]], sit_cost(kv[1]["examples"][0][0]))):
        sit, ra, rb = g["examples"][0]
        diffs.append({"kind": g["kind"], "count": g["count"], "found_by": g["found_by"], "family": g["family"],
                      "situation": sit, "a": _brief(ra), "b": _brief(rb), "rules": link(rules, ra, rb),
                      "more": [x[0] for x in g["examples"][1:]]})
    for i, d in enumerate(diffs, 1):
        d["id"] = f"H{i}"
    only_l = sorted(only.values(), key=lambda o: (o["side"], -o["count"]))
    for i, o in enumerate(only_l, 1):
        o["id"] = f"O{i}"
    ana = sorted(analogues.values(), key=lambda a: (order[a["kind"]], a["family"]))
    for i, a in enumerate(ana, 1):
        a["id"] = f"N{i}"
        a["rules"] = link(rules, a["a"], a["b"])
    by_rule: dict[str, list[str]] = {}
    for d in diffs + ana:
        for rid in d["rules"]:
            by_rule.setdefault(rid, []).append(d["id"])
    return {"situations": counts, "differences": diffs, "only_in_one": only_l, "analogues": ana,
            "by_rule": by_rule}
