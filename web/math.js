// The math page (math.html?game=ID): a game's par sheet and a what-if, computed by the
// engine in Pyodide inside a worker (math-worker.js), drawn here as tables and canvas charts.
//
// URL: game (a playable game's id), rounds (simulated rounds for the figures a game does not
// give exactly, 1,000 to 10,000,000; default the engine's PAGE_ROUNDS), debug=1.
// data-state on <html>: loading, ready, computing, error. `window.slotMath` holds what the
// page computed (for tests and the curious): {state, sheet, editor, whatIf, edits, errors}.

import { ROOT, el, formatRtp, loadGames, registerServiceWorker } from "./site.js";

const $ = (sel) => document.querySelector(sel);
const root = document.documentElement;
const ROUNDS_MIN = 1000;
const ROUNDS_MAX = 10_000_000;

const math = { state: "loading", mode: "base", sheet: null, editor: null, whatIf: null, edits: [], errors: [], progress: [] };
window.slotMath = math;

function setState(state) {
  math.state = state;
  root.dataset.state = state;
}

function fail(lines) {
  math.errors = lines;
  setState("error");
  $("#math-status").textContent = "The par sheet cannot be shown.";
  $("#math-progress").hidden = true;
  const box = $("#math-message");
  box.replaceChildren(...lines.map((line) => el("p", { text: line })));
  box.hidden = false;
}

// -- numbers ---------------------------------------------------------------------------------
const pct = (x, digits = 4) => `${(x * 100).toFixed(digits)}%`;
const num = (x, digits = 2) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const every = (p) => (p > 0 ? `1 in ${(1 / p) < 1e9 ? Math.round(1 / p).toLocaleString("en-US") : (1 / p).toExponential(2)}` : "never");
const range = (b) => (b.high_x === 0 ? "0" : b.high_x === null ? `≥ ${b.low_x.toLocaleString("en-US")}` : b.low_x === 0 ? `(0, ${b.high_x})` : `[${b.low_x.toLocaleString("en-US")}, ${b.high_x.toLocaleString("en-US")})`);

function sourceText(src) {
  if (!src) return "";
  if (src.kind === "simulated") {
    return `Simulated: ${src.rounds.toLocaleString("en-US")} rounds of the real game from seed ${src.seed} (RTP ${pct(src.rtp, 3)} ± ${pct(src.ci95, 3)}, 95%).`;
  }
  return `Exact. ${src.method.replace(/^exact:\s*/, "").replace(/^./, (c) => c.toUpperCase())}.`;
}

// -- charts ------------------------------------------------------------------------------------
const INK = "#f5ecff";
const MUTED = "#b9a8dc";
const GOLD = "#ffd24a";
const VIOLET = "#8d63f0";
const GRID = "rgba(185, 168, 220, 0.22)";

/** A canvas ready to draw at the device's pixel ratio: its context, width and height in CSS pixels. */
function surface(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || canvas.width;
  const height = Math.round(width * 0.47);
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  g.font = "12px system-ui, sans-serif";
  return { g, width, height };
}

/** Vertical bars: `values` (>= 0) with `labels`; log scale from `floor` when `log`. */
function bars(canvas, labels, values, { log = false, color = GOLD, format = (v) => pct(v, 2) } = {}) {
  const { g, width, height } = surface(canvas);
  const left = 54, right = 8, top = 10, bottom = 58;
  const w = width - left - right, h = height - top - bottom;
  const positive = values.filter((v) => v > 0);
  const max = Math.max(...values, 1e-12);
  let y;
  let ticks;
  if (log) {
    const lo = Math.floor(Math.log10(Math.max(Math.min(...positive, 1), 1e-12)));
    const hi = Math.ceil(Math.log10(max));
    y = (v) => (v > 0 ? top + h * (1 - (Math.log10(v) - lo) / Math.max(hi - lo, 1)) : top + h);
    ticks = [];
    for (let e = lo; e <= hi; e += Math.max(1, Math.ceil((hi - lo) / 6))) ticks.push([10 ** e, `1e${e}`]);
  } else {
    y = (v) => top + h * (1 - v / max);
    ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => [f * max, format(f * max)]);
  }
  g.strokeStyle = GRID;
  g.fillStyle = MUTED;
  g.textAlign = "right";
  g.textBaseline = "middle";
  for (const [v, text] of ticks) {
    g.beginPath();
    g.moveTo(left, y(v));
    g.lineTo(left + w, y(v));
    g.stroke();
    g.fillText(text, left - 6, y(v));
  }
  const slot = w / values.length;
  values.forEach((v, i) => {
    const x = left + i * slot + slot * 0.15;
    g.fillStyle = color;
    if (v > 0) g.fillRect(x, y(v), slot * 0.7, top + h - y(v));
    g.save();
    g.translate(left + i * slot + slot / 2, top + h + 6);
    g.rotate(-Math.PI / 4);
    g.fillStyle = MUTED;
    g.textAlign = "right";
    g.fillText(labels[i], 0, 0);
    g.restore();
  });
}

