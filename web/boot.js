// The game page's JavaScript: checks the URL, defines `window.slotStudio` (the page API
// that web/main.py uses), drives the loading overlay from PyScript's progress events, and
// only then starts PyScript. Bad URL parameters show #message and load no Python.
//
// data-state on <html>: this module sets "loading" and "error"; Python sets "ready",
// "spinning" and "feature".

import { ROOT, decimals, el, formatMoney, loadGames, registerServiceWorker, whenIdle } from "./site.js";
import { createEmbed, parseHosts, watchHeight } from "./embed.js";
import { fitBar } from "./fit.js";
import { LOCALES, applyWords, chooseLang, fill, loadWords } from "./words.js";

const root = document.documentElement;
const $ = (sel) => document.querySelector(sel);

/** URL parameters play.html understands. */
const PARAMS = ["game", "bet", "seed", "embed", "debug", "replay", "attract", "host", "currency", "lang"];
const SEED_MAX = (1n << 64n) - 1n;
/** sessionStorage: the save a reloaded tab takes over from another tab (studio.claim). */
const TAKE_OVER = "slotstudio:take-over";
/** How long a tab that takes a game over waits for the other tab to say it has stopped. */
const TAKE_OVER_WAIT_MS = 3000;
/** If Python finished its main script but never reported "ready", fail after this long. */
const READY_WATCHDOG_MS = 30000;

// -- timings: the first time each data-state was reached, in ms since navigation start ----
const marks = { boot: performance.now() };
new MutationObserver(() => {
  const s = root.dataset.state;
  if (s && !(s in marks)) marks[s] = performance.now();
  // Python's first state (ready, or spinning/feature when a restored round resumes).
  if (s && s !== "loading" && s !== "error" && !("started" in marks)) {
    marks.started = performance.now();
    finishProgress();
  }
}).observe(root, { attributes: true, attributeFilter: ["data-state"] });

// -- window.slotStudio ---------------------------------------------------------------------
const embedded = window.parent !== window;
const postedErrors = new Set();
/** The embed's channel (web/embed.js): made once the URL is read (its host= origins). */
let channel = null;
function embedChannel(hosts = null) {
  channel ??= createEmbed({ embedded, hosts, siteRoot: ROOT, game: () => studio.params?.game ?? null });
  return channel;
}

function toPlain(value) {
  // Python dicts arrive as PyProxy objects: convert them to plain objects for postMessage.
  if (value && typeof value.toJs === "function") {
    return value.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
  }
  return value ?? {};
}

