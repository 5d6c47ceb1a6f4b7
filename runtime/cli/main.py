"""The `mjrules` command line: check, show, build, score, waits, simulate, replay, diff, bench, lsp, play.

Every failure is one line on stderr (or a JSON object with --json) and an exit code (docs/limits.md):
0 ok, 1 a spec has errors, 2 bad input (arguments, files, situations, logs), 3 the native back end cannot be
built here (no C compiler, no usable cache folder), 130 interrupted.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from .options import parse_option

EXIT_OK, EXIT_SPEC, EXIT_INPUT, EXIT_BUILD, EXIT_INTERRUPT = 0, 1, 2, 3, 130
MAX_JOBS = 256
DEFAULT_AGENT = "greedy"   # simulate's and diff --games' agent on every seat without --agents: one that plays to win


def _spec_error(e: Any, as_json: bool) -> int:
    if as_json:
        print(json.dumps({"ok": False, "errors": [d.to_json() for d in e.diagnostics]}, ensure_ascii=False, indent=1))
    else:
        print(e.render(), file=sys.stderr)
    return EXIT_SPEC


# ---- check / show ----------------------------------------------------------------------------------------

def cmd_check(args: argparse.Namespace) -> int:
    from ..compiler import SpecError, compile_variant
    from .show import render_summary_line

    status, report = EXIT_OK, []
    for spec in args.specs:
        try:
            v = compile_variant(spec)
        except SpecError as e:
            status = EXIT_SPEC
            report.append({"spec": spec, "ok": False, "errors": [d.to_json() for d in e.diagnostics]})
            if not args.json:
                print(e.render(), file=sys.stderr)
            continue
        covered = {i for i, _ in v.citations} | {i for i, _ in v.no_effect}
        report.append({"spec": spec, "ok": True, "name": v.name, "patterns": len(v.patterns),
                       "modifiers": len(v.modifiers), "options": len(v.options),
                       "rule_ids": len(v.rule_ids), "covered": len(covered & set(v.rule_ids)),
                       "not_covered": [i for i in v.rule_ids if i not in covered]})
        if not args.json:
            print(render_summary_line(v))
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    return status


def cmd_show(args: argparse.Namespace) -> int:
    from ..compiler import SpecError, compile_variant, dump_json
    from .show import render_markdown

    if args.vocabulary:
        from . import vocabulary

        if args.json:
            print(json.dumps(vocabulary.vocabulary(), ensure_ascii=False, indent=1))
        else:
            sys.stdout.write(vocabulary.render_markdown())
        return EXIT_OK
    if args.variant is None:
        print("mjrules show: error: give a VARIANT, or --vocabulary (see mjrules show --help)", file=sys.stderr)
        return EXIT_INPUT
    try:
        v = compile_variant(args.variant)
    except SpecError as e:
        return _spec_error(e, args.json)
    if args.rule:
        from ..rulebook import rule_text

        try:
            text = rule_text(v, args.rule)
        except KeyError as e:
            print(f"mjrules show: error: {e.args[0]}", file=sys.stderr)
            return EXIT_INPUT
        if args.json:
            print(json.dumps({"rule": args.rule, "text": text}, ensure_ascii=False))
        else:
            print(text)
        return EXIT_OK
    if args.ir or args.json:
        sys.stdout.write(dump_json(v))
    else:
        sys.stdout.write(render_markdown(v))
    return EXIT_OK


def cmd_build(args: argparse.Namespace) -> int:
    from ..compiler import SpecError, shipped_names

    try:
        from ..native.cache import build_variant
    except ImportError as e:  # pragma: no cover - a broken install
        print(f"mjrules build: the native backend is not available: {e}", file=sys.stderr)
        return EXIT_INPUT
    from ..native.cache import BuildError

    specs = args.specs or shipped_names()
    out, status = [], EXIT_OK
    for spec in specs:
        try:
            info = build_variant(spec)
        except SpecError as e:
            status = _spec_error(e, args.json)
            continue
        except BuildError as e:
            return _fail(args, str(e), EXIT_BUILD)
        out.append(info)
        if not args.json:
            what = "built" if info.get("built") else "up to date"
            print(f"{info['name']}: {what} -> {info['path']}")
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
    return status


# ---- score / waits -----------------------------------------------------------------------------------

def _read_text(path: str, what: str) -> str:
    """A text file (or stdin for '-') as UTF-8; ValueError (one line) when it is not text."""
    try:
        if path == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{'stdin' if path == '-' else path}: the {what} is not UTF-8 text (byte {e.start})") from None


def load_json(text: str, what: str) -> Any:
    """json.loads, with one-line errors for every way JSON text can be refused (nesting, giant numbers)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"the {what} is not valid JSON: {e}") from None
    except RecursionError:
        raise ValueError(f"the {what} nests too deeply (objects and lists inside each other)") from None
    except ValueError as e:  # an integer of more than 4300 digits
        why = "a number has too many digits" if "digits" in str(e) else str(e).split(";")[0]
        raise ValueError(f"the {what} is not valid JSON: {why}") from None