/** Horizontal bars of the RTP by component (negative ones, such as a cap, in violet). */
function components(canvas, breakdown) {
  const { g, width, height } = surface(canvas);
  const items = Object.entries(breakdown).filter(([, v]) => v !== 0);
  const left = Math.min(190, width * 0.42), right = 64, top = 8;
  const row = Math.min(28, (height - top * 2) / Math.max(items.length, 1));
  const max = Math.max(...items.map(([, v]) => Math.abs(v)), 1e-12);
  items.forEach(([name, v], i) => {
    const yy = top + i * row;
    g.fillStyle = MUTED;
    g.textAlign = "right";
    g.textBaseline = "middle";
    g.fillText(name.replaceAll("_", " "), left - 8, yy + row / 2);
    g.fillStyle = v < 0 ? VIOLET : GOLD;
    const len = ((width - left - right) * Math.abs(v)) / max;
    g.fillRect(left, yy + row * 0.18, Math.max(len, 1), row * 0.64);
    g.fillStyle = INK;
    g.textAlign = "left";
    g.fillText(pct(v, 2), left + Math.max(len, 1) + 6, yy + row / 2);
  });
}

/** The convergence funnel: RTP ± z sigma / sqrt(N) against N (log axis), 90% and 95%. */
function funnel(canvas, rtp, sigma) {
  const { g, width, height } = surface(canvas);
  const left = 54, right = 10, top = 10, bottom = 30;
  const w = width - left - right, h = height - top - bottom;
  const n0 = 2, n1 = 7; // 10^2 .. 10^7 rounds
  const half = (z, n) => (z * sigma) / Math.sqrt(n);
  const span = Math.min(half(1.96, 10 ** n0), 1.5);
  const lo = rtp - span, hi = rtp + span;
  const x = (e) => left + (w * (e - n0)) / (n1 - n0);
  const y = (v) => top + h * (1 - (Math.min(Math.max(v, lo), hi) - lo) / (hi - lo));
  g.strokeStyle = GRID;
  g.fillStyle = MUTED;
  g.textBaseline = "middle";
  for (let e = n0; e <= n1; e++) {
    g.beginPath();
    g.moveTo(x(e), top);
    g.lineTo(x(e), top + h);
    g.stroke();
    g.textAlign = "center";
    g.fillText(`1e${e}`, x(e), top + h + 14);
  }
  for (const v of [lo, rtp, hi]) {
    g.textAlign = "right";
    g.fillText(pct(v, 0), left - 6, y(v));
  }
  const band = (z, color) => {
    g.beginPath();
    for (let i = 0; i <= 100; i++) {
      const e = n0 + ((n1 - n0) * i) / 100;
      g.lineTo(x(e), y(rtp + half(z, 10 ** e)));
    }
    for (let i = 100; i >= 0; i--) {
      const e = n0 + ((n1 - n0) * i) / 100;
      g.lineTo(x(e), y(rtp - half(z, 10 ** e)));
    }
    g.closePath();
    g.fillStyle = color;
    g.fill();
  };
  band(1.959963984540054, "rgba(141, 99, 240, 0.35)");
  band(1.6448536269514722, "rgba(255, 210, 74, 0.35)");
  g.strokeStyle = GOLD;
  g.beginPath();
  g.moveTo(left, y(rtp));
  g.lineTo(left + w, y(rtp));
  g.stroke();
}

// -- the par sheet -----------------------------------------------------------------------------
function fact(dl, name, value, id) {
  dl.append(el("div", id ? { "data-fact": id } : {}, [el("dt", { text: name }), el("dd", { text: value })]));
}

function rows(table, cells) {
  $(`${table} tbody`).replaceChildren(...cells.map((r) => el("tr", {}, r.map((c) => el("td", { text: c })))));
}

