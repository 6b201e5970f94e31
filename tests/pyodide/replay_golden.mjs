// Layer 5: replay the golden rounds with the engine wheel inside Pyodide, under Node.js.
//
//   node tests/pyodide/replay_golden.mjs [--stdlib STDLIB.zip] WHEEL GOLDEN.jsonl...
//
// Loads Pyodide from node_modules/pyodide (no network: `fetch` is disabled before loading),
// with its own standard library or, with --stdlib, the given one (`loadPyodide({stdLibURL})`,
// as the site does with its trimmed pyodide/stdlib.zip),
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
    from pyengine.events import dumps
    from pyengine.link import decode, encode, link_of_record, play_link

    out = []
    for name, header in json.loads(records_json):
        try:
            record = json.loads(header)
            token = encode(link_of_record(record))
            linked = dumps(play_link(decode(token)))
            out.append({"name": name, "text": golden_text(record), "token": token, "linked": linked, "error": None})
        except Exception:
            out.append({"name": name, "text": None, "error": traceback.format_exc()})
    return json.dumps(out)
`;

// The version comes from the wheel's METADATA file itself (the site's trimmed standard library
// has no importlib.metadata).
const ENGINE_INFO = `
import glob, importlib, json, site, sys
importlib.invalidate_caches()
import pyengine
(meta,) = glob.glob(site.getsitepackages()[0] + "/pyengine-*.dist-info/METADATA")
with open(meta, encoding="utf-8") as f:
    version = next(line.split(":", 1)[1].strip() for line in f if line.startswith("Version:"))
json.dumps({
    "version": version,
    "stdlib": next(p for p in sys.path if p.endswith(".zip")),
    "stdlib_files": len(__import__("zipfile").ZipFile(next(p for p in sys.path if p.endswith(".zip"))).namelist()),
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
  process.stdout.write(`${JSON.stringify({ error: message })}\n`, () => process.exit(2));
  throw new Stopped(message); // stop here; the process exits once the line is flushed
}

class Stopped extends Error {}

async function main(argv) {
  let stdlib;
  if (argv[0] === "--stdlib") {
    stdlib = resolve(argv[1]);
    argv = argv.slice(2);
  }
  if (argv.length < 2) {
    fail("usage: node tests/pyodide/replay_golden.mjs [--stdlib STDLIB.zip] WHEEL GOLDEN.jsonl...");
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
  const options = { indexURL: `${PYODIDE_DIR}/`, stdout: echo, stderr: echo };
  if (stdlib) options.stdLibURL = stdlib;
  const pyodide = await loadPyodide(options);
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
  // Exit once the report is flushed: on a pipe, process.exit would cut it at 64 KiB.
  (status) => process.stdout.write("", () => process.exit(status)),
  // A PythonError's message is the full Python traceback.
  (err) => {
    if (!(err instanceof Stopped)) fail(err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err));
  },
);
