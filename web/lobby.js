// The lobby: one tile per playable game from games.json (tile art, name, RTP, max win),
// each a plain link to play.html?game=<id>; under each, once showcase.json has come, its
// Watch links (a round link for every feature and win tier, with the event's odds) and a
// button that copies each one.

import { ROOT, el, formatMaxWin, formatRtp, loadGames } from "./site.js";
import { LOCALES, applyWords, chooseLang, fill, loadWords } from "./words.js";

// The lobby's language: lang=, else the browser's (web/words.js); its links carry a lang=
// given to the lobby on to the games.
const query = new URLSearchParams(location.search);
const { lang, refused } = chooseLang(query);
const LOCALE = LOCALES[lang];
const LINK_LANG = query.get("lang") !== null && refused === null ? `&lang=${lang}` : "";
let WORDS = {};
const OWN = {};

/** The lobby's words for `key` (the shared catalogue; a game's first with `game`). */
function say(key, args = {}, game = null) {
  const own = game ? OWN[game] ?? {} : {};
  return fill(own[key] ?? WORDS[key] ?? key, args);
}

/** The tile's art: tile.svg, else the game's background with its wild symbol, else a monogram. */
function art(game) {
  const box = el("div", { class: "tile-art" });
  const monogram = () => {
    box.replaceChildren(el("span", { class: "tile-monogram", "aria-hidden": "true", text: game.name.slice(0, 1) }));
    box.classList.add("fallback");
  };
  const assets = game.assets ?? {};
  const composed = () => {
    if (!assets.background && !assets.emblem) return monogram();
    box.classList.add("composed");
    if (assets.background) {
      const bg = el("img", { class: "tile-bg", src: new URL(assets.background, ROOT).href, alt: "", decoding: "async" });
      bg.addEventListener("error", () => bg.remove());
      box.append(bg);
    }
    if (assets.emblem) {
      const em = el("img", { class: "tile-emblem", src: new URL(assets.emblem, ROOT).href, alt: "", decoding: "async" });
      em.addEventListener("error", () => em.remove());
      box.append(em);
    }
  };
  if (assets.tile) {
    const img = el("img", { src: new URL(assets.tile, ROOT).href, alt: "", decoding: "async" });
    img.addEventListener("error", () => {
      img.remove();
      composed();
    });
    box.append(img);
  } else {
    composed();
  }
  return box;
}

function tile(game) {
  const href = `./play.html?game=${encodeURIComponent(game.id)}${LINK_LANG}`;
  const link = el("a", { class: "tile-link", href, "data-game": game.id }, [
    art(game),
    el("div", { class: "tile-info" }, [
      el("h3", { class: "tile-name", text: game.name }),
      el("dl", { class: "tile-facts" }, [
        el("div", {}, [el("dt", { text: say("lobby.rtp") }), el("dd", { class: "tile-rtp", text: formatRtp(game.rtp, LOCALE) })]),
        el("div", {}, [el("dt", { text: say("lobby.max_win") }), el("dd", { class: "tile-maxwin", text: say(game.max_win_bound ? "lobby.max_win_bound" : "lobby.max_win_value", { x: formatMaxWin(game.max_win_x, LOCALE) }) })]),
      ]),
      el("span", { class: "tile-play", "aria-hidden": "true", text: say("lobby.play") }),
    ]),
  ]);
  link.setAttribute("aria-label", say("lobby.play_label", { game: game.name, rtp: formatRtp(game.rtp, LOCALE), x: formatMaxWin(game.max_win_x, LOCALE) }));
  return el("li", { class: "tile" }, [link]);
}

/** The address of a showcase entry's round link (absolute: it is copied to other pages). */
function watchUrl(game, entry) {
  return new URL(`play.html?game=${encodeURIComponent(game)}&replay=${entry.token}${LINK_LANG}`, ROOT).href;
}

const number = (x, digits = 0) => x.toLocaleString(LOCALE, { maximumFractionDigits: digits });

