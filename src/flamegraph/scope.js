"use strict";
// flamescope's page: the subsecond-offset heat map of the samples and the
// flame graph of the cells selected, from the data block #scope-data
// (scope_page.h says what it holds). No network, no library.
//
// The flame graph is laid out as flamesvg lays out the folded stacks of
// the selection (flamegraph.pl's rules): the stacks in byte order, each
// frame merged with the same frame of the stack before it, frames
// narrower than 0.1 pixel of 1180 left out, the same titles, rectangles,
// labels and fills. Numbers are printed as C's "%.Nf" prints them (ties
// to even on the binary value), which JavaScript's toFixed does not do.
var flamescope = (function () {
  var data = JSON.parse(document.getElementById("scope-data").textContent);
  var rows = data.rows, columns = data.columns, cells = rows * columns;

  // The packed tables (scope_page.cc): base64 of LEB128 numbers.
  function unpack(base64) {
    var bytes = atob(base64), pos = 0;
    return {
      more: function () { return pos < bytes.length; },
      next: function () {
        var v = 0, scale = 1, b;
        do {
          b = bytes.charCodeAt(pos++);
          v += (b & 127) * scale;
          scale *= 128;
        } while (b & 128);
        return v;
      }
    };
  }

  // The cells: samples, and runs of (stack, weight) from runStart[c] to
  // runStart[c + 1].
  var cellSamples = new Float64Array(cells);
  var runStart = new Uint32Array(cells + 1);
  var runStack = [], runWeight = [], i;
  (function () {
    var packed = unpack(data.cells), cell = 0, next = 0;
    while (packed.more()) {
      cell += packed.next();
      for (; next <= cell; next++) runStart[next] = runStack.length;
      cellSamples[cell] = packed.next();
      var runs = packed.next(), stack = 0;
      for (var r = 0; r < runs; r++) {
        stack += packed.next();
        var w = packed.next();
        runStack.push(stack);
        runWeight.push(w % 2 === 0 ? w / 2 * data.weightUnit : data.weights[(w - 1) / 2]);
      }
    }
    for (; next <= cells; next++) runStart[next] = runStack.length;
  })();

  // The stacks, as name ids root first.
  var stacks = [];
  (function () {
    var packed = unpack(data.stacks), prev = [];
    for (var k = 0; k < data.stackCount; k++) {
      var st = prev.slice(0, packed.next());
      for (var n = packed.next(); n > 0; n--) st.push(packed.next());
      stacks.push(st);
      prev = st;
    }
  })();
  var names = data.names, fills = data.fills;

  // ---- numbers as C prints them ----
  function fixed(v, d) {
    var k = v * Math.pow(2, d + 1);  // exact: a power of two
    if (Number.isInteger(k) && Math.abs(k % 2) === 1) {  // a tie at d decimals
      var t = k * Math.pow(5, d);     // 2 * v * 10^d, odd
      var lo = (t - 1) / 2, n = lo % 2 === 0 ? lo : lo + 1;
      return (n / Math.pow(10, d)).toFixed(d);
    }
    return v.toFixed(d);
  }
  function grouped(digits) {
    var neg = digits.charAt(0) === "-", s = neg ? digits.substring(1) : digits;
    var out = "";
    while (s.length > 3) {
      out = "," + s.substring(s.length - 3) + out;
      s = s.substring(0, s.length - 3);
    }
    return (neg ? "-" : "") + s + out;
  }
  function perlNum(v) {
    return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(15)));
  }
  // perf's annotations "_[k]", "_[w]", "_[i]", "_[j]" and the off-CPU
  // "_[o]" are left out of titles and labels.
  function bare(name) {
    return /_\[[kwijo]\]$/.test(name) ? name.substring(0, name.length - 4) : name;
  }

  // ---- time ----
  function pad9(n) { var s = String(n); while (s.length < 9) s = "0" + s; return s; }
  // The first nanosecond of row `row` of a second.
  function rowStartNs(row) { return Math.ceil(row * 1e9 / rows); }
  // The selection from cell a to cell b (a <= b) as perf's absolute
  // --time-range: from a's first nanosecond to b's last.
  function timeRange(a, b) {
    var sa = data.base + Math.floor(a / rows), na = rowStartNs(a % rows);
    var sb = data.base + Math.floor(b / rows), nb = rowStartNs(b % rows + 1) - 1;
    return sa + "." + pad9(na) + "," + sb + "." + pad9(nb);
  }

  // ---- the flame graph ----
  var width = 1200, xpad = 10, frameHeight = 16, fontSize = 12, fontWidth = 0.59;
  var minWidthPixels = 0.1;

  // The stacks' weights in the cells from a to b.
  function weightsOf(a, b) {
    var w = new Float64Array(stacks.length);
    for (var r = runStart[a]; r < runStart[b + 1]; r++) w[runStack[r]] += runWeight[r];
    return w;
  }

  // flamegraph.pl's merge of sorted stacks, in `total` units: the frames
  // {name, depth, start, end} at least `minTime` wide (only those are
  // drawn; the rest are not made at all).
  function merge(weights, minTime) {
    var frames = [], open = [], prev = [], time = 0, s, k, d;
    var close = function (d) {
      if (time - open[d] >= minTime) {
        frames.push({ name: prev[d], depth: d + 1, start: open[d], end: time });
      }
    };
    for (s = 0; s < stacks.length; s++) {
      if (!weights[s]) continue;
      var st = stacks[s];
      for (k = 0; k < prev.length && k < st.length && prev[k] === st[k]; k++);
      for (d = prev.length - 1; d >= k; d--) close(d);
      for (d = k; d < st.length; d++) open[d] = time;
      time += weights[s];
      prev = st;
    }
    for (d = prev.length - 1; d >= 0; d--) close(d);
    frames.push({ name: -1, depth: 0, start: 0, end: time });
    return frames;
  }

  // A frame as flamesvg writes it: its rectangle's numbers as printed, its
  // title, fill and label.
  function describe(f, g) {
    var x1 = xpad + f.start * g.wpt, x2 = xpad + f.end * g.wpt;
    var y1 = g.height - (fontSize * 2 + 10) - (f.depth + 1) * frameHeight + 1;
    var y2 = g.height - (fontSize * 2 + 10) - f.depth * frameHeight;
    var count = f.end - f.start;
    var countText = grouped(fixed(count, 0)) + " samples";
    var name = f.name < 0 ? "" : bare(names[f.name]);
    var x1s = fixed(x1, 1), label = "";
    var chars = Math.trunc((x2 - x1) / (fontSize * fontWidth));
    if (chars >= 3) {
      var cps = Array.from(name);
      label = cps.length > chars ? cps.slice(0, chars - 2).join("") + ".." : name;
    }
    return {
      title: f.name < 0 ? "all (" + countText + ", 100%)"
          : name + " (" + countText + ", " +
            fixed(100 * parseFloat(fixed(count, 0)) / g.time, 2) + "%)",
      x: x1s, y: perlNum(y1),
      width: fixed(parseFloat(fixed(x2, 1)) - parseFloat(x1s), 1),
      height: fixed(y2 - y1, 1),
      fill: f.name < 0 ? data.rootFill : fills[f.name],
      label: label, textX: fixed(x1 + 3, 2), textY: perlNum(3 + (y1 + y2) / 2)
    };
  }

  // The frames flamesvg would draw for `weights`, by depth and then from
  // left to right.
  function layout(weights) {
    var total = 0;
    for (var s = 0; s < weights.length; s++) total += weights[s];
    var g = { time: total, frames: [], height: 0, wpt: 0 };
    if (total <= 0) return g;
    g.wpt = (width - 2 * xpad) / total;
    g.frames = merge(weights, minWidthPixels / g.wpt);
    var depthMax = 0;
    for (var k = 0; k < g.frames.length; k++) {
      if (g.frames[k].depth > depthMax) depthMax = g.frames[k].depth;
    }
    g.frames.sort(function (a, b) { return a.depth - b.depth || a.start - b.start; });
    g.height = (depthMax + 1) * frameHeight + fontSize * 3 + fontSize * 2 + 10;
    return g;
  }

  // The graph is drawn on a canvas: a selection can hold tens of thousands
  // of frames, which as SVG elements the browser would lay out one by one.
  var graphCanvas = document.getElementById("graph"), graphCtx = graphCanvas.getContext("2d");
  var shown = null;  // the graph drawn
  function drawGraph(weights) {
    shown = layout(weights);
    var ratio = window.devicePixelRatio || 1, height = Math.max(shown.height, 60);
    graphCanvas.width = width * ratio;
    graphCanvas.height = height * ratio;
    graphCanvas.style.width = width + "px";
    graphCanvas.style.height = height + "px";
    var ctx = graphCtx;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = "#f8f8f0";
    ctx.fillRect(0, 0, width, height);
    ctx.font = fontSize + "px Verdana, sans-serif";
    ctx.textBaseline = "alphabetic";
    if (shown.time <= 0) {
      ctx.fillStyle = "rgb(0,0,0)";
      ctx.fillText("No samples in the selection.", xpad, 30);
      return;
    }
    for (var k = 0; k < shown.frames.length; k++) {
      var f = shown.frames[k];
      var x = xpad + f.start * shown.wpt, w = (f.end - f.start) * shown.wpt;
      var y = shown.height - (fontSize * 2 + 10) - (f.depth + 1) * frameHeight + 1;
      ctx.fillStyle = f.name < 0 ? data.rootFill : fills[f.name];
      ctx.fillRect(x, y, w, frameHeight - 1);
      if (w >= 3 * fontSize * fontWidth) {
        var d = describe(f, shown);
        if (d.label) {
          ctx.fillStyle = "rgb(0,0,0)";
          ctx.fillText(d.label, parseFloat(d.textX), parseFloat(d.textY));
        }
      }
    }
  }
  // The frame under a point of the graph, or null.
  function frameAt(ev) {
    if (!shown || shown.time <= 0) return null;
    var box = graphCanvas.getBoundingClientRect();
    var x = ev.clientX - box.left, y = ev.clientY - box.top;
    var depth = Math.floor((shown.height - (fontSize * 2 + 10) - y) / frameHeight);
    var t = (x - xpad) / shown.wpt;
    for (var k = 0; k < shown.frames.length; k++) {
      var f = shown.frames[k];
      if (f.depth === depth && f.start <= t && t < f.end) return f;
    }
    return null;
  }
  graphCanvas.addEventListener("mousemove", function (ev) {
    var f = frameAt(ev);
    document.getElementById("details").textContent =
        f ? "Function: " + describe(f, shown).title : "\u00a0";
  });

  // The selection's folded stacks, as flamefold writes them.
  function folded(weights) {
    var out = [];
    for (var s = 0; s < stacks.length; s++) {
      if (!weights[s]) continue;
      out.push(stacks[s].map(function (n) { return names[n]; }).join(";") + " " +
               perlNum(weights[s]));
    }
    return out.length ? out.join("\n") + "\n" : "";
  }

  // ---- the heat map ----
  var canvas = document.getElementById("heatmap"), ctx = canvas.getContext("2d");
  var cellW = Math.max(3, Math.min(20, Math.floor(1180 / Math.max(columns, 1))));
  var cellH = Math.max(4, Math.min(12, Math.floor(500 / rows)));
  var maxSamples = 0;
  for (i = 0; i < cells; i++) if (cellSamples[i] > maxSamples) maxSamples = cellSamples[i];
  var stops = [[0, 255, 255, 255], [0.15, 255, 237, 160], [0.45, 254, 178, 76],
               [0.75, 240, 59, 32], [1, 128, 0, 38]];
  function heatColor(n) {
    if (n <= 0) return "rgb(255,255,255)";
    var t = maxSamples > 0 ? n / maxSamples : 0;
    for (var k = 1; k < stops.length; k++) {
      if (t <= stops[k][0]) {
        var a = stops[k - 1], b = stops[k], u = (t - a[0]) / (b[0] - a[0]);
        return "rgb(" + Math.round(a[1] + u * (b[1] - a[1])) + "," +
            Math.round(a[2] + u * (b[2] - a[2])) + "," +
            Math.round(a[3] + u * (b[3] - a[3])) + ")";
      }
    }
    return "rgb(128,0,38)";
  }
  // Room for the offsets on the left and the seconds below.
  var left = 44, bottom = 16;
  function cellAt(ev) {
    var rect = canvas.getBoundingClientRect();
    var col = Math.floor((ev.clientX - rect.left - left) / cellW);
    var row = rows - 1 - Math.floor((ev.clientY - rect.top) / cellH);
    if (col < 0 || col >= columns || row < 0 || row >= rows) return -1;
    return col * rows + row;
  }
  var pending = -1, selected = null;
  function drawAxes() {
    ctx.fillStyle = "rgb(0,0,0)";
    ctx.font = "10px Verdana, sans-serif";
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    var every = Math.ceil(rows / 5), c;
    for (var r = 0; r < rows; r += every) {
      ctx.fillText(perlNum(r * 1000 / rows) + " ms", left - 4, (rows - 1 - r + 0.5) * cellH);
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    every = Math.ceil(30 / cellW);
    for (c = 0; c < columns; c += every) {
      ctx.fillText(String(c), left + (c + 0.5) * cellW, rows * cellH + 3);
    }
  }
  var cellColors = null;
  function drawHeatmap() {
    canvas.width = left + columns * cellW;
    canvas.height = rows * cellH + bottom;
    drawAxes();
    if (!cellColors) {
      cellColors = [];
      for (var n = 0; n < cells; n++) cellColors.push(heatColor(cellSamples[n]));
    }
    for (var c = 0; c < cells; c++) {
      var col = Math.floor(c / rows), row = c % rows;
      ctx.fillStyle = cellColors[c];
      ctx.fillRect(left + col * cellW, (rows - 1 - row) * cellH, cellW, cellH);
    }
    var a = selected ? selected[0] : pending, b = selected ? selected[1] : pending;
    if (a < 0) return;
    ctx.fillStyle = "rgba(40,90,220,0.45)";
    for (c = a; c <= b; c++) {
      ctx.fillRect(left + Math.floor(c / rows) * cellW, (rows - 1 - c % rows) * cellH, cellW, cellH);
    }
  }
  function drawLegend() {
    var legend = document.getElementById("legend"), bar = document.createElement("canvas");
    bar.width = 200;
    bar.height = 12;
    var g = bar.getContext("2d");
    for (var x = 0; x < 200; x++) {
      g.fillStyle = heatColor(Math.max(1e-9, (x + 0.5) / 200 * maxSamples));
      g.fillRect(x, 0, 1, 12);
    }
    var lo = document.createElement("span"), hi = document.createElement("span");
    lo.textContent = "0";
    hi.textContent = maxSamples + " samples a cell (1/" + rows + " s)";
    legend.appendChild(lo);
    legend.appendChild(bar);
    legend.appendChild(hi);
  }
  function cellText(c) {
    var col = Math.floor(c / rows), row = c % rows;
    return "second " + col + ", offset " + perlNum(row * 1000 / rows) + " ms: " +
        cellSamples[c] + " samples";
  }

  // Selects the cells from a to b (in either order), or the whole profile
  // when a is -1.
  function select(a, b) {
    var all = a < 0;
    if (all) { a = 0; b = cells - 1; }
    if (a > b) { var t = a; a = b; b = t; }
    selected = all ? null : [a, b];
    pending = -1;
    drawHeatmap();
    var weights = weightsOf(a, b);
    drawGraph(weights);
    var range = all ? "" : timeRange(a, b);
    document.getElementById("selection").textContent = all
        ? "The whole profile; click a first and a last cell (or drag) to select a range."
        : "From " + cellText(a) + " to " + cellText(b) + ".";
    document.getElementById("command").textContent = data.command +
        (all ? "" : " --time-range " + range) + " | flamesvg > selection.svg";
    selectedWeights = weights;
    savedUrl = null;
    return range;
  }

  // The link to the selection's folded stacks: their text is made when the
  // link is followed (a large selection's text is tens of megabytes).
  var selectedWeights = null, savedUrl = null;
  var save = document.getElementById("save");
  save.addEventListener("click", function () {
    if (!savedUrl) {
      if (save.href.indexOf("blob:") === 0) URL.revokeObjectURL(save.href);
      savedUrl = URL.createObjectURL(new Blob([folded(selectedWeights)], { type: "text/plain" }));
      save.href = savedUrl;
    }
  });

  var downAt = -1;
  canvas.addEventListener("mousemove", function (ev) {
    var c = cellAt(ev);
    document.getElementById("hover").textContent = c < 0 ? "\u00a0" : cellText(c);
  });
  canvas.addEventListener("mousedown", function (ev) { downAt = cellAt(ev); });
  canvas.addEventListener("mouseup", function (ev) {
    var c = cellAt(ev), from = downAt;
    downAt = -1;
    if (c < 0 || from < 0) return;
    if (c !== from) {
      select(from, c);
    } else if (pending < 0) {
      pending = c;
      selected = null;
      drawHeatmap();
    } else {
      select(pending, c);
    }
  });

  drawLegend();
  select(-1, -1);
  return {
    rows: rows, columns: columns, base: data.base,
    cellSamples: function (col, row) { return cellSamples[col * rows + row]; },
    cellRect: function (col, row) {
      return { x: left + col * cellW + cellW / 2, y: (rows - 1 - row) * cellH + cellH / 2 };
    },
    select: select,
    timeRange: timeRange,
    // The frames drawn, each "title|x|y|width|height|fill|label" as
    // flamesvg writes them.
    frames: function () {
      return shown.frames.map(function (f) {
        var d = describe(f, shown);
        return [d.title, d.x, d.y, d.width, d.height, d.fill, d.label].join("|");
      });
    }
  };
})();