function drawSheet(sheet) {
  const ps = sheet.par_sheet;
  const facts = $("#sheet-facts");
  facts.replaceChildren();
  fact(facts, "RTP", pct(sheet.rtp, 4), "rtp");
  fact(facts, "Target", pct(sheet.target_rtp, 2));
  fact(facts, "Hit rate", `${pct(ps.hit_rate.value, 2)} (${every(ps.hit_rate.value)})`, "hit-rate");
  fact(facts, "Sigma", num(ps.sigma.value, 3), "sigma");
  fact(facts, "Volatility index", `${num(ps.volatility_index.value["90"])} (90%) · ${num(ps.volatility_index.value["95"])} (95%)`);
  const mw = ps.max_win;
  fact(facts, "Max win", `${mw.bound ? "at most " : ""}${num(mw.x)}× · ${mw.odds}`, "max-win");
  $("#sheet-method").textContent = `How the RTP is computed: ${sheet.method}.`;
  $("#dist-source").textContent = sourceText(ps.distribution.source);
  const buckets = ps.distribution.buckets;
  rows("#table-distribution", buckets.map((b) => [range(b), pct(b.probability, 5), b.odds, pct(b.rtp_share, 4)]));
  const apart = Object.entries(ps.distribution.apart || {});
  const apartNote = $("#dist-apart");
  apartNote.hidden = apart.length === 0;
  apartNote.textContent = apart.length === 0 ? "" : "The buckets hold the game's win; paid apart from it (by the clock, not by the round): "
    + apart.map(([k, v]) => `${k} ${pct(v, 4)}`).join(", ") + " of the RTP.";
  const labels = buckets.map(range);
  bars($("#chart-distribution"), labels, buckets.map((b) => b.probability), { log: true });
  bars($("#chart-share"), labels, buckets.map((b) => b.rtp_share), { color: VIOLET });
  components($("#chart-components"), sheet.breakdown);
  const centre = ps.distribution.source.kind === "exact" ? sheet.rtp : ps.distribution.source.rtp;
  funnel($("#chart-funnel"), centre, ps.sigma.value);
  rows("#table-spread", ps.spread.value.map((s) => [s.rounds.toLocaleString("en-US"), `${pct(s.low_90, 2)} – ${pct(s.high_90, 2)}`, `${pct(s.low_95, 2)} – ${pct(s.high_95, 2)}`]));
  rows("#table-features", ps.features.map((f) => [f.title, pct(f.probability, 4), every(f.probability), f.source.kind]));
  const met = { true: "yes", false: "no", null: "not known" };
  rows("#table-checks", ps.checks.map((c) => [c.asks, c.every === null ? "not known" : `1 in ${num(c.every, 1)}`, met[c.met]]));
  $("#sheet").hidden = false;
}

// -- the worker ----------------------------------------------------------------------------------
// Started once the URL is valid: a bad URL loads no Python.
let worker = null;
const pending = new Map();
let nextId = 1;
const STAGES = { report: "the exact RTP", distribution: "the win distribution", simulation: "simulated rounds" };

function showProgress(stage, done, total) {
  const bar = $("#math-progress");
  bar.hidden = false;
  if (total > 0) {
    bar.max = total;
    bar.value = done;
    $("#math-status").textContent = `Playing ${STAGES[stage] ?? stage}: ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}…`;
  } else {
    bar.removeAttribute("value");
    $("#math-status").textContent = `Computing ${STAGES[stage] ?? stage}… (${done.toLocaleString("en-US")} polynomial products)`;
  }
}

function onMessage(event) {
  const msg = event.data;
  if (msg.type === "ready") {
    $("#math-status").textContent = "Python is ready.";
    return;
  }
  if (msg.type === "progress") {
    math.progress.push([msg.stage, msg.done, msg.total]);
    showProgress(msg.stage, msg.done, msg.total);
    return;
  }
  const job = pending.get(msg.id);
  if (msg.type === "error" && msg.id === null) {
    for (const j of pending.values()) j.reject(new Error(msg.message));
    pending.clear();
    return;
  }
  if (!job) return;
  pending.delete(msg.id);
  if (msg.type === "result") job.resolve(JSON.parse(msg.json));
  else job.reject(new Error(msg.message));
}

function startWorker() {
  worker = new Worker(new URL("math-worker.js", ROOT), { type: "module" });
  worker.addEventListener("message", onMessage);
  worker.addEventListener("error", (event) => fail([`The math worker failed: ${event.message || "it did not start"}.`]));
}

function ask(type, payload) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, type, ...payload });
  });
}

// -- the what-if -----------------------------------------------------------------------------------
function option(value, text) {
  return el("option", { value, text });
}

