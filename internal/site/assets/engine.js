// The engine page and the demo: collects files (dropped, chosen or pasted), hands them
// to the worker (engine-worker.js), which runs mcpward's core compiled to
// WebAssembly, and shows what it answers. Nothing leaves the browser: the
// only requests this page makes are for its own files. Everything shown
// is put in the page as text (textContent), never as HTML, so markup in a
// snapshot or a log (a hostile tool description) stays text.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const inputs = { old: null, new: null, log: null, doc: null };
  let worker = null;
  let nextID = 0;
  let current = 0; // the run whose answers are shown
  let downloadURL = null;

  if (location.protocol === "file:") {
    $("file-protocol").hidden = false;
  }

  // The worker, and through it the engine, is started on first use only.
  function engineWorker() {
    if (!worker) {
      worker = new Worker("engine-worker.js");
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", (e) => {
        e.preventDefault();
        fail({ message: "the engine stopped: " + (e.message || "unknown error") });
        console.error("engine worker:", e.message);
      });
    }
    return worker;
  }

  function size(n) {
    if (n < 1024) return n + " B";
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + " kB";
    return (n / 1024 / 1024).toFixed(1) + " MB";
  }

  // An input is {name, blob}: a File as it is, a paste as a Blob.
  function choose(slot, name, blob) {
    inputs[slot] = { name, blob };
    $("chosen-" + slot).textContent = name + " (" + size(blob.size) + ")";
    if (slot === "old" || slot === "new") {
      $("run-diff").disabled = !(inputs.old && inputs.new);
      if (inputs.old && inputs.new) runDiff();
    } else if (slot === "log") {
      run({ op: "log", log: inputs.log }, "Checking " + name);
    } else {
      run({ op: "result", doc: inputs.doc }, "Reading " + name);
    }
  }

  function chooseFiles(slot, files) {
    if (!files || files.length === 0) return;
    if (slot === "old" && files.length >= 2) {
      // Two snapshots dropped together: old then new, in the order given.
      inputs.new = { name: files[1].name, blob: files[1] };
      $("chosen-new").textContent = files[1].name + " (" + size(files[1].size) + ")";
    }
    choose(slot, files[0].name, files[0]);
  }

  function runDiff() {
    run({ op: "diff", old: inputs.old, new: inputs.new, failOn: $("fail-on").value, migrate: $("migrate").checked },
      "Diffing " + inputs.old.name + " → " + inputs.new.name);
  }

  function run(msg, what) {
    current = ++nextID;
    msg.id = current;
    msg.version = document.body.dataset.version || "dev";
    $("status").textContent = what + " …";
    $("progress").hidden = false;
    $("progress").removeAttribute("value");
    $("failure").hidden = true;
    document.body.dataset.state = "running";
    engineWorker().postMessage(msg);
  }

  function onMessage(e) {
    const m = e.data;
    if (m.id !== current) return; // an answer to a run the user replaced
    if (m.type === "progress") {
      $("status").textContent = m.text;
      if (m.total > 0) {
        $("progress").max = m.total;
        $("progress").value = m.done;
      }
      const n = Number(document.body.dataset.progress || 0) + 1;
      document.body.dataset.progress = String(n);
      return;
    }
    $("progress").hidden = true;
    if (m.type === "done" && m.answer.report) {
      show(m.answer.report, m.ms);
    } else {
      fail(m.answer ? m.answer.error : { message: m.message });
    }
  }

  function fail(err) {
    $("report").hidden = true;
    $("failure").hidden = false;
    $("failure-message").textContent = "mcpward: " + err.message + (err.exitCode ? " (exit " + err.exitCode + ")" : "");
    $("failure-hint").textContent = err.hint ? "hint: " + err.hint : "";
    $("status").textContent = "Failed.";
    $("output").scrollIntoView({ block: "start" });
    document.body.dataset.state = "failed";
  }

  function el(tag, cls, text) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }

  const kindTitle = { tier: "Surface changes", class: "Rule findings" };

  function show(rep, ms) {
    $("report-title").textContent = {
      diff: "Diff", "sessions-check": "Session log check", check: "Check", compat: "Compat",
    }[rep.command] || "Result (" + rep.command + ")";
    const verdict = $("verdict");
    verdict.textContent = rep.summary;
    verdict.className = "verdict exit-" + rep.exitCode;
    const problems = $("problems");
    problems.replaceChildren(...rep.problems.map((p) => el("li", "error", "INCOMPLETE: " + p)));
    const groups = $("groups");
    groups.replaceChildren();
    let kind = "";
    for (const g of rep.groups) {
      if (g.kind !== kind) {
        kind = g.kind;
        groups.append(el("h3", "kind", kindTitle[kind] || kind));
      }
      const sec = el("section", "group " + g.kind + "-" + g.name);
      sec.dataset.group = g.name;
      const h = el("h3", "", g.name + " ");
      h.append(el("span", "count", "(" + g.lines.length + ")"));
      sec.append(h);
      const ul = el("ul");
      for (const l of g.lines) {
        ul.append(findingItem(l));
      }
      sec.append(ul);
      groups.append(sec);
    }
    if (rep.groups.length === 0) {
      groups.append(el("p", "note", "No findings."));
    }
    $("text").textContent = rep.text;
    if (downloadURL) URL.revokeObjectURL(downloadURL);
    downloadURL = URL.createObjectURL(new Blob([rep.result], { type: "application/json" }));
    $("download").href = downloadURL;
    $("report").hidden = false;
    // The result is below the inputs: bring it into view.
    $("output").scrollIntoView({ block: "start" });
    $("status").textContent = "Done in " + (ms / 1000).toFixed(2) + " s.";
    document.body.dataset.state = "done";
    document.body.dataset.elapsedMs = String(Math.round(ms));
  }

  // One finding: the command line's own line, its rule id a link to the
  // rule's entry in the catalogue.
  function findingItem(l) {
    const li = el("li");
    const at = l.text.indexOf(l.ruleId);
    if (at < 0 || !l.rule) {
      li.textContent = l.text;
      return li;
    }
    const a = el("a", "rule", l.ruleId);
    a.href = "rules.html#" + encodeURIComponent(l.ruleId);
    li.append(l.text.slice(0, at), a, l.text.slice(at + l.ruleId.length));
    return li;
  }

  for (const zone of document.querySelectorAll(".drop")) {
    const slot = zone.dataset.slot;
    zone.addEventListener("dragenter", (e) => { e.preventDefault(); zone.classList.add("over"); });
    zone.addEventListener("dragover", (e) => { e.preventDefault(); e.dataTransfer.dropEffect = "copy"; });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      zone.classList.remove("over");
      if (e.dataTransfer.files.length > 0) {
        chooseFiles(slot, e.dataTransfer.files);
      } else {
        const text = e.dataTransfer.getData("text/plain");
        if (text) choose(slot, "dropped text", new Blob([text]));
      }
    });
    $("file-" + slot).addEventListener("change", (e) => chooseFiles(slot, e.target.files));
    const area = $("paste-" + slot);
    area.addEventListener("paste", (e) => {
      const files = e.clipboardData.files;
      if (files.length > 0) {
        e.preventDefault();
        chooseFiles(slot, files);
        return;
      }
      const text = e.clipboardData.getData("text/plain");
      if (!text) return;
      e.preventDefault();
      // A big paste is not put into the text box (it would slow the page).
      area.value = text.length <= 100000 ? text : "";
      area.placeholder = "pasted " + size(text.length);
      choose(slot, "pasted " + slot, new Blob([text]));
    });
    area.addEventListener("change", () => {
      if (area.value.trim() !== "") choose(slot, "typed " + slot, new Blob([area.value]));
    });
  }
  // Stop a file dropped beside a box from replacing the page.
  window.addEventListener("dragover", (e) => e.preventDefault());
  window.addEventListener("drop", (e) => e.preventDefault());
  if ($("run-diff")) { // the engine page
    $("run-diff").addEventListener("click", runDiff);
    $("fail-on").addEventListener("change", () => { if (inputs.old && inputs.new) runDiff(); });
    $("migrate").addEventListener("change", () => { if (inputs.old && inputs.new) runDiff(); });
  }
  if ($("run-demo")) { // the demo: the engine records its own fixtures
    $("run-demo").addEventListener("click", () => run({ op: "demo" }, "Recording clean@v1 and drift-breaking@v2, then diffing them"));
  }
  document.body.dataset.ready = "1";
})();