/** An entry's title in the lobby's language, as the rules page gives it (slotui.watch.title_of). */
function titleOf(game, e) {
  if (e.id === "win_best") return say("watch.best", { x: number(e.win_x, 2) });
  const tier = /^win_(\d+)x$/.exec(e.id);
  if (e.kind === "tier" && tier) return say("watch.tier", { x: number(Number(tier[1])) });
  const key = e.mode === "base" ? `watch.${e.id}` : `watch.${e.mode}.${e.id}`;
  return key in (OWN[game] ?? {}) || key in WORDS ? say(key, {}, game) : e.title; // (a catalogue without it: the engine's)
}

/** A game's Watch list: each feature's and win tier's round, its win and odds, a copy button. */
function watchList(game, name, showcase) {
  const items = showcase.entries.map((e) => {
    const url = watchUrl(game, e);
    const title = titleOf(game, e);
    const copy = el("button", { type: "button", class: "btn pill watch-copy", "data-copy": url, text: say("lobby.copy") });
    copy.setAttribute("aria-label", say("lobby.copy_label", { title }));
    const odds = e.odds.probability ? say("odds.one_in", { n: number(1 / e.odds.probability) })
      : e.kind === "jackpot" ? say("lobby.time_jackpot") : "";
    return el("li", { class: "watch-item", "data-entry": e.id }, [
      el("a", { class: "watch-link", href: url, text: title }),
      el("span", { class: "watch-facts", text: [say("watch.win", { x: number(e.win_x, 2) }), odds].filter(Boolean).join(" · ") }),
      copy,
    ]);
  });
  return el("details", { class: "tile-watch" }, [
    el("summary", { text: say("lobby.watch", { game: name }) }),
    el("ul", { class: "watch-list" }, items),
  ]);
}

async function copyLink(button) {
  const url = button.dataset.copy;
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = say("lobby.copied");
  } catch {
    window.prompt(say("lobby.copy_prompt"), url);
  }
  window.dispatchEvent(new CustomEvent("slotstudio:copied", { detail: { url } }));
}

/** Add each tile's Watch list once showcase.json has come (the tiles never wait for it). */
async function addWatchLinks(list, games) {
  const res = await fetch(new URL("showcase.json", ROOT));
  if (!res.ok) throw new Error(`showcase.json: HTTP ${res.status}`);
  const showcase = (await res.json()).games;
  // Each game's own words (its features' titles), in the lobby's language.
  await Promise.all(games.map(async (g) => {
    const r = await fetch(new URL(`static/games/${g.id}/lang/${lang}.json`, ROOT));
    OWN[g.id] = r.ok ? await r.json() : {};
  }));
  for (const g of games) {
    const sc = showcase[g.id];
    const tileEl = list.querySelector(`.tile-link[data-game="${g.id}"]`)?.closest(".tile");
    if (sc && sc.entries.length && tileEl) tileEl.append(watchList(g.id, g.name, sc));
  }
  list.addEventListener("click", (evt) => {
    const button = evt.target.closest?.("[data-copy]");
    if (button) copyLink(button);
  });
  list.dataset.watch = "ready";
}

async function main() {
  const list = document.getElementById("games");
  const status = document.getElementById("lobby-status");
  try {
    const [data, words] = await Promise.all([loadGames(), loadWords(lang, null).catch(() => null)]);
    if (words) {
      WORDS = words.shared;
      document.documentElement.lang = lang;
      applyWords(document, WORDS);
    }
    const shown = data.games.filter((g) => !g.hidden); // games not shipped (test fixtures) stay off the lobby
    list.replaceChildren(...shown.map(tile));
    status.textContent = shown.length ? "" : say("lobby.none");
    status.hidden = shown.length > 0;
    addWatchLinks(list, shown).catch((err) => console.warn("[slot-studio] no Watch links:", err));
  } catch (err) {
    status.textContent = WORDS["lobby.failed"] ?? "The games could not be loaded. Check the connection and reload the page.";
    console.error("[slot-studio]", err);
  } finally {
    list.removeAttribute("aria-busy");
  }
  // No service worker is registered here: its precache (the runtimes, the snapshot) would
  // compete with the first game's load. The game page registers it once the game is ready;
  // from then on it serves the lobby too.
}

export const ready = main();