function currentCount(set, reel, symbol) {
  let n = math.editor.strips[set][reel - 1][symbol] ?? 0;
  for (const e of math.edits) {
    const [kind, s, r, sym, delta] = e.split(":");
    if (kind === "strip" && s === set && Number(r) === reel && sym === symbol) n += Number(delta);
  }
  return n;
}

function renderEdits() {
  const list = $("#wi-edits");
  list.replaceChildren(
    ...math.edits.map((text, i) => {
      const drop = el("button", { type: "button", class: "btn pill", "aria-label": `Remove the edit ${text}`, text: "×" });
      drop.addEventListener("click", () => {
        math.edits.splice(i, 1);
        renderEdits();
      });
      return el("li", {}, [el("code", { text }), drop]);
    }),
  );
  const set = $("#wi-set").value;
  const reel = Number($("#wi-reel").value);
  const symbol = $("#wi-symbol").value;
  if (set && symbol) {
    const n = currentCount(set, reel, symbol);
    $("#wi-count").textContent = `${n} on this reel`;
    $("#wi-remove").disabled = n <= 0;
  }
}

/** Add a strip edit, merged with an earlier one on the same reel and symbol. */
function addStrip(delta) {
  const set = $("#wi-set").value;
  const reel = Number($("#wi-reel").value);
  const symbol = $("#wi-symbol").value;
  const prefix = `strip:${set}:${reel}:${symbol}:`;
  const at = math.edits.findIndex((e) => e.startsWith(prefix));
  const total = (at >= 0 ? Number(math.edits[at].slice(prefix.length)) : 0) + delta;
  const text = `${prefix}${total > 0 ? "+" : ""}${total}`;
  if (at >= 0 && total === 0) math.edits.splice(at, 1);
  else if (at >= 0) math.edits[at] = text;
  else math.edits.push(text);
  renderEdits();
}

function setupWhatIf(ed) {
  const names = ed.symbols;
  const setSel = $("#wi-set");
  setSel.replaceChildren(...Object.keys(ed.strips).map((s) => option(s, s)));
  const fillReels = () => {
    const reels = ed.strips[setSel.value];
    $("#wi-reel").replaceChildren(...reels.map((_, i) => option(String(i + 1), `Reel ${i + 1}`)));
    fillSymbols();
  };
  const fillSymbols = () => {
    const reel = ed.strips[setSel.value][Number($("#wi-reel").value) - 1];
    const all = Object.keys(names);
    $("#wi-symbol").replaceChildren(...all.map((s) => option(s, `${names[s]}${reel[s] ? "" : " (none yet)"}`)));
    renderEdits();
  };
  setSel.addEventListener("change", fillReels);
  $("#wi-reel").addEventListener("change", fillSymbols);
  $("#wi-symbol").addEventListener("change", renderEdits);
  $("#wi-add").addEventListener("click", () => addStrip(1));
  $("#wi-remove").addEventListener("click", () => addStrip(-1));
  fillReels();

  const paySel = $("#wi-pay-symbol");
  paySel.replaceChildren(...Object.keys(ed.paytable).map((s) => option(s, names[s] ?? s)));
  const fillCounts = () => {
    const pays = ed.paytable[paySel.value];
    $("#wi-pay-count").replaceChildren(...Object.keys(pays).map((c) => option(c, `${c} of a kind`)));
    fillValue();
  };
  const fillValue = () => {
    $("#wi-pay-value").value = ed.paytable[paySel.value][$("#wi-pay-count").value];
  };
  paySel.addEventListener("change", fillCounts);
  $("#wi-pay-count").addEventListener("change", fillValue);
  fillCounts();
  $("#wi-pay-set").addEventListener("click", () => {
    const raw = $("#wi-pay-value").value.trim();
    if (!/^\d+$/.test(raw)) {
      whatIfError("A pay is a whole number of at least 0.");
      return;
    }
    const prefix = `pay:${paySel.value}:${$("#wi-pay-count").value}:`;
    math.edits = math.edits.filter((e) => !e.startsWith(prefix));
    math.edits.push(prefix + String(Number(raw)));
    $("#wi-error").hidden = true;
    renderEdits();
  });
  $("#wi-clear").addEventListener("click", () => {
    math.edits = [];
    renderEdits();
  });
  $("#wi-run").addEventListener("click", runWhatIf);
  $("#whatif").hidden = !ed.editable;
}

function whatIfError(text) {
  const box = $("#wi-error");
  box.textContent = text;
  box.hidden = false;
}

