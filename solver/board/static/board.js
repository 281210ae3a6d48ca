// The analysis board's page. The server holds the position; this script draws the state
// it returns and sends the user's moves. Text from the server (player names, rules, error
// messages) is only ever set with textContent, never parsed as HTML.
"use strict";

const SUITS = "SHDC";
const SYM = { S: "♠", H: "♥", D: "♦", C: "♣", N: "NT" };
const RANKS = "AKQJT98765432";
const SEATS = ["D", "E", "M"];
const SEAT_COLOUR = { D: "#1f77b4", E: "#2ca02c", M: "#9467bd" };

let state = null; // the last state from the server
let marks = null; // marks of the position shown, when ready
let panels = {}; // name -> last panel answer
let generation = 0; // bumps on every new state: stale polls stop
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function suitSpan(s) {
  return el("span", { class: "suit-sym" + (s === "H" || s === "D" ? " red" : "") , text: SYM[s] });
}
function rankText(r) { return r === "T" ? "10" : r; }
function cardLabel(card) {
  const span = el("span", { class: card[0] === "H" || card[0] === "D" ? "red" : "" });
  span.textContent = SYM[card[0]] + rankText(card[1]);
  return span;
}
function strainLabel(strain, contract) {
  if (contract === "MT") return "MT (misère, no trump)";
  if (contract === "miz") return "miz (misère)";
  if (strain === "N") return "No trump";
  return SYM[strain] + " trumps";
}

// --- talking to the server -----------------------------------------------------------------
async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const reason = data && data.error ? data.error : `HTTP ${r.status}`;
    const err = new Error(reason);
    err.status = r.status;
    throw err;
  }
  return data;
}

function showError(message) {
  const box = $("error");
  if (!message) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = message;
  box.hidden = false;
}

async function move(action, body) {
  if (!state) return;
  try {
    const s = await api("POST", `/api/boards/${state.id}/${action}`, body || {});
    showError(null);
    setState(s);
  } catch (e) { showError(e.message); }
}
const goto = (at) => move("goto", { at });
const play = (card) => move("play", { card });

function setState(s) {
  const samePlay = state && state.id === s.id && state.kibitz === s.kibitz;
  state = s;
  marks = null;
  generation += 1;
  if (!samePlay) panels = {};
  const params = new URLSearchParams(s.query);
  params.set("b", s.id);
  history.replaceState(null, "", "?" + params.toString());
  $("kibitz").value = s.kibitz || "";
  $("download").href = `/api/boards/${s.id}/handfile`;
  $("download").hidden = !!s.kibitz;
  render();
  pollMarks(generation);
  if (!s.kibitz) for (const name of ["review", "table", "declare"]) pollPanel(name, generation);
}

async function pollMarks(gen) {
  while (gen === generation && state) {
    let m;
    try { m = await api("GET", `/api/boards/${state.id}/marks?wait=0.6`); }
    catch (e) { if (gen === generation) $("marks-status").textContent = "marks: " + e.message; return; }
    if (gen !== generation) return;
    if (m.status === "done" || m.status === "failed") { marks = m; render(); return; }
    if (m.status === "cancelled") return;
    if (m.partial) { marks = m; render(); } // a misère value, then its best cards, before the rest
    else renderMarksStatus(m);
  }
}

async function pollPanel(name, gen) {
  while (gen === generation && state && !state.kibitz) {
    if (panels[name] && (panels[name].status === "done" || panels[name].status === "failed")) { renderPanels(); return; }
    let p;
    const wait = panels[name] ? 1 : 0; // the first answer at once, to show the progress
    try { p = await api("GET", `/api/boards/${state.id}/panel/${name}?wait=${wait}`); }
    catch (e) { panels[name] = { status: "failed", error: e.message }; renderPanels(); return; }
    if (gen !== generation) {
      // the position moved on, not the hand: keep the answer for the next round
      if (p.status === "done") panels[name] = p;
      return;
    }
    panels[name] = p;
    renderPanels();
    if (p.status === "done" || p.status === "failed" || p.status === "cancelled") return;
  }
}

// --- drawing ---------------------------------------------------------------------------------
function render() {
  if (!state) return;
  renderHeadline();
  renderInfo();
  for (const s of SEATS) renderSeat(s);
  renderTrick();
  renderControls();
  renderMarksStatus(marks);
  renderRecord();
  renderPanels();
}