def _situation(args: argparse.Namespace) -> dict[str, Any]:
    if args.situation:
        d = load_json(_read_text(args.situation, "situation"), "situation")
        if not isinstance(d, dict):
            raise ValueError("a situation file holds one JSON object")
        return d
    if args.hand is None:
        raise ValueError("give --hand TILES or a SITUATION.json file")
    d: dict[str, Any] = {"concealed": args.hand}
    if args.melds:
        d["melds"] = args.melds.replace(",", " ").split()
    if args.win_tile:
        d["win_tile"] = args.win_tile
    if args.discard_from is not None:
        d["win_by"], d["discarder"] = "discard", args.discard_from
    elif args.win_by:
        d["win_by"] = args.win_by
    for key in ("seat", "dealer", "wild", "indicator", "wild_discards", "dealer_streak", "prevalent_wind"):
        val = getattr(args, key, None)
        if val is not None:
            d[key] = val
    if args.flowers:
        d["flowers"] = args.flowers.replace(",", " ").split()
    for key in ("first_turn", "first_discard", "declared_ready", "last_tile", "after_kong", "first_draw",
                "last_of_kind", "ready_first_turn", "ready_uninterrupted"):
        if getattr(args, key, False):
            d[key] = True
    for key in ("indicators", "hidden_indicators", "marked"):
        val = getattr(args, key, None)
        if val:
            d[key] = val.replace(",", " ")
    if args.option:
        d["options"] = dict(parse_option(o) for o in args.option)
    return d


def _ask_engine(args: argparse.Namespace, method: str, **kw: Any) -> tuple[int, Any]:
    """Load the variant and call `method` on the situation the arguments give (and kw): (exit code, answer); the
    engine is args.engine afterwards."""
    from ..compiler import SpecError
    from ..engine import load
    from ..model.situation import SituationError

    try:
        eng = load(args.variant, backend=args.backend)
    except SpecError as e:
        return _spec_error(e, args.json), None
    except ValueError as e:   # an unknown backend
        return _input_error(e, args.json), None
    args.engine = eng
    try:
        return EXIT_OK, getattr(eng, method)(_situation(args), **kw)
    except (SituationError, ValueError, OSError) as e:
        return _input_error(e, args.json), None


def cmd_score(args: argparse.Namespace) -> int:
    code, result = _ask_engine(args, "evaluate", **({"explain": False} if args.brief else {}))
    if code != EXIT_OK:
        return code
    st = args.engine.variant.settlement
    play_only = [{"rule": rule, "why": why} for rule, why in st.play_only] if result["win"] else []
    if args.json:
        d = result.to_dict()
        if st.on_win and result["win"]:   # the game pays wins in play: what this hand alone cannot show, and why
            d["paid_in_play"] = {"as": PAID_AS_FIRST_WIN, "only_in_play": play_only}
        print(json.dumps(d, ensure_ascii=False, indent=1))
        return EXIT_OK
    if result["win"]:
        print(f"WIN  {' + '.join(result['patterns'])}" + (f"  [{result['status']}]" if result["status"] else "")
              + f"  value {result['value']}")
    else:
        print(f"NO WIN  {result['reason']}")
    for ln in result.get("explain", ()):   # none with --brief
        print(f"  {ln['rule'] or '-':<7} {ln['text']}")
    if result["payments"]:
        print("  payments: " + "  ".join(f"seat {k}: {v:+}" for k, v in result["payments"].items()))
    if st.on_win and result["win"]:
        print(f"  (payments {PAID_AS_FIRST_WIN})")
        for x in play_only:
            print(f"  paid in play only: {x['rule'] or '-'}: {x['why']}")
    return EXIT_OK