async function runWhatIf() {
  if (math.state === "computing") return;
  $("#wi-error").hidden = true;
  const edits = [...math.edits];
  setState("computing");
  $("#wi-run").disabled = true;
  const started = performance.now();
  try {
    const got = await ask("whatif", { game: math.editor.game, edits, mode: math.mode });
    math.whatIf = got;
    const dl = $("#wi-result");
    dl.replaceChildren();
    fact(dl, "RTP with the edits", pct(got.rtp, 4), "whatif-rtp");
    fact(dl, "Published RTP", pct(math.sheet.rtp, 4));
    fact(dl, "Difference", `${got.rtp >= math.sheet.rtp ? "+" : ""}${((got.rtp - math.sheet.rtp) * 100).toFixed(4)} points`);
    if (got.par_sheet) {
      fact(dl, "Hit rate", pct(got.par_sheet.hit_rate.value, 2));
      fact(dl, "Sigma", num(got.par_sheet.sigma.value, 3));
    }
    fact(dl, "Max win", `${got.max_win_bound ? "at most " : ""}${num(got.max_win_x)}×`);
    fact(dl, "Computed in", `${((performance.now() - started) / 1000).toFixed(1)} s`);
    dl.hidden = false;
    $("#math-status").textContent = `Recomputed with ${edits.length} edit${edits.length === 1 ? "" : "s"}.`;
  } catch (err) {
    whatIfError(err.message);
    $("#math-status").textContent = "The edits were refused; nothing changed.";
  } finally {
    $("#math-progress").hidden = true;
    $("#wi-run").disabled = false;
    setState("ready");
  }
}

// A game with more than one bet mode (a Feature Buy): a link to the par sheet of each.
function showModes(game, mode, params) {
  const nav = $("#math-modes");
  nav.hidden = game.modes.length < 2;
  nav.replaceChildren();
  for (const m of game.modes) {
    const link = document.createElement("a");
    const to = new URLSearchParams(params);
    if (m === "base") to.delete("mode");
    else to.set("mode", m);
    link.href = `./math.html?${to}`;
    link.textContent = m === "base" ? "Base game" : `Mode: ${m}`;
    link.dataset.mode = m;
    if (m === mode) link.setAttribute("aria-current", "page");
    nav.append(link);
  }
}

// -- start -------------------------------------------------------------------------------------------
async function main() {
  const params = new URLSearchParams(location.search);
  const errors = [];
  for (const key of params.keys()) {
    if (!["game", "mode", "rounds", "debug"].includes(key)) errors.push(`Unknown parameter "${key}".`);
  }
  let games;
  try {
    games = await loadGames();
  } catch (err) {
    fail([`The games list could not be loaded (${err.message}).`]);
    return;
  }
  const id = params.get("game");
  const game = games.games.find((g) => g.id === id);
  if (!game) {
    errors.push(id ? `There is no game "${id}".` : "No game was chosen (math.html?game=ID).");
    errors.push(`The games: ${games.games.map((g) => g.id).join(", ")}.`);
  }
  const mode = params.get("mode") ?? "base";
  if (game && !game.modes.includes(mode)) errors.push(`${game.name} has no mode "${mode}"; its modes: ${game.modes.join(", ")}.`);
  let rounds;
  if (params.has("rounds")) {
    const raw = params.get("rounds");
    rounds = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(rounds >= ROUNDS_MIN && rounds <= ROUNDS_MAX)) errors.push(`rounds must be a whole number from ${ROUNDS_MIN.toLocaleString("en-US")} to ${ROUNDS_MAX.toLocaleString("en-US")}, not "${raw}".`);
  }
  if (errors.length) {
    fail(errors);
    return;
  }
  startWorker();
  math.mode = mode;
  const named = mode === "base" ? game.name : `${game.name} (${mode})`;
  document.title = `${named} · Par sheet · Free-Play Slot Studio`;
  $("#math-title").textContent = `${named}: par sheet`;
  showModes(game, mode, params);
  $("#math-play").href = `./play.html?game=${encodeURIComponent(game.id)}`;
  $("#math-play").textContent = `Play ${game.name}`;
  try {
    math.editor = await ask("editor", { game: game.id });
    const sheet = await ask("sheet", { game: game.id, rounds, mode });
    math.sheet = sheet;
    drawSheet(sheet);
    setupWhatIf(math.editor);
    $("#math-status").textContent = `Computed in ${sheet.page_seconds.toFixed(1)} s on this device.`;
    $("#math-progress").hidden = true;
    setState("ready");
    registerServiceWorker();
  } catch (err) {
    fail([err.message]);
  }
}

main();