function renderHeadline() {
  const s = state;
  const h = $("headline");
  h.textContent = "";
  h.append(el("b", { text: strainLabel(s.strain, s.contract) }), ` · declarer ${s.declarer} · rules ${s.rules.name}`);
  if (s.kibitz) h.append(" · ", el("b", { text: `kibitzing ${s.kibitz}` }));
  if (s.branch) h.append(" · ", el("b", { text: "exploring a branch" }));
}

function renderInfo() {
  const s = state;
  const box = $("info");
  box.textContent = "";
  box.append(el("div", { class: "contract" + (s.contract === "H" || s.contract === "D" ? " red" : ""), text: strainLabel(s.strain, s.contract) }));
  box.append(el("div", { text: `Declarer ${s.declarer} · rules ${s.rules.name}${s.rules.must_ruff ? " · must ruff" : ""}` }));
  const where = s.over ? "hand over" : `trick ${s.trick_no} of ${s.total / 3} · ${s.mover} to play`;
  box.append(el("div", { text: where }));
  const out = $("outcards");
  out.textContent = "";
  if (s.discard && s.discard.length) {
    const line = el("div", {}, el("b", { text: s.kibitz ? "Your discard: " : `${s.declarer}'s discard: ` }));
    s.discard.forEach((c, i) => { if (i) line.append(" "); line.append(cardLabel(c)); });
    out.append(line);
  }
}

function groupsFor(seat) {
  // card -> {group, mark} for the seat to move, from the marks
  const map = new Map();
  const r = marks && (marks.result || marks.partial);
  if (!r || state.mover !== seat) return map;
  if (r.partial) {
    // the cards known to keep the value; the others are worse by an amount still being searched
    if (!r.keeping) return map;
    const keeping = new Set(r.keeping);
    for (const c of state.legal) {
      const keeps = keeping.has(c);
      const title = `${seat} ${keeps ? `can hold itself to ${r.best_total}` : `takes more than ${r.best_total}`} trick` +
        `${r.best_total === 1 ? "" : "s"} in all after ${SYM[c[0]]}${rankText(c[1])}` + (keeps ? " (best)" : " (how many more: still computing)");
      map.set(c, { key: c, cls: keeps ? "d0" : "open", text: keeps ? "=" : "…", title, first: true, last: true });
    }
  } else if (r.kind === "dd") {
    for (const g of r.groups) {
      const d = r.misere ? g.delta : -g.delta;
      const cls = d === 0 ? "d0" : d === 1 ? "d1" : "d2";
      const text = g.delta === 0 ? "=" : (g.delta > 0 ? "+" : "−") + Math.abs(g.delta);
      const title = `${seat} ${r.misere ? "takes at least" : "takes"} ${g.total} trick${g.total === 1 ? "" : "s"} in all after ` +
        g.cards.map((c) => SYM[c[0]] + rankText(c[1])).join(" or ") +
        (g.delta === 0 ? " (best)" : ` (best ${r.best_total})`);
      g.cards.forEach((c, i) => map.set(c, { key: g.cards[0], cls, text, title, first: i === 0, last: i === g.cards.length - 1 }));
    }
  } else if (r.kind === "sd") {
    for (const c of r.cards) {
      const p = c.p_target === null ? "?" : Math.round(100 * c.p_target) + "%";
      const ci = c.p_ci ? ` [${Math.round(100 * c.p_ci[0])}–${Math.round(100 * c.p_ci[1])}%]` : "";
      const mean = c.mean_tricks === null ? "?" : c.mean_tricks.toFixed(2);
      const mci = c.mean_ci && c.mean_ci[0] !== null ? ` [${c.mean_ci[0].toFixed(2)}–${c.mean_ci[1].toFixed(2)}]` : "";
      const rec = c.card === r.recommended;
      const title = `${SYM[c.card[0]]}${rankText(c.card[1])}: chance of ${r.misere ? "staying within" : "reaching"} ` +
        `${r.target} tricks ${p}${ci}, mean tricks ${mean}${mci} (${c.samples} layouts)${rec ? " — recommended" : ""}`;
      map.set(c.card, { key: c.card, cls: "sd" + (rec ? " rec" : ""), text: `${p} · ${mean}`, lines: [p, mean], title, first: true, last: true });
    }
  }
  return map;
}