PAID_AS_FIRST_WIN = "as at the hand's first win: every player still in, no horse turned, no kong fed"


def cmd_waits(args: argparse.Namespace) -> int:
    code, waits = _ask_engine(args, "waits")
    if code != EXIT_OK:
        return code
    if args.json:
        print(json.dumps(waits, ensure_ascii=False, indent=1))
    elif not waits:
        print("not ready: no tile completes this hand")
    else:
        for w in waits:
            print(f"  {w['tile']:<3} {' + '.join(w['patterns']):<30} value {w['value']}")
    return EXIT_OK


def _input_error(e: Exception, as_json: bool) -> int:
    msg = str(e) if not isinstance(e, OSError) else f"cannot read {e.filename}: {e.strerror}"
    if isinstance(e, json.JSONDecodeError):
        msg = f"the situation is not valid JSON: {e}"
    return _report(msg, as_json, EXIT_INPUT, getattr(e, "key", None))


def one_line(msg: str, width: int = 1000) -> str:
    """A message as one line of at most about `width` characters (it may quote the user's input)."""
    msg = msg.replace("\r", "\\r").replace("\n", "\\n")
    return msg if len(msg) <= width else f"{msg[:width]}... ({len(msg)} characters)"


def _report(msg: str, as_json: bool, code: int, key: Any = None) -> int:
    """One line on stderr, or one JSON object on stdout with --json; returns the exit code."""
    msg = one_line(msg)
    if as_json:
        print(json.dumps({"ok": False, "error": msg, "key": key}, ensure_ascii=False))
    else:
        print(f"mjrules: error: {msg}", file=sys.stderr)
    return code


def _fail(args: argparse.Namespace, msg: str, code: int) -> int:
    return _report(msg, bool(getattr(args, "json", False)), code)


def _out_problem(path: str, folder: bool) -> str | None:
    """Why an output path (a file, or a folder to make) cannot be written, or None: checked before a long run."""
    p = Path(path)
    if p.is_dir() and not folder:
        return f"{path} is a folder; --out takes a file name"
    if p.exists() and folder and not p.is_dir():
        return f"{path} exists and is not a folder; --out takes a folder"
    anc = p if p.is_dir() else p.parent
    while not anc.exists() and anc != anc.parent:
        anc = anc.parent
    if not anc.is_dir():
        return f"cannot write {path}: {anc} is not a folder"
    try:
        fd, probe = tempfile.mkstemp(prefix=".mjrules-probe-", dir=anc)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"cannot write {path}: {e.strerror or e}"
    return None


# ---- simulate / replay ---------------------------------------------------------------------------------

