"""The report's inline style sheet and script (no external assets: the report is one file).

The script reads the cases from a JSON block (``#summscore-data``) and sorts, filters and pages
them in the browser. Each case's card is HTML rendered and escaped by Python (report.py); the
script only chooses which cards to show, so no text from the data is ever parsed as markup here.
"""

from __future__ import annotations

__all__ = ["CSS", "SCRIPT"]

CSS = """
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:1.5rem auto;max-width:70rem;
padding:0 .8rem;color:#1d2330;background:#fafbfc;overflow-wrap:anywhere}
h1{font-size:1.4rem;margin-bottom:.2rem}h2{font-size:1.1rem;margin:1.6rem 0 .5rem}
.meta{color:#5b6475;font-size:.9rem}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(8.5rem,1fr));gap:.5rem;margin:1rem 0}
.figure{background:#fff;border:1px solid #e3e6ec;border-radius:8px;padding:.45rem .7rem}
.figure strong{display:block;font-size:1.15rem}.figure span{color:#5b6475;font-size:.8rem}
.tables{display:flex;flex-wrap:wrap;gap:1rem 2rem;align-items:flex-start}
.scroll{max-width:100%;overflow-x:auto}
table.stats{border-collapse:collapse;font-size:.9rem}
table.stats td,table.stats th{padding:.15rem .7rem;border-bottom:1px solid #e3e6ec;text-align:right}
table.stats th{text-align:left;font-weight:500;color:#3a4252}table.causes td:last-child{text-align:left}
.hist{width:100%;max-width:520px;height:auto;display:block}
.controls{display:flex;flex-wrap:wrap;gap:.5rem .8rem;align-items:flex-end;background:#fff;
border:1px solid #e3e6ec;border-radius:8px;padding:.6rem .7rem}
@media (min-width:50rem){.controls{position:sticky;top:0;z-index:1}}
.controls label{display:flex;flex-direction:column;font-size:.75rem;color:#5b6475;min-width:0}
.controls input,.controls select,.controls button{font:inherit;font-size:.9rem;padding:.2rem .35rem;
max-width:100%}
.controls input[type=search]{width:13rem}.controls input[type=number]{width:4.8rem}
.pager{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.6rem 0;color:#3a4252}
.case{background:#fff;border:1px solid #e3e6ec;border-radius:8px;padding:.7rem .9rem;margin:.8rem 0}
.case h3{margin:0 0 .4rem;font-size:1rem;display:flex;flex-wrap:wrap;gap:.3rem .8rem;
align-items:baseline}
.score{font-weight:700;font-size:1.1rem}.low{color:#b3261e}.mid{color:#a15c00}.high{color:#1b7f3b}
.badge{font-size:.75rem;border-radius:4px;padding:.05rem .4rem;background:#eef1f6;color:#3a4252}
.badge.fail{background:#fde7e6;color:#b3261e}.badge.pass{background:#e3f5e8;color:#1b7f3b}
.components{color:#3a4252;font-size:.9rem}.spend{color:#5b6475;font-size:.8rem}.text{white-space:pre-wrap;background:#f6f7f9;
border-radius:6px;padding:.5rem .7rem;margin:.3rem 0}
mark.bad{background:#fde7e6;color:#8c1d18;border-bottom:2px solid #b3261e;padding:0 .1rem}
ul.missed li,ul.claims li{margin:.15rem 0}ul.missed li::marker{content:"✗  ";color:#b3261e}
.verdict{font-size:.75rem;font-weight:700;text-transform:uppercase;color:#b3261e;margin-right:.3rem}
.error{color:#b3261e;font-weight:600}.warn{color:#a15c00}details summary{cursor:pointer;color:#3a4252}
svg text{font:11px system-ui,sans-serif;fill:#5b6475}.nojs{color:#5b6475;font-size:.9rem}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("summscore-data").textContent);
  var cases = data.cases, pageSize = data.pageSize, page = 0, texts = [];
  var byId = function (id) { return document.getElementById(id); };
  var list = byId("cases"), count = byId("count"), where = byId("page");
  var inputs = ["q", "status", "sort", "range-of", "range-min", "range-max"].map(byId);

  function text(i) {  // the card's visible text, for search; parsed once, inertly
    if (texts[i] === undefined) {
      var t = document.createElement("template");
      t.innerHTML = cases[i].h;
      texts[i] = t.content.textContent.toLowerCase();
    }
    return texts[i];
  }
  function value(c, name) {
    var v = name === "score" ? c.s : c.c[name];
    return v === undefined ? null : v;
  }
  function number(input) {
    return input.value === "" ? NaN : parseFloat(input.value);
  }
  function matches(c, i, f) {
    if (f.status === "error" && !c.e) return false;
    if (f.status === "fail" && c.p) return false;
    if (f.status === "pass" && !c.p) return false;
    if (f.status === "unsupported" && !c.u) return false;
    if (f.status === "missed" && !c.m) return false;
    if (!isNaN(f.min) || !isNaN(f.max)) {
      var v = value(c, f.of);
      if (v === null) return false;
      if (!isNaN(f.min) && v < f.min) return false;
      if (!isNaN(f.max) && v > f.max) return false;
    }
    return !f.q || text(i).indexOf(f.q) >= 0;
  }
  function compare(by, dir) {
    if (by === "order") return function (a, b) { return dir * (a - b); };
    if (by === "id") {
      return function (a, b) {
        return dir * String(cases[a].id).localeCompare(String(cases[b].id), undefined,
          {numeric: true}) || a - b;
      };
    }
    return function (a, b) {  // no value (a failed case) counts as the lowest
      var va = value(cases[a], by), vb = value(cases[b], by);
      va = va === null ? -Infinity : va;
      vb = vb === null ? -Infinity : vb;
      return (va === vb ? 0 : va < vb ? -dir : dir) || a - b;
    };
  }
  function render() {
    var f = {q: inputs[0].value.trim().toLowerCase(), status: inputs[1].value,
      of: inputs[3].value, min: number(inputs[4]), max: number(inputs[5])};
    var sort = inputs[2].value.split(":");
    var shown = [];
    for (var i = 0; i < cases.length; i++) if (matches(cases[i], i, f)) shown.push(i);
    shown.sort(compare(sort[0], sort[1] === "desc" ? -1 : 1));
    var pages = Math.max(1, Math.ceil(shown.length / pageSize));
    page = Math.min(page, pages - 1);
    var first = page * pageSize, slice = shown.slice(first, first + pageSize);
    list.innerHTML = slice.map(function (k) { return cases[k].h; }).join("\n");
    count.dataset.matching = shown.length;
    count.textContent = shown.length === cases.length
      ? cases.length.toLocaleString("en") + " cases"
      : shown.length.toLocaleString("en") + " of " + cases.length.toLocaleString("en") +
        " cases match";
    where.textContent = shown.length
      ? "showing " + (first + 1) + "–" + (first + slice.length) + " · page " + (page + 1) +
        " of " + pages
      : "no case matches";
    byId("prev").disabled = page === 0;
    byId("next").disabled = page >= pages - 1;
  }
  var timer = null;
  function changed() {
    page = 0;
    clearTimeout(timer);
    timer = setTimeout(render, 120);
  }
  inputs.forEach(function (el) {
    el.addEventListener("input", changed);
    el.addEventListener("change", changed);
  });
  byId("prev").addEventListener("click", function () { page -= 1; render(); scrollTo(0, list.offsetTop - 80); });
  byId("next").addEventListener("click", function () { page += 1; render(); scrollTo(0, list.offsetTop - 80); });
  byId("reset").addEventListener("click", function () {
    inputs[0].value = ""; inputs[1].value = "all"; inputs[2].value = "score:asc";
    inputs[3].value = "score"; inputs[4].value = ""; inputs[5].value = "";
    page = 0; render();
  });
  byId("controls").hidden = false;
  byId("pager").hidden = false;
  var note = byId("nojs");
  if (note) note.remove();
  render();
  document.body.dataset.ready = "1";
})();
"""
