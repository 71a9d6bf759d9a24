// Filter language of mcpward's session views. A copy of the Go package
// internal/filter (Parse and Query.Match); a test runs both over the same
// cases. Keep them in step.
var mwFilter = (function () {
  "use strict";
  var KEYS = {tool: "tool", t: "tool", method: "method", m: "method", id: "id", task: "task",
    dir: "dir", d: "dir", kind: "kind", k: "kind", status: "status", s: "status"};
  var DIRS = {c2s: "c2s", client: "c2s", "in": "c2s", req: "c2s", request: "c2s", "->": "c2s", "\u2192": "c2s",
    s2c: "s2c", server: "s2c", out: "s2c", resp: "s2c", response: "s2c", "<-": "s2c", "\u2190": "s2c",
    stderr: "stderr", err: "stderr", meta: "meta"};
  var KINDS = {req: "request", request: "request", resp: "response", response: "response",
    notify: "notification", notification: "notification", ntf: "notification", stderr: "stderr",
    invalid: "invalid", corrupt: "invalid", bad: "invalid", transport: "transport", http: "transport", meta: "meta"};
  var STATUSES = {bad: "bad", invalid: "bad", warn: "warn", warning: "warn", mismatch: "mismatch",
    err: "error", error: "error", fail: "error", failed: "error",
    cancelled: "cancelled", canceled: "cancelled", cancel: "cancelled", call_cancelled: "cancelled", "call-cancelled": "cancelled",
    late: "late_result", late_result: "late_result", "late-result": "late_result",
    pending: "pending", pend: "pending", inflight: "pending", ok: "ok", success: "ok",
    streaming: "streaming", superseded: "superseded"};
  function own(m, k) { return Object.prototype.hasOwnProperty.call(m, k) ? m[k] : ""; }
  function tokens(s) {
    var out = [], cur = "", quoted = false;
    for (var i = 0; i < s.length; i++) {
      var c = s[i];
      if (c === '"') { quoted = !quoted; cur += c; }
      else if ((c === " " || c === "\t" || c === "\n" || c === "\r") && !quoted) {
        if (cur.length > 0) { out.push(cur); cur = ""; }
      } else { cur += c; }
    }
    if (cur.length > 0) out.push(cur);
    return out;
  }
  function unquote(s) {
    if (s.length >= 2 && s[0] === '"' && s[s.length - 1] === '"') return s.slice(1, -1);
    return s;
  }
  function parseTerm(tok) {
    var low = tok.toLowerCase();
    var i = tok.indexOf(":");
    var canon = i >= 0 ? own(KEYS, tok.slice(0, i).toLowerCase()) : "";
    var v = i >= 0 ? tok.slice(i + 1) : "";
    if (i < 0 || canon === "" || v === "") return {key: "", value: unquote(tok).toLowerCase(), raw: low, num: 0};
    var t = {key: canon, value: "", raw: low, num: 0};
    if (canon === "id") { t.value = v.toLowerCase(); return t; }
    t.value = unquote(v).toLowerCase();
    if (canon === "status" && /^[+-]?[0-9]+$/.test(t.value)) {
      var n = parseInt(t.value, 10);
      if (n > 0 && n <= 2147483647) t.num = n;
    }
    return t;
  }
  function parse(s) { return tokens(s).map(parseTerm); }
  function contains(s, sub) { return String(s || "").toLowerCase().indexOf(sub) >= 0; }
  function idMatch(id, v) {
    if (!id) return false;
    id = id.toLowerCase();
    if (id === v) return true;
    return id.length >= 2 && id[0] === '"' && id[id.length - 1] === '"' && id.slice(1, -1) === v;
  }
  function status(t, r) {
    if (t.num > 0) return (r.httpStatus || 0) === t.num;
    switch (own(STATUSES, t.value)) {
      case "bad": return r.kind === "invalid";
      case "warn": return !!r.warn;
      case "mismatch": return !!r.mismatch;
      case "error": return r.status === "error" || (r.httpStatus || 0) >= 400;
      case "cancelled": return r.status === "cancelled" || r.taskStatus === "cancelled";
      case "late_result": return r.status === "late_result";
      case "pending": return r.status === "pending";
      case "ok": return r.status === "ok";
      case "streaming": return r.status === "streaming";
      case "superseded": return r.status === "superseded";
    }
    return false;
  }
  function matchTerm(t, r) {
    switch (t.key) {
      case "": return contains(r.method, t.value) || contains(r.id, t.value) || contains(r.tool, t.value) ||
        contains(r.task, t.value) || contains(r.text, t.value);
      case "tool": return contains(r.tool, t.value);
      case "method": return contains(r.method, t.value);
      case "id": return idMatch(r.id, t.value) || idMatch(r.rootId, t.value);
      case "task": return !!r.task && r.task.toLowerCase() === t.value;
      case "dir": var d = own(DIRS, t.value); return d !== "" && d === r.dir;
      case "kind": var k = own(KINDS, t.value); return k !== "" && k === r.kind;
      case "status": return status(t, r);
    }
    return false;
  }
  function match(q, r) {
    for (var i = 0; i < q.length; i++) if (!matchTerm(q[i], r)) return false;
    return true;
  }
  return {parse: parse, match: match};
})();
if (typeof module !== "undefined") module.exports = mwFilter;
