"""The native backend: each variant compiled through Cython to a C module, cached by content, and decided by
mjrules.native.kernel exactly as the reference backend decides it.

The kernel and the generated module choose the reading and compute the verdict, pattern, modifiers, status
and value in C; _core.Results makes the Result of it (mjrules.model.result), whose explanation the variant's
Explainer (the reference's too) makes from the kernel's decided values, and whose payments the shared
settlement code (`mjrules.model.settle`) computes, evaluating payment expressions through the compiled module.

Where a double cannot be trusted to equal Python's exact arithmetic (numbers beyond 2**53, 0 ** -1, ...),
or the reference would raise (a table without a cell), the native code says so and this situation is
decided by the reference interpreter instead, so results and errors stay identical.

The modules are built and cached by mjrules.native.cache.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import pairwise
from typing import Any, NamedTuple

from ..compiler.ir import Variant
from ..model import check as _check
from ..model.distance import FreePrograms
from ..model.distance import distance as shape_distance
from ..model.plays import Plays
from ..model.result import Explainer, Result, frozen_lines
from ..model.settle import settle_win
from ..model.shape import MayFit, always_fits, free_tests_read_tiles_only, options_are_defaults
from ..model.situation import (
    Situation,
    SituationError,
    drawable_kinds,
    fields,
    pre_draw_situation,
    reader,
    situation_from_dict,
)
from ..model.tiles import tile_name
from ..reference.readings import KNITS, Group
from .cache import load_kernel, load_module, thread_pool

_EXACT = 2 ** 53
_GROUP_KINDS = ("seq", "pung", "pair")
_SCALARS = frozenset({str, int, bool, type(None)})
_NO_MELDS: list = []   # (never changed)


def _situation_key(d: dict) -> tuple | None:
    """A situation dict's content as a key that equals another's only where the two read alike (types kept: the
    reader takes True and 1 differently), or None (a float, a nested value other than strings and scalars)."""
    out = []
    for k, x in d.items():
        t = type(x)
        if t in _SCALARS:
            out.append((k, t, x))
        elif t is list or t is tuple:
            for y in x:
                if type(y) is not str:
                    return None
            out.append((k, t, tuple(x)))
        elif t is dict:
            items = []
            for k2, y in x.items():
                ty = type(y)
                if ty not in _SCALARS:
                    return None
                items.append((k2, ty, y))
            out.append((k, t, tuple(items)))
        else:
            return None
    return tuple(out)


# ---- the engine -------------------------------------------------------------------------------------------
def _num(v: float) -> int | float:
    return int(v) if v.is_integer() else v


class _Told(NamedTuple):
    """A kernel reading as the Explainer reads one."""

    groups: tuple[Group, ...]
    counts: tuple[int, ...]
    assignment: tuple[int, ...]


class _Teller:
    """What makes a native Result's reading and pattern line, when first read: the kernel's reading (a copy of
    its Reading, which _core.reading_parts unpacks) told by the variant's Explainer."""

    def __init__(self, explainer: Explainer, parts: Any):
        self.explainer, self.parts = explainer, parts

    def tell(self, pattern: int, facts: bytes) -> tuple[Any, Any]:
        groups, counts, assignment = self.parts(facts)
        return self.explainer.tell(pattern, _Told(tuple([_group(*g) for g in groups]), counts, assignment))


@lru_cache(maxsize=1024)
def _group(kind: int, k0: int, bits: int) -> Group:
    """A kernel group (0 seq, 1 pung, 2 pair, 3 knit; its first kind, a knitted straight's index in KNITS; its
    wild bits) as the reference's."""
    if kind == 3:
        return Group("knit", KNITS[k0], (False,) * 9)
    kinds = (k0, k0 + 1, k0 + 2) if kind == 0 else (k0,) * (3 if kind == 1 else 2)
    return Group(_GROUP_KINDS[kind], kinds, tuple(bool(bits >> i & 1) for i in range(len(kinds))))