function renderSeat(seat) {
  const s = state;
  const info = s.seats[seat];
  const box = $("seat-" + seat);
  box.textContent = "";
  box.classList.toggle("to-move", s.mover === seat && !!info.hand);
  const name = el("span", { class: "seat-name" },
    el("span", { class: "seat-badge", style: `background:${SEAT_COLOUR[seat]}`, text: seat }),
    el("span", { class: "word", text: info.word }),
    info.name ? " " : null,
    info.name ? el("span", { class: "player", text: info.name }) : null,
    seat === s.declarer ? el("span", { class: "word", text: " · declarer" }) : null);
  const made = s.misere ? info.won <= info.target : info.won >= info.target;
  const score = el("span", { class: "score" + (made && !s.misere ? " made" : ""), title: s.misere ? "tricks taken / most allowed" : "tricks taken / target" },
    el("b", { text: String(info.won) }), ` / ${info.target}${s.misere ? " max" : ""}`);
  box.append(el("div", { class: "seat-head" }, name, score));
  if (!info.hand) {
    const backs = el("div", { class: "backs", title: "hidden: the kibitzed seat cannot see these cards" });
    for (let i = 0; i < info.count; i++) backs.append(el("span", { class: "back" }));
    box.append(backs, el("div", { class: "hidden-note", text: `${info.count} cards, not shown` }));
    return;
  }
  const legal = new Set(s.mover === seat ? s.legal : []);
  const marked = groupsFor(seat);
  for (const suit of SUITS) {
    const row = el("div", { class: "suit-row" }, suitSpan(suit));
    const cards = info.hand.filter((c) => c[0] === suit);
    let group = null;
    for (const c of cards) {
      const m = marked.get(c);
      const btn = el("button", {
        type: "button", class: "card" + (suit === "H" || suit === "D" ? " red" : "") + (legal.has(c) ? " legal" : ""),
        "data-card": c, text: rankText(c[1]), title: m ? m.title : null,
        onclick: legal.has(c) ? () => play(c) : null,
      });
      if (m) {
        if (m.first) { group = el("span", { class: "group " + m.cls, "data-group": m.key }); row.append(group); }
        group.append(btn);
        if (m.last && m.lines) group.append(el("span", { class: "mark two" }, ...m.lines.map((t) => el("span", { text: t }))));
        else if (m.last) group.append(el("span", { class: "mark", text: m.text }));
      } else {
        row.append(btn);
      }
    }
    if (!cards.length) row.append(el("span", { class: "hidden-note", text: "—" }));
    box.append(row);
  }
}

function face(card, extra) {
  return el("div", { class: "face " + (extra || "") + (card[0] === "H" || card[0] === "D" ? " red" : ""), "data-card": card },
    el("span", { text: rankText(card[1]) }), el("span", { class: "sym", text: SYM[card[0]] }));
}

function renderTrick() {
  const s = state;
  for (const seat of SEATS) $("slot-" + seat).textContent = "";
  const note = $("trick-note");
  if (s.trick.length) {
    for (const p of s.trick) $("slot-" + p.seat).append(face(p.card));
    note.textContent = `trick ${s.trick_no}`;
  } else if (s.last_trick) {
    for (const p of s.last_trick.cards) $("slot-" + p.seat).append(face(p.card, "old" + (p.seat === s.last_trick.winner ? " winner" : "")));
    note.textContent = `trick ${s.last_trick.trick} won by ${s.last_trick.winner}`;
  } else {
    note.textContent = s.over ? "" : `${s.mover} leads`;
  }
}

function renderControls() {
  const s = state;
  const canBack = s.at > 0;
  const canFwd = s.at < s.length;
  $("first").disabled = !canBack;
  $("prev").disabled = !canBack;
  $("prev-trick").disabled = !canBack || !!s.kibitz;
  $("next").disabled = !canFwd;
  $("next-trick").disabled = !canFwd || !!s.kibitz;
  $("last").disabled = !canFwd || !!s.kibitz;
  $("undo").disabled = !canBack;
  $("actual").disabled = !s.branch || !!s.kibitz;
}

