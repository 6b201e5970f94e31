// The service worker: once a game is ready, it precaches what every page needs (the pages,
// the runtimes, the engine, the client, the lobby's tiles, Python's memory snapshot) and the
// art of the game that was opened; then it answers every request of the site from that cache
// (cache first), so a page that was visited once loads and plays with the network gone. Other
// games' art is cached as it is first fetched.
//
// `BUILD` is written by `build.py build`: the build's hash, the shared files and each game's
// own files, relative to this file. A new build means a new sw.js, a new cache, and the old
// one is deleted.

const BUILD = { version: "dev", files: [], games: {} };

const SCOPE = new URL("./", self.location).href;
const PREFIX = `slot-studio:${new URL(SCOPE).pathname}:`;
const CACHE = PREFIX + BUILD.version;
const KNOWN = new Set([...BUILD.files, ...Object.values(BUILD.games).flat()].map((f) => new URL(f, SCOPE).href));

// "no-cache" revalidates with the server, so a stale HTTP-cache copy from an older build
// never lands in this build's cache. The header tells a host's logs (and the tests) the
// precache's requests from the ones a page makes itself.
const request = (f) =>
  new Request(new URL(f, SCOPE), { cache: "no-cache", headers: { "X-Slot-Studio-Precache": "1" } });

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(BUILD.files.map(request));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

// {type: "precache", game}: cache that game's art; answers {type: "precached", game, ok}.
self.addEventListener("message", (event) => {
  const { type, game } = event.data || {};
  if (type !== "precache") return;
  const files = BUILD.games[game] ?? [];
  event.waitUntil(
    (async () => {
      let ok = true;
      try {
        const cache = await caches.open(CACHE);
        const missing = [];
        for (const f of files) if (!(await cache.match(request(f)))) missing.push(f);
        await cache.addAll(missing.map(request));
      } catch (err) {
        ok = false;
      }
      event.source?.postMessage({ type: "precached", game, ok });
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request: req } = event;
  if (req.method !== "GET" || !req.url.startsWith(SCOPE)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // A folder's address is its index.html; pages carry their parameters in the query
      // (play.html?game=...) and files have none, so the query is ignored.
      const url = new URL(req.url);
      const key = url.pathname.endsWith("/") ? new URL("index.html", url) : req;
      const hit = await cache.match(key, { ignoreSearch: true, ignoreVary: true });
      if (hit) return hit;
      const res = await fetch(req);
      url.search = "";
      if (res.ok && KNOWN.has(url.href)) cache.put(url.href, res.clone()).catch(() => {});
      return res;
    })(),
  );
});
