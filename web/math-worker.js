// The math page's worker (math.html starts it): Pyodide with the engine (wheels/engine.zip)
// computes a game's par sheet and its what-if here, off the page's thread, so the page stays
// responsive and shows progress. The page has no numpy: the engine's polynomial products
// (pyengine.math.poly) come to `product` below, an FFT in float64.
//
// Messages in: {id, type: "editor" | "sheet" | "whatif", game, mode?, rounds?, edits?}.
// Messages out: {type: "ready"}, {type: "progress", id, stage, done, total},
// {type: "result", id, json} and {type: "error", id, message}.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import { product } from "./fft.js";

const HERE = new URL("./", import.meta.url);
const ENGINE = "/home/pyodide/engine.zip";

// -- Python --------------------------------------------------------------------------------
async function start() {
  const [pyodide, engine] = await Promise.all([
    loadPyodide({ indexURL: HERE.href + "pyodide/", stdLibURL: HERE.href + "pyodide/stdlib.zip" }),
    fetch(new URL("wheels/engine.zip", HERE)).then((res) => {
      if (!res.ok) throw new Error(`wheels/engine.zip: HTTP ${res.status}`);
      return res.arrayBuffer();
    }),
  ]);
  pyodide.FS.writeFile(ENGINE, new Uint8Array(engine));
  pyodide.runPython(`import sys\nsys.path.insert(0, "${ENGINE}")`);
  const page = pyodide.pyimport("pyengine.math.mathpage");
  return page;
}

const ready = start();
let current = null;
const progress = (stage, done, total) => postMessage({ type: "progress", id: current, stage, done, total });

ready.then(
  (page) => {
    page.use_host_product(product, progress);
    postMessage({ type: "ready" });
  },
  (err) => postMessage({ type: "error", id: null, message: String(err?.message || err) }),
);

// One request at a time, in order: Python runs on this thread.
let queue = Promise.resolve();
self.addEventListener("message", (event) => {
  const { id, type, game, mode = "base", rounds, edits } = event.data || {};
  queue = queue.then(async () => {
    let page;
    try {
      page = await ready;
    } catch (err) {
      return; // already reported
    }
    current = id;
    try {
      let json;
      if (type === "editor") json = page.editor(game);
      else if (type === "sheet") json = page.sheet(game, rounds, 1, progress, mode);
      else if (type === "whatif") json = page.what_if_sheet(game, edits, progress, mode);
      else throw new Error(`unknown request ${type}`);
      postMessage({ type: "result", id, json });
    } catch (err) {
      // A Python exception: its last line is the engine's message ("EngineError: ...").
      const text = String(err?.message || err).trim().split("\n").pop();
      postMessage({ type: "error", id, message: text.replace(/^[\w.]*Error: /, "") });
    }
  });
});