const studio = {
  /**
   * The validated URL parameters (null when invalid): game (id), bet (the total bet as
   * canonical text, e.g. "0.90", or undefined), seed (decimal digits as a string, or
   * undefined: it may exceed 2^53), embed and debug (booleans). Python sees undefined as None.
   */
  params: null,
  /** The bet parameter in minor units: {total, text, lines, bet_per_line} (most lines), or null. */
  bet: null,
  /** The parsed games.json. */
  games: null,
  /** This game's entry of games.json. */
  game: null,
  /** What was wrong with the URL, one line per problem (empty when valid). */
  errors: [],
  /** ms since navigation start when each data-state was first reached (and "boot"). */
  marks,
  /** True when the page runs inside a frame (messages go to window.parent). */
  embedded,
  /** Pictures being fetched and decoded: site-relative URL -> Promise of an <img> (null if it failed). */
  images: new Map(),
  /**
   * Offline support: "off" (not started or unavailable), "pending" (the service worker is
   * precaching), "ready" (this game and every shared file are cached), "failed".
   */
  offline: "off",

  /** The decoded picture at ``url`` (site-relative), fetched once: a Promise of an <img> or null. */
  image(url, priority = "auto") {
    let found = studio.images.get(url);
    if (!found) {
      const img = new Image();
      img.decoding = "async";
      img.fetchPriority = priority;
      img.src = new URL(url, ROOT).href;
      found = img.decode().then(
        () => img,
        () => null,
      );
      studio.images.set(url, found);
    }
    return found;
  },

  /** The money formatter of currency= (Intl.NumberFormat), made once the URL is read. */
  moneyFormat: null,

  /** Minor units as the page's currency writes them (currency=EUR: "€1,000.00"). */
  money(minor) {
    const places = decimals(studio.game.minor_per_major);
    return studio.moneyFormat.format(Number(minor) / 10 ** places);
  },

  /** Set the document's data-state. */
  setState(state) {
    root.dataset.state = String(state);
  },

  /**
   * Tell the embedding page: postMessage `{source: "slot-studio", type, game, ...detail}`
   * to window.parent (when in a frame) and dispatch a `slotstudio:<type>` event on window.
   */
  post(type, detail) {
    const plain = toPlain(detail);
    if (String(type) === "error") {
      const key = String(plain.message ?? "");
      if (postedErrors.has(key)) return;
      postedErrors.add(key);
    }
    const message = embedChannel().post(type, plain);
    window.dispatchEvent(new CustomEvent(`slotstudio:${message.type}`, { detail: message }));
  },

  /** The embed's channel: its counters (slotStats.embed with debug=1) and the command handler. */
  get embed() {
    return embedChannel();
  },

  /**
   * Show a dismissible one-line notice; an empty text hides it. With `action` ({label, run}),
   * the notice offers a button that calls `run`; the same text shown again keeps its button.
   */
  notice(text, action) {
    const box = $("#notice");
    const msg = text == null ? "" : String(text);
    const shown = box.querySelector(".notice-text");
    const button = box.querySelector(".notice-action");
    if (button && (action || msg !== shown.textContent)) {
      button.hidden = !action;
      button.textContent = action ? String(action.label) : "";
      button.onclick = action ? () => action.run() : null;
    }
    shown.textContent = msg;
    box.hidden = msg === "";
  },

  /**
   * Claim this game's save for this tab: one exclusive Web Lock per save (its localStorage
   * key), held while the page lives, so that only one tab can ever start a round of it.
   * Resolves true when this tab holds it, false when another tab does. `lost()` is called
   * when another tab takes the game over (`takeOver`). A page reloaded by `takeOver` steals
   * the lock and, when a tab held it, waits until that tab has stopped (it says so on a
   * BroadcastChannel, or it is gone) before it resolves, so that it reads the save only once
   * nothing else can write it. Without Web Locks (a page served over plain http from another
   * host) it resolves true, and the storage event stays the guard.
   */
  async claim(name, lost) {
    const locks = navigator.locks;
    if (!locks) return true;
    const key = String(name);
    const channel = new BroadcastChannel(`slotstudio-lock:${key}`);
    const stealing = sessionStorage.getItem(TAKE_OVER) === key;
    if (stealing) sessionStorage.removeItem(TAKE_OVER);
    const holder = stealing && (await locks.query()).held?.some((l) => l.name === key);
    const stopped = holder
      ? new Promise((ok) => {
          channel.onmessage = ({ data }) => data === "stopped" && ok();
          setTimeout(ok, TAKE_OVER_WAIT_MS); // a tab frozen in the background writes nothing
        })
      : null;
    const granted = await new Promise((resolve) => {
      const options = stealing ? { steal: true } : { ifAvailable: true };
      locks
        .request(key, options, (lock) => {
          resolve(lock !== null);
          return lock === null ? null : new Promise(() => {}); // held until the page goes
        })
        .catch((err) => {
          if (err?.name !== "AbortError") return resolve(true);
          try {
            lost?.(); // stops this tab's play and saves, at once
          } finally {
            channel.onmessage = null;
            channel.postMessage("stopped");
          }
        });
    });
    if (stopped) await stopped;
    return granted;
  },

  /** Play here instead: reload this page, which then takes the game's lock over (`claim`). */
  takeOver(name) {
    sessionStorage.setItem(TAKE_OVER, String(name));
    location.reload();
  },

  /**
   * A fatal error: data-state=error and the full-page #message. Posts an `error` message
   * unless one was posted already (Python may post its own first).
   */
  fail(text, details) {
    showMessage("Something went wrong", [String(text ?? "The game stopped.")], details);
    studio.setState("error");
    if (!postedErrors.size) studio.post("error", { message: String(text ?? "") });
  },

  /** How the last round link was shared: {how: "share"|"clipboard"|"shown"|"cancelled", url}. */
  lastShare: null,

  /**
   * Share a round's link (`path`, relative to the site): the device's share sheet where it
   * has one and a touch screen (a phone), else the clipboard, with a notice that says so;
   * where neither works, the notice shows the link to copy by hand.
   */
  async share(path, title) {
    const url = new URL(String(path), ROOT).href;
    const done = (how) => {
      studio.lastShare = { how, url };
      window.dispatchEvent(new CustomEvent("slotstudio:shared", { detail: studio.lastShare }));
      return how;
    };
    if (navigator.share && matchMedia("(pointer: coarse)").matches) {
      try {
        await navigator.share({ title: String(title), url });
        return done("share");
      } catch (err) {
        if (err?.name === "AbortError") return done("cancelled");
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      studio.notice(say("share.copied"));
      return done("clipboard");
    } catch {
      studio.notice(say("share.copy_this", { url }));
      return done("shown");
    }
  },

  /**
   * A round link (`replay=`) that cannot be replayed: say why and offer the game itself
   * (its address without the link). Nothing was read from or written to the game's save.
   */
  /** The sound output (`./sound.js`), fetched once the game is ready: not on the first load. */
  loadSound() {
    return import("./sound.js");
  },

  refuseReplay(text) {
    const query = new URLSearchParams(location.search);
    query.delete("replay");
    const play = el("a", { class: "btn pill primary", href: `./play.html?${query}`, text: "Play this game" });
    showMessage("This round cannot be replayed", [String(text), el("p", {}, [play])]);
    studio.setState("error");
    studio.post("error", { message: String(text) });
  },
};
window.slotStudio = studio;

// -- the full-page message -------------------------------------------------------------------
/** Fill #message: a title, paragraphs (strings or nodes) and optional technical details. */
function showMessage(title, paragraphs, details) {
  const box = $("#message");
  box.querySelector(".message-title").textContent = title;
  const body = box.querySelector(".message-body");
  body.replaceChildren(...paragraphs.map((p) => (typeof p === "string" ? el("p", { text: p }) : p)));
  if (details) {
    body.append(el("details", {}, [el("summary", { text: "Technical details" }), el("pre", { text: String(details) })]));
  }
  box.hidden = false;
  $("#loading").setAttribute("aria-hidden", "true");
}

// -- URL parameters --------------------------------------------------------------------------
/** Every total bet a game offers, as [{total, text, lines, bet_per_line}] sorted by total. */
function offeredBets(game) {
  return game.bets.map((b) => ({ total: b.total, text: b.text, options: b.options }));
}

function parseMoney(text, minorPerMajor) {
  const digits = decimals(minorPerMajor);
  const re = digits ? new RegExp(`^(\\d{1,9})(?:\\.(\\d{1,${digits}}))?$`) : /^(\d{1,12})$/;
  const m = re.exec(text);
  if (!m) return null;
  return Number(m[1]) * minorPerMajor + (m[2] ? Number(m[2].padEnd(digits, "0")) : 0);
}

/** Why ``text`` is not a currency the game's demo money can be shown in, or "" when it is. */
function currencyProblem(text, game) {
  const code = String(text).toUpperCase();
  const digits = decimals(game.minor_per_major);
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("currency") : null;
  const usage = say("param.currency_usage", { currency: game.currency, digits });
  if (code === game.currency) return "";
  if (!/^[A-Z]{3}$/.test(code) || (known && !known.includes(code))) return say("param.currency_unknown", { text, usage });
  let places;
  try {
    places = new Intl.NumberFormat("en-US", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits;
  } catch {
    return say("param.currency_unknown", { text, usage });
  }
  if (places !== digits) return say("param.currency_decimals", { code, places, digits, usage });
  return "";
}

/**
 * Check the query string against games.json. Returns {params, problems}; each problem is a
 * list of nodes/strings for one paragraph of #message and names the valid values.
 */
function parseParams(search, games) {
  const query = new URLSearchParams(search);
  const problems = [];
  const seen = new Set();
  for (const key of query.keys()) {
    if (!PARAMS.includes(key)) {
      problems.push([say("param.unknown", { key })]);
    } else if (seen.has(key)) {
      problems.push([say("param.twice", { key })]);
    }
    seen.add(key);
  }
  // Absent values are `undefined`, which Pyodide gives Python as None (JS null would be jsnull).
  const params = { game: undefined, bet: undefined, seed: undefined, embed: false, debug: false, replay: undefined, attract: false, host: undefined, currency: undefined, lang: "en" };
  let bet = null;
  const list = games.games;
  const gameLinks = () => {
    const ul = el("ul", { class: "choices" });
    for (const g of list.filter((x) => !x.hidden)) {
      const a = el("a", { href: `./play.html?game=${encodeURIComponent(g.id)}` }, [el("code", { text: g.id })]);
      ul.append(el("li", {}, [a, ` — ${g.name}`]));
    }
    return ul;
  };
  const gameId = query.get("game");
  let game = null;
  if (gameId === null || gameId === "") {
    problems.push([say("param.no_game"), gameLinks()]);
  } else {
    game = list.find((g) => g.id === gameId) ?? null;
    if (!game) problems.push([say("param.no_such_game", { game: gameId }), gameLinks()]);
    else params.game = game.id;
  }

  const betText = query.get("bet");
  if (betText !== null) {
    if (!game) {
      problems.push([say("param.bet_no_game", { bet: betText })]);
    } else {
      const minor = parseMoney(betText, game.minor_per_major);
      const offered = offeredBets(game);
      const hit = minor === null ? null : offered.find((b) => b.total === minor);
      if (!hit) {
        const what = say(minor === null ? "param.bet_not_amount" : "param.bet_not_offered", { bet: betText });
        problems.push([
          say("param.bets_offered", { what, game: game.name, currency: game.currency }),
          el("p", { class: "bet-list", text: offered.map((b) => b.text).join(", ") }),
        ]);
      } else {
        // The most lines that make this total (a total may come from several line counts).
        const best = hit.options.reduce((a, b) => (b.lines > a.lines ? b : a));
        params.bet = hit.text;
        bet = { total: hit.total, text: hit.text, lines: best.lines, bet_per_line: best.bet_per_line };
      }
    }
  }

  const seedText = query.get("seed");
  if (seedText !== null) {
    let value = null;
    if (/^\d{1,20}$/.test(seedText) || /^0x[0-9a-f]{1,16}$/i.test(seedText)) value = BigInt(seedText);
    if (value === null || value > SEED_MAX) {
      problems.push([say("param.seed", { seed: seedText, max: SEED_MAX })]);
    } else {
      params.seed = value.toString();
    }
  }

  // A round link's token: the engine checks it (pyengine.link) and refuses a bad one itself.
  const replay = query.get("replay");
  if (replay !== null) params.replay = replay;

  // The origins of the pages that may embed and command the game (web/embed.js).
  const hostText = query.get("host");
  if (hostText !== null) {
    const { origins, bad } = parseHosts(hostText);
    if (bad.length) {
      problems.push([say("param.host", { host: hostText, bad: bad.join(", ") })]);
    } else {
      params.host = origins;
    }
  }

  // The currency the demo money is shown in (it stays demo money): an ISO 4217 code whose
  // decimals are the game's (Intl.NumberFormat writes it), or the game's own (FUN).
  const currencyText = query.get("currency");
  if (currencyText !== null && game) {
    const why = currencyProblem(currencyText, game);
    if (why) problems.push([why]);
    else if (currencyText.toUpperCase() !== game.currency) params.currency = currencyText.toUpperCase();
  }

  // The language of every word (web/words.js): lang=, else the browser's, else English.
  const { lang, refused } = chooseLang(query);
  if (refused !== null) problems.push([say("param.lang", { lang: refused })]);
  params.lang = lang;

  for (const flag of ["embed", "debug", "attract"]) {
    const v = query.get(flag);
    if (v === null) continue;
    if (v === "1" || v === "0") params[flag] = v === "1";
    else problems.push([say("param.flag", { flag, value: v })]);
  }
  return { params, problems, game, bet };
}

// -- loading progress ----------------------------------------------------------------------
// PyScript (polyscript) dispatches `py:progress` on window with a text detail at each stage.
const STAGES = {
  "Loading Pyodide": [6, "loading.runtime"],
  "Loading Storage": [8, "loading.runtime"],
  "Loaded Storage": [10, "loading.runtime"],
  "Loading interpreter": [12, "loading.runtime"],
  "Loaded interpreter": [78, "loading.python"],
  "Loading files": [80, "loading.unpacking"],
  "Loaded files": [88, "loading.unpacking"],
  "Loaded Pyodide": [90, "loading.game"],
};
let progressValue = 0;
let creepTarget = 0;
let creepTimer = 0;

let progressPosted = -1;
function setProgress(value, text) {
  progressValue = Math.max(progressValue, Math.min(100, value));
  const bar = $("#progress");
  bar.value = Math.round(progressValue);
  if (text) $("#loading-text").textContent = text;
  // The embedding page hears the load's progress too (whole percents, each once).
  if (bar.value !== progressPosted) {
    progressPosted = bar.value;
    studio.post("loadProgress", { percent: progressPosted });
  }
}

/** Creep towards `target` while a long stage (the interpreter download) runs. */
function creepTo(target) {
  creepTarget = target;
  if (creepTimer) return;
  creepTimer = setInterval(() => {
    if (progressValue >= creepTarget - 0.5) return;
    setProgress(progressValue + (creepTarget - progressValue) * 0.06);
  }, 120);
}

function finishProgress() {
  clearInterval(creepTimer);
  creepTimer = 0;
  setProgress(100, say("loading.ready"));
  $("#loading").setAttribute("aria-hidden", "true");
  $("#game").removeAttribute("aria-busy");
}

addEventListener("py:progress", ({ detail }) => {
  marks[`py:${detail}`] ??= performance.now();
  const stage = STAGES[detail];
  if (!stage) return;
  setProgress(stage[0], say(stage[1]));
  if (detail === "Loading interpreter") creepTo(74);
  else if (detail === "Loaded interpreter") creepTo(0);
});

// -- page wiring that needs no Python --------------------------------------------------------
function wirePage() {
  $("#notice .notice-close").addEventListener("click", () => studio.notice(""));
  for (const dialog of document.querySelectorAll("dialog")) {
    dialog.addEventListener("click", (event) => {
      // A click on a close button, or on the backdrop (outside the dialog's box), closes it.
      if (event.target.closest("[data-close]")) {
        dialog.close();
        return;
      }
      if (event.target === dialog) {
        const r = dialog.getBoundingClientRect();
        const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
        if (!inside) dialog.close();
      }
    });
  }
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) $("#set-reduced").checked = true;
}

// -- failures before Python reports ready ---------------------------------------------------
function loading() {
  return root.dataset.state === "loading";
}

/**
 * The shared catalogue's words for `key` (web/words.js), its {fields} from `args`. Before the
 * catalogue has arrived (the list of games unreachable), the English of lang/en.json that
 * the page carries for that case alone.
 */
function say(key, args = {}) {
  const words = studio.words?.shared ?? EARLY_WORDS;
  return fill(words[key] ?? EARLY_WORDS[key] ?? key, args);
}

/** What the page can say before any catalogue has arrived: why it could not load. */
const EARLY_WORDS = {
  "error.could_not_start": "The game could not start.",
  "error.could_not_load": "The game could not load. Check the connection and reload the page.",
  "error.games_list": "The list of games could not be loaded. Check the connection and reload the page.",
};

function loadFailed(text, details) {
  if (!loading()) return;
  console.error("[slot-studio]", text, details ?? "");
  studio.fail(text, details);
}

addEventListener("error", (event) => {
  const message = event.message || String(event.error ?? "");
  if (loading()) loadFailed(say("error.could_not_start"), message);
  else if (/PythonError/.test(message)) {
    studio.notice(say("error.something_wrong"));
    studio.post("error", { message });
  }
});
addEventListener("unhandledrejection", (event) => {
  const reason = event.reason;
  loadFailed(say("error.could_not_load"), reason?.stack ?? String(reason));
});

// -- the loading screen's art -----------------------------------------------------------------
// While Python loads, the overlay shows the game itself, drawn from its static art: the
// background, the logo, and the frame with the reels at the top of their strips. The same
// decoded pictures serve the game screen later (studio.image).
const ART_DPR_MAX = 2;
/** The rest of the runtime waits at most this long for the loading screen's art (ms). */
const ART_HEAD_START_MS = 1000;

function cover(ctx, img, w, h) {
  const s = Math.max(w / img.naturalWidth, h / img.naturalHeight);
  const iw = img.naturalWidth * s;
  const ih = img.naturalHeight * s;
  ctx.drawImage(img, (w - iw) / 2, (h - ih) / 2, iw, ih);
}

function drawArt(canvas, art, grid) {
  const dpr = Math.min(devicePixelRatio || 1, ART_DPR_MAX);
  const box = canvas.getBoundingClientRect();
  const w = Math.max(1, Math.round(box.width * dpr));
  const h = Math.max(1, Math.round(box.height * dpr));
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext("2d");
  if (art.background) cover(ctx, art.background, w, h);
  const cols = Math.max(1, grid.length);
  const rows = Math.max(1, ...grid.map((r) => r.length));
  // The logo on top, the reels below it, and room for the progress card at the bottom.
  const logoH = Math.min(h * 0.13, (w * 0.8) / 3.33);
  let y = h * 0.06;
  if (art.logo) {
    const lw = logoH * (art.logo.naturalWidth / art.logo.naturalHeight || 3.33);
    ctx.drawImage(art.logo, (w - lw) / 2, y, lw, logoH);
  }
  y += logoH + h * 0.03;
  const cell = Math.min((w * 0.86) / cols, (h * 0.5) / rows);
  const rw = cell * cols;
  const x0 = (w - rw) / 2;
  const pad = cell * 0.12;
  if (art.frame) ctx.drawImage(art.frame, x0 - pad, y - pad, rw + 2 * pad, cell * rows + 2 * pad);
  grid.forEach((reel, c) => {
    reel.forEach((sym, r) => {
      const img = art.symbols[sym];
      if (img) ctx.drawImage(img, x0 + c * cell + cell * 0.05, y + r * cell + cell * 0.05, cell * 0.9, cell * 0.9);
    });
  });
}

/** Fetch the art the loading screen draws, then draw it (marks.art once it is painted).
 * The pictures are asked for at high priority: they are a few kilobytes, and otherwise wait
 * behind the runtime's downloads for a free connection (HTTP/1.1 hosts give six). */
function showLoadingArt(game) {
  const a = game.assets ?? {};
  const grid = game.loading_window ?? [];
  const wanted = { background: a.background, logo: a.logo, frame: a.frame };
  const symbols = [...new Set(grid.flat())].filter((s) => a.symbols?.[s]);
  const pending = [
    ...Object.entries(wanted).filter(([, url]) => url).map(([k, url]) => studio.image(url, "high").then((img) => [k, img])),
    ...symbols.map((s) => studio.image(a.symbols[s], "high").then((img) => [`symbol:${s}`, img])),
  ];
  return Promise.all(pending).then((found) => {
    if (!loading()) return;
    const art = { symbols: {} };
    for (const [k, img] of found) {
      if (!img) continue;
      if (k.startsWith("symbol:")) art.symbols[k.slice(7)] = img;
      else art[k] = img;
    }
    const overlay = $("#loading");
    const canvas = $("#loading-art");
    overlay.classList.add("has-art");
    const paint = () => drawArt(canvas, art, grid);
    paint();
    addEventListener("resize", paint);
    canvas.hidden = false;
    requestAnimationFrame(() => {
      marks.art ??= performance.now();
      canvas.dataset.painted = String(found.filter(([, img]) => img).length);
    });
  });
}

// -- the game's pictures rasterised while the runtime downloads -------------------------------
// Drawing an SVG picture the first time rasterises it, on the main thread: on a slow phone the
// game's symbols and background took about 300 ms of the client's start-up. While the
// runtime downloads, the main thread is idle, so each of those pictures is rasterised then,
// one per task, into a canvas at least as large as the game can draw it (a symbol's cell is
// at most the canvas divided by the reel grid; the background covers the canvas) and kept on
// its <img> as `slotRaster`. `slotui.browser.raster` draws from that canvas when it is large
// enough (a scaled copy of pixels) and from the SVG itself otherwise.

/** The game canvas's size in device pixels, as `slotui.browser` sizes it. */
function stagePixels() {
  const box = $("#stage")?.getBoundingClientRect();
  const dpr = Math.min(devicePixelRatio || 1, ART_DPR_MAX);
  return box ? [Math.max(Math.floor(box.width * dpr), 1), Math.max(Math.floor(box.height * dpr), 1)] : [0, 0];
}

function prerasterize(game) {
  const a = game.assets ?? {};
  const grid = game.loading_window ?? [];
  const [w, h] = stagePixels();
  if (!(w > 1 && h > 1) || !grid.length) return Promise.resolve(0);
  const side = Math.ceil(Math.min(w / grid.length, h / Math.max(1, ...grid.map((r) => r.length))));
  const jobs = Object.values(a.symbols ?? {}).map((url) => [url, side, side, false]);
  if (a.background) jobs.unshift([a.background, w, h, true]);
  const one = ([url, cw, ch, fill]) =>
    studio.image(url).then(
      (img) =>
        new Promise((done) =>
          setTimeout(() => {
            try {
              if (img && loading()) {
                const c = document.createElement("canvas");
                c.width = cw;
                c.height = ch;
                const x = c.getContext("2d");
                if (fill) cover(x, img, cw, ch);
                else x.drawImage(img, 0, 0, cw, ch);
                x.getImageData(0, 0, 1, 1); // rasterise now, not when the game first draws it
                img.slotRaster = c;
              }
            } catch (err) {
              console.warn("[slot-studio] pictures:", err); // the game rasterises it itself
            }
            done();
          }, 0),
        ),
    );
  // One picture per task, so that a task of Python's start never waits long behind them.
  return jobs.reduce((chain, job) => chain.then(() => one(job)), Promise.resolve()).then(() => {
    marks.prerastered ??= performance.now();
    return jobs.length;
  });
}

/** Preload hints for the runtime (games.json), added once the art has been asked for.
 * With `modulesOnly`, only the script modules (the other files are read from the cache).
 * Returns the links it added. */
function preloadRuntime(hints, modulesOnly = false) {
  const links = [];
  for (const { href, as } of hints ?? []) {
    if (modulesOnly && as !== "module") continue;
    const link = document.createElement("link");
    if (as === "module") link.rel = "modulepreload";
    else {
      link.rel = "preload";
      link.as = as;
      link.crossOrigin = "anonymous";
    }
    link.href = href;
    document.head.append(link);
    links.push(link);
  }
  return links;
}

/** Calls `then` once, as soon as the last byte of the file at `url` has arrived for the page's
 * first request of it (or once its preload `link` has loaded, whichever comes first).
 *
 * The files Python reads only once it runs (hints marked `late`) are asked for then: while
 * the WebAssembly binary still downloads they would share the link with it and delay
 * Python's start by their own download time; afterwards they download while Python starts.
 * The link's load event alone comes too late: it waits behind Python's start, one long task
 * of the main thread. So the page's first fetch of the file passes its body through a stream
 * that reports its end, as the compiler reads it. */
function whenArrived(url, link, then) {
  let done = false;
  const once = () => {
    if (!done) {
      done = true;
      then();
    }
  };
  link?.addEventListener("load", once, { once: true });
  link?.addEventListener("error", once, { once: true });
  if (!url) return once();
  const plain = globalThis.fetch;
  const wanted = new URL(url, ROOT).href;
  globalThis.fetch = async function (input, init) {
    const asked = input instanceof Request ? input.url : String(input);
    if (new URL(asked, location.href).href !== wanted) return plain.call(globalThis, input, init);
    globalThis.fetch = plain;
    const res = await plain.call(globalThis, input, init);
    if (!res.body) {
      once();
      return res;
    }
    const body = res.body.pipeThrough(new TransformStream({ flush: once }));
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

// -- a repeat visit: the runtime read from the service worker's cache ------------------------
/** The service worker's cache of this site, or null: none, or two while a new build installs
 * (then every request goes through the worker, which answers from the cache it owns). */
async function siteCache() {
  if (!navigator.serviceWorker?.controller || !globalThis.caches) return null;
  const prefix = `slot-studio:${new URL(ROOT).pathname}:`; // sw.js names its cache so
  const names = (await caches.keys()).filter((k) => k.startsWith(prefix));
  return names.length === 1 ? caches.open(names[0]) : null;
}

/** While Python loads, the runtime's large files (``urls``) are read from the service
 * worker's cache by the page itself: the same bytes, without passing each one through the
 * worker (on a slow phone that halves the time to read the 31 MB snapshot and cuts the
 * wasm's from about 250 ms to 60). Anything not in the cache is fetched as before. Returns a
 * function that puts the page's own fetch back. */
function readRuntimeFromCache(urls) {
  const plain = globalThis.fetch;
  const cache = siteCache().catch(() => null);
  const wanted = new Set(urls.map((u) => new URL(u, ROOT).href));
  globalThis.fetch = async function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (method === "GET" && wanted.has(new URL(url, location.href).href)) {
      const hit = await (await cache)?.match(url, { ignoreSearch: true });
      if (hit) return hit;
    }
    return plain.call(globalThis, input, init);
  };
  return () => {
    globalThis.fetch = plain;
  };
}

// -- offline support, once the game is ready -----------------------------------------------------
/** Register the service worker and ask it to precache this game's art (studio.offline). */
async function goOffline(game) {
  studio.offline = "pending";
  const reg = await registerServiceWorker();
  if (!reg) {
    studio.offline = "off";
    return;
  }
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data?.type === "precached" && data.game === game.id) studio.offline = data.ok ? "ready" : "failed";
  });
  // `ready` resolves once a worker is active, that is, once it has precached the shared files.
  const active = (await navigator.serviceWorker.ready).active;
  active?.postMessage({ type: "precache", game: game.id });
}

