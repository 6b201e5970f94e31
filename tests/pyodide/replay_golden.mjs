// Layer 5: replay the golden rounds with the engine wheel inside Pyodide, under Node.js.
//
//   node tests/pyodide/replay_golden.mjs WHEEL GOLDEN.jsonl...
//
// Loads Pyodide from node_modules/pyodide (no network: `fetch` is disabled before loading),
// unpacks the wheel into site-packages with `pyodide.unpackArchive` (no micropip: the same call
// works in a browser page), then regenerates each golden file from its first line (the record)
// with `pyengine.replay.golden_text`. Writes one JSON object to stdout:
//
//   {"pyodide": "314.0.7", "python": [3, 14, 2], "engine": {...}, "wheel": {...}, "timings": {...},
//    "results": [{"name": "x.jsonl", "text": "...", "error": null}, ...]}
//
// Python's own stdout/stderr go to stderr. Exit status: 0 all replayed, 1 a round raised
// (its traceback is in "error"), 2 Pyodide or the wheel could not be loaded ("error" at top level).

import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = join(ROOT, "node_modules", "pyodide");

const REPLAY = `
import json, traceback
from pyengine.replay import golden_text

def _replay(records_json):
    out = []
    for name, header in json.loads(records_json):
        try:
            out.append({"name": name, "text": golden_text(json.loads(header)), "error": None})
        except Exception:
            out.append({"name": name, "text": None, "error": traceback.format_exc()})
    return json.dumps(out)
`;

const ENGINE_INFO = `
import importlib, importlib.metadata, json, site, sys
importlib.invalidate_caches()
import pyengine
json.dumps({
    "version": importlib.metadata.version("pyengine"),
    "file": pyengine.__file__,
    "site_packages": site.getsitepackages()[0],
    "sys_version": sys.version,
    "platform": sys.platform,
    "python": list(sys.version_info[:3]),
})
`;

function seconds(t0) {
  return Math.round((performance.now() - t0) / 10) / 100;
}

function fail(message) {
  process.stderr.write(`replay_golden: ${message}\n`);
  process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  process.exit(2);
}

async function main(argv) {
  if (argv.length < 2) {
    fail("usage: node tests/pyodide/replay_golden.mjs WHEEL GOLDEN.jsonl...");
  }
  const [wheelPath, ...goldenPaths] = argv;
  if (!existsSync(join(PYODIDE_DIR, "pyodide.mjs"))) {
    fail(`${PYODIDE_DIR} is missing: run \`npm ci\` in ${ROOT}`);
  }
  // Read every input first, so a bad path fails before the slow part. The wheel is passed as a
  // plain Uint8Array view: Pyodide's converter rejects Node's Buffer subclass.
  const buf = await readFile(wheelPath);
  const wheel = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const records = [];
  for (const path of goldenPaths) {
    const [header] = (await readFile(path, "utf8")).split("\n", 1);
    records.push([basename(path), header]);
  }

  // Nothing below may reach the network: everything comes from node_modules/pyodide.
  globalThis.fetch = async (url) => {
    throw new Error(`network request attempted: ${url}`);
  };
  const echo = (msg) => process.stderr.write(`[python] ${msg}\n`);

  const timings = {};
  let t0 = performance.now();
  const { loadPyodide } = await import(pathToFileURL(join(PYODIDE_DIR, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: `${PYODIDE_DIR}/`, stdout: echo, stderr: echo });
  timings.load_pyodide_s = seconds(t0);

  t0 = performance.now();
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  timings.install_wheel_s = seconds(t0);

  t0 = performance.now();
  const engine = JSON.parse(pyodide.runPython(ENGINE_INFO));
  timings.import_engine_s = seconds(t0);

  t0 = performance.now();
  pyodide.runPython(REPLAY);
  const replay = pyodide.globals.get("_replay");
  const results = JSON.parse(replay(JSON.stringify(records)));
  replay.destroy();
  timings.replay_s = seconds(t0);

  const report = {
    pyodide: pyodide.version,
    python: engine.python,
    engine,
    wheel: { name: basename(wheelPath), bytes: wheel.length },
    timings,
    results,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  for (const r of results) {
    if (r.error !== null) process.stderr.write(`replay_golden: ${r.name} raised:\n${r.error}\n`);
  }
  return results.every((r) => r.error === null) ? 0 : 1;
}

main(process.argv.slice(2)).then(
  // Not process.exit(): it would end the process before a piped stdout of more than 64 KiB
  // (the report grows with the golden files) is written out.
  (status) => {
    process.exitCode = status;
  },
  // A PythonError's message is the full Python traceback.
  (err) => fail(err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err)),
);