function renderMarksStatus(m) {
  const box = $("marks-status");
  box.textContent = "";
  const legend = $("legend");
  legend.textContent = "";
  if (!state || state.over) { box.textContent = state && state.over ? "The hand is over." : ""; return; }
  if (state.kibitz && state.mover !== state.kibitz) {
    box.textContent = `${state.mover} to play: waiting for the card (step forward).`;
    return;
  }
  if (!m || m.status === "running" || m.status === "queued") {
    const what = state.kibitz ? "single-dummy advice" : "double-dummy marks";
    const p = m && m.partial;
    if (p) {
      const [lo, hi] = p.interval;
      const tricks = `${lo === hi ? lo : `${lo}–${hi}`} trick${hi === 1 ? "" : "s"}`;
      box.append(p.keeping
        ? `Double-dummy: ${p.seat} can hold itself to ${tricks} with best play (= keeps it); how much the other cards (…) lose is still being computed… `
        : `Double-dummy: the fewest tricks ${p.seat} can hold itself to in all: ${tricks} (proven so far); still computing… `);
      box.append(`${m.seconds.toFixed(1)} s`);
      return;
    }
    box.append(`Computing ${what}… `);
    if (m && m.total) {
      const bar = el("span", { class: "progress" }, el("span", { style: `width:${Math.round((100 * m.done) / m.total)}%` }));
      box.append(bar, `${m.done}/${m.total} layouts`);
    } else if (m) {
      box.append(`${m.seconds.toFixed(1)} s`);
    }
    return;
  }
  if (m.status === "failed") { box.textContent = "marks failed: " + (m.error || ""); return; }
  const r = m.result;
  if (!r) return;
  if (r.kind === "dd") {
    box.textContent = `Double-dummy: ${r.seat} ${r.misere ? "can hold itself to" : "makes"} ${r.best_total} trick${r.best_total === 1 ? "" : "s"} with best play. `;
    legend.append(
      el("span", { class: "group d0" }, el("span", { class: "mark", text: "=" })), r.misere ? "fewest tricks" : "best card",
      el("span", { class: "group d1" }, el("span", { class: "mark", text: r.misere ? "+1" : "−1" })), "one trick worse",
      el("span", { class: "group d2" }, el("span", { class: "mark", text: r.misere ? "+2" : "−2" })), "two or more",
      " · equivalent cards share one mark · click a card to play it");
  } else {
    box.textContent = `Single-dummy advice for ${r.seat} over ${r.samples} layouts of the hidden cards: on each card, ` +
      `the chance of ${r.misere ? "staying within" : "reaching"} ${r.target} tricks over the mean tricks ` +
      `(hover for the 95% intervals); green is the recommended card.`;
  }
}

function renderRecord() {
  const s = state;
  const box = $("record");
  box.textContent = "";
  const table = el("table", {}, el("tr", {}, el("th", { text: "#" }), el("th", { text: "lead" }), el("th", { text: "2nd" }), el("th", { text: "3rd" }), el("th", { text: "won by" })));
  let k = 0;
  const actualUpTo = s.kibitz ? Infinity : s.divergence;
  const review = !s.kibitz && panels.review && panels.review.status === "done" ? panels.review.result : null;
  const costOf = (idx) => (review && review.cards && idx < actualUpTo && review.cards[idx] ? review.cards[idx].cost : 0);
  for (const t of s.play) {
    const here = s.at >= k && s.at < k + 3;
    const row = el("tr", { class: here ? "now" : null }, el("td", {},
      el("a", { href: "#", class: "pc", title: "jump to this trick", onclick: ((at) => (e) => { e.preventDefault(); goto(at); })(k) , text: String(t.trick) })));
    for (let i = 0; i < 3; i++) {
      const p = t.cards[i];
      if (!p) { row.append(el("td")); continue; }
      const idx = k + i;
      const cost = costOf(idx);
      const cls = "pc" + (idx >= s.at ? " future" : "") + (idx >= actualUpTo ? " branch" : "") + (idx === s.at - 1 ? " current" : "") + (cost > 0 ? " mistake" : "");
      const title = `${p.seat} plays ${p.card}` + (cost > 0 ? ` (a mistake: ${s.misere ? "+" : "−"}${cost})` : "") + ": show the position after it";
      const span = el("span", { class: cls, title, onclick: ((at) => () => goto(at))(idx + 1) },
        el("span", { class: "seat-badge", style: `background:${SEAT_COLOUR[p.seat]}`, text: p.seat }), cardLabel(p.card));
      row.append(el("td", {}, span));
    }
    row.append(el("td", { text: t.winner || "" }));
    table.append(row);
    k += 3;
  }
  if (!s.play.length) box.append(el("div", { class: "hidden-note", text: "No card played yet: click a marked card to play it." }));
  else box.append(table);
}

