// The table's page: renders /api/state, sends the person's decisions. No library, no network beyond this server.
"use strict";

const HONOURS = { "1z": "東", "2z": "南", "3z": "西", "4z": "北", "5z": "中", "6z": "發", "7z": "白" };
const HONOUR_CLASS = { "5z": "red", "6z": "green", "7z": "white" };
const FLOWERS = ["春", "夏", "秋", "冬", "梅", "蘭", "竹", "菊"];
const SUITS = { m: "萬", p: "筒", s: "条" };
const ACTION_NAMES = { pon: "Pon", chi: "Chi", kong: "Kong", win: "Win", pass: "Pass", declare_ready: "Declare ready",
                       rob_gold: "Rob the gold", select: "Pass on", choose: "Choose", discard: "Discard" };
let current = null;

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
}

// One tile drawn from its name: "5m" a rank over its suit, "7z" an honour, "f3" a flower.
function tile(name, { button = false, small = false, wild = false } = {}) {
  const t = el(button ? "button" : "span", { class: "tile", title: name, "data-tile": name });
  if (button) t.type = "button";
  const suit = name.slice(-1);
  if (HONOURS[name]) {
    t.classList.add("honour", HONOUR_CLASS[name] || "wind");
    t.append(el("span", { class: "rank", text: HONOURS[name] }));
  } else if (name[0] === "f") {
    t.classList.add("flower");
    t.append(el("span", { class: "rank", text: FLOWERS[Number(name.slice(1)) - 1] || name }));
  } else {
    t.classList.add(suit);
    t.append(el("span", { class: "rank", text: name[0] }), el("span", { class: "suit", text: SUITS[suit] || suit }));
  }
  t.append(el("span", { class: "code", text: name }));
  if (small) t.classList.add("small");
  if (wild) t.classList.add("wild");
  return t;
}

function tiles(names, opts = {}) {
  const box = el("span", { class: "tiles" });
  for (const n of names) box.append(tile(n, { ...opts, wild: (current.wild || []).includes(n) }));
  return box;
}

function actionLabel(a) {
  const name = ACTION_NAMES[a.type] || a.type;
  if (a.type === "chi") return `${name} ${a.tiles.join(" ")}`;
  if (a.type === "kong") return `${name} (${a.kind})`;
  if (a.type === "choose") return `${name} ${a.choice}`;
  return name;
}

function renderSeats(s) {
  const box = document.getElementById("seats");
  box.replaceChildren();
  s.players.forEach((p) => {
    const head = el("div", { class: "who" }, `Seat ${p.seat} · ${p.name}`, p.dealer ? " · dealer" : "",
                    p.declared_ready ? " · ready" : "",
                    el("span", { class: "score", "data-score": s.match.scores[p.seat], text: ` · ${s.match.scores[p.seat]}` }));
    const hidden = p.seat === s.seat ? null :
      el("div", { class: "row tiles" }, ...Array.from({ length: p.concealed_count }, () => el("span", { class: "tile small back" })));
    const melds = el("div", { class: "row" }, "melds: ", ...p.melds.map((m) => el("span", { class: "meld" }, tiles(m, { small: true }))));
    const flowers = p.flowers.length ? el("div", { class: "row" }, "flowers: ", tiles(p.flowers, { small: true })) : null;
    const discards = el("div", { class: "row" }, "discards: ", tiles(p.discards, { small: true }));
    box.append(el("div", { class: "seat" + (p.seat === s.to_act ? " acting" : ""), "data-seat": p.seat },
                  head, hidden, melds, flowers, discards));
  });
}

function renderHand(s) {
  const discards = new Map(s.legal.filter((a) => a.type === "discard").map((a) => [a.tile, a.id]));
  const hand = document.getElementById("hand");
  hand.replaceChildren();
  const add = (name, extra) => {
    const t = tile(name, { button: true, wild: (s.wild || []).includes(name) });
    if (extra) t.classList.add(extra);
    if (discards.has(name)) { t.dataset.id = discards.get(name); t.dataset.type = "discard"; t.onclick = () => act(t.dataset.id); }
    else t.disabled = true;
    hand.append(t);
  };
  s.concealed.forEach((n) => add(n));
  if (s.drawn) add(s.drawn, "drawn");
  const bar = document.getElementById("actions");
  bar.replaceChildren();
  for (const a of s.legal) {
    if (a.type === "discard") continue;
    const b = el("button", { class: "act", type: "button", "data-id": a.id, "data-type": a.type }, actionLabel(a));
    if (a.tile) b.append(tile(a.tile));
    b.onclick = () => act(a.id);
    bar.append(b);
  }
  if (discards.size) bar.append(el("span", { text: "click a tile to discard it" }));
  document.getElementById("turn").textContent = s.over ? "" :
    s.legal.length ? "— your decision" : `— waiting for seat ${s.to_act}`;
}