def cmd_simulate(args: argparse.Namespace) -> int:
    from ..compiler import SpecError
    from ..extras import MissingExtra
    from ..game.simulate import agents_note, simulate

    agents = args.agents.split(",") if args.agents else [DEFAULT_AGENT]
    if args.matches is not None:
        return _simulate_matches(args, agents)
    problem = _out_problem(args.out, folder=True) if args.out else None
    if problem:
        return _fail(args, problem, EXIT_INPUT)
    try:
        options = dict(parse_option(o) for o in args.option or ())
        games = 100 if args.games is None else args.games
        summary = simulate(args.variant, games, seed=args.seed, agents=agents, jobs=args.jobs, out=args.out,
                           backend=args.backend, options=options, compress=args.compress,
                           progress=not args.json and not args.quiet, ray=args.ray)
    except SpecError as e:
        return _spec_error(e, args.json)
    except (ValueError, MissingExtra) as e:
        return _input_error(e, args.json)
    except ConnectionError as e:   # no Ray cluster at --ray's address
        return _fail(args, f"--ray {args.ray}: {e}", EXIT_INPUT)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=1))
        return EXIT_OK
    s = summary
    print(f"{s['variant']}: {s['hands']} hands, seed {s['seed']}, agents {','.join(s['agents'])}, "
          f"{s['backend']} backend, {s['hands_per_second']} hands/s")
    print(f"  win rate {s['win_rate']:.1%}   draw rate {s['draw_rate']:.1%}   dealer keeps {s['dealer_keep_rate']:.1%}")
    note = agents_note(s["agents"])
    if note:   # all random: say that the low win rate is the agents', not the rules'
        print(f"  note: {note}")
    print("  wins by way:     " + "  ".join(f"{k} {v}" for k, v in s["wins_by_way"].items()))
    print("  wins by pattern: " + "  ".join(f"{k} {v}" for k, v in s["wins_by_pattern"].items()))
    val = s["value"]
    print(f"  value: mean {val['mean']}  p50 {val['p50']}  p90 {val['p90']}  p99 {val['p99']}  max {val['max']}")
    print("  net per seat: " + "  ".join(f"seat {i}: {v:+}" for i, v in enumerate(s["net_per_seat"])))
    if args.out:
        print(f"  wrote {args.out}/logs.jsonl{'.gz' if args.compress else ''} and {args.out}/summary.json")
    return EXIT_OK


def _simulate_matches(args: argparse.Namespace, agents: list[str]) -> int:
    """simulate --matches N: whole matches, summarised by seat."""
    from ..compiler import SpecError
    from ..game.simulate import simulate_matches

    given = [flag for flag, on in (("--games", args.games is not None), ("--out", args.out),
                                   ("--compress", args.compress), ("--ray", args.ray is not None)) if on]
    if given:
        return _fail(args, f"--matches plays and summarises whole matches; {', '.join(given)} "
                           f"{'is' if len(given) == 1 else 'are'} for simulating hands", EXIT_INPUT)
    try:
        options = dict(parse_option(o) for o in args.option or ())
        s = simulate_matches(args.variant, args.matches, seed=args.seed, agents=agents, jobs=args.jobs,
                             backend=args.backend, options=options, progress=not args.json and not args.quiet)
    except SpecError as e:
        return _spec_error(e, args.json)
    except ValueError as e:
        return _input_error(e, args.json)
    if args.json:
        print(json.dumps(s, ensure_ascii=False, indent=1))
        return EXIT_OK
    print(f"{s['variant']}: {s['matches']} matches ({s['hands']} hands, {s['hands_per_match']} a match), seed "
          f"{s['seed']}, agents {','.join(s['agents'])}, {s['backend']} backend, {s['matches_per_second']} matches/s")
    print("  ended by: " + "  ".join(f"{k} {v}" for k, v in s["ended_by"].items()))
    for p, seat in enumerate(s["seats"]):
        print(f"  seat {p}: mean rank {seat['mean_rank']}  first {seat['first_rate']:.1%}  mean result "
              f"{seat['mean_result']:+}  mean score {seat['mean_score']}")
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    from ..compiler import SpecError
    from ..engine import load
    from ..game import IllegalAction, replay_lines
    from ..game.play import log_spec
    from ..game.scenario import ScenarioError, describe, load_scenario, play_scenario

    try:
        text = _read_text(args.file, "log or scenario")
    except (OSError, ValueError) as e:
        return _input_error(e, args.json)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    try:
        first = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        first = None
    try:
        if isinstance(first, dict) and first.get("log") == "mjrules-hand":
            starts = [i for i, ln in enumerate(lines) if ln.startswith('{"log": "mjrules-hand"')]
            reports = []
            for j, st in enumerate(starts):
                chunk = lines[st:starts[j + 1] if j + 1 < len(starts) else len(lines)]
                head = json.loads(chunk[0])
                eng = load(args.variant or log_spec(head), backend=args.backend)
                rep = replay_lines(eng, chunk)
                if rep.get("line"):
                    rep["line"] += st
                reports.append(rep)
            ok = all(r["identical"] for r in reports)
            if args.json:
                print(json.dumps({"identical": ok, "hands": reports}, ensure_ascii=False, indent=1))
            else:
                for j, r in enumerate(reports):
                    print(f"hand {j + 1}: " + ("identical" if r["identical"] else
                                               f"DIFFERENT at line {r.get('line')}: {r['difference']}"))
            return EXIT_OK if ok else EXIT_SPEC
        sc = load_scenario(text)
        eng = load(args.variant or sc.get("variant", ""), backend=args.backend)
        g = play_scenario(eng, sc)
    except SpecError as e:
        return _spec_error(e if args.variant else _with_variant_flag(e, args.file), args.json)
    except (ScenarioError, IllegalAction, ValueError, KeyError) as e:
        return _input_error(ValueError(f"{args.file}: {e}"), args.json)
    if args.json:
        print(json.dumps({"events": g.events, "outcome": g.outcome}, ensure_ascii=False, indent=1))
    else:
        print("\n".join(describe(g)))
    return EXIT_OK


