// mcpward serve: the pages of the local web app. Data comes from the
// app's own JSON API; every string from a log, a snapshot or a result is
// put in the page with textContent, never as markup. The session view is
// the HTML session report's stream (mwStream, stream.js) with its filter
// language (mwFilter, filter.js): the report's own files, served as
// assets.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var main = $("main");
  var S = mwStream, el = S.el;
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
          box.appendChild(table(["session", "id", "transport", "server", "client", "frames", "requests", "errors", "last", ""],
            ss.map(function (s) {
              var state = el("span");
              if (s.live) state.appendChild(el("span", "badge live", "live"));
              else if (s.exited) state.appendChild(el("span", "badge", "exited"));
              if (s.missing) state.appendChild(el("span", "badge bad", s.missing + " missing"));
              return row([link("#/session/" + enc(s.id), s.label || s.id), s.id, s.transport, s.server, s.client,
                s.frames, s.requests, s.errors || "\u00b7", fmtTime(s.last), state], "session");
            }), "sessions-table"));
        }
        ready(g);
      }).catch(function (err) { failed(g, err); });
    }
    current.onRecords = throttled(load, 500);
    load();
  }

  // One session: the session report's stream, filter and findings.
  function sessionPage(id) {
    var g = page("Session " + id);
    var meta = el("div"); meta.id = "meta";
    var findings = el("div"); findings.id = "findings";
    var frames = el("div"); frames.id = "frames";
    main.appendChild(meta);
    main.appendChild(el("h2", null, "Findings"));
    main.appendChild(findings);
    main.appendChild(el("h2", null, "Frames"));
    main.appendChild(frames);
    var view = S.frames(frames, "");
    function load() {
      return api("/api/sessions/" + enc(id)).then(function (doc) {
        if (g !== gen) return;
        clear(meta); clear(findings);
        (doc.sessions || []).forEach(function (s) { meta.appendChild(S.sessionLine(s)); });
        var fs = doc.findings || [];
        if (fs.length === 0) findings.appendChild(el("div", "dim", "No traffic findings."));
        fs.forEach(function (f) { findings.appendChild(S.finding(f)); });
        (doc.problems || []).forEach(function (p) { findings.appendChild(el("div", "note", p)); });
        view.set(S.rows(doc));
        ready(g);
      }).catch(function (err) { failed(g, err); });
    }
    current.onRecords = (function () {
      var reload = throttled(load, 1000);
      return function (d) { if ((d.sessions || []).indexOf(id) >= 0) reload(); };
    })();
    load();
  }
  S.slashFocus();

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
  // report shows the Result as the CLI command prints it, and as
  // Markdown (--format md) to paste into a review.
  function report(command, d) {
    main.appendChild(el("h2", null, "Report (as " + command + " prints it)"));
    var pre = el("pre", "report", d.text); pre.id = "report";
    main.appendChild(pre);
    var md = el("details"); md.id = "markdown";
    md.appendChild(el("summary", null, "Markdown (--format md)"));
    md.appendChild(el("pre", "report", d.markdown || ""));
    main.appendChild(md);
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
      main.appendChild(exitLine(d));
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
      report("`mcpward diff`", d);
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
  // assertionTable is a result's or a check's assertions with verdicts.
  function assertionTable(as) {
    return table(["rule", "verdict", "detail"], as.map(function (a) {
      return row([a.id, el("span", "v-" + a.verdict, a.verdict), a.detail], "assertion");
    }), "assertions");
  }
  // exitLine is a Result's verdict and what its exit code means.
  function exitLine(d) {
    var r = d.result;
    var p = el("p", "verdict exit-" + r.exitCode); p.id = "exit";
    p.appendChild(el("strong", null, d.verdict || ("exit " + r.exitCode)));
    p.appendChild(document.createTextNode(" \u2014 exit " + r.exitCode + ": " + (d.exitMeaning || "")));
    return p;
  }
  // findingList is a Result's findings: surface changes by tier, then
  // rule findings, each coloured by its class (an info finding is grey:
  // it never fails anything).
  function findingList(r) {
    var box = el("div"); box.id = "findings";
    var fs = r.findings || [], vs = r.violations || [];
    TIERS.forEach(function (t) {
      fs.filter(function (f) { return f.tier === t; }).forEach(function (f) {
        var li = el("div", "finding tier-" + t); li.setAttribute("data-tier", t);
        li.appendChild(el("span", "level", t + " "));
        li.appendChild(el("span", "rule", f.ruleId));
        li.appendChild(document.createTextNode(" " + (f.subject ? f.subject + ": " : "") + (f.message || "")));
        box.appendChild(li);
      });
    });
    ["violation", "risky", "info"].forEach(function (cls) {
      vs.filter(function (v) { return (v.class || "info") === cls; }).forEach(function (v) {
        var li = el("div", "finding class-" + cls); li.setAttribute("data-class", cls);
        li.appendChild(el("span", "level", (v.level || cls) + " "));
        li.appendChild(el("span", "rule", v.ruleId));
        li.appendChild(document.createTextNode(" " + (v.subject ? v.subject + ": " : "") + (v.message || "")));
        box.appendChild(li);
      });
    });
    if (fs.length + vs.length === 0) box.appendChild(el("p", "dim", "No findings."));
    return box;
  }
  // verdictCell is one cell of the compat grid, coloured by its verdict.
  function verdictCell(v) {
    var td = el("td", "cell v-" + (v || "none"), v);
    td.setAttribute("data-verdict", v);
    return td;
  }
  function resultPage(name) {
    var g = page("Result " + name.replace(/^\d+-/, ""));
    api("/api/results/" + enc(name)).then(function (d) {
      if (g !== gen) return;
      var r = d.result, c = r.compat;
      main.appendChild(el("p", "dim", r.command + (c && c.server ? " \u00b7 " + c.server : "") + (c && c.era ? " \u00b7 era " + c.era : "")));
      main.appendChild(exitLine(d));
      if (d.summary) main.appendChild(el("p", "dim", d.summary));
      if (c && c.verdicts && Object.keys(c.verdicts).length > 0) {
        main.appendChild(el("h2", null, "Verdicts (tool \u00d7 profile)"));
        var profiles = c.profiles || [];
        var tools = Object.keys(c.verdicts).sort();
        main.appendChild(table(["tool"].concat(profiles), tools.map(function (tool) {
          var tr = el("tr", "grid-row");
          tr.appendChild(el("td", null, tool));
          profiles.forEach(function (p) { tr.appendChild(verdictCell(c.verdicts[tool][p] || "")); });
          return tr;
        }), "grid"));
      }
      main.appendChild(el("h2", null, "Findings"));
      main.appendChild(findingList(r));
      if (c && c.assertions && c.assertions.length) {
        main.appendChild(el("h2", null, "Assertions"));
        main.appendChild(assertionTable(c.assertions));
      }
      report("`mcpward report`", d);
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
          out.appendChild(assertionTable(r.assertions));
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
