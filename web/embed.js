// The embed's messages, both ways (docs/embedding.md, "Messages" and "Commands").
//
// Every message, out or in, is one envelope: {source: "slot-studio", type, version: 1,
// payload, requestId?}. Outward messages go to window.parent: to each origin the page was
// told (the `host=` parameter, or the site's embed.json), or to "*" when it was told none.
// Commands are taken only from the parent frame, and only from those origins or the page's
// own; everything else is ignored and counted (`stats`, shown as slotStats.embed with
// debug=1). Each command is answered with a `result` carrying its requestId: ok, or a
// refusal that says why (a command never half-done).

export const VERSION = 1;
export const SOURCE = "slot-studio";
/** The commands a host may send. */
export const COMMANDS = [
  "spin", "stopAutoplay", "pause", "resume", "mute", "unmute", "openPaytable", "openRules", "close", "getState",
];
/** The most origins a page is told (a longer list is refused as a mistake). */
const MAX_HOSTS = 16;

/**
 * An origin as the page accepts it: "https://example.com", "http://127.0.0.1:8000" (scheme,
 * host and port only). Returns the canonical origin, or null.
 */
export function parseOrigin(text) {
  const t = String(text).trim();
  if (!/^https?:\/\/[^/?#\s]+$/i.test(t)) return null;
  try {
    const u = new URL(t);
    return u.origin === "null" ? null : u.origin;
  } catch {
    return null;
  }
}

/** The `host=` parameter: one or more origins separated by commas. {origins, bad}. */
export function parseHosts(text) {
  const parts = String(text).split(",").map((s) => s.trim()).filter(Boolean);
  const origins = [];
  const bad = [];
  for (const p of parts) {
    const o = parseOrigin(p);
    if (o === null) bad.push(p);
    else if (!origins.includes(o)) origins.push(o);
  }
  if (!parts.length) bad.push(String(text));
  if (origins.length > MAX_HOSTS) bad.push(`more than ${MAX_HOSTS} origins`);
  return { origins, bad };
}

/**
 * The embed channel. `embedded`: the page is in a frame. `hosts`: the origins from the URL,
 * or null to read the site's embed.json (`{"hosts": [origin, ...]}`) when embedded.
 */
export function createEmbed({ embedded, hosts, siteRoot, game }) {
  const stats = { accepted: 0, refused: 0, ignored: 0, ignoredOrigins: {}, posted: 0, targets: [] };
  let origins = hosts ?? [];
  let handler = null;
  let fromFile = null;

  const own = window.location.origin;
  const allowed = (origin) => origin === own || origins.includes(origin);

  function send(message) {
    if (!embedded) return;
    const targets = origins.length ? origins : ["*"];
    for (const target of targets) {
      try {
        window.parent.postMessage(message, target);
        stats.posted += 1;
      } catch (err) {
        console.warn("[slot-studio] postMessage failed:", err);
      }
    }
  }

  function envelope(type, payload, requestId) {
    const message = { source: SOURCE, type: String(type), version: VERSION, payload: payload ?? {}, game: game() };
    if (requestId !== undefined) message.requestId = requestId;
    return message;
  }

  /** Post an outward message; the payload's fields are also on the message itself (as before version 1). */
  function post(type, payload) {
    const message = { ...(payload ?? {}), ...envelope(type, payload) };
    send(message);
    return message;
  }

  function answer(command, requestId, result) {
    const payload = { command, ...result };
    if (result.ok) stats.accepted += 1;
    else stats.refused += 1;
    send(envelope("result", payload, requestId));
  }

  async function onMessage(event) {
    const data = event.data;
    if (!embedded || event.source !== window.parent || !allowed(event.origin)) {
      if (data && typeof data === "object" && data.source === SOURCE) {
        stats.ignored += 1;
        stats.ignoredOrigins[event.origin] = (stats.ignoredOrigins[event.origin] ?? 0) + 1;
      }
      return;
    }
    if (!data || typeof data !== "object" || data.source !== SOURCE) return;
    const requestId = typeof data.requestId === "string" || typeof data.requestId === "number" ? data.requestId : undefined;
    const type = String(data.type ?? "");
    if (data.version !== VERSION) {
      answer(type, requestId, { ok: false, reason: `version ${JSON.stringify(data.version)} is not spoken here: use version ${VERSION}` });
      return;
    }
    if (!COMMANDS.includes(type)) {
      answer(type, requestId, { ok: false, reason: `“${type}” is not a command; the commands are ${COMMANDS.join(", ")}` });
      return;
    }
    if (!handler) {
      const loading = { ok: type === "getState", state: { state: document.documentElement.dataset.state ?? "loading" } };
      if (type !== "getState") loading.reason = "the game is still loading: wait for its ready message";
      answer(type, requestId, loading);
      return;
    }
    let result;
    try {
      result = await handler(type, data.payload ?? {});
    } catch (err) {
      result = { ok: false, reason: `the game could not do it: ${err?.message ?? err}` };
    }
    answer(type, requestId, result);
  }

  async function loadHosts() {
    if (hosts !== null || !embedded) return;
    try {
      const res = await fetch(new URL("embed.json", siteRoot), { cache: "no-cache" });
      if (!res.ok) return;
      const data = await res.json();
      const list = Array.isArray(data?.hosts) ? data.hosts : [];
      const good = list.map(parseOrigin).filter((o) => o !== null);
      if (good.length !== list.length) console.warn("[slot-studio] embed.json: entries that are not origins were left out");
      origins = [...new Set(good)].slice(0, MAX_HOSTS);
      fromFile = true;
    } catch (err) {
      console.warn("[slot-studio] embed.json could not be read:", err);
    }
  }

  window.addEventListener("message", onMessage);
  const ready = loadHosts().then(() => {
    stats.targets = origins.length ? [...origins] : ["*"];
  });

  return {
    stats,
    ready,
    post,
    /** The function that runs a command: (type, payload) => {ok, reason?, state?} (or a Promise of it). */
    setHandler(fn) {
      handler = fn;
    },
    get origins() {
      return [...origins];
    },
    get fromFile() {
      return fromFile;
    },
  };
}

/**
 * Report the height the game wants for the frame's width (`resize`) whenever it changes:
 * a landscape 16:10 from `wide` CSS pixels up (the bar beside the reels), a portrait 10:16
 * below it (the bar under them). It depends on the width only, so a host that sets the
 * frame's height to it starts no loop.
 */
export function watchHeight(post, { wide = 640 } = {}) {
  let last = 0;
  const measure = () => {
    const width = window.innerWidth;
    const height = Math.round(width >= wide ? (width * 10) / 16 : (width * 16) / 10);
    if (height > 0 && height !== last) {
      last = height;
      post("resize", { width: Math.round(width), height });
    }
  };
  window.addEventListener("resize", measure);
  measure();
}
