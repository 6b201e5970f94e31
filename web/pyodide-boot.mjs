// The interpreter module PyScript loads (pyscript.json "interpreter"), copied by the build to
// pyodide/boot.mjs next to Pyodide. It starts Pyodide from the memory snapshot that the build
// made (Python already initialised, the engine and the client already imported), which saves
// seconds of start-up on every load. If the snapshot is missing or does not load, it starts
// Pyodide the ordinary way.

import { loadPyodide as loadPlain, version } from "./pyodide.mjs";

export { version };

const mark = (name) => {
  const marks = globalThis.slotStudio?.marks;
  if (marks && !(name in marks)) marks[name] = performance.now();
};

async function fetchSnapshot() {
  const res = await fetch(new URL("./snapshot.bin", import.meta.url));
  if (!res.ok) throw new Error(`snapshot.bin: HTTP ${res.status}`);
  const data = new Uint8Array(await res.arrayBuffer());
  mark("snapshotFetched");
  return data;
}

export async function loadPyodide(options = {}) {
  // Passed as a promise: Pyodide fetches its other files while the snapshot downloads.
  const snapshot = fetchSnapshot();
  try {
    const pyodide = await loadPlain({ ...options, _loadSnapshot: snapshot });
    mark("snapshotLoaded");
    return pyodide;
  } catch (err) {
    console.warn("[slot-studio] starting Python without the snapshot:", err);
    snapshot.catch(() => {});
    return loadPlain(options);
  }
}
