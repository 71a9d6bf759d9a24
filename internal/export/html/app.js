// mcpward session report. Data comes from the JSON export embedded in
// the JSON data element (id mcpward-data); every string from
// the log is put in the page with textContent, never as markup.
(function () {
  "use strict";
  var doc = JSON.parse(document.getElementById("mcpward-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function fmtMs(ms) {
    if (!ms) return "-";
    if (ms < 1) return Math.round(ms * 1000) + "\u00b5s";
    if (ms < 1000) return ms.toFixed(1) + "ms";
    return (ms / 1000).toFixed(2) + "s";
  }
  function fmtBytes(n) {
    if (n < 1024) return n + " B";
    if (n < 1048576) return (n / 1024).toFixed(1) + " KiB";
    return (n / 1048576).toFixed(1) + " MiB";
  }
  var ARROWS = {c2s: "\u2192", s2c: "\u2190", stderr: "!", meta: "\u00b7"};
  var MISMATCH = /^(transport\.header_|xhdr\.param_header_)/;

  // Flatten entries into frame rows (the stream), keeping each frame's call.
  var rows = [];
  (doc.entries || []).forEach(function (e) {
    if (e.type === "call") {
      (e.frames || []).forEach(function (f) { rows.push({f: f, call: e}); });
    } else {
      rows.push({f: e, call: null});
    }
  });
  rows.sort(function (a, b) {
    if (a.f.session !== b.f.session) return a.f.ts < b.f.ts ? -1 : 1;
    if (a.f.seq !== b.f.seq) return a.f.seq - b.f.seq;
    return (a.f.batchIndex || 0) - (b.f.batchIndex || 0);
  });
  function frameText(f) {
    if (f.frame !== undefined) return JSON.stringify(f.frame);
    if (f.frameText !== undefined) return f.frameText;
    if (f.info !== undefined) return JSON.stringify(f.info);
    return f.error || "";
  }
  rows.forEach(function (r) {
    var f = r.f, c = r.call, findings = f.findings || [];
    r.filterRow = {
      method: f.method || (c && c.method) || (f.metaKind || ""),
      tool: f.tool || (c && c.name) || "",
      id: f.id || "",
      rootId: "",
      task: f.taskId || (c && c.taskId) || "",
      dir: f.dir,
      kind: f.kind,
      status: c ? c.state : (f.status || ""),
      taskStatus: f.taskStatus || (c && c.taskStatus) || "",
      httpStatus: f.httpStatus || 0,
      warn: findings.length > 0 || !!f.truncated,
      mismatch: findings.some(function (id) { return MISMATCH.test(id); }),
      text: frameText(f)
    };
    if (c && f.id && c.id !== f.id) r.filterRow.rootId = c.id;
  });

  // Header.
  var sessions = doc.sessions || [];
  $("title").textContent = "mcpward session report: " + (doc.source || "");
  var meta = $("meta");
  sessions.forEach(function (s) {
    var line = el("div", "session");
    line.appendChild(el("b", null, s.label || s.id));
    var bits = [s.id, s.transport];
    if (s.serverName) bits.push(s.serverName + " " + (s.serverVersion || ""));
    if (s.revision) bits.push(s.revision);
    if (s.command) bits.push(s.command.join(" "));
    if (s.target) bits.push(s.target);
    bits.push(s.calls + " calls", s.errors + " errors", s.frames + " frames");
    if (s.missing) bits.push(s.missing + " missing");
    line.appendChild(el("span", "dim", " " + bits.join(" \u00b7 ")));
    meta.appendChild(line);
  });
  if (doc.redaction) meta.appendChild(el("div", "note", "Redaction was applied while exporting."));

  // Per-tool summary.
  var sumBox = $("summary");
  sessions.forEach(function (s) {
    var sum = s.summary || {};
    var h = el("h3", null, "Tools of " + (s.label || s.id));
    sumBox.appendChild(h);
    var defs = (sum.toolCount || 0) + " tools, definitions " + fmtBytes(sum.definitionBytes || 0) +
      " (~" + (sum.definitionTokens || 0) + " tokens" + (sum.listComplete ? "" : ", so far") + ") on every conversation";
    sumBox.appendChild(el("div", "dim", defs));
    var t = el("table", "tools");
    var head = el("tr");
    ["tool", "calls", "errors", "p50", "p95", "definition", "def tokens", "results", "result tokens"].forEach(function (x) { head.appendChild(el("th", null, x)); });
    t.appendChild(head);
    (sum.tools || []).forEach(function (tool) {
      var tr = el("tr", tool.calls ? "" : "faint");
      var lat = tool.Latency || {};
      [tool.name + (tool.declared ? "" : " (undeclared)"), tool.calls, tool.errors || "\u00b7", fmtMs((lat.p50 || 0) / 1e6), fmtMs((lat.p95 || 0) / 1e6),
        fmtBytes(tool.definitionBytes || 0), tool.definitionTokens || 0, fmtBytes(tool.resultBytes || 0), tool.resultTokens || 0].forEach(function (v, i) {
        var td = el("td", i === 2 && tool.errors ? "bad" : (i > 0 ? "num" : ""), v);
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    sumBox.appendChild(t);
    if (sum.heaviest) sumBox.appendChild(el("div", "dim", "heaviest result: " + sum.heaviest));
  });

  // Findings and problems.
  var fbox = $("findings");
  (doc.findings || []).forEach(function (f) {
    var d = el("div", "finding");
    d.appendChild(el("span", "rule", f.ruleId || f.RuleID || ""));
    d.appendChild(el("span", "dim", " seq " + (f.seq || "-") + " "));
    d.appendChild(el("span", null, f.message || ""));
    fbox.appendChild(d);
  });
  (doc.problems || []).forEach(function (p) { fbox.appendChild(el("div", "note", p)); });

  // Collapsible JSON, built lazily when a node is opened.
  function jsonNode(key, v, depth) {
    var isObj = v !== null && typeof v === "object";
    if (!isObj) {
      var line = el("div", "jl");
      if (key !== null) line.appendChild(el("span", "jk", JSON.stringify(key) + ": "));
      var cls = typeof v === "string" ? "js" : (typeof v === "number" ? "jn" : "jb");
      line.appendChild(el("span", cls, JSON.stringify(v)));
      return line;
    }
    var arr = Array.isArray(v);
    var keys = arr ? v.map(function (_, i) { return i; }) : Object.keys(v);
    var d = el("details", "jd");
    var s = el("summary");
    if (key !== null) s.appendChild(el("span", "jk", JSON.stringify(key) + ": "));
    s.appendChild(el("span", "dim", (arr ? "[" : "{") + keys.length + (arr ? " items]" : " keys}")));
    d.appendChild(s);
    var built = false;
    function build() {
      if (built) return;
      built = true;
      keys.forEach(function (k) { d.appendChild(jsonNode(arr ? null : k, v[k], depth + 1)); });
    }
    d.addEventListener("toggle", function () { if (d.open) build(); });
    if (depth < 2 || openAll) { d.open = true; build(); }
    return d;
  }
  function detail(r) {
    var box = el("div", "detail");
    var f = r.f;
    var hdr = [];
    if (f.httpMethod) hdr.push(f.httpMethod + " " + (f.path || ""));
    if (f.httpStatus) hdr.push("HTTP " + f.httpStatus);
    if (f.mcpSessionId) hdr.push("Mcp-Session-Id " + f.mcpSessionId);
    if (f.authChallenge) hdr.push("WWW-Authenticate " + f.authChallenge);
    if (r.call) hdr.push("call " + r.call.id + " " + r.call.state + " " + fmtMs(r.call.durationMs));
    if (f.line) hdr.push("log line " + f.line);
    box.appendChild(el("div", "dim", hdr.join(" \u00b7 ")));
    if (f.header) box.appendChild(jsonNode("header", f.header, 1));
    if (f.findings) box.appendChild(el("div", "bad", "findings: " + f.findings.join(", ")));
    if (f.frame !== undefined) box.appendChild(jsonNode(null, f.frame, 0));
    else if (f.info !== undefined) box.appendChild(jsonNode(null, f.info, 0));
    else if (f.frameText !== undefined) box.appendChild(el("pre", null, f.frameText));
    else if (f.frameBase64 !== undefined) box.appendChild(el("pre", null, "(binary, base64) " + f.frameBase64));
    if (f.error) box.appendChild(el("div", "bad", f.error));
    return box;
  }

  // Stream table.
  var LIMIT = 2000;
  var shown = LIMIT;
  var body = $("rows");
  function statusCell(r) {
    var f = r.f;
    if (f.kind === "response" && r.call) return r.call.state;
    if (f.kind === "request" && r.call) return r.call.state;
    if (f.httpStatus) return "http " + f.httpStatus;
    if (f.kind === "invalid") return "bad";
    return "";
  }
  function render() {
    var q = mwFilter.parse($("filter").value);
    while (body.firstChild) body.removeChild(body.firstChild);
    var n = 0, total = 0;
    rows.forEach(function (r) {
      if (!mwFilter.match(q, r.filterRow)) return;
      total++;
      if (n >= shown) return;
      n++;
      var f = r.f, fr = r.filterRow;
      var tr = el("tr", "row " + (fr.status === "error" || fr.httpStatus >= 400 || f.kind === "invalid" ? "err" : ""));
      var time = (f.ts || "").replace(/^.*T/, "").replace(/Z$/, "").replace(/(\.\d{3})\d*/, "$1");
      var what = fr.method + (fr.tool ? " " + fr.tool : "");
      if (f.kind === "stderr" || f.kind === "invalid") what = fr.text.length > 200 ? fr.text.slice(0, 200) + "\u2026" : fr.text;
      var dur = f.kind === "response" && r.call ? fmtMs(r.call.durationMs) : "";
      [time, ARROWS[f.dir] || f.dir, f.kind, what, f.id || "", statusCell(r), dur].forEach(function (v, i) {
        tr.appendChild(el("td", i === 3 ? "what" : "", v));
      });
      tr.tabIndex = 0;
      var open = null;
      function toggle() {
        if (open) { body.removeChild(open); open = null; return; }
        open = el("tr", "open");
        var td = el("td");
        td.colSpan = 7;
        td.appendChild(detail(r));
        open.appendChild(td);
        body.insertBefore(open, tr.nextSibling);
      }
      tr.addEventListener("click", toggle);
      tr.addEventListener("keydown", function (ev) { if (ev.key === "Enter") toggle(); });
      body.appendChild(tr);
      if (openAll) toggle();
    });
    $("count").textContent = n + " of " + total + " matching frames (" + rows.length + " in all)";
    $("more").hidden = total <= n;
  }
  // The fragment may carry a filter (#filter=tool:x) and open=1 to expand
  // every shown row, so a report link can point at what matters.
  var openAll = false;
  try {
    var hp = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (hp.get("filter") !== null) $("filter").value = hp.get("filter");
    openAll = hp.get("open") === "1";
  } catch (e) { /* no fragment support: plain view */ }
  $("filter").addEventListener("input", function () { shown = LIMIT; openAll = false; render(); });
  $("more").addEventListener("click", function () { shown += LIMIT; render(); });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement !== $("filter")) { ev.preventDefault(); $("filter").focus(); }
  });
  render();
  document.body.setAttribute("data-ready", "1");
})();
