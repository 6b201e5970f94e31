// Shared by the lobby (lobby.js) and the game page (boot.js): the site's root URL, the
// games list, money formatting and the service worker. Every URL is relative to this
// module, so the site works from "/" and from any sub-path of any static host.

/** The site's root folder (where index.html, play.html and games.json live). */
export const ROOT = new URL("./", import.meta.url);

/** A DOM element with properties (`text`, `class`, attributes) and children. */
export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

/** Load games.json: `{engine, games: [{id, name, rtp, max_win_x, bets, ...}]}`. */
export async function loadGames() {
  const url = new URL("games.json", ROOT);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  const data = await res.json();
  if (!data || !Array.isArray(data.games)) throw new Error(`${url.pathname}: no "games" list`);
  return data;
}

/** Decimal places of a currency with `minorPerMajor` minor units (100 -> 2). */
export function decimals(minorPerMajor) {
  return minorPerMajor > 1 ? String(minorPerMajor - 1).length : 0;
}

/** Minor units as a decimal string: formatMoney(90, 100) === "0.90". */
export function formatMoney(minor, minorPerMajor = 100) {
  const digits = decimals(minorPerMajor);
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / minorPerMajor);
  const frac = abs % minorPerMajor;
  const wholeText = whole.toLocaleString("en-US");
  return digits ? `${sign}${wholeText}.${String(frac).padStart(digits, "0")}` : `${sign}${wholeText}`;
}

/** An RTP fraction as a percentage with two decimals: 0.961351 -> "96.14%". */
export function formatRtp(rtp, locale = "en-US") {
  return new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(rtp);
}

/** A max win multiplier: 5771.111 -> "5,771×" (en-US), "5.771×" (de-DE). */
export function formatMaxWin(x, locale = "en-US") {
  return `${Math.floor(x).toLocaleString(locale)}×`;
}

/**
 * Register the service worker that precaches the site for offline play. Resolves to the
 * registration, or null where service workers are unavailable (file://, private modes).
 */
export async function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return null;
  try {
    return await navigator.serviceWorker.register(new URL("sw.js", ROOT), { scope: ROOT.pathname });
  } catch (err) {
    console.warn("[slot-studio] no offline support:", err);
    return null;
  }
}

/** Run `fn` once the browser is idle (or after `timeout` ms). */
export function whenIdle(fn, timeout = 2000) {
  if ("requestIdleCallback" in window) requestIdleCallback(fn, { timeout });
  else setTimeout(fn, 200);
}