// -- start -----------------------------------------------------------------------------------
const INVALIDATE_FINDERS = `
import sys as _sys
_finder = None
for _finder in list(_sys.path_importer_cache.values()):
    if type(_finder).__name__ == "FileFinder":
        _finder.invalidate_caches()
del _sys, _finder
`;

async function startPython(game, painted) {
  const script = document.createElement("script");
  script.type = "py";
  script.src = "./main.py";
  script.setAttribute("config", "./pyscript.json");
  script.id = "main-py";
  let watchdog = 0;
  script.addEventListener("py:done", () => {
    marks.pyDone = performance.now();
    watchdog = setTimeout(() => loadFailed(say("error.did_not_start"), "main.py finished without reporting ready"), READY_WATCHDOG_MS);
  });
  script.addEventListener("py:ready", () => {
    marks.pyReady = performance.now();
    setProgress(92, say("loading.starting", { game: game.name }));
  });
  new MutationObserver(() => {
    if (!loading()) clearTimeout(watchdog);
  }).observe(root, { attributes: true, attributeFilter: ["data-state"] });
  // PyScript sets up its plugins once per script type (py and mpy). pyscript.json turns
  // every plugin off for py; the same file given to mpy turns them off there too, or
  // PyScript would import the editor, terminal and game plugins that the site leaves out.
  const mpyConfig = document.createElement("mpy-config");
  mpyConfig.setAttribute("src", "./pyscript.json");
  document.body.append(script, mpyConfig);

  setProgress(4, say("loading.runtime"));
  const core = await import("./pyscript/core.js");
  marks.pyscript = performance.now();
  // The pictures of the game's first frame (its reel symbols, background, frame and logo)
  // download and decode while the Python runtime downloads; the others once the game is
  // ready (slotui.browser), so that decoding them does not hold up Python's start.
  const a = game.assets ?? {};
  for (const url of [a.background, a.frame, a.logo, ...Object.values(a.symbols ?? {})]) {
    if (url) studio.image(url);
  }
  // On a first visit, once the loading screen is painted, the pictures are rasterised while
  // the runtime downloads (a repeat visit reads it from the cache: there is no such wait).
  painted?.then(() => prerasterize(game)).catch((err) => console.warn("[slot-studio] pictures:", err));
  // PyScript's only default worker hook is compiled with Function() when the interpreter
  // is ready, which the CSP forbids ('unsafe-eval'). This page runs no workers: drop it.
  core.hooks.worker.onBeforeRunAsync.clear();
  // PyScript writes the engine and the client (pyscript.json "files") after Python has
  // started and listed its folders. Python's import system caches each folder's listing and
  // re-reads it only when the folder's modification time changes, which a frozen clock (a
  // test's, or a coarse one) never does: forget those listings before main.py imports them.
  // (Not importlib.invalidate_caches(): that also imports importlib.metadata.)
  core.hooks.main.codeBeforeRunAsync.add(INVALIDATE_FINDERS);
  core.hooks.main.codeBeforeRun.add(INVALIDATE_FINDERS);
  // Uncaught errors of the main script reach PyScript's stderr as Error objects.
  core.hooks.main.onReady.add((wrap) => {
    const { stderr } = wrap.io;
    wrap.io.stderr = (error, ...rest) => {
      if (error instanceof Error) {
        if (loading()) loadFailed(say("error.could_not_start"), error.message);
        else studio.fail(say("error.stopped_reload"), error.message);
      }
      return stderr(error, ...rest);
    };
  });
}

