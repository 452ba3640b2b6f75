"""The comparison report's inline style sheet and script (no external assets: one file).

The script reads each table's rows from a JSON block (``#summscore-compare-data``) and searches,
sorts and pages them. Every row is HTML rendered and escaped by Python (``report``); the
script only chooses which rows to show and in which order, so no text from the data is parsed
as markup here (search reads a row's text from an inert ``<template>``).
"""

from __future__ import annotations

__all__ = ["CSS", "SCRIPT"]

CSS = """
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:1.5rem auto;max-width:72rem;
padding:0 .8rem;color:#1d2330;background:#fafbfc;overflow-wrap:anywhere}
h1{font-size:1.4rem;margin-bottom:.2rem}h2{font-size:1.1rem;margin:1.6rem 0 .5rem}
.meta{color:#5b6475;font-size:.9rem}
.headline{font-size:1.15rem;font-weight:600;border-radius:8px;padding:.7rem .9rem;margin:1rem 0;
border:1px solid #e3e6ec;background:#fff}
.headline.worse{border-color:#f2b8b5;background:#fdf0ef;color:#8c1d18}
.headline.better{border-color:#b5dfc1;background:#eef8f1;color:#14632d}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.5rem;margin:1rem 0}
.figure{background:#fff;border:1px solid #e3e6ec;border-radius:8px;padding:.45rem .7rem}
.figure strong{display:block;font-size:1.1rem}.figure span{color:#5b6475;font-size:.8rem}
.scroll{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;font-size:.9rem;background:#fff}
td,th{padding:.25rem .6rem;border-bottom:1px solid #e3e6ec;text-align:right;vertical-align:top;
white-space:nowrap;overflow-wrap:normal}
td.id,td.evidence{white-space:normal;overflow-wrap:anywhere}td.id{max-width:16rem}
td.evidence{min-width:16rem;width:55%}
th{font-weight:500;color:#3a4252}td.id,th.id,td.evidence,th.evidence,td.name{text-align:left}
section table{width:100%}
th button{font:inherit;color:inherit;background:none;border:0;padding:0;cursor:pointer}
th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
.neg{color:#b3261e}.pos{color:#1b7f3b}
.charts{display:flex;flex-wrap:wrap;gap:1rem 2rem;align-items:flex-start}
.charts figure{margin:0;flex:1 1 18rem;max-width:34rem}.charts figure.square{max-width:22rem}.charts figcaption{color:#5b6475;font-size:.85rem}
.chart{width:100%;height:auto;display:block}
svg text{font:11px system-ui,sans-serif;fill:#5b6475}
.controls{display:flex;flex-wrap:wrap;gap:.5rem .8rem;align-items:center;margin:.4rem 0}
.controls input{font:inherit;font-size:.9rem;padding:.2rem .35rem;width:14rem;max-width:100%}
.controls button{font:inherit;font-size:.85rem}
.count{color:#3a4252;font-size:.9rem}
.side{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.5rem 1rem;
margin:.3rem 0;text-align:left}
.side h4{margin:.2rem 0;font-size:.85rem;color:#3a4252}.side ul{margin:.1rem 0;padding-left:1.1rem}
.new{color:#b3261e;font-weight:600}.gone{color:#1b7f3b}
.notes li{color:#5b6475}.error{color:#b3261e}
details summary{cursor:pointer;color:#3a4252}.nojs{color:#5b6475;font-size:.9rem}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("summscore-compare-data").textContent);
  var pageSize = data.pageSize;
  function table(name) {
    var rows = data[name], root = document.getElementById(name);
    if (!root || !rows) return;
    var body = root.querySelector("tbody"), search = root.querySelector("input[type=search]");
    var count = root.querySelector(".count"), prev = root.querySelector(".prev");
    var next = root.querySelector(".next"), heads = root.querySelectorAll("th[data-key]");
    var by = root.dataset.sort, dir = root.dataset.dir === "desc" ? -1 : 1, page = 0, texts = [];
    function text(i) {  // the row's visible text, for search; parsed once, inertly
      if (texts[i] === undefined) {
        var t = document.createElement("template");
        t.innerHTML = "<table><tbody>" + rows[i].h + "</tbody></table>";
        texts[i] = t.content.textContent.toLowerCase();
      }
      return texts[i];
    }
    function order(a, b) {
      if (by === "id") {
        return dir * String(rows[a].id).localeCompare(String(rows[b].id), undefined,
          {numeric: true}) || a - b;
      }
      var va = rows[a][by], vb = rows[b][by];
      va = va === null ? -Infinity : va;
      vb = vb === null ? -Infinity : vb;
      return (va === vb ? 0 : va < vb ? -dir : dir) || a - b;
    }
    function render() {
      var q = search.value.trim().toLowerCase(), shown = [];
      for (var i = 0; i < rows.length; i++) if (!q || text(i).indexOf(q) >= 0) shown.push(i);
      shown.sort(order);
      var pages = Math.max(1, Math.ceil(shown.length / pageSize));
      page = Math.min(page, pages - 1);
      var first = page * pageSize, slice = shown.slice(first, first + pageSize);
      body.innerHTML = slice.map(function (k) { return rows[k].h; }).join("");
      count.dataset.matching = shown.length;
      count.textContent = (shown.length === rows.length ? rows.length + " cases"
        : shown.length + " of " + rows.length + " cases match") +
        (shown.length > pageSize ? " · page " + (page + 1) + " of " + pages : "");
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
      heads.forEach(function (th) {
        th.setAttribute("aria-sort", th.dataset.key !== by ? "none"
          : dir > 0 ? "ascending" : "descending");
      });
    }
    var timer = null;
    search.addEventListener("input", function () {
      page = 0;
      clearTimeout(timer);
      timer = setTimeout(render, 120);
    });
    search.addEventListener("change", function () { page = 0; render(); });
    heads.forEach(function (th) {
      th.querySelector("button").addEventListener("click", function () {
        if (by === th.dataset.key) dir = -dir;
        else { by = th.dataset.key; dir = by === "id" ? 1 : -1; }
        page = 0;
        render();
      });
    });
    prev.addEventListener("click", function () { page -= 1; render(); });
    next.addEventListener("click", function () { page += 1; render(); });
    root.querySelector(".controls").hidden = false;
    var note = root.querySelector(".nojs");
    if (note) note.remove();
    render();
  }
  table("regressions");
  table("improvements");
  document.body.dataset.ready = "1";
})();
"""