// --- panels ------------------------------------------------------------------------------
function panelBody(id) { const b = document.querySelector(`#${id} .body`); b.textContent = ""; return b; }

function pending(body, p) {
  if (!p) { body.append(el("span", { class: "note", text: "waiting…" })); return true; }
  if (p.status === "failed") { body.append(el("span", { class: "note", text: "failed: " + (p.error || "") })); return true; }
  if (p.status !== "done") {
    body.append(el("span", { class: "note", text: `computing… ${p.total ? `${p.done}/${p.total} ` : ""}${p.seconds.toFixed(0)} s` }));
    return true;
  }
  return false;
}

function renderPanels() {
  if (!state) return;
  const rules = panelBody("rules-panel");
  rules.append(el("pre", { text: state.rules.text }));
  const hidden = "Hidden while kibitzing: it would show the other hands.";
  for (const id of ["mistakes-panel", "plot-panel", "review-panel", "table-panel", "declare-panel"]) {
    document.getElementById(id).hidden = false;
  }
  if (state.kibitz) {
    for (const id of ["mistakes-panel", "plot-panel", "review-panel", "table-panel", "declare-panel"]) {
      panelBody(id).append(el("span", { class: "note", text: hidden }));
    }
    return;
  }
  renderReview(panels.review);
  renderRecord();
  renderTable(panels.table);
  renderDeclare(panels.declare);
}

function renderReview(p) {
  const mistakes = panelBody("mistakes-panel");
  const plot = panelBody("plot-panel");
  const summary = panelBody("review-panel");
  if (pending(mistakes, p)) { pending(plot, p); pending(summary, p); return; }
  const r = p.result;
  if (!r.cards) {
    for (const b of [mistakes, plot, summary]) b.append(el("span", { class: "note", text: r.note }));
    return;
  }
  const list = el("ul");
  let any = false;
  r.cards.forEach((c, k) => {
    if (c.cost <= 0) return;
    any = true;
    const here = !state.branch && state.at === k;
    const li = el("li", { class: here ? "here" : null, "data-k": String(k), title: "show the position before this card",
      onclick: async () => { if (state.branch) await move("actual"); goto(k); } },
      `T${c.trick} `, el("span", { class: "seat-badge", style: `background:${SEAT_COLOUR[c.seat]}`, text: c.seat }),
      cardLabel(c.card), " ", el("span", { class: "cost", text: (r.misere ? "+" : "−") + c.cost }), " · better: ");
    c.best.forEach((b, i) => { if (i) li.append(" "); li.append(cardLabel(b)); });
    list.append(li);
  });
  if (any) mistakes.append(list); else mistakes.append(el("span", { class: "note", text: "No mistakes: every card kept its seat's double-dummy value." }));
  plot.append(plotSvg(r));
  const t = el("table", {}, el("tr", {}, ...["seat", "opening", "taken", "mistakes", "lost", "gained"].map((h) => el("th", { text: h }))));
  for (const s of SEATS) {
    const v = r.seats[s];
    t.append(el("tr", {}, el("td", {}, el("span", { class: "seat-badge", style: `background:${SEAT_COLOUR[s]}`, text: s })),
      el("td", { text: v.opening }), el("td", { text: v.taken }), el("td", { text: v.mistakes }), el("td", { text: v.lost }), el("td", { text: v.gained })));
  }
  summary.append(t, el("div", { class: "note", text: r.misere ? "opening + lost − gained = taken (fewest tricks wanted)" : "opening − lost + gained = taken" }));
}

