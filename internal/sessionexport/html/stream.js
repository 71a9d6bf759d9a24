// The frame stream of mcpward's session views, shared by the HTML session
// report (inlined with this package's app.js) and mcpward serve's session
// page (served as /assets/stream.js). It reads the JSON export of a
// session log (export.Doc) and needs mwFilter (filter.js). Every string
// from a log is put in the page with textContent, never as markup.
var mwStream = (function () {
  "use strict";
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

  function frameText(f) {
    if (f.frame !== undefined) return JSON.stringify(f.frame);
    if (f.frameText !== undefined) return f.frameText;
    if (f.info !== undefined) return JSON.stringify(f.info);
    return f.error || "";
  }
  // rows flattens a document's entries into frame rows (the stream),
  // keeping each frame's call, in log order, each with the fields the
  // filter language matches.
  function rows(doc) {
    var out = [];
    (doc.entries || []).forEach(function (e) {
      if (e.type === "call") (e.frames || []).forEach(function (f) { out.push({f: f, call: e}); });
      else out.push({f: e, call: null});
    });
    out.sort(function (a, b) {
      if (a.f.session !== b.f.session) return a.f.ts < b.f.ts ? -1 : 1;
      if (a.f.seq !== b.f.seq) return a.f.seq - b.f.seq;
      return (a.f.batchIndex || 0) - (b.f.batchIndex || 0);
    });
    out.forEach(function (r) {
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
    return out;
  }

  // sessionLine is a session's one-line header.
  function sessionLine(s) {
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
    return line;
  }
  // finding is one traffic finding, coloured by its class (violation red,
  // risky amber, info grey: an info finding never fails anything).
  function finding(f) {
    var cls = String(f.class || f.Class || "info").replace(/[^a-z]/g, "");
    var d = el("div", "finding class-" + cls);
    d.setAttribute("data-class", cls);
    if (f.level) d.setAttribute("data-level", f.level);
    if (f.level) d.appendChild(el("span", "level", f.level + " "));
    d.appendChild(el("span", "rule", f.ruleId || f.RuleID || ""));
    d.appendChild(el("span", "dim", " seq " + (f.seq || "-") + " "));
    d.appendChild(el("span", null, f.message || ""));
    return d;
  }

  // jsonNode is a collapsible JSON view, built lazily when a node is
  // opened; the first two levels (every level with openAll) start open.
  function jsonNode(key, v, depth, openAll) {
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
      keys.forEach(function (k) { d.appendChild(jsonNode(arr ? null : k, v[k], depth + 1, openAll)); });
    }
    d.addEventListener("toggle", function () { if (d.open) build(); });
    if (depth < 2 || openAll) { d.open = true; build(); }
    return d;
  }
  function detail(r, openAll) {
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
    if (f.header) box.appendChild(jsonNode("header", f.header, 1, openAll));
    if (f.findings) box.appendChild(el("div", "bad", "findings: " + f.findings.join(", ")));
    if (f.frame !== undefined) box.appendChild(jsonNode(null, f.frame, 0, openAll));
    else if (f.info !== undefined) box.appendChild(jsonNode(null, f.info, 0, openAll));
    else if (f.frameText !== undefined) box.appendChild(el("pre", null, f.frameText));
    else if (f.frameBase64 !== undefined) box.appendChild(el("pre", null, "(binary, base64) " + f.frameBase64));
    if (f.error) box.appendChild(el("div", "bad", f.error));
    return box;
  }
  function statusCell(r) {
    var f = r.f;
    if ((f.kind === "response" || f.kind === "request") && r.call) return r.call.state;
    if (f.httpStatus) return "http " + f.httpStatus;
    if (f.kind === "invalid") return "bad";
    return "";
  }

  var HELP = "Terms are ANDed. tool:/t: method:/m: (substrings), id: (with or without quotes), task:, dir:/d: c2s|s2c|stderr, " +
    "kind:/k: request|response|notification|stderr|invalid|transport|meta, " +
    "status:/s: ok|error|pending|cancelled|late|warn|bad|mismatch|streaming|superseded or an HTTP code. Press / to focus. Click a row to open it.";
  var LIMIT = 2000;

  // frames builds the stream into box: the filter (#filter), its help,
  // the count (#count), the table (#stream, body #rows) and "show more".
  // It returns the view: view.set(rows) shows new rows (rows a row
  // opened by hand stays open across), view.openAll opens every shown
  // row (until the filter is edited). query is the filter's first text.
  function frames(box, query) {
    var filter = el("input");
    filter.id = "filter"; filter.type = "search"; filter.autocomplete = "off"; filter.spellcheck = false;
    filter.placeholder = "filter: tool:NAME method:M id:7 dir:c2s kind:request status:error|404 or text";
    filter.setAttribute("aria-label", "filter");
    filter.value = query || "";
    var count = el("div", "dim"); count.id = "count";
    var t = el("table"); t.id = "stream";
    var hr = el("tr");
    ["time", "", "kind", "method", "id", "status", "duration"].forEach(function (x) { hr.appendChild(el("th", null, x)); });
    var th = el("thead"); th.appendChild(hr); t.appendChild(th);
    var body = el("tbody"); body.id = "rows"; t.appendChild(body);
    var more = el("button", null, "show more"); more.id = "more"; more.hidden = true;
    [filter, el("div", "help dim", HELP), count, t, more].forEach(function (n) { box.appendChild(n); });

    var view = {openAll: false}, all = [], shown = LIMIT, opened = {};
    function render() {
      var q = mwFilter.parse(filter.value);
      while (body.firstChild) body.removeChild(body.firstChild);
      var n = 0, total = 0;
      all.forEach(function (r) {
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
        var key = (f.session || "") + "/" + f.seq + "/" + (f.batchIndex || 0), open = null;
        function toggle() {
          if (open) { body.removeChild(open); open = null; delete opened[key]; return; }
          open = el("tr", "open");
          var td = el("td");
          td.colSpan = 7;
          td.appendChild(detail(r, view.openAll));
          open.appendChild(td);
          body.insertBefore(open, tr.nextSibling);
          opened[key] = true;
        }
        tr.addEventListener("click", toggle);
        tr.addEventListener("keydown", function (ev) { if (ev.key === "Enter") toggle(); });
        body.appendChild(tr);
        if (view.openAll || opened[key]) { delete opened[key]; toggle(); }
      });
      count.textContent = n + " of " + total + " matching frames (" + all.length + " in all)";
      more.hidden = total <= n;
    }
    filter.addEventListener("input", function () { shown = LIMIT; view.openAll = false; render(); });
    more.addEventListener("click", function () { shown += LIMIT; render(); });
    view.set = function (rs) { all = rs; render(); };
    return view;
  }

  // slashFocus makes "/" focus the filter, when there is one and no
  // other input has the keyboard.
  function slashFocus() {
    document.addEventListener("keydown", function (ev) {
      var f = document.getElementById("filter");
      if (f && ev.key === "/" && document.activeElement !== f && document.activeElement.tagName !== "INPUT") { ev.preventDefault(); f.focus(); }
    });
  }

  return {el: el, fmtMs: fmtMs, fmtBytes: fmtBytes, rows: rows, sessionLine: sessionLine, finding: finding,
    jsonNode: jsonNode, frames: frames, slashFocus: slashFocus};
})();
