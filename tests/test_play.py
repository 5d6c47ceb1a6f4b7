"""`mjrules play`: the table over the step API (no second copy of a rule of play), its JSON routes, and a whole
seeded hand played in a real headless browser (Debian's chromium, driven by Playwright; nothing downloads a
browser). MJRULES_SCREENSHOTS=FOLDER also saves the page as PNGs there (docs/images comes from this)."""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import mjrules
import pytest
from mjrules.game import Game, make_agent, run
from mjrules.game.play import agent_seed
from mjrules.model.tiles import tile_name
from optional import need

need("starlette")
need("uvicorn")
import uvicorn
from mjrules.play.server import bind, config, make_app
from mjrules.play.table import Table

VARIANTS = ["shangrao", "fuzhou_fujian", "sichuan_xuezhan", "guangdong_tuidaohu", "zhuanzhuan", "riichi"]


def person(state: dict) -> int:
    """The person's policy in these tests: win when possible, else discard the drawn tile (else the last one
    offered), else pass, else the first action offered."""
    legal = state["legal"]
    by_type = {a["type"]: a for a in legal}
    if "win" in by_type:
        return by_type["win"]["id"]
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        drawn = next((a for a in discards if a["tile"] == state["drawn"]), None)
        return (drawn or discards[-1])["id"]
    return by_type["pass"]["id"] if "pass" in by_type else legal[0]["id"]


class Person:
    """The same policy as an agent of the step API, for the game played without the table."""

    def __init__(self, table: Table):
        self.table = table

    def act(self, game, seat):
        return person(self.table.state())


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_plays_the_hand_the_step_api_plays(variant):
    """A hand at the table, the person deciding by `person`, is the hand `run` plays with the same agents: the
    same events and outcome (the table adds nothing to the rules of play)."""
    eng = mjrules.load(variant)
    table = Table(eng, seat=1, agents=["greedy"], seed=5)
    decisions = 0
    while not table.state()["over"]:
        table.act(person(table.state()))
        decisions += 1
    assert decisions > 0
    played = table.game

    twin = Table(eng, seat=1, agents=["greedy"], seed=5)       # the same deal, played by `run` instead
    g = Game(eng, seed=5, dealer=played.dealer)   # (the match's first dealer: the seating procedure's, from the seed)
    agents = [Person(twin) if p == 1 else make_agent("greedy", eng.variant, agent_seed(5, p)) for p in range(4)]
    twin.game = g
    run(g, agents)
    assert g.events == played.events and g.outcome == played.outcome
    state = table.state()
    assert sum(state["result"]["payments"].values()) == 0
    assert state["legal"] == [] and state["phase"] == "over"
    # once over, every hand is laid open: each seat's concealed tiles and melds, as the game holds them
    hands = state["result"]["hands"]
    assert [h["seat"] for h in hands] == list(range(played.n))
    for h in hands:
        assert h["concealed"] == [tile_name(k) for k in played.hand(h["seat"])]
        assert len(h["concealed"]) + 3 * len(h["melds"]) >= eng.variant.win_size - 1


def test_the_state_shows_only_what_the_seat_may_see():
    eng = mjrules.load("shangrao")
    table = Table(eng, seat=2, seed=1)
    s = table.state()
    g = table.game
    assert s["seat"] == 2 and sorted(s["concealed"] + ([s["drawn"]] if s["drawn"] else [])) == sorted(g.view(2)["concealed"])
    others = [g.view(p)["concealed"] for p in (0, 1, 3)]
    text = " ".join(s["log"])
    assert "dealt" in text and not any(" ".join(h) in text for h in others)
    assert all("drew" not in ln or ln.startswith("you") or ln.endswith("drew") or "replacement" in ln for ln in s["log"])


