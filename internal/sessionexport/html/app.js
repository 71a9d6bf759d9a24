// mcpward session report. Data comes from the JSON export embedded in
// the JSON data element (id mcpward-data); every string from
// the log is put in the page with textContent, never as markup. The
// stream, its filter and the JSON view are mwStream's (stream.js), which
// mcpward serve's session page shares.
(function () {
  "use strict";
  var doc = JSON.parse(document.getElementById("mcpward-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var S = mwStream, el = S.el, fmtMs = S.fmtMs, fmtBytes = S.fmtBytes;

  // Header.
  var sessions = doc.sessions || [];
  $("title").textContent = "mcpward session report: " + (doc.source || "");
  var meta = $("meta");
  sessions.forEach(function (s) { meta.appendChild(S.sessionLine(s)); });
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

  // Findings and problems. Without --check the traffic rules did not run:
  // no Findings section, only the log's own problems if it has any.
  var fbox = $("findings"), fs = doc.findings || [], ps = doc.problems || [];
  if (doc.checked || fs.length > 0 || ps.length > 0) {
    $("findings-title").hidden = false;
    if (!doc.checked && fs.length === 0) $("findings-title").textContent = "Problems";
    fbox.hidden = false;
    if (doc.checked && fs.length === 0) fbox.appendChild(el("div", "dim", "No traffic findings."));
    fs.forEach(function (f) { fbox.appendChild(S.finding(f)); });
    ps.forEach(function (p) { fbox.appendChild(el("div", "note", p)); });
  }

  // The stream. The fragment may carry a filter (#filter=tool:x) and
  // open=1 to expand every shown row, so a report link can point at what
  // matters.
  var query = "", openAll = false;
  try {
    var hp = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (hp.get("filter") !== null) query = hp.get("filter");
    openAll = hp.get("open") === "1";
  } catch (e) { /* no fragment support: plain view */ }
  var view = S.frames($("frames"), query);
  view.openAll = openAll;
  view.set(S.rows(doc));
  S.slashFocus();
  document.body.setAttribute("data-ready", "1");
})();
