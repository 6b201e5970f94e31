// The lobby: one tile per playable game from games.json (tile art, name, RTP, max win),
// each a plain link to play.html?game=<id>; under each, once showcase.json has come, its
// Watch links (a round link for every feature and win tier, with the event's odds) and a
// button that copies each one.

import { ROOT, el, formatMaxWin, formatRtp, loadGames } from "./site.js";

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
  const href = `./play.html?game=${encodeURIComponent(game.id)}`;
  const link = el("a", { class: "tile-link", href, "data-game": game.id }, [
    art(game),
    el("div", { class: "tile-info" }, [
      el("h3", { class: "tile-name", text: game.name }),
      el("dl", { class: "tile-facts" }, [
        el("div", {}, [el("dt", { text: "RTP" }), el("dd", { class: "tile-rtp", text: formatRtp(game.rtp) })]),
        el("div", {}, [el("dt", { text: "Max win" }), el("dd", { class: "tile-maxwin", text: `${game.max_win_bound ? "up to " : ""}${formatMaxWin(game.max_win_x)} bet` })]),
      ]),
      el("span", { class: "tile-play", "aria-hidden": "true", text: "Play" }),
    ]),
  ]);
  link.setAttribute("aria-label", `Play ${game.name}: RTP ${formatRtp(game.rtp)}, max win ${formatMaxWin(game.max_win_x)} the bet`);
  return el("li", { class: "tile" }, [link]);
}

/** The address of a showcase entry's round link (absolute: it is copied to other pages). */
function watchUrl(game, entry) {
  return new URL(`play.html?game=${encodeURIComponent(game)}&replay=${entry.token}`, ROOT).href;
}

/** A game's Watch list: each feature's and win tier's round, its win and odds, a copy button. */
function watchList(game, name, showcase) {
  const items = showcase.entries.map((e) => {
    const url = watchUrl(game, e);
    const copy = el("button", { type: "button", class: "btn pill watch-copy", "data-copy": url, text: "Copy link" });
    copy.setAttribute("aria-label", `Copy the link to watch ${e.title}`);
    const odds = e.odds.probability ? `${e.odds.text}` : e.kind === "jackpot" ? "time jackpot" : "";
    return el("li", { class: "watch-item", "data-entry": e.id }, [
      el("a", { class: "watch-link", href: url, text: e.title }),
      el("span", { class: "watch-facts", text: [`win ${e.win_x.toLocaleString("en")}×`, odds].filter(Boolean).join(" · ") }),
      copy,
    ]);
  });
  return el("details", { class: "tile-watch" }, [
    el("summary", { text: `Watch ${name}: every feature` }),
    el("ul", { class: "watch-list" }, items),
  ]);
}

async function copyLink(button) {
  const url = button.dataset.copy;
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = "Copied";
  } catch {
    window.prompt("Copy this link:", url);
  }
  window.dispatchEvent(new CustomEvent("slotstudio:copied", { detail: { url } }));
}

/** Add each tile's Watch list once showcase.json has come (the tiles never wait for it). */
async function addWatchLinks(list, games) {
  const res = await fetch(new URL("showcase.json", ROOT));
  if (!res.ok) throw new Error(`showcase.json: HTTP ${res.status}`);
  const showcase = (await res.json()).games;
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
    const data = await loadGames();
    const shown = data.games.filter((g) => !g.hidden); // games not shipped (test fixtures) stay off the lobby
    list.replaceChildren(...shown.map(tile));
    status.textContent = shown.length ? "" : "No games are playable yet.";
    status.hidden = shown.length > 0;
    addWatchLinks(list, shown).catch((err) => console.warn("[slot-studio] no Watch links:", err));
  } catch (err) {
    status.textContent = "The games could not be loaded. Check the connection and reload the page.";
    console.error("[slot-studio]", err);
  } finally {
    list.removeAttribute("aria-busy");
  }
  // No service worker is registered here: its precache (the runtimes, the snapshot) would
  // compete with the first game's load. The game page registers it once the game is ready;
  // from then on it serves the lobby too.
}

export const ready = main();