@contextlib.contextmanager
def serving(table: Table):
    """The table's app served by uvicorn on a free port of 127.0.0.1, in a thread: its base URL."""
    sock = bind(0)
    server = uvicorn.Server(config(make_app(table, sock.getsockname()[1])))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.02)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def fetch(url: str, body: dict | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_table_plays_a_match():
    """The table keeps the match: each finished hand counts in the scores, the next hand takes the dealer, streak,
    wind and sticks the match gives, and once the match is over (here a tonpuu of riichi) the next hand begins a
    new one. It is the match play_match plays: the same hands, scores, ranks and results."""
    eng = mjrules.load("riichi")
    opts = {"match": "tonpuu", "uma_1": 10, "uma_2": 5, "uma_3": -5, "uma_4": -10}
    table = Table(eng, seat=2, agents=["greedy"], seed=11, options=opts)
    games = []
    while True:
        while not table.state()["over"]:
            table.act(person(table.state()))
        s = table.state()
        games.append(table.game)
        assert sum(s["match"]["scores"]) + s["match"]["pot"] == 100_000
        if s["match"]["over"]:
            break
        table.new_hand()
        nxt = table.state()
        assert (nxt["dealer"], nxt["match"]["prevalent_wind"]) == (s["result"]["next_dealer"], 0)
    m = s["match"]
    assert m["ended_by"] in ("length", "飛び", "和了り止め") and sorted(m["ranks"]) == [1, 2, 3, 4]
    assert sum(m["results"]) == pytest.approx(0)
    assert len(games) == m["hands_played"]
    table.new_hand()
    again = table.state()["match"]
    assert (again["number"], again["scores"], again["hands_played"]) == (2, [25000] * 4, 0)


def test_the_routes():
    eng = mjrules.load("shangrao")
    with serving(Table(eng, seed=3)) as base:
        assert "table.js" in fetch(base + "/")[1]
        assert fetch(base + "/static/table.js")[0] == 200
        s = json.loads(fetch(base + "/api/state")[1])
        assert s["legal"] and s["to_act"] == s["dealer"]
        code, text = fetch(base + "/api/act", {"id": 999})
        assert code == 400 and "not legal" in json.loads(text)["error"]
        assert json.loads(fetch(base + "/api/state")[1]) == s        # an illegal action changes nothing
        assert s["seed"] is None                                     # the seed only at the hand's end
        after = json.loads(fetch(base + "/api/act", {"id": s["legal"][0]["id"], "hand": 1})[1])
        assert after["step"] > s["step"]
        assert fetch(base + "/api/new", {"hand": 1})[0] == 409       # not while the hand is live
        code, text = fetch(base + "/api/abandon", {"hand": 1})
        gone = json.loads(text)
        assert code == 200 and gone["over"] and gone["abandoned"] and gone["seed"] == 3
        assert gone["result"]["replay"] == {"variant": "shangrao", "seed": 3, "dealer": s["dealer"],
                                            "dealer_streak": 0, "prevalent_wind": 0, "options": {}}
        nxt = json.loads(fetch(base + "/api/new", {"hand": 1})[1])
        assert (nxt["hand"], nxt["seed"], nxt["over"]) == (2, None, False)
        assert fetch(base + "/api/new", {"hand": 1})[0] == 409       # a stale hand number


@pytest.mark.parametrize(("args", "message"), [
    (["nosuch"], "unknown variant 'nosuch'"),
    (["shangrao", "--seat", "6"], "the variant has seats 0..3"),
    (["shangrao", "--agents", "clever"], "unknown agent 'clever'"),
    (["shangrao", "--option", "nosuch=1"], "nosuch"),
])
def test_bad_input_is_one_clear_line(args, message):
    p = subprocess.run([sys.executable, "-m", "mjrules.cli.main", "play", *args, "--no-browser", "--port", "0"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode in (1, 2) and message in p.stderr and "Traceback" not in p.stderr


def test_a_port_in_use_is_one_clear_line():
    sock = bind(0)
    port = sock.getsockname()[1]
    try:
        p = subprocess.run([sys.executable, "-m", "mjrules.cli.main", "play", "shangrao", "--no-browser", "--port", str(port)],
                           capture_output=True, text=True, timeout=60, check=False)
    finally:
        sock.close()
    assert p.returncode == 2 and f"port {port} on 127.0.0.1 is in use" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


# ---- in a real browser ---------------------------------------------------------------------------------------
BROWSER_SEED = 7


def _chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs Debian's chromium package")
        pytest.skip("the browser test needs Debian's chromium: apt-get install chromium")
    return path


def test_a_whole_hand_in_the_browser():
    """`mjrules play` serves the page; the browser plays the hand by clicking (a win when offered, else the drawn
    tile, else pass) until the result shows: each win's explanation with rule ids, the settlement summing to zero,
    the same as the server's state."""
    need("playwright")
    from playwright.sync_api import sync_playwright

    chromium = _chromium()
    shots = os.environ.get("MJRULES_SCREENSHOTS")
    server = subprocess.Popen([sys.executable, "-m", "mjrules.cli.main", "play", "shangrao", "--seed", str(BROWSER_SEED),
                               "--port", "0", "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert m, line + server.stderr.read()
        url = m.group()
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(url)
            page.wait_for_function("document.body.dataset.step !== '-1'")
            if shots:
                page.screenshot(path=str(Path(shots) / "play-turn.png"))
            clicks, deadline = 0, time.monotonic() + 50
            while page.get_attribute("body", "data-over") != "true":
                assert time.monotonic() < deadline and clicks < 300, f"no end after {clicks} clicks"
                step = page.get_attribute("body", "data-step")
                page.wait_for_selector("#hand button[data-id], #actions button[data-id]")
                state = page.evaluate("current")
                target = person(state)
                page.click(f"[data-id='{target}']")
                clicks += 1
                page.wait_for_function(f"document.body.dataset.step !== '{step}'")
            assert clicks > 3
            page.wait_for_selector("#result:not([hidden])")
            if shots:
                page.locator("#result").scroll_into_view_if_needed()
                page.screenshot(path=str(Path(shots) / "play-result.png"), full_page=True)
            state = page.evaluate("current")
            nets = {row.get_attribute("data-seat"): int(row.locator("td[data-net]").get_attribute("data-net"))
                    for row in page.locator("#settlement tbody tr").all()}
            assert nets == state["result"]["payments"] and sum(nets.values()) == 0
            shown = page.locator("#hands tbody tr").all()
            assert len(shown) == len(state["result"]["hands"]) == 4
            for row, h in zip(shown, state["result"]["hands"]):
                assert row.locator("td").nth(1).locator(".tile").count() == len(h["concealed"])
            wins = page.locator("#wins .win").all()
            assert len(wins) == len(state["result"]["wins"]) >= 1
            rules = page.locator("#wins td.rule").all_inner_texts()
            assert rules and all(re.fullmatch(r"(SR-\d+ ?)+|-", r) for r in rules)
            assert any(r != "-" for r in rules)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