def _with_variant_flag(e: Any, file: str) -> Any:
    """The error of a spec the log or scenario names but that cannot be found, saying how to give it."""
    from dataclasses import replace

    from ..compiler import SpecError

    flag = f"if its spec is elsewhere, give it: mjrules replay {file} --variant PATH.mj"
    return SpecError([replace(d, hint=f"{d.hint}; {flag}" if d.hint else flag) if d.code == "E024" else d
                      for d in e.diagnostics])


# ---- diff ----------------------------------------------------------------------------------------------

def cmd_diff(args: argparse.Namespace) -> int:
    """Exit 0 when the comparison ran (1 with --exit-code if the variants differ), 1 a spec error, 2 bad input."""
    from ..compiler import SpecError, compile_variant
    from ..diff import diff, render_text

    specs, errors = [], []
    for spec in (args.a, args.b):
        try:
            specs.append(compile_variant(spec))
        except SpecError as e:  # both specs' errors are reported, then exit 1
            errors += [d for d in e.diagnostics if d not in errors]
    if errors:
        return _spec_error(SpecError(errors), args.json)
    agents = args.agents.split(",") if args.agents else [DEFAULT_AGENT]
    try:
        rep = diff(specs[0], specs[1], backend=args.backend, hands=not args.no_hands, search=args.search,
                   seed=args.seed, examples=args.examples, games=args.games, agents=agents, jobs=args.jobs,
                   progress=not args.json and not args.quiet)
    except SpecError as e:
        return _spec_error(e, args.json)
    except (ValueError, OSError) as e:
        return _input_error(e, args.json)
    rep["a"]["spec"], rep["b"]["spec"] = args.a, args.b
    if args.json:
        print(json.dumps(rep, ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(render_text(rep, limit=args.limit))
    return EXIT_SPEC if args.exit_code and not rep["same"] else EXIT_OK


# ---- bench ----------------------------------------------------------------------------------------------

def cmd_bench(args: argparse.Namespace) -> int:
    from ..compiler import SpecError

    try:
        from ..bench import render, run, write_json
    except ImportError as e:  # pragma: no cover - installed without the bench package
        print(f"mjrules bench: the benchmark suite is not available: {e}", file=sys.stderr)
        return EXIT_INPUT
    problem = _out_problem(args.out, folder=False) if args.out else None
    if problem:
        return _fail(args, problem, EXIT_INPUT)
    try:
        result = run(args.variants or None, repeats=args.repeats, quick=args.quick, progress=not args.json,
                     patience=args.patience)
    except SpecError as e:
        return _spec_error(e, args.json)
    if args.out:
        write_json(args.out, result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
    else:
        print(render(result))
        if args.out:
            print(f"wrote {args.out}")
    return EXIT_OK


# ---- tools for rule authors: the language server, the table in the browser ------------------------------------

def _missing(extra: str, packages: str, e: ImportError) -> int:
    """One line for a command whose extra is not installed (an import error of mjrules' own is a bug: raised)."""
    if (e.name or "mjrules").split(".")[0] == "mjrules":
        raise e
    print(f"mjrules: error: this command needs the '{extra}' extra ({packages}, not installed): "
          f"pip install 'mjrules[{extra}]'", file=sys.stderr)
    return EXIT_INPUT


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from ..lsp.server import serve
    except ImportError as e:
        return _missing("lsp", "pygls", e)
    serve()
    return EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401 - run_server's, imported when it serves

        from ..play.server import run_server
    except ImportError as e:
        return _missing("play", "Starlette and uvicorn", e)
    return run_server(args)


# ---- parser ---------------------------------------------------------------------------------------------

def _count(lo: int, hi: int | None = None):
    """An argparse type: a whole number in lo..hi."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < lo or (hi is not None and n > hi):
            raise argparse.ArgumentTypeError(f"{n} is outside {lo}..{hi}" if hi is not None else
                                             f"{n} is below {lo}")
        return n
    parse.__name__ = "count"
    return parse


def _seconds(text: str) -> float:
    """An argparse type: seconds, a number in 0..3600."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= x <= 3600:   # also refuses nan
        raise argparse.ArgumentTypeError(f"{text} is outside 0..3600 seconds")
    return x


def _situation_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", metavar="VARIANT", help="a shipped variant's name or a path to a .mj file")
    p.add_argument("situation", metavar="SITUATION.json", nargs="?", help="a situation as JSON ('-' for stdin)")
    p.add_argument("--hand", help='concealed tiles, e.g. "123m456m789p2s9s*55s3s"')
    p.add_argument("--melds", help='melds, e.g. "[555p] {1111m}"')
    p.add_argument("--win-tile", dest="win_tile", help="the winning tile, e.g. 3s")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--self-draw", dest="win_by", action="store_const", const="self_draw", help="won by self-draw")
    how.add_argument("--discard-from", dest="discard_from", type=int, metavar="SEAT", help="won on SEAT's discard")
    how.add_argument("--win-by", dest="win_by", choices=["self_draw", "discard", "rob_kong", "kong_replacement",
                                                         "rob_gold", "dealt"])
    wild = p.add_mutually_exclusive_group()
    wild.add_argument("--wild", help="the wild kind in force, e.g. 9s")
    wild.add_argument("--indicator", help="the flipped indicator, e.g. 8s")
    p.add_argument("--seat", type=int)
    p.add_argument("--dealer", type=int)
    p.add_argument("--flowers", help='flowers collected, e.g. "f1 1z"')
    p.add_argument("--wild-discards", dest="wild_discards", type=int)
    p.add_argument("--dealer-streak", dest="dealer_streak", type=int)
    p.add_argument("--first-turn", dest="first_turn", action="store_true")
    p.add_argument("--first-discard", dest="first_discard", action="store_true")
    p.add_argument("--declared-ready", dest="declared_ready", action="store_true")
    p.add_argument("--last-tile", dest="last_tile", action="store_true", help="won on the wall's last tile (海底)")
    p.add_argument("--after-kong", dest="after_kong", action="store_true",
                   help="won on a discard made right after its discarder's kong (杠上炮)")
    p.add_argument("--first-draw", dest="first_draw", action="store_true",
                   help="self-drawn on the player's first draw, no claim before it (地胡)")
    p.add_argument("--last-of-kind", dest="last_of_kind", action="store_true",
                   help="the winning tile is the last of its kind, the others in sight (和绝张)")
    p.add_argument("--prevalent-wind", dest="prevalent_wind", type=int, choices=range(4), metavar="0..3",
                   help="the round's wind: 0 East, 1 South, 2 West, 3 North")
    p.add_argument("--ready-first-turn", dest="ready_first_turn", action="store_true",
                   help="declared ready on the first turn, no claim before (ダブル立直; with --declared-ready)")
    p.add_argument("--ready-uninterrupted", dest="ready_uninterrupted", action="store_true",
                   help="won within one go-around of the ready declaration, no claim since (一発)")
    p.add_argument("--indicators", metavar="TILES", help="face-up indicators (ドラ表示牌), e.g. 3m7z")
    p.add_argument("--hidden-indicators", dest="hidden_indicators", metavar="TILES",
                   help="the indicators under them (裏ドラ), e.g. 9p")
    p.add_argument("--marked", metavar="TILES", help="the marked copies the hand holds (赤), e.g. 5m5p")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="override an option (repeatable)")
    p.add_argument("--backend", choices=["native", "reference"],
                   help="evaluation backend (default: $MJRULES_BACKEND or native)")
    p.add_argument("--json", action="store_true", help="machine-readable output")


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error in one line (and exit 2) instead of the usage text and the error."""

    def error(self, message: str) -> Any:
        self.exit(EXIT_INPUT, f"{self.prog}: error: {one_line(message, 300)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    ap = _Parser(prog="mjrules", description="Declarative rule specs for regional Chinese mahjong.")
    ap.add_argument("--version", action="version", version=f"mjrules {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("check", help="check specs; print every error, or one summary line per spec")
    p.add_argument("specs", nargs="+", metavar="SPEC", help="shipped variant names or .mj paths")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("show", help="render a variant's rule book as Markdown (or its IR as JSON), or the language's "
                                    "vocabulary")
    p.add_argument("variant", metavar="VARIANT", nargs="?")
    p.add_argument("--vocabulary", action="store_true",
                   help="every clause, builtin, operator and error code of the spec language (with --json: as JSON)")
    p.add_argument("--ir", action="store_true", help="print the IR as JSON")
    p.add_argument("--rule", metavar="ID", help="print one rule of the variant's rule book, e.g. GB-58 (with --json: "
                                                 "as JSON)")
    p.add_argument("--json", action="store_true", help="same as --ir (with --rule: the rule as JSON)")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("build", help="(re)generate native engines and say what was built where")
    p.add_argument("specs", nargs="*", metavar="SPEC", help="default: every shipped variant")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("score", help="judge and score one hand")
    _situation_args(p)
    p.add_argument("--brief", action="store_true",
                   help="the verdict, value and payments without the explanation lines and the reading "
                        "(evaluate's explain=False; with --json, the result without those keys)")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("waits", help="list the tiles that complete a pre-draw hand, with their values")
    _situation_args(p)
    p.set_defaults(func=cmd_waits)

    p = sub.add_parser("simulate", help="play many seeded hands with agents and summarise them")
    p.add_argument("variant", metavar="VARIANT")
    p.add_argument("--games", type=_count(1), default=None, help="hands to play (default 100)")
    p.add_argument("--matches", type=_count(1), metavar="N",
                   help="play N whole matches instead (the spec's `match`: its length, end and results) and "
                        "summarise ranks and results per seat")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--agents", help="random, greedy or seeker for every seat, or one per seat, e.g. "
                                    "greedy,greedy,random,random (default: greedy on every seat; random is "
                                    "faster but rarely wins)")
    p.add_argument("--jobs", type=_count(1, MAX_JOBS), default=1,
                   help="parallel processes; results do not depend on it")
    p.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                   help="play the hands on a Ray cluster: a new local one (of --jobs CPUs, default all), or the one "
                        "at ADDRESS ('auto', 'ray://host:10001'); the same numbers as a local run "
                        "(pip install 'mjrules[ray]')")
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="an option of the spec, e.g. --option kong_points=true (repeatable)")
    p.add_argument("--out", help="folder for logs.jsonl and summary.json (logs streamed as hands finish)")
    p.add_argument("--compress", action="store_true", help="with --out: write logs.jsonl.gz")
    p.add_argument("--backend", choices=["native", "reference"])
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("diff", help="how two variants differ: rules, hands and (with --games) whole games")
    p.add_argument("a", metavar="A", help="a shipped variant's name or a path to a .mj file")
    p.add_argument("b", metavar="B", help="a shipped variant's name or a path to a .mj file")
    p.add_argument("--games", type=_count(0), default=0, help="also simulate N hands of each and compare (default 0)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random hand search and of the games")
    p.add_argument("--agents", help="for --games: one agent for every seat, or one per seat, e.g. "
                                    "greedy,greedy,random,random (default: greedy on every seat)")
    p.add_argument("--jobs", type=_count(1, MAX_JOBS), default=1, help="for --games: parallel processes")
    p.add_argument("--search", type=_count(0), default=300, help="random situations to try after the canonical ones")
    p.add_argument("--examples", type=_count(1), default=3, help="situations kept per kind of difference (--json)")
    p.add_argument("--limit", type=_count(0), default=20, help="kinds of difference shown per section (0: all)")
    p.add_argument("--no-hands", dest="no_hands", action="store_true", help="skip the hand comparison")
    p.add_argument("--exit-code", dest="exit_code", action="store_true", help="exit 1 if the variants differ")
    p.add_argument("--backend", choices=["native", "reference"], default="reference",
                   help="evaluation backend (default: reference)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("replay", help="re-run a hand log (identical or the first difference), or play a scenario")
    p.add_argument("file", metavar="LOG_OR_SCENARIO")
    p.add_argument("--variant", help="override the variant named in the file")
    p.add_argument("--backend", choices=["native", "reference"])
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", help="measure speed against the performance targets (PASS/MISS), native and reference")
    p.add_argument("variants", nargs="*", metavar="VARIANT", help="default: the shipped base variants")
    p.add_argument("--repeats", type=_count(1, 1000), help="repeats per figure (default 5, --quick 2)")
    p.add_argument("--quick", action="store_true", help="fewer hands and loops: a smoke run of a few seconds")
    p.add_argument("--patience", type=_seconds, default=10.0, metavar="SECONDS",
                   help="before each timing, wait up to this long for the machine to run at its usual speed "
                        "(a pure-Python probe near the run's best, docs/benchmarks.md; at most 6 times this a "
                        "variant in all; default 10, 0: never wait)")
    p.add_argument("--out", metavar="FILE", help="also write the results as JSON (atomically)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("lsp", help="the language server for .mj specs, over stdio (for an editor to start)")
    p.set_defaults(func=cmd_lsp)

    p = sub.add_parser("play", help="play a hand of a variant in the browser, against built-in agents")
    p.add_argument("variant", metavar="VARIANT", help="a shipped variant's name or a path to a .mj file")
    p.add_argument("--seed", type=int, default=None,
                   help="the first hand's seed, each new hand taking the next (default: a secret random seed for each "
                        "hand, shown when the hand ends)")
    p.add_argument("--seat", type=_count(0, 7), default=0, help="your seat (default 0, the first dealer)")
    p.add_argument("--agents", default="greedy", help="the other seats' agent: random, greedy or seeker "
                                                      "(or one per seat, comma-separated; default greedy)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="an option of the spec (repeatable)")
    p.add_argument("--port", type=_count(0, 65535), default=8765, help="the port on 127.0.0.1 (default 8765; 0: any "
                                                                       "free one)")
    p.add_argument("--no-browser", dest="no_browser", action="store_true", help="do not open a browser")
    p.add_argument("--backend", choices=["native", "reference"])
    p.set_defaults(func=cmd_play)
    return ap


def _warning(message: Warning | str, category: type[Warning], *rest: Any, **kw: Any) -> None:
    print(f"mjrules: warning: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    import warnings

    ap = build_parser()
    args = ap.parse_args(argv)
    warnings.showwarning = _warning   # a warning is one line, as an error is
    backend = os.environ.get("MJRULES_BACKEND")
    if backend and backend not in ("native", "reference"):
        return _fail(args, f"MJRULES_BACKEND is {backend!r}; use native or reference", EXIT_INPUT)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("mjrules: interrupted", file=sys.stderr)
        return EXIT_INTERRUPT
    except BrokenPipeError:  # pragma: no cover - the reader went away (| head)
        return EXIT_OK
    except RecursionError:
        return _fail(args, "the input nests too deeply", EXIT_INPUT)
    except OSError as e:   # a file-system fault: a full disk, a folder that went away
        where = f"{e.filename}: " if getattr(e, "filename", None) else ""
        return _fail(args, f"{where}{e.strerror or e}", EXIT_INPUT)
    except Exception as e:   # the native back end cannot be built here: one line, exit 3
        from ..native.cache import BuildError

        if isinstance(e, BuildError):
            return _fail(args, str(e), EXIT_BUILD)
        raise


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