async function main() {
  wirePage();
  let games;
  // The page's language first (web/words.js): its shared words come beside the list of games,
  // so that even a refused address is explained in it.
  const { lang } = chooseLang(new URLSearchParams(location.search));
  const early = loadWords(lang, null).catch(() => null);
  try {
    games = await loadGames();
    studio.words = (await early) ?? undefined;
  } catch (err) {
    loadFailed(say("error.games_list"), String(err));
    return;
  }
  studio.games = games;
  const { params, problems, game, bet } = parseParams(location.search, games);
  embedChannel(params.host ?? null);
  if (params.embed) root.classList.add("embed");
  if (studio.words) applyWords(document, studio.words.shared);
  if (problems.length) {
    studio.errors = problems.map((p) => p.map((x) => (typeof x === "string" ? x : x.textContent)).join(" "));
    showMessage(
      "This demo cannot start",
      problems.map((parts) => el("div", { class: "problem" }, parts)),
    );
    studio.setState("error");
    studio.post("error", { message: studio.errors.join(" ") });
    return;
  }
  studio.params = params;
  studio.game = game;
  studio.bet = bet;
  // The catalogues of the page's language, fetched beside the runtime; Python reads them
  // (slotui.jswords) and the page's own words are put on it at once.
  studio.wordsReady = loadWords(params.lang, game, studio.words?.shared).then((words) => {
    studio.words = words;
    root.lang = params.lang;
    const missing = applyWords(document, words.shared);
    if (params.debug) studio.missingWords = missing;
    return words;
  });
  if (embedded) watchHeight((type, detail) => studio.post(type, detail));
  const fitted = fitBar($(".bar"));
  if (params.debug) window.slotFit = fitted;
  document.title = `${game.name} · Free-Play Slot Studio`;
  $("#title").textContent = game.name;
  $("#loading-title").textContent = game.name;
  const shown = params.currency ?? game.currency;
  if (params.currency) {
    studio.moneyFormat = new Intl.NumberFormat(LOCALES[params.lang], { style: "currency", currency: params.currency, currencyDisplay: "narrowSymbol" });
  }
  $("#currency").textContent = params.currency ? "" : game.currency;
  for (const span of document.querySelectorAll(".ap-currency")) span.textContent = shown;
  // Beside an amount the game writes itself: the currency= symbol is already in the amount.
  for (const span of document.querySelectorAll("[data-currency]")) span.textContent = params.currency ? "" : game.currency;
  $("#game").setAttribute("aria-busy", "true");
  // The game's own art first, beside the runtime's two large files (the longest downloads),
  // then the rest of the runtime once the art has arrived: on a host that gives six
  // connections, the art would otherwise wait a second behind the runtime's files.
  const hints = games.runtime?.preload ?? [];
  const art = showLoadingArt(game).catch((err) => console.warn("[slot-studio] loading art:", err));
  // Served by the service worker, Python starts from the memory snapshot it precached
  // (pyodide/boot.mjs), and the page reads the runtime's files from that cache itself.
  const repeat = Boolean(navigator.serviceWorker?.controller);
  const first = preloadRuntime(hints.filter((h) => h.first), repeat);
  await Promise.race([art, new Promise((ok) => setTimeout(ok, ART_HEAD_START_MS))]);
  preloadRuntime(hints.filter((h) => !h.first && !h.late), repeat);
  const screen = game.client ? [{ href: `./${game.client}`, as: "fetch" }] : []; // the game's screen module
  const late = [...hints.filter((h) => h.late), ...screen];
  const wasm = hints.find((h) => h.first && h.href.endsWith(".wasm"))?.href;
  if (!repeat) whenArrived(wasm, first.find((l) => l.getAttribute("href") === wasm), () => preloadRuntime(late));
  if (repeat) {
    const files = hints.filter((h) => h.as !== "module").map((h) => h.href);
    const restore = readRuntimeFromCache([...files, "./pyodide/snapshot.bin"]);
    new MutationObserver((_, obs) => {
      if (!loading()) {
        obs.disconnect();
        restore();
      }
    }).observe(root, { attributes: true, attributeFilter: ["data-state"] });
  }
  // Offline support once the game runs, so the precache does not compete with the first load.
  const offline = () => whenIdle(() => goOffline(game).catch(() => (studio.offline = "failed")));
  new MutationObserver((_, obs) => {
    if (!loading() && root.dataset.state !== "error") {
      obs.disconnect();
      offline();
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-state"] });
  try {
    await studio.wordsReady;
    await startPython(game, repeat ? null : art);
  } catch (err) {
    loadFailed(say("error.could_not_load"), err?.stack ?? String(err));
  }
}

export const ready = main();
export { formatMoney, ROOT };
