// The page's language: lang=en|de|es, else the browser's first language the site speaks,
// else English. The catalogues are the shared client's (lang/<lang>.json) and the game's
// (static/games/<id>/lang/<lang>.json), built from web/slotui/lang and each game's screen
// package; the page's own words (play.html's data-i18n) and Python's (slotui.words) come
// from them. Numbers and money are written by Intl in the language's locale.

export const LANGS = ["en", "de", "es"];
export const LOCALES = { en: "en-US", de: "de-DE", es: "es-ES" };

/**
 * The language of `query` (a URLSearchParams): {lang, refused}. lang= chooses; a lang= the
 * site does not speak is `refused` (the page explains it in the browser's language).
 */
export function chooseLang(query, languages = navigator.languages ?? [navigator.language]) {
  const text = query.get("lang");
  if (text !== null && LANGS.includes(text)) return { lang: text, refused: null };
  for (const tag of languages) {
    const primary = String(tag || "").toLowerCase().split("-")[0];
    if (LANGS.includes(primary)) return { lang: primary, refused: text };
  }
  return { lang: LANGS[0], refused: text };
}

async function fetchJson(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

/**
 * The catalogues of `lang` for `game` (games.json's entry; null: the shared one alone);
 * `shared`: the shared one, when it has been fetched already.
 */
export async function loadWords(lang, game, shared = null) {
  const [common, own] = await Promise.all([
    shared ? Promise.resolve(shared) : fetchJson(`./lang/${lang}.json`),
    game ? fetchJson(`./static/games/${game.id}/lang/${lang}.json`) : Promise.resolve({}),
  ]);
  return { lang, locale: LOCALES[lang], shared: common, game: own };
}

/** `template` with its {name} fields filled from `args`. */
export function fill(template, args = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

/**
 * Put the shared catalogue's words on the page: every element with data-i18n="key" gets
 * that text, and data-i18n-<attribute>="key" sets the attribute (aria-label, title,
 * placeholder). A key the catalogue lacks is reported, and the element keeps its text.
 */
export function applyWords(root, shared, missing = []) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const key = node.dataset.i18n;
    if (key in shared) node.textContent = shared[key];
    else missing.push(key);
  }
  for (const attr of ["aria-label", "title", "placeholder"]) {
    for (const node of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      const key = node.getAttribute(`data-i18n-${attr}`);
      if (key in shared) node.setAttribute(attr, shared[key]);
      else missing.push(key);
    }
  }
  return missing;
}
