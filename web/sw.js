// The service worker: precaches the whole built site on install, then answers every
// request of the site from that cache (cache first), so a page that was visited once
// loads and plays with the network gone.
//
// `BUILD` is written by `build.py build`: the build's hash and the site's files, relative
// to this file. A new build means a new sw.js, a new cache, and the old one is deleted.

const BUILD = { version: "dev", files: [] };

const SCOPE = new URL("./", self.location).href;
const PREFIX = `slot-studio:${new URL(SCOPE).pathname}:`;
const CACHE = PREFIX + BUILD.version;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // "no-cache" revalidates with the server, so a stale HTTP-cache copy from an older
      // build never lands in this build's cache.
      const requests = BUILD.files.map((f) => new Request(new URL(f, SCOPE), { cache: "no-cache" }));
      await cache.addAll(requests);
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

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // A folder's address is its index.html; pages carry their parameters in the query
      // (play.html?game=...) and files have none, so the query is ignored.
      const url = new URL(request.url);
      const key = url.pathname.endsWith("/") ? new URL("index.html", url) : request;
      const hit = await cache.match(key, { ignoreSearch: true, ignoreVary: true });
      return hit ?? fetch(request);
    })(),
  );
});
