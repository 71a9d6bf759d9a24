// mcpward serve: the pages of the local web app. Data comes from the
// app's own JSON API; every string from a log, a snapshot or a result is
// put in the page with textContent, never as markup. The session view
// follows the HTML session report (internal/export/html/app.js) and its
// filter language (filter.js, the report's own copy).
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var main = $("main");
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function link(href, text, cls) { var a = el("a", cls, text); a.href = href; return a; }
  function clear(n) { while (n.firstChild) n.removeChild(n.firstChild); }
  function enc(s) { return encodeURIComponent(s); }
  function api(path, opts) {
    return fetch(path, opts).then(function (r) {
      return r.json().catch(function () { return null; }).then(function (body) {
        if (!r.ok) {
          var e = new Error((body && body.error && body.error.message) || ("HTTP " + r.status));
          e.status = r.status;
          e.code = body && body.error && body.error.code;
          throw e;
        }
        return body;
      });
    });
  }
  function fmtMs(ms) {
    if (!ms) return "-";
    if (ms < 1) return Math.round(ms * 1000) + "\u00b5s";
    if (ms < 1000) return ms.toFixed(1) + "ms";
    return (ms / 1000).toFixed(2) + "s";
  }
  function fmtTime(t) {
    if (!t || t.indexOf("0001-") === 0) return "";
    return t.replace("T", " ").replace(/\.\d+/, "").replace(/Z$/, " UTC");
  }
  function table(head, rows, id) {
    var t = el("table");
    if (id) t.id = id;
    var tr = el("tr");
    head.forEach(function (h) { tr.appendChild(el("th", null, h)); });
    var th = el("thead"); th.appendChild(tr); t.appendChild(th);
    var tb = el("tbody");
    rows.forEach(function (r) { tb.appendChild(r); });
    t.appendChild(tb);
    return t;
  }
  function row(cells, cls) {
    var tr = el("tr", cls);
    cells.forEach(function (c) {
      var td = el("td");
      if (c instanceof Node) td.appendChild(c); else td.textContent = c === undefined || c === null ? "" : String(c);
      tr.appendChild(td);
    });
    return tr;
  }
  function throttled(fn, ms) {
    var busy = false, again = false;
    function run() {
      if (busy) { again = true; return; }
      busy = true;
      Promise.resolve().then(fn).catch(function () {}).then(function () {
        setTimeout(function () { busy = false; if (again) { again = false; run(); } }, ms);
      });
    }
    return run;
  }

  // Routing: #/sessions, #/session/ID, #/snapshots, #/snapshot/NAME,
  // #/diff/OLD/NEW, #/results, #/result/NAME, #/check.
  var info = null, gen = 0, current = {};
  function page(title) {
    gen++;
    current = {};
    document.title = "mcpward \u00b7 " + title;
    clear(main);
    main.appendChild(el("h1", null, title));
    return gen;
  }
  function failed(g, err) {
    if (g !== gen) return;
    var box = el("div", "error", err.message || String(err));
    box.id = "error";
    main.appendChild(box);
    main.setAttribute("data-ready", "1");
  }
  function ready(g) { if (g === gen) main.setAttribute("data-ready", "1"); }
  function route() {
    main.removeAttribute("data-ready");
    var h = location.hash.replace(/^#\/?/, "");
    var parts = h.split("/").map(function (p) { try { return decodeURIComponent(p); } catch (e) { return p; } });
    var def = info.public ? (info.check ? "check" : "board") : "sessions";
    var name = parts[0] || def;
    document.querySelectorAll("#nav a").forEach(function (a) {
      a.className = a.getAttribute("data-page") === name.replace(/^(session|snapshot|result|diff)$/, "$1s").replace("diffs", "snapshots") ? "on" : "";
    });
    switch (name) {
      case "sessions": if (!info.public) return sessionsPage();
        break;
      case "session": if (!info.public) return sessionPage(parts[1] || "");
        break;
      case "snapshots": if (!info.public) return snapshotsPage();
        break;
      case "snapshot": if (!info.public) return snapshotPage(parts[1] || "");
        break;
      case "diff": if (!info.public) return diffPage(parts[1] || "", parts[2] || "");
        break;
      case "results": if (!info.public) return resultsPage();
        break;
      case "result": if (!info.public) return resultPage(parts[1] || "");
        break;
      case "check": if (info.check) return checkPage();
        break;
      case "board": var g = page("Board");
        main.appendChild(link("/board", "Open the board"));
        return ready(g);
    }
    var g2 = page("Not found");
    main.appendChild(el("p", null, "There is no page " + h + " here."));
    ready(g2);
  }

  // Live updates: the hub's records, announced by Server-Sent Events.
  function startEvents() {
    if (!info.hub || typeof EventSource === "undefined") return;
    var es = new EventSource("/api/events");
    var live = $("live");
    es.addEventListener("hello", function () {
      live.textContent = info.hub === "socket" ? "\u25cf live" : "\u25cf live (session logs only: another hub owns the socket)";
      document.body.setAttribute("data-live", "1");
    });
    es.addEventListener("records", function (e) {
      var d;
      try { d = JSON.parse(e.data); } catch (err) { return; }
      if (current.onRecords) current.onRecords(d);
    });
    es.addEventListener("error", function () { live.textContent = "\u25cb reconnecting"; });
  }

  // Sessions list.
  function sessionsPage() {
    var g = page("Sessions");
    var box = el("div");
    box.id = "sessions";
    main.appendChild(box);
    function load() {
      return api("/api/sessions").then(function (d) {
        if (g !== gen) return;
        clear(box);
        var ss = d.sessions || [];
        if (ss.length === 0) {
          box.appendChild(el("p", "dim", "No sessions yet. Run a server through `mcpward proxy` (or `mcpward -- <command>`): it shows up here as it speaks."));
        } else {
          box.appendChild(table(["session", "id", "transport", "server", "client", "records", "requests", "errors", "last", ""],
            ss.map(function (s) {
              var state = el("span");
              if (s.live) state.appendChild(el("span", "badge live", "live"));
              else if (s.exited) state.appendChild(el("span", "badge", "exited"));
              if (s.missing) state.appendChild(el("span", "badge bad", s.missing + " missing"));
              return row([link("#/session/" + enc(s.id), s.label || s.id), s.id, s.transport, s.server, s.client,
                s.records, s.requests, s.errors || "\u00b7", fmtTime(s.last), state], "session");
            }), "sessions-table"));
        }
        ready(g);
      }).catch(function (err) { failed(g, err); });
    }
    current.onRecords = throttled(load, 500);
    load();
  }

  // One session: the session report's stream, filter and findings.
  var ARROWS = {c2s: "\u2192", s2c: "\u2190", stderr: "!", meta: "\u00b7"};
  var MISMATCH = /^(transport\.header_|xhdr\.param_header_)/;
  function frameText(f) {
    if (f.frame !== undefined) return JSON.stringify(f.frame);
    if (f.frameText !== undefined) return f.frameText;
    if (f.info !== undefined) return JSON.stringify(f.info);
    return f.error || "";
  }
  function streamRows(doc) {
    var rows = [];
    (doc.entries || []).forEach(function (e) {
      if (e.type === "call") (e.frames || []).forEach(function (f) { rows.push({f: f, call: e}); });
      else rows.push({f: e, call: null});
    });
    rows.sort(function (a, b) {
      if (a.f.seq !== b.f.seq) return a.f.seq - b.f.seq;
      return (a.f.batchIndex || 0) - (b.f.batchIndex || 0);
    });
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
    return rows;
  }
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
    if (depth < 2) { d.open = true; build(); }
    return d;
  }
  function detail(r) {
    var box = el("div", "detail"), f = r.f, hdr = [];
    if (f.httpMethod) hdr.push(f.httpMethod + " " + (f.path || ""));
    if (f.httpStatus) hdr.push("HTTP " + f.httpStatus);
    if (r.call) hdr.push("call " + r.call.id + " " + r.call.state + " " + fmtMs(r.call.durationMs));
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
  function statusCell(r) {
    var f = r.f;
    if ((f.kind === "response" || f.kind === "request") && r.call) return r.call.state;
    if (f.httpStatus) return "http " + f.httpStatus;
    if (f.kind === "invalid") return "bad";
    return "";
  }
  function sessionPage(id) {
    var g = page("Session " + id);
    var meta = el("div"); meta.id = "meta";
    var findings = el("div"); findings.id = "findings";
    var filter = el("input"); filter.id = "filter"; filter.type = "search"; filter.autocomplete = "off"; filter.spellcheck = false;
    filter.placeholder = "filter: tool:NAME method:M id:7 dir:c2s kind:request status:error|404 or text";
    filter.setAttribute("aria-label", "filter");
    var help = el("div", "help dim", "Terms are ANDed. tool:/t: method:/m: (substrings), id: (with or without quotes), task:, dir:/d: c2s|s2c|stderr, kind:/k: request|response|notification|stderr|invalid|transport|meta, status:/s: ok|error|pending|cancelled|late|warn|bad|mismatch|streaming|superseded or an HTTP code. Press / to focus. Click a row to open it.");
    var count = el("div", "dim"); count.id = "count";
    var body = el("tbody"); body.id = "rows";
    var t = el("table"); t.id = "stream";
    var hr = el("tr");
    ["time", "", "kind", "method", "id", "status", "duration"].forEach(function (x) { hr.appendChild(el("th", null, x)); });
    var th = el("thead"); th.appendChild(hr); t.appendChild(th); t.appendChild(body);
    var more = el("button", null, "show more"); more.hidden = true;
    main.appendChild(meta);
    main.appendChild(el("h2", null, "Findings"));
    main.appendChild(findings);
    main.appendChild(el("h2", null, "Frames"));
    [filter, help, count, t, more].forEach(function (n) { main.appendChild(n); });
    var LIMIT = 2000, shown = LIMIT, rows = [], opened = {};
    function render() {
      var q = mwFilter.parse(filter.value);
      clear(body);
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
        var key = f.seq + "/" + (f.batchIndex || 0), open = null;
        function toggle() {
          if (open) { body.removeChild(open); open = null; delete opened[key]; return; }
          open = el("tr", "open");
          var td = el("td"); td.colSpan = 7;
          td.appendChild(detail(r));
          open.appendChild(td);
          body.insertBefore(open, tr.nextSibling);
          opened[key] = true;
        }
        tr.addEventListener("click", toggle);
        tr.addEventListener("keydown", function (ev) { if (ev.key === "Enter") toggle(); });
        body.appendChild(tr);
        if (opened[key]) { delete opened[key]; toggle(); }
      });
      count.textContent = n + " of " + total + " matching frames (" + rows.length + " in all)";
      more.hidden = total <= n;
    }
    function load() {
      return api("/api/sessions/" + enc(id)).then(function (doc) {
        if (g !== gen) return;
        clear(meta); clear(findings);
        (doc.sessions || []).forEach(function (s) {
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
        var fs = doc.findings || [];
        if (fs.length === 0) findings.appendChild(el("div", "dim", "No traffic findings."));
        fs.forEach(function (f) {
          var d = el("div", "finding");
          d.appendChild(el("span", "rule", f.ruleId || ""));
          d.appendChild(el("span", "dim", " seq " + (f.seq || "-") + " "));
          d.appendChild(el("span", null, f.message || ""));
          findings.appendChild(d);
        });
        (doc.problems || []).forEach(function (p) { findings.appendChild(el("div", "note", p)); });
        rows = streamRows(doc);
        render();
        ready(g);
      }).catch(function (err) { failed(g, err); });
    }
    filter.addEventListener("input", function () { shown = LIMIT; render(); });
    more.addEventListener("click", function () { shown += LIMIT; render(); });
    current.onRecords = (function () {
      var reload = throttled(load, 1000);
      return function (d) { if ((d.sessions || []).indexOf(id) >= 0) reload(); };
    })();
    load();
  }
  document.addEventListener("keydown", function (ev) {
    var f = $("filter");
    if (f && ev.key === "/" && document.activeElement !== f && document.activeElement.tagName !== "INPUT") { ev.preventDefault(); f.focus(); }
  });

  // Snapshots of the repository, and a diff of any two.
  function snapshotsPage() {
    var g = page("Snapshots");
    api("/api/snapshots").then(function (d) {
      if (g !== gen) return;
      main.appendChild(el("p", "dim", "Snapshot directory: " + (d.dir || "(none)")));
      var ss = d.snapshots || [];
      if (ss.length === 0) {
        main.appendChild(el("p", "dim", "No snapshots here yet: `mcpward record` writes one per target."));
        return ready(g);
      }
      function radio(name, value, checked) {
        var r = el("input"); r.type = "radio"; r.name = name; r.value = value; r.checked = checked;
        r.setAttribute("aria-label", name + " " + value);
        return r;
      }
      main.appendChild(table(["old", "new", "snapshot", "server", "recorded", "status", "tools", "resources", "prompts", "digest"],
        ss.map(function (s, i) {
          if (s.error) return row(["", "", s.name, el("span", "bad", s.error)], "snapshot");
          return row([radio("old", s.name, i === 0), radio("new", s.name, i === 1), link("#/snapshot/" + enc(s.name), s.name), s.server,
            fmtTime(s.recordedAt), s.status, s.tools, s.resources, s.prompts, (s.surfaceDigest || "").slice(0, 19)], "snapshot");
        }), "snapshots-table"));
      var btn = el("button", null, "Diff old \u2192 new"); btn.id = "diff";
      btn.addEventListener("click", function () {
        var o = document.querySelector("input[name=old]:checked"), n = document.querySelector("input[name=new]:checked");
        if (o && n) location.hash = "#/diff/" + enc(o.value) + "/" + enc(n.value);
      });
      var p = el("p"); p.appendChild(btn); main.appendChild(p);
      ready(g);
    }).catch(function (err) { failed(g, err); });
  }
  function entityTable(title, list, id) {
    main.appendChild(el("h2", null, title + " (" + list.length + ")"));
    if (list.length === 0) return;
    main.appendChild(table(["name", "title", "description", "hints"], list.map(function (e) {
      return row([e.name, e.title, e.description, (e.labels || []).join(", ")], "entity");
    }), id));
  }
  function snapshotPage(name) {
    var g = page("Snapshot " + name);
    api("/api/snapshots/" + enc(name)).then(function (d) {
      if (g !== gen) return;
      var s = d.snapshot;
      var dl = el("div", "dim");
      dl.id = "snapshot-meta";
      dl.textContent = [s.server, "recorded " + fmtTime(s.recordedAt), s.status, d.era, d.protocolVersion, s.surfaceDigest].filter(Boolean).join(" \u00b7 ");
      main.appendChild(dl);
      (d.problems || []).forEach(function (p) { main.appendChild(el("div", "note", p)); });
      entityTable("Tools", d.tools || [], "tools");
      entityTable("Resources", d.resources || [], "resources");
      entityTable("Resource templates", d.resourceTemplates || [], "templates");
      entityTable("Prompts", d.prompts || [], "prompts");
      ready(g);
    }).catch(function (err) { failed(g, err); });
  }
  var TIERS = ["breaking", "risky", "compatible", "cosmetic"];
  // The same Result as Markdown (--format md), to paste into a review.
  function markdown(text) {
    var d = el("details"); d.id = "markdown";
    d.appendChild(el("summary", null, "Markdown (--format md)"));
    d.appendChild(el("pre", "report", text || ""));
    return d;
  }
  function diffPage(oldName, newName) {
    var g = page("Diff");
    main.appendChild(el("p", "dim", oldName + " \u2192 " + newName));
    api("/api/diff?old=" + enc(oldName) + "&new=" + enc(newName)).then(function (d) {
      if (g !== gen) return;
      var r = d.result, sum = r.summary || {};
      var verdict = el("p", r.gate && r.gate.failed ? "bad" : "good");
      verdict.id = "verdict";
      verdict.textContent = TIERS.map(function (t) { return (sum[t] || 0) + " " + t; }).join(", ") +
        " \u2014 gate " + (r.gate && r.gate.failed ? "failed" : "passed") + " (fail on " + ((r.gate && r.gate.failOn) || "risky") + "), exit " + r.exitCode;
      main.appendChild(verdict);
      var groups = el("div"); groups.id = "groups";
      TIERS.forEach(function (t) {
        var fs = (r.findings || []).filter(function (f) { return f.tier === t; });
        if (fs.length === 0) return;
        var sec = el("section", "group"); sec.setAttribute("data-tier", t);
        sec.appendChild(el("h2", "tier tier-" + t, t + " (" + fs.length + ")"));
        var ul = el("ul");
        fs.forEach(function (f) {
          var li = el("li");
          li.appendChild(el("span", "rule", f.ruleId));
          li.appendChild(document.createTextNode(" " + (f.subject ? f.subject + ": " : "") + f.message));
          ul.appendChild(li);
        });
        sec.appendChild(ul);
        groups.appendChild(sec);
      });
      if ((r.findings || []).length === 0) groups.appendChild(el("p", "dim", "No differences."));
      main.appendChild(groups);
      main.appendChild(el("h2", null, "Report (as `mcpward diff` prints it)"));
      var pre = el("pre", "report", d.text); pre.id = "report";
      main.appendChild(pre);
      main.appendChild(markdown(d.markdown));
      ready(g);
    }).catch(function (err) { failed(g, err); });
  }

  // Saved results (compat --json and others) with the verdict grid.
  function resultsPage() {
    var g = page("Results");
    api("/api/results").then(function (d) {
      if (g !== gen) return;
      main.appendChild(el("p", "dim", "Saved results (mcpward compat --json > FILE.json, check --json …) in: " + (d.dirs || []).join(", ")));
      var rs = d.results || [];
      if (rs.length === 0) {
        main.appendChild(el("p", "dim", "No saved results here: `mcpward compat TARGET --json > compat.json` writes one."));
        return ready(g);
      }
      main.appendChild(table(["result", "command", "target", "server", "exit", "grid"], rs.map(function (r) {
        return row([link("#/result/" + enc(r.name), r.name.replace(/^\d+-/, "")), r.command, r.target, r.server, r.exitCode, r.grid ? "yes" : ""], "result");
      }), "results-table"));
      ready(g);
    }).catch(function (err) { failed(g, err); });
  }
  function resultPage(name) {
    var g = page("Result " + name.replace(/^\d+-/, ""));
    api("/api/results/" + enc(name)).then(function (d) {
      if (g !== gen) return;
      var r = d.result, c = r.compat;
      main.appendChild(el("p", "dim", r.command + " \u00b7 exit " + r.exitCode + (c && c.server ? " \u00b7 " + c.server : "") + (c && c.era ? " \u00b7 era " + c.era : "")));
      if (c && c.verdicts && Object.keys(c.verdicts).length > 0) {
        main.appendChild(el("h2", null, "Verdicts (tool \u00d7 profile)"));
        var profiles = c.profiles || [];
        var tools = Object.keys(c.verdicts).sort();
        main.appendChild(table(["tool"].concat(profiles), tools.map(function (tool) {
          return row([tool].concat(profiles.map(function (p) {
            var v = c.verdicts[tool][p] || "";
            return el("span", "v-" + v, v);
          })), "grid-row");
        }), "grid"));
      }
      if (c && c.assertions && c.assertions.length) {
        main.appendChild(el("h2", null, "Assertions"));
        main.appendChild(table(["rule", "verdict", "detail"], c.assertions.map(function (a) {
          return row([a.id, el("span", "v-" + a.verdict, a.verdict), a.detail], "assertion");
        }), "assertions"));
      }
      main.appendChild(el("h2", null, "Report (as `mcpward report` prints it)"));
      var pre = el("pre", "report", d.text); pre.id = "report";
      main.appendChild(pre);
      main.appendChild(markdown(d.markdown));
      ready(g);
    }).catch(function (err) { failed(g, err); });
  }

  // The live check (serve --public).
  function statusLabel(r) {
    switch (r.status) {
      case "ok": return r.era ? "checked \u2014 era: " + r.era : "checked";
      case "auth_required": return "not tested (auth required)";
      case "refused": return "refused: non-public address";
    }
    return "not tested (unreachable)";
  }
  function checkPage() {
    var g = page("Check a public MCP server");
    main.appendChild(el("p", "dim", "Read-only probes of the board (lists, discovery and the transport rules; never tools/call, never credentials) against a public https:// URL. Private, loopback and link-local addresses are refused."));
    var form = el("form"); form.id = "check-form"; form.method = "post"; form.action = "/api/check";
    var input = el("input"); input.id = "url"; input.name = "url"; input.type = "url"; input.required = true;
    input.placeholder = "https://mcp.example.com/mcp"; input.setAttribute("aria-label", "server URL");
    var btn = el("button", null, "Check"); btn.type = "submit";
    form.appendChild(input); form.appendChild(document.createTextNode(" ")); form.appendChild(btn);
    main.appendChild(form);
    var out = el("div"); out.id = "check-result";
    main.appendChild(out);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clear(out);
      btn.disabled = true;
      main.removeAttribute("data-ready");
      out.appendChild(el("p", "dim", "Checking\u2026"));
      api("/api/check", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({url: input.value})}).then(function (d) {
        clear(out);
        var r = d.row;
        out.appendChild(el("h2", null, r.server));
        out.appendChild(el("p", null, statusLabel(r) + (d.cached ? " (answered from a check made in the last minutes)" : "")));
        if (r.statusDetail) out.appendChild(el("p", "dim", r.statusDetail));
        if (r.status === "ok") {
          out.appendChild(el("p", null, "versions: " + ((r.supportedVersions || []).join(", ") || "\u2014")));
          out.appendChild(el("p", r.mustViolationCount ? "bad" : "good", r.mustViolationCount ? r.mustViolationCount + " MUST-level finding(s)" : "no MUST-level findings"));
        }
        if (r.assertions && r.assertions.length) {
          out.appendChild(table(["rule", "verdict", "detail"], r.assertions.map(function (a) {
            return row([a.id, el("span", "v-" + a.verdict, a.verdict), a.detail], "assertion");
          }), "assertions"));
        }
        if (r.findings && r.findings.length) {
          var ul = el("ul");
          r.findings.forEach(function (f) { ul.appendChild(el("li", null, f.ruleId + " (" + f.subject + "): " + f.message)); });
          out.appendChild(ul);
        }
        if (r.command) { out.appendChild(el("p", null, "Reproduce: ")).appendChild(el("code", null, r.command)); }
      }).catch(function (err) {
        clear(out);
        var box = el("div", "error", err.message + (err.status ? " (HTTP " + err.status + ")" : ""));
        box.id = "error";
        out.appendChild(box);
      }).then(function () { btn.disabled = false; main.setAttribute("data-ready", "1"); });
    });
    ready(g);
  }

  api("/api/info").then(function (i) {
    info = i;
    var nav = $("nav");
    var items = [];
    if (!info.public) items.push(["sessions", "Sessions"], ["snapshots", "Snapshots"], ["results", "Results"]);
    if (info.check) items.push(["check", "Check"]);
    items.forEach(function (it) { var a = link("#/" + it[0], it[1]); a.setAttribute("data-page", it[0]); nav.appendChild(a); });
    if (info.board) { var b = link("/board", "Board"); b.setAttribute("data-page", "board"); nav.appendChild(b); }
    $("foot").textContent = "mcpward " + info.version + (info.public ? " \u00b7 public check" : " \u00b7 read-only, this machine only");
    window.addEventListener("hashchange", route);
    route();
    startEvents();
  }).catch(function (err) {
    clear(main);
    main.appendChild(el("div", "error", "mcpward serve does not answer: " + err.message));
  });
})();