function renderResult(s) {
  const box = document.getElementById("result");
  box.hidden = !s.over;
  if (!s.over) return;
  const r = s.result;
  const wins = document.getElementById("wins");
  wins.replaceChildren();
  if (r.abandoned) wins.append(el("p", { text: "The hand was abandoned: no settlement." }));
  else if (!r.wins.length) wins.append(el("p", { text: "Nobody won: the hand is drawn." }));
  for (const w of r.wins) {
    const how = w.win_by === "discard" ? `on seat ${w.discarder}'s discard` : `by ${w.win_by}`;
    const rows = w.explain.map((ln) => el("tr", {}, el("td", { class: "rule", text: ln.rules.join(" ") || "-" }),
                                          el("td", { text: ln.text })));
    wins.append(el("div", { class: "win", "data-seat": w.seat },
      el("h3", { text: `Seat ${w.seat}${w.seat === s.seat ? " (you)" : ""} wins ${how}: ${w.patterns.join(" + ")}` +
                       `${w.status ? ` [${w.status}]` : ""}, value ${w.value}` }),
      el("table", { class: "explain" }, el("thead", {}, el("tr", {}, el("th", { text: "rules" }), el("th", { text: "explanation" }))),
         el("tbody", {}, ...rows))));
  }
  const hands = document.querySelector("#hands tbody");
  hands.replaceChildren(...r.hands.map((h) => el("tr", { "data-seat": h.seat },
    el("td", { text: `seat ${h.seat}${h.seat === s.seat ? " (you)" : ""}` }),
    el("td", {}, tiles(h.concealed, { small: true })),
    el("td", {}, ...h.melds.map((m) => tiles(m, { small: true }))))));
  const net = document.querySelector("#settlement tbody");
  net.replaceChildren(...Object.entries(r.payments).map(([seat, v]) => el("tr", { "data-seat": seat },
    el("td", { text: `seat ${seat}${Number(seat) === s.seat ? " (you)" : ""}` }),
    el("td", { class: v > 0 ? "plus" : v < 0 ? "minus" : "", "data-net": v, text: (v > 0 ? "+" : "") + v }))));
  const ledger = document.querySelector("#ledger tbody");
  ledger.replaceChildren(...r.ledger.map((p) => el("tr", {},
    el("td", { text: p.from ?? "" }), el("td", { text: p.to ?? "" }), el("td", { text: p.amount ?? "" }),
    el("td", { class: "rule", text: (p.rules || [p.rule]).filter(Boolean).join(" ") }), el("td", { text: p.why }))));
  const rp = r.replay;
  document.getElementById("next").textContent = `Next dealer: seat ${r.next_dealer} (streak ${r.next_streak}). ` +
    `This hand: seed ${rp.seed}, dealer ${rp.dealer}, streak ${rp.dealer_streak}, wind ${WINDS[rp.prevalent_wind]}.`;
  const m = s.match, end = document.getElementById("match-end");
  end.hidden = !m.over;
  if (m.over) {
    document.getElementById("match-why").textContent = `Match ${m.number} is over (${m.ended_by}) after ` +
      `${m.hands_played} hands` + (m.pot_to !== undefined ? `; seat ${m.pot_to} took the stakes left on the table.` : ".");
    document.querySelector("#ranks tbody").replaceChildren(...m.ranks.map((rank, seat) => [rank, seat])
      .sort((a, b) => a[0] - b[0]).map(([rank, seat]) => el("tr", { "data-seat": seat },
        el("td", { text: String(rank) }), el("td", { text: `seat ${seat}${seat === s.seat ? " (you)" : ""}` }),
        el("td", { text: String(m.scores[seat]) }), el("td", { text: String(m.results[seat]) }))));
  }
}

const WINDS = ["East", "South", "West", "North"];

function render(s) {
  current = s;
  document.title = `mjrules play: ${s.variant}`;
  document.getElementById("title").textContent = s.label;
  const facts = document.getElementById("facts");
  facts.replaceChildren(
    el("span", { class: "fact", text: s.seed === null ? `hand ${s.hand}` : `hand ${s.hand} · seed ${s.seed}` }),
    el("span", { class: "fact", text: `you: seat ${s.seat}` }),
    el("span", { class: "fact", text: `match ${s.match.number} · ${WINDS[s.match.prevalent_wind]} round` +
                 (s.match.pot ? ` · on the table: ${s.match.pot}` : "") }),
    el("span", { class: "fact", text: `wall: ${s.wall}` }),
    s.wild.length ? el("span", { class: "fact" }, "wild: ", tiles(s.wild, { small: true })) : null,
    s.indicator ? el("span", { class: "fact" }, "indicator: ", tiles([s.indicator], { small: true })) : null,
    el("span", { class: "fact", text: `phase: ${s.phase}` }));
  renderSeats(s);
  renderHand(s);
  renderResult(s);
  document.getElementById("log").replaceChildren(...s.log.map((t) => el("li", { text: t })));
  const button = document.getElementById("new-hand");
  button.textContent = s.over ? (s.match.over ? "New match" : "New hand") : "Abandon hand";
  button.dataset.action = s.over ? "new" : "abandon";
  document.body.dataset.over = s.over;
  document.body.dataset.step = `${s.hand}.${s.step}`;
}

// GET without a body, POST with a JSON one (the server takes nothing else); an error is one line under the hand.
async function call(path, body) {
  const r = await fetch(path, body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `${r.status} ${r.statusText}` }; }
  document.getElementById("error").textContent = r.ok ? "" : data.error;
  if (r.ok) render(data);
  else if (r.status === 409) {   // the table moved on (another tab, say): show where it is, and why this was refused
    await call("/api/state");
    document.getElementById("error").textContent = data.error;
  }
}

// Each decision names the hand it is for, so a stale click cannot act in a later hand.
function act(id) { return call("/api/act", { id: Number(id), hand: current.hand }); }

// "Abandon hand" while a hand is live (voided: no settlement), "New hand" once it is over; both name the hand.
document.getElementById("new-hand").onclick = () => {
  if (!current) return;
  if (current.over) call("/api/new", { hand: current.hand });
  else if (window.confirm(`Abandon hand ${current.hand}? It is voided: no settlement.`)) call("/api/abandon", { hand: current.hand });
};
call("/api/state");