function plotSvg(r) {
  const NS = "http://www.w3.org/2000/svg";
  const mk = (tag, attrs) => { const n = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); return n; };
  const W = 420, H = 200, L = 28, R = 8, T = 10, B = 22;
  const n = r.totals.length - 1;
  let ymax = 1;
  for (const row of r.totals) for (const v of row) ymax = Math.max(ymax, v);
  const x = (k) => L + ((W - L - R) * k) / Math.max(1, n);
  const y = (v) => T + (H - T - B) * (1 - v / ymax);
  const svg = mk("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "each seat's total tricks card by card" });
  for (let v = 0; v <= ymax; v += Math.max(1, Math.round(ymax / 4))) {
    svg.append(mk("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#e4e8ec" }));
    const t = mk("text", { x: L - 5, y: y(v) + 4, "text-anchor": "end", "font-size": 10, fill: "#66707a" }); t.textContent = v; svg.append(t);
  }
  for (let k = 0; k <= n; k += 3) {
    const t = mk("text", { x: x(k), y: H - 6, "text-anchor": "middle", "font-size": 9, fill: "#66707a" });
    t.textContent = k / 3 + 1 <= n / 3 ? String(k / 3 + 1) : ""; svg.append(t);
  }
  const cap = mk("text", { x: L - 9, y: H - 6, "text-anchor": "end", "font-size": 9, fill: "#66707a" });
  cap.textContent = "trick";
  svg.append(cap);
  SEATS.forEach((s, i) => {
    let d = `M ${x(0)} ${y(r.totals[0][i])}`;
    for (let k = 1; k <= n; k++) d += ` H ${x(k)} V ${y(r.totals[k][i])}`;
    svg.append(mk("path", { d, fill: "none", stroke: SEAT_COLOUR[s], "stroke-width": 2 }));
    const lab = mk("text", { x: W - R, y: y(r.totals[n][i]) - 3, "text-anchor": "end", "font-size": 10, fill: SEAT_COLOUR[s], "font-weight": 700 });
    lab.textContent = s; svg.append(lab);
  });
  r.cards.forEach((c, k) => {
    if (c.cost <= 0) return;
    const cx = x(k + 1), cy = y(c.after);
    svg.append(mk("path", { d: `M ${cx - 4} ${cy - 4} L ${cx + 4} ${cy + 4} M ${cx - 4} ${cy + 4} L ${cx + 4} ${cy - 4}`, stroke: "#d62728", "stroke-width": 2.2 }));
  });
  const at = state.branch ? state.divergence : state.at;
  const cur = mk("line", { x1: x(Math.min(at, n)), x2: x(Math.min(at, n)), y1: T, y2: H - B, stroke: "#ffb400", "stroke-width": 2, "stroke-dasharray": state.branch ? "4 3" : "" , class: "current-card" });
  svg.append(cur);
  svg.addEventListener("click", (e) => {
    const box = svg.getBoundingClientRect();
    const k = Math.round(((e.clientX - box.left) * (W / box.width) - L) / ((W - L - R) / Math.max(1, n)));
    const target = Math.max(0, Math.min(n, k));
    if (state.branch) move("actual").then(() => goto(target)); else goto(target);
  });
  svg.style.cursor = "pointer";
  return svg;
}

function renderTable(p) {
  const body = panelBody("table-panel");
  if (pending(body, p)) return;
  const r = p.result;
  const t = el("table", {}, el("tr", {}, el("th", { text: "" }), ...SEATS.map((s) => el("th", { text: s }))));
  for (const st of Object.keys(r.values)) {
    const row = el("tr", { class: st === state.strain && !state.misere ? "here" : null },
      el("th", { class: st === "H" || st === "D" ? "red" : "", text: SYM[st] }));
    for (const s of SEATS) row.append(el("td", { text: r.values[st][s] }));
    t.append(row);
  }
  body.append(t, el("div", { class: "note", text: `tricks each seat can guarantee from the first lead (${r.leader} leads${r.must_ruff ? ", must ruff" : ""})` }));
}

