// The engine's worker: loads mcpward's core, compiled to WebAssembly
// (engine.wasm.gz, decompressed as it downloads), the first time a run
// needs it, and answers the page's runs. A session log is read and fed to
// the engine one piece at a time, with a progress message after each, so
// a 50 MB log is never held whole and the page stays usable. The only
// requests made are for wasm_exec.js and engine.wasm.gz, from this site.
// The demo needs no input at all: the engine records the fixture servers
// built into it.
"use strict";

importScripts("wasm_exec.js");

const CHUNK = 1 << 20; // bytes of a log fed to the engine at a time
let loading = null;

function mb(n) {
  return (n / 1024 / 1024).toFixed(1) + " MB";
}

function engine(id, version) {
  if (!loading) {
    loading = (async () => {
      const resp = await fetch("engine.wasm.gz");
      if (!resp.ok) {
        throw new Error("load the engine: engine.wasm.gz: HTTP " + resp.status);
      }
      const total = Number(resp.headers.get("Content-Length")) || 0;
      let done = 0;
      const counted = resp.body.pipeThrough(new TransformStream({
        transform(chunk, ctl) {
          done += chunk.length;
          postMessage({ id, type: "progress", done, total, text: "Loading the engine: " + mb(done) + (total ? " of " + mb(total) : "") });
          ctl.enqueue(chunk);
        },
      }));
      const wasm = new Response(counted.pipeThrough(new DecompressionStream("gzip")),
        { headers: { "Content-Type": "application/wasm" } });
      const go = new Go();
      go.argv = ["mcpward-wasm", version || "dev"]; // the engine's version (it has none of its own)
      const { instance } = await WebAssembly.instantiateStreaming(wasm, go.importObject);
      go.run(instance); // sets self.mcpwardEngine, then waits for calls
      if (!self.mcpwardEngine) {
        throw new Error("load the engine: it did not start");
      }
      return self.mcpwardEngine;
    })();
    loading.catch(() => { loading = null; }); // a later run may try again
  }
  return loading;
}

async function bytes(input) {
  return new Uint8Array(await input.blob.arrayBuffer());
}

async function checkLog(eng, id, input) {
  const h = eng.logBegin(input.name);
  const total = input.blob.size;
  for (let off = 0; off < total; off += CHUNK) {
    const piece = new Uint8Array(await input.blob.slice(off, off + CHUNK).arrayBuffer());
    const err = eng.logWrite(h, piece);
    if (err) {
      eng.logEnd(h);
      return JSON.parse(err);
    }
    const done = Math.min(off + CHUNK, total);
    postMessage({ id, type: "progress", done, total, text: "Checking " + input.name + ": " + mb(done) + " of " + mb(total) });
  }
  return JSON.parse(eng.logEnd(h));
}

self.addEventListener("message", async (e) => {
  const m = e.data;
  const start = performance.now();
  try {
    const eng = await engine(m.id, m.version);
    let answer;
    switch (m.op) {
      case "diff":
        postMessage({ id: m.id, type: "progress", done: 0, total: 0, text: "Diffing " + m.old.name + " → " + m.new.name });
        answer = JSON.parse(eng.diff(m.old.name, await bytes(m.old), m.new.name, await bytes(m.new), m.failOn, m.migrate));
        break;
      case "log":
        answer = await checkLog(eng, m.id, m.log);
        break;
      case "demo":
        postMessage({ id: m.id, type: "progress", done: 0, total: 0, text: "Recording clean@v1 and drift-breaking@v2 in the engine, then diffing them" });
        answer = JSON.parse(await eng.demo());
        break;
      case "result":
        answer = JSON.parse(eng.result(m.doc.name, await bytes(m.doc)));
        break;
      default:
        throw new Error("unknown run " + m.op);
    }
    postMessage({ id: m.id, type: "done", answer, ms: performance.now() - start });
  } catch (err) {
    postMessage({ id: m.id, type: "fail", message: String(err && err.message || err) });
  }
});
