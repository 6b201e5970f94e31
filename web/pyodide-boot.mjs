// The interpreter module PyScript loads (pyscript.json "interpreter"), copied by the build to
// pyodide/boot.mjs next to Pyodide. It starts Pyodide on the build's trimmed standard library
// (stdlib.zip: the modules the engine and the client import, as bytecode).
//
// First visit: Python starts the ordinary way; the page downloads no memory snapshot (it
// would more than double the download). Once the game is ready, the service worker
// precaches the site, the build's memory snapshot with it (snapshot.bin: Python already
// initialised, the engine and the client already imported). Later visits, served by that
// service worker, start from the snapshot and skip Python's start-up. If it does not load,
// Python starts the ordinary way.

import { loadPyodide as loadPlain, version } from "./pyodide.mjs";

export { version };

const STDLIB = new URL("./stdlib.zip", import.meta.url).href;
const SNAPSHOT = new URL("./snapshot.bin", import.meta.url);

const mark = (name) => {
  const marks = globalThis.slotStudio?.marks;
  if (marks && !(name in marks)) marks[name] = performance.now();
};

/** The snapshot when a service worker serves this page (it precached it); else null. */
function localSnapshot() {
  if (!globalThis.navigator?.serviceWorker?.controller) return null;
  return fetch(SNAPSHOT).then(async (res) => {
    if (!res.ok) throw new Error(`snapshot.bin: HTTP ${res.status}`);
    const data = new Uint8Array(await res.arrayBuffer());
    mark("snapshotFetched");
    return data;
  });
}

export async function loadPyodide(options = {}) {
  const plain = { ...options, stdLibURL: STDLIB };
  // Passed as a promise: Pyodide fetches its other files while the snapshot is read.
  const snapshot = localSnapshot();
  if (snapshot) {
    try {
      const pyodide = await loadPlain({ ...plain, _loadSnapshot: snapshot });
      mark("snapshotLoaded");
      return pyodide;
    } catch (err) {
      console.warn("[slot-studio] starting Python without the snapshot:", err);
      snapshot.catch(() => {});
    }
  }
  return loadPlain(plain);
}