function renderDeclare(p) {
  const body = panelBody("declare-panel");
  if (pending(body, p)) return;
  const r = p.result;
  if (r.tricks === undefined) { body.append(el("span", { class: "note", text: r.note })); return; }
  const made = el("div", {}, `Declared: `, el("b", { text: strainLabel(r.contract, r.contract) }));
  if (r.discard.length) { made.append(", discard "); r.discard.forEach((c) => made.append(cardLabel(c), " ")); }
  body.append(made);
  body.append(el("div", {}, `Best: `, el("b", { text: `${r.tricks} tricks` }), ` for ${r.declarer}, by:`));
  const list = el("ul");
  for (const b of r.best.slice(0, 6)) {
    const li = el("li", {}, el("b", { text: SYM[b.strain] || b.strain }));
    if (b.discard && b.discard.length) { li.append(" discard "); b.discard.forEach((c) => li.append(cardLabel(c), " ")); }
    if (b.count > 1) li.append(el("span", { class: "note", text: ` (${b.count} equivalent discards)` }));
    list.append(li);
  }
  if (r.best.length > 6) list.append(el("li", { class: "note", text: `and ${r.best.length - 6} more` }));
  if (r.complete === false) list.append(el("li", { class: "note", text: "among others that may tie (not settled: they can take many times as long)" }));
  body.append(list);
  const by = el("div", { class: "note" }, "by strain: ");
  for (const [st, v] of Object.entries(r.by_strain)) by.append(`${SYM[st]} ${v}  `);
  body.append(by);
  if (r.note) body.append(el("div", { class: "note", text: r.note }));
}