class NativeEngine(Plays):
    """Decides and scores hands of one variant with its compiled module; the same answers as the reference."""

    backend = "native"

    def __init__(self, variant: Variant):
        from ..compiler import codegen

        core = load_kernel()
        self.variant = v = variant
        self.module = load_module(variant)
        self._core = core
        self._explainer = Explainer(v)   # (the one builder of a result's explanation, both back ends')
        self._used = self._explainer.used
        self._kernel = core.Kernel(self.module.capsule(), self._used)
        self._kernel.set_free_fixed(free_tests_read_tiles_only(v, True))
        self._strings = codegen.string_ids(v)
        self._names = {i: s for s, i in self._strings.items()}
        self._wins = {id(w[0]): (i, w[1]) for i, w in enumerate(codegen.win_exprs(v))}
        self._dtypes = self.module.DEFINE_TYPES
        self._defaults = self._encode(v.option_defaults())
        self._reference_engine: Any = None
        self.fallbacks = 0   # situations the kernel handed to the reference (ERR, or options it cannot hold)
        self._lock = core.KernelLock()  # one kernel holds the chosen reading until the result is assembled
        c, w = v.claims, v.wild
        self._refusals = [
            (f"a discarded {w.label} ({w.name}) cannot be claimed" if w else "", w.src if w else None),
            ("this variant does not allow a win on this discard", c.win_on_discard_src or c.src),
            ("this variant does not allow robbing a kong", c.src),
            ("a wild is never used in a kong, so it cannot be robbed", w.src if w else None),
        ]
        # a winning reading's Result, made in C (runtime/native/_result.pxi) from the pieces _explain (_middle_of, when
        # the lines are first read) and _settle explain
        results = core.Results(self._kernel, self._middle_of, self._explain, self._settle,
                               _Teller(self._explainer, core.reading_parts),
                               self._explainer.reasons, self._explainer.head if "s" not in self._dtypes else None,
                               tuple(f.name for f in v.fans) if v.fans else None)
        self._build = results.build
        self._reader = reader(v)   # (the one situation reader, compiled: FastEvaluate calls it from C)
        self._checks = _check.Checks()
        self._checks.variant, self._checks.judge = v, lambda s: self._reference().judge(s)
        sd = float(self._strings.setdefault("self_draw", len(self._strings) + 1))
        self._names[int(sd)] = "self_draw"
        fixed = _check.wild_kind(v, None)
        cap = 0   # the most live wilds of each wild kind (besides its copies; -1: less the face-up indicator's)
        if w is not None:
            up = w.indicator_stays and w.mode == "indicator"
            cap = w.live or (-1 if up else 255)
        if self._defaults is None:  # options a double cannot hold: the reference decides every check
            self.is_win, self.wait_kinds = self._checks.is_win, self._checks.wait_kinds
            self.hand_value = self._checks.hand_value
        else:
            self._kernel.configure_check(self._defaults, sd, core.wild_code(fixed), cap, self._undecided,
                                         self._validate,
                                         tuple(p.name for p in v.patterns))
            self.is_win, self.wait_kinds = self._kernel.is_win, self._kernel.wait_kinds
            self.hand_value = self._kernel.hand_value
            # a plain situation dict of a winning hand is read, judged and built in one C call
            self.evaluate = core.FastEvaluate(  # type: ignore[method-assign]
                self._reader, self._kernel, results, self._defaults, self._strings, self._lock,
                self._evaluate_dict, self._decided_result,
                lambda o: self._encode(v.option_defaults() | dict(o))).evaluate

    # ---- the bare win check (mjrules.model.check); is_win and wait_kinds are the kernel's own methods ---------
    def is_win(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> bool:  # replaced in __init__
        """Does this complete concealed hand win? (see mjrules.model.check)"""
        return self._checks.is_win(counts, wilds, wild)

    def hand_value(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> tuple[Any, str] | None:
        """(value, pattern) of this complete concealed hand's best reading, or None (see mjrules.model.check)."""
        return self._checks.hand_value(counts, wilds, wild)  # replaced in __init__

    def wait_kinds(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> list[int]:  # likewise
        """The kinds that complete this concealed hand one tile short (see mjrules.model.check)."""
        return self._checks.wait_kinds(counts, wilds, wild)

    def check_batch(self, counts: Any, wilds: Any = None, wild: Any = None, threads: int = 1,
                    values: bool = False) -> Any:
        """is_win for each row of an n x 34 count array, in C without the GIL; `threads` splits the rows
        across threads; `wild` is is_win's for every row (a kind, a name, a tuple of kinds) or an integer array
        of each row's kinds, n or n x k (-1: none; see mjrules.model.check).
        With values: (win, value, pattern index), NaN and -1 where a row does not win."""
        import numpy as np

        if self._defaults is None:
            return self._checks.check_batch(counts, wilds, wild, threads, values)
        cnt, wl = _check.batch_arrays(counts, wilds)
        n = len(cnt)
        w, kinds = _check.batch_kinds(self.variant, wild, n)
        w = self._core.wild_code(w)
        threads = _check.batch_threads(threads)
        out = np.empty(n, dtype=np.int8)
        val = np.empty(n) if values else None
        pat = np.empty(n, dtype=np.int32) if values else None
        kernel = self._kernel
        if threads <= 1 or n < 2 * threads:
            kernel.check_batch(cnt, wl, out, w, val, pat, kinds)
        else:
            cuts = [n * i // threads for i in range(threads + 1)]
            parts = [slice(a, b) for a, b in pairwise(cuts)]
            ex = thread_pool(threads)
            for f in [ex.submit(kernel.check_batch, cnt[s], wl[s], out[s], w, None if val is None else val[s],
                                None if pat is None else pat[s], None if kinds is None else kinds[s], s.start)
                      for s in parts]:
                f.result()
        undecided = np.flatnonzero(out < 0)
        if len(undecided):
            wins = self._checks.check_batch(cnt[undecided], wl[undecided],
                                            wild if kinds is None else kinds[undecided], 1, values)
            if values:
                out[undecided], val[undecided], pat[undecided] = wins[0], wins[1], wins[2]
            else:
                out[undecided] = wins
        win = out.astype(bool)
        return (win, val, pat) if values else win

    def _undecided(self, counts: Any, wilds: int, wild: Any, value: bool = False) -> Any:
        if value:
            return self._checks.hand_value(counts, wilds, wild)
        return self._checks.is_win(counts, wilds, wild)

    def _validate(self, counts: Any, wilds: Any, wild: Any, pre_draw: bool, row: int | None) -> tuple:
        """The shared validation of a bare check's arguments (mjrules.model.check.validate), for the kernel."""
        return _check.validate(self.variant, counts, wilds, wild, pre_draw, row)

    # ---- for the game ---------------------------------------------------------------------------------
    def fit_test(self, options: dict[str, Any] | None = None) -> MayFit:
        """The game's cheap shape test for these options (see mjrules.model.shape): the kernel's, where every free
        pattern's condition reads only what its check context holds, else one that never rules a hand out."""
        v = self.variant
        if self._defaults is not None and free_tests_read_tiles_only(v, options_are_defaults(v, options)):
            return self._kernel.shape_test()
        return always_fits

    def estimator(self, options: dict[str, Any] | None = None, patterns: Any = None) -> Any:
        """The shape distance of hands by the shapes of all patterns, or of those named (mjrules.model.distance's
        Estimator interface): in C (ShapeEstimator) where every free pattern's condition reads only the counts
        (and, where one tests contains, the free patterns' partial tests have programs: they add contains' room),
        else in C where the free patterns' partial tests have programs (ProgramEstimator, distance.FreePrograms),
        else distance.Estimator; made once per option values and patterns."""
        from ..model.distance import Estimator, reads_counts_only

        key = (tuple(sorted((options or {}).items())), None if patterns is None else tuple(sorted(patterns)))
        cache = self.__dict__.setdefault("_estimators", {})
        got = cache.get(key)
        if got is None:
            v = self.variant
            opts = self._encode(v.option_defaults() | dict(options or {}))
            pats = [(i, p) for i, p in enumerate(v.patterns) if patterns is None or p.name in patterns]
            free = tuple(i for i, p in pats if p.shape == "free")
            sd = self._strings.get("self_draw")
            shapes = {p.shape for _, p in pats}
            programs = None
            shape_c = opts is not None and sd is not None and len(free) <= 16 and "knitted" not in shapes and all(
                v.patterns[i].cond is None or reads_counts_only(v.patterns[i].cond) for i in free)
            if shape_c and any(v.patterns[i].cond is not None and "contains" in v.patterns[i].cond.names("call") for i in free):
                # the kernel's test never rules out contains; the programs add its room (the reference's)
                programs = FreePrograms(v, self._reference().partial_test, patterns).programs(
                    Situation(options=dict(options or {})))
                shape_c = programs is not None
            if shape_c:
                got = self._core.ShapeEstimator(self._kernel, opts, float(sd), "standard" in shapes,
                                                "pairs" in shapes and v.win_size % 2 == 0, free,
                                                *(programs or (b"", 0)))
            else:
                got = Estimator(v, options, patterns, self._reference().partial_test)
                programs = FreePrograms(v, self._reference().partial_test, patterns).programs(
                    Situation(options=dict(options or {})))   # (Estimator's default situation: its facts)
                if programs is not None:   # the same in C
                    got = self._core.ProgramEstimator(
                        self._kernel, got.standard, got.pairs, got.knitted, programs[0], programs[1], KNITS, got)
            cache[key] = got
        return got

    def wins(self, s: Situation) -> bool:
        """judge(s)["win"], without building the result: the game's test before it offers a win."""
        opts, win_by = self._options(s), self._strings.get(s.win_by)
        if opts is not None and win_by is not None:
            with self._lock:
                code = self._kernel.evaluate(s, opts, float(win_by), -1)[0]
            if code != self._core.ERR:
                return code == self._core.WIN
        return bool(self._reference()._evaluate(s)["win"])

    # ---- public interface -----------------------------------------------------------------------------
    def evaluate(self, situation: dict | Situation, explain: bool = True) -> Result:
        """The Result of a situation (dict or Situation); without explain, it has no reading and no explain lines
        (see the Engine protocol). Replaced in __init__ by core.FastEvaluate's, which calls _evaluate_dict for
        what it does not decide itself."""
        return self._evaluate_dict(situation, explain)

    def _evaluate_dict(self, situation: dict | Situation, explain: bool = True) -> Result:
        s = situation_from_dict(self.variant, situation)
        if s.win_tile is None and s.win_by != "dealt":
            raise SituationError(f"'win_tile' is required for win_by {s.win_by}", "win_tile")
        return self._evaluate(s, -1, bool(explain))[0]

    def judge(self, s: Situation) -> Result:
        """evaluate() for a Situation the runtime built itself: trusted, so neither parsed nor checked."""
        return self._evaluate(s)[0]

    def waits(self, situation: dict | Situation) -> list[dict[str, Any]]:
        """Each kind that completes a pre-draw hand (win_size - 1 tiles), with the value it would give."""
        return [{"tile": tile_name(k), "value": r["value"], "pattern": r["pattern"], "patterns": r["patterns"]}
                for k, r in self._completions(pre_draw_situation(self.variant, situation), True)]

    def ready(self, situation: dict | Situation) -> bool:
        """Does some kind complete this pre-draw hand? (waits without the values, stopping at the first)"""
        return next(self._completions(pre_draw_situation(self.variant, situation), False), None) is not None

    def _completions(self, s: Situation, values: bool) -> Iterator[tuple[int, dict[str, Any] | None]]:
        """(kind, result) for each kind completing the pre-draw hand s; the result is None without values.

        The kernel rules out every kind after which no pattern's shape can fit (fit_kinds), then judges each
        remaining kind; only kinds it finds winning (or cannot judge) and that check_situation would accept
        completed (drawable_kinds, asked once, when the first kind gets that far) are kept and, with values, scored: from the kernel's own
        verdict where it wins (the lean result), else in full.
        That is the reference's answer: it skips illegal kinds and keeps the winning ones. Every candidate
        shares the pre-draw hand, hence one waits_all.
        """
        opts, win_by = self._options(s), self._strings.get(s.win_by)
        probe = fields(s) if opts is not None and win_by is not None else None
        core, waits_all = self._core, -1
        kinds = self.variant.tiles.playable
        legal = None   # check_situation's verdict on each completed situation (drawable_kinds), asked when needed
        if probe is not None:
            with self._lock:
                fits = self._kernel.fit_kinds(probe, opts, float(win_by))
            kinds = kinds if fits is None else fits
        for k in kinds:
            concealed = tuple(sorted(s.concealed + (k,)))
            code, lean = None, None
            if probe is not None:
                probe.concealed, probe.win_tile = concealed, k
                with self._lock:
                    r = self._kernel.evaluate(probe, opts, float(win_by), waits_all)
                    code = r[0]
                    if code == core.WIN and values:  # the lean result of this very verdict, while the kernel
                        try:                           # holds its reading (None: the settlement needs t)
                            lean = self._build(None, False)
                        except core.Fallback:
                            lean = None
                if code in (core.NOFIT, core.FAIL, core.REFUSE):
                    waits_all = r[-1] if code != core.REFUSE else waits_all
                    continue
                if code == core.WIN:
                    waits_all = r[-1]
            if legal is None:
                legal = drawable_kinds(self.variant, s)
            if k not in legal:
                continue
            if code == core.WIN and not values:
                yield k, None
                continue
            if lean is not None:
                yield k, lean
                continue
            res, waits_all = self._evaluate(s.replace(concealed=concealed, win_tile=k), waits_all)
            if res["win"]:
                yield k, res

    def distance(self, situation: dict | Situation) -> int:
        """Distance to ready (see mjrules.model.distance): -1 wins, 0 ready, n about n exchanges away. A pre-draw
        hand is decided in one kernel call (_core.Distance: the ready check, the estimates and the free patterns'
        first-fits, whose partial tests come as programs, distance.FreePrograms); what the kernel cannot decide,
        and a hand after a draw (each discard's pre-draw hand then in C), by mjrules.model.distance.distance."""
        if type(situation) is dict and self._defaults is not None:
            seen = self.__dict__.setdefault("_distance_memo", {})
            key = _situation_key(situation)
            got = seen.get(key) if key is not None else None
            if got is None:
                got = self._dict_distance(situation)
                if key is not None:
                    if len(seen) >= 65536:
                        seen.clear()
                    seen[key] = got
            return got
        return shape_distance(self, situation, self._reference().partial_test, self._pre_draw)

    def _dict_distance(self, situation: dict) -> int:
        """distance() of a situation dict: a pre-draw hand's in C, where it can.

        distance() reads a dict as a pre-draw hand where it counts win_size - 1 tiles (parse_tiles of the text,
        parse_melds of the melds joined), and then reads it with Reader.read(d, pre_draw=True). With the concealed
        tiles as text (or none) and the melds as a list (or none), that read succeeds only where distance() counts
        so (the reader scans the text and parses the melds the same way, then checks their count), so its success
        is the test."""
        c, m = situation.get("concealed", ""), situation.get("melds", _NO_MELDS)
        if type(c) is str and (m is _NO_MELDS or type(m) is list):
            try:
                f = self._reader.read(situation, True)
            except Exception:   # noqa: BLE001 - distance() below meets it again, or reads the dict otherwise
                f = None
            if f is not None:
                got = self._pre_draw_distance(f)
                if got is not None:
                    return got
        return shape_distance(self, situation, self._reference().partial_test, self._pre_draw)

    def _pre_draw(self, held: Situation) -> int | None:
        """distance()'s answer for the pre-draw Situation held, checked as ready() checks it, or None."""
        if self._defaults is None:
            return None
        f = fields(held.replace(win_tile=None))
        self._reader.check(f, True)
        return self._pre_draw_distance(f)

    def _pre_draw_distance(self, f: Any) -> int | None:
        """The kernel's distance of the checked pre-draw hand f (Fields), or None where it cannot decide."""
        opts, win_by = self._options(f), self._strings.get(f.win_by)
        if opts is None or win_by is None:
            return None
        solver, programs = self._distance_solver
        got = programs.programs(f)
        if got is None:
            return None
        f.win_tile = -1
        with self._lock:
            d = solver.distance(f, opts, float(win_by), got[0], got[1])
        return None if d < 0 else d

    @property
    def _distance_solver(self) -> tuple[Any, FreePrograms]:
        """(the kernel's Distance, the free patterns' programs), made when first asked."""
        got = self.__dict__.get("_distance_parts")
        if got is None:
            got = self.__dict__["_distance_parts"] = self._make_distance()
        return got

    def _make_distance(self) -> tuple[Any, FreePrograms]:
        v = self.variant
        shapes = {p.shape for p in v.patterns}
        w = v.wild
        core = self._core.Distance(self._kernel, "standard" in shapes, "pairs" in shapes and v.win_size % 2 == 0,
                                   "knitted" in shapes, w is not None, bool(w is not None and w.indicator_stays),
                                   bool(w is not None and w.mode == "indicator"), tuple(v.tiles.copies),
                                   KNITS)
        return core, FreePrograms(v, self._reference().partial_test)

    # ---- deciding -------------------------------------------------------------------------------------
    def _reference(self) -> Any:
        if self._reference_engine is None:
            from ..reference.engine import ReferenceEngine

            self._reference_engine = ReferenceEngine(self.variant)
        return self._reference_engine

    def _encode(self, options: dict[str, Any]) -> tuple[float, ...] | None:
        """Option values as doubles (strings as ids); None when a double cannot stand for one exactly."""
        out = []
        for o in self.variant.options:
            x = options[o.name]
            if isinstance(x, str):
                out.append(float(self._strings.setdefault(x, len(self._strings) + 1)))
                self._names[self._strings[x]] = x
            elif isinstance(x, (bool, int, float)) and abs(x) < _EXACT:
                out.append(float(x))
            else:
                return None
        return tuple(out)

    def _options(self, s: Situation) -> tuple[float, ...] | None:
        """The kernel's option values for a situation's options (over the defaults), remembered per option items."""
        o = s.options
        if not o:
            return self._defaults
        memo = self.__dict__.setdefault("_option_memo", {})
        try:
            key = tuple(o.items())
            if key in memo:
                return memo[key]
        except TypeError:   # an unhashable value: encode it afresh (the reader refuses such values first)
            return self._encode(self.variant.option_defaults() | dict(o))
        got = memo[key] = self._encode(self.variant.option_defaults() | dict(o))
        if len(memo) > 256:
            memo.clear()
        return got

    def _evaluate(self, s: Situation, waits_all: int = -1, explain: bool = True) -> tuple[Result, int]:
        opts, win_by = self._options(s), self._strings.get(s.win_by)
        if opts is None or win_by is None:
            self.fallbacks += 1
            return self._reference()._evaluate(s, explain), waits_all
        core = self._core
        with self._lock:
            r = self._kernel.evaluate(s, opts, float(win_by), waits_all)
            if r[0] == core.WIN:
                try:
                    return self._build(s, explain), r[-1]
                except core.Fallback:
                    r = (core.ERR,)
        return self._decided(s, r, waits_all, explain)

    def _decided_result(self, s: Situation, r: tuple, explain: bool) -> Result:
        """FastEvaluate's answer for a kernel answer r other than a win it made."""
        return self._decided(s, r, -1, explain)[0]

    def _decided(self, s: Situation, r: tuple, waits_all: int = -1, explain: bool = True) -> tuple[Result, int]:
        """The Result of a kernel answer r (Kernel.evaluate) other than a win made from it."""
        code, core, ex = r[0], self._core, self._explainer
        if code == core.ERR:
            self.fallbacks += 1
            return self._reference()._evaluate(s, explain), waits_all
        if code == core.REFUSE:
            reason, src = self._refusals[r[1]]
            return ex.losing(reason, src, explain), waits_all
        if code == core.NOFIT:
            return ex.losing("not a winning hand: no pattern fits", None, explain, "no pattern fits the tiles"), r[-1]
        why, value = r[1], _num(r[2])
        sc = self.variant.score
        if why < len(sc.forbids):
            reason, src = sc.forbids[why].reason, sc.forbids[why].src
        else:
            mn = sc.minimum[why - len(sc.forbids)]
            reason, src = f"worth {value}, below the minimum {mn.amount}", mn.src
        return ex.losing(reason, src, explain), r[-1]

    def _define(self, i: int, x: float) -> Any:
        """A define's value from the double the kernel holds: a bool, a string (by its id) or a number."""
        t = self._dtypes[i]
        if t == "b":
            return bool(x)
        if t == "s":
            return self._names.get(int(x), "")
        return _num(x)

    def _middle_of(self, sig: bytes, value: Any) -> tuple[tuple, tuple, str | None, bool]:
        """The explanation of a reading's signature (Kernel._signature), when a result's lines are first read
        (LazyLines): _explain of its parts."""
        return self._explain(self._kernel.parts(sig), value)

    def _explain(self, parts: tuple, value: Any) -> tuple[tuple, tuple, str | None, bool]:
        """The explanation of a reading's signature, decoded (Kernel.parts: modifiers, events, status, table rows,
        defines, fans): its lines (the fans' before the value's, as Explainer.win puts them), the names that follow
        the pattern in "patterns", the status name, and whether Results may remember it (not while a define's
        string value has no name yet)."""
        mods, events, status, rows, defines, fans, exposed = parts
        ex = self._explainer
        lines, tail, status_name = ex.middle(
            mods, events, status, rows, [self._define(i, x) for i, x in enumerate(defines)], value)
        if ex.has_fans:
            lines = lines[:-1] + ex.fans(fans, exposed)[0] + lines[-1:]
        keep = all(t != "s" or int(x) in self._names for t, x in zip(self._dtypes, defines))
        return lines, tail, status_name, keep

    def _settle(self, s: Situation, value: Any, vals: tuple) -> tuple[dict[str, Any], tuple, bool]:
        """settle_win on the reading the kernel just chose: its payments, its explanation lines (read-only) and
        True (Results may remember them).

        `vals` are every win expression's value, which the kernel computed before it asked (Kernel.wins: None
        where the native code cannot evaluate one, and then the reference decides); settle_win reads nothing else
        but the winner, the discarder and the dealer, so Results remembers the answer per those and the values
        (Kernel._settle_signature) and asks here only on a miss."""
        wins, fallback = self._wins, self._core.Fallback

        def ev(e: Any) -> Any:
            i, t = wins[id(e)]
            y = vals[i]
            if y is None:
                raise fallback(i)
            if t == "b":
                return bool(y)
            return int(y) if y.is_integer() else y  # _num(y)

        added: list[dict[str, Any]] = []
        paid = settle_win(self.variant, s, ev, added)
        return paid, frozen_lines(added), True