// --- navigation ------------------------------------------------------------------------------
function step(delta) {
  if (!state) return;
  const at = state.at + delta;
  if (at < 0 || at > state.length) return;
  goto(at);
}
function trickStep(dir) {
  if (!state || state.kibitz) return;
  const start = Math.floor(state.at / 3) * 3;
  const at = dir < 0 ? (state.at > start ? start : Math.max(0, start - 3)) : Math.min(state.length, start + 3);
  if (at !== state.at) goto(at);
}
$("first").onclick = () => goto(0);
$("prev").onclick = () => step(-1);
$("next").onclick = () => step(1);
$("prev-trick").onclick = () => trickStep(-1);
$("next-trick").onclick = () => trickStep(1);
$("last").onclick = () => goto(state.length);
$("undo").onclick = () => move("undo");
$("actual").onclick = () => move("actual");
document.addEventListener("keydown", (e) => {
  if ($("editor").open || e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA") return;
  const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), ArrowUp: () => trickStep(-1), ArrowDown: () => trickStep(1),
    Home: () => goto(0), End: () => state && !state.kibitz && goto(state.length), Backspace: () => move("undo") };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
$("kibitz").onchange = async () => {
  try { setState(await api("POST", `/api/boards/${state.id}/kibitz`, { seat: $("kibitz").value || null })); showError(null); }
  catch (e) { showError(e.message); }
};
$("share-btn").onclick = async () => {
  try { await navigator.clipboard.writeText(location.href); $("share-btn").textContent = "Link copied"; }
  catch (e) { window.prompt("Copy this link:", location.href); }
  setTimeout(() => { $("share-btn").textContent = "Copy link"; }, 1500);
};

// --- editor ----------------------------------------------------------------------------------
let rulesList = [];
let owner = {}; // card -> "D" | "E" | "M" | "W"
let picking = "D";

function notationFromOwners() {
  const hand = (s) => SUITS.split("").map((suit) => RANKS.split("").filter((r) => owner[suit + r] === s).join("")).join(".");
  const widow = hand("W");
  return `D:${hand("D")} ${hand("E")} ${hand("M")}` + (widow.replace(/\./g, "") ? ` | ${widow}` : "");
}
function ownersFromNotation(text) {
  const m = /^\s*([DEM])\s*:\s*(.*)$/.exec(text);
  if (!m) return null;
  const [main, widow] = m[2].split("|");
  const hands = main.trim().split(/\s+/);
  if (hands.length !== 3) return null;
  const first = SEATS.indexOf(m[1]);
  const out = {};
  const put = (txt, who) => {
    const parts = txt.split(".");
    if (parts.length !== 4) throw new Error("bad hand");
    parts.forEach((ranks, i) => { for (const r of ranks.replace(/10/g, "T").toUpperCase()) out[SUITS[i] + r] = who; });
  };
  try {
    hands.forEach((h, i) => put(h, SEATS[(first + i) % 3]));
    if (widow && widow.trim()) put(widow.trim(), "W");
  } catch (e) { return null; }
  return out;
}
function drawPicker() {
  const box = $("ed-picker");
  box.textContent = "";
  for (const suit of SUITS) {
    box.append(suitSpan(suit));
    for (const r of RANKS) {
      const c = suit + r;
      box.append(el("button", { type: "button", class: "pk" + (owner[c] ? " o-" + owner[c] : ""), "data-card": c, text: rankText(r),
        title: owner[c] ? `${c}: ${owner[c] === "W" ? "widow / out of play" : owner[c]}` : `${c}: not dealt`,
        onclick: () => { owner[c] = owner[c] === picking ? undefined : picking; $("ed-deal").value = notationFromOwners(); drawPicker(); } }));
    }
  }
  const owners = $("ed-owners");
  owners.textContent = "";
  owners.append("Give cards to: ");
  const count = (s) => Object.values(owner).filter((o) => o === s).length;
  for (const s of ["D", "E", "M", "W"]) {
    owners.append(el("button", { type: "button", class: `owner pk o-${s}` + (picking === s ? " on" : ""), onclick: () => { picking = s; drawPicker(); } },
      `${s === "W" ? "Widow" : s} (${count(s)})`));
  }
}
function fillContracts() {
  const rs = rulesList.find((r) => r.name === $("ed-rules").value);
  const sel = $("ed-contract");
  const was = sel.value;
  sel.textContent = "";
  sel.append(el("option", { value: "", text: "heuristic's choice" }));
  for (const m of rs ? rs.modes : []) sel.append(el("option", { value: m, text: m === "N" ? "NT" : (SYM[m] ? `${SYM[m]} ${m}` : m) }));
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
}
async function openEditor() {
  if (!rulesList.length) {
    try { rulesList = await api("GET", "/api/rules"); } catch (e) { showError(e.message); return; }
    const sel = $("ed-rules");
    for (const r of rulesList) sel.append(el("option", { value: r.name, text: r.name }));
  }
  if (state) {
    $("ed-rules").value = state.rules.name.replace(/\+custom$/, "");
    fillContracts();
    $("ed-contract").value = state.contract;
    if (!state.kibitz && state.at === 0) {
      owner = {};
      for (const s of SEATS) for (const c of state.seats[s].hand || []) owner[c] = s;
      for (const c of state.discard || []) owner[c] = "W";
      $("ed-deal").value = notationFromOwners();
      $("ed-discard").value = (state.discard || []).join(" ");
    }
  }
  $("ed-error").hidden = true;
  drawPicker();
  $("editor").showModal();
}
async function submitEditor(body) {
  try {
    const s = await api("POST", "/api/boards", body);
    $("editor").close();
    showError(null);
    setState(s);
  } catch (e) {
    $("ed-error").textContent = e.message;
    $("ed-error").hidden = false;
  }
}
$("edit-btn").onclick = openEditor;
$("ed-rules").onchange = fillContracts;
$("ed-cancel").onclick = () => $("editor").close();
$("ed-deal").oninput = () => { const o = ownersFromNotation($("ed-deal").value); if (o) { owner = o; drawPicker(); } };
$("ed-random").onclick = () => submitEditor({ seed: Number($("ed-seed").value) || 0, rules: $("ed-rules").value || "twelve" });
$("ed-open").onclick = () => submitEditor({ edit: {
  deal: $("ed-deal").value, rules: $("ed-rules").value || "twelve", contract: $("ed-contract").value || null,
  declarer: $("ed-declarer").value || null, leader: $("ed-leader").value || null, discard: $("ed-discard").value || null,
} });

// --- start -----------------------------------------------------------------------------------
async function start() {
  const params = new URLSearchParams(location.search);
  const id = params.get("b");
  let s = null;
  if (id) {
    try { s = await api("GET", `/api/boards/${encodeURIComponent(id)}`); } catch (e) { s = null; }
  }
  try {
    if (!s && params.get("h")) {
      params.delete("b");
      s = await api("POST", "/api/boards", { query: params.toString() });
    }
    if (!s) s = await api("POST", "/api/boards", { seed: Number(params.get("seed")) || 0 });
  } catch (e) { showError(e.message); return; }
  setState(s);
  if (id && s.id !== id && !params.get("h")) {
    showError("That board is no longer open on this server (it was restarted or closed): here is a random deal.");
  }
  if (params.get("edit") || (!params.get("b") && !params.get("h"))) openEditor();
}
start();
