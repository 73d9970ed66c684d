"use strict";
// flamesvg's viewer: hover details, click to zoom, regular expression
// search, all driven from the SVG's own elements (no network, no library).
//
// The frames are the children of <g id="frames">, each a <g> (or an <a>
// with --nameattr links) holding <title>, <rect> and <text>. The settings
// the viewer needs are attributes of #frames (data-nametype, data-fontsize,
// data-fontwidth, data-xpad, data-width), never text pasted into this
// script, so no frame name or option can run as code here.
//
// State lives in the URL: ?x=X&y=Y is the zoomed frame (its rect's
// original x and y), s=TERM the search; both are restored on load.
// Frames are laid out once on load into a tree (parent and children by
// position). A zoom computes every change first and writes them in one
// run. A zoom into a small part of the graph draws copies of those frames
// on a layer covering #frames (#frames itself is not touched, so the
// browser restyles nothing else); a zoom covering most of the graph moves
// the frames in place and hides the rest. Either way a 50,000-frame graph
// is not laid out frame by frame.
var flamesvg = (function () {
  var doc, svgns = "http://www.w3.org/2000/svg";
  var framesEl, detailsText, matchedText, unzoomEl, searchEl, icEl;
  var nodes = [];           // every frame, see load()
  var root = null;          // the widest frame ("all")
  var nameType = "", charWidth = 7, xpad = 10, fullWidth = 1180;
  var zoomed = null;        // the frame zoomed to, or null
  var touched = [];         // frames changed by the current zoom
  var hiddenOnes = [];      // frames given class "hide" by it
  var layer = null;         // <g id="zoomlayer"> of a small zoom, see zoom()
  var searchTerm = null, ignoreCase = false, highlighted = [];
  var searchColor = "rgb(230,0,230)";

  function num(el, attr) { return parseFloat(el.getAttribute(attr)); }

  // "NAME (N samples, P%)" -> "NAME"; custom --nameattr titles stay whole.
  function nameOf(title) {
    var cut = title.lastIndexOf(" (");
    return cut > 0 || (cut === 0 && title.charAt(title.length - 1) === ")")
        ? title.substring(0, cut) : title;
  }

  // Reads every frame and links each to its parent: the frame one row
  // nearer the root whose span contains the frame's start.
  function load() {
    var kids = framesEl.children, rows = {}, ys = [], i;
    for (i = 0; i < kids.length; i++) {
      var g = kids[i], title = g.querySelector("title"),
          rect = g.querySelector("rect"), text = g.querySelector("text");
      if (!title || !rect) continue;
      var n = {
        g: g, rect: rect, text: text,
        title: title.textContent, name: nameOf(title.textContent),
        x: num(rect, "x"), w: num(rect, "width"), y: num(rect, "y"),
        wAttr: rect.getAttribute("width"),
        xAttr: rect.getAttribute("x"), yAttr: rect.getAttribute("y"),
        label: text ? text.textContent : "",
        shownLabel: text ? text.textContent : "", mark: null,
        textX: text ? text.getAttribute("x") : null,
        fill: rect.getAttribute("fill"),
        parent: null, children: []
      };
      nodes.push(n);
      if (!rows[n.y]) { rows[n.y] = []; ys.push(n.y); }
      rows[n.y].push(n);
      if (!root || n.w > root.w) root = n;
    }
    if (!root) return;
    // Rows from the root outwards: the root row first.
    ys.sort(function (a, b) { return a - b; });
    if (ys[ys.length - 1] === root.y) ys.reverse();
    var byX = function (a, b) { return a.x - b.x; };
    for (i = 0; i < ys.length; i++) rows[ys[i]].sort(byX);
    for (i = 1; i < ys.length; i++) {
      var parents = rows[ys[i - 1]], row = rows[ys[i]], p = 0;
      for (var k = 0; k < row.length; k++) {
        var c = row[k];
        while (p + 1 < parents.length && parents[p + 1].x <= c.x + 0.01) p++;
        c.parent = parents[p];
        parents[p].children.push(c);
      }
    }
  }

  function labelFor(name, width) {
    var chars = Math.floor(width / charWidth);
    if (chars < 3) return "";
    name = name.replace(/_\[[kwijo]\]$/, "");
    return name.length > chars ? name.substring(0, chars - 2) + ".." : name;
  }

  function setDetails(text) { detailsText.nodeValue = text; }

  // --- zoom -----------------------------------------------------------------

  // Sets a frame's geometry and label, writing only what changed.
  function place(n, x, w, label) {
    n.rect.setAttribute("x", x);
    n.rect.setAttribute("width", w);
    if (!n.text && label) {
      // Frames without a label have no <text> until a zoom makes room.
      n.text = doc.createElementNS(svgns, "text");
      var h = parseFloat(n.rect.getAttribute("height"));
      n.text.setAttribute("y", String(n.y + h / 2 + 3));
      n.g.appendChild(n.text);
    }
    if (n.text) {
      n.text.setAttribute("x", (parseFloat(x) + 3).toFixed(2));
      if (n.shownLabel !== label) {
        n.text.textContent = label;
        n.shownLabel = label;
      }
    }
  }

  // Runs `work`, a run of DOM writes with no reads in between, so that
  // the browser restyles and lays out once when it returns.
  function batch(work) { work(); }

  function restore(n) {
    place(n, n.xAttr, n.wAttr, n.label);
    if (n.text) n.text.setAttribute("x", n.textX || (n.x + 3).toFixed(2));
    n.g.classList.remove("parent", "hide");
  }

  function unzoom() {
    if (!zoomed && !touched.length) return;
    if (layer) {
      layer.parentNode.removeChild(layer);
      layer = null;
      for (var i = 0; i < touched.length; i++) touched[i].copy = null;
    } else {
      batch(function () {
        for (var i = 0; i < touched.length; i++) restore(touched[i]);
        for (i = 0; i < hiddenOnes.length; i++) hiddenOnes[i].g.classList.remove("hide");
      });
    }
    touched = [];
    hiddenOnes = [];
    zoomed = null;
    unzoomEl.classList.add("hide");
    saveState();
  }

  function zoom(target) {
    if (!target || target === root) { unzoom(); return; }
    if (!(target.w > 0)) return;  // nothing to widen
    if (zoomed) unzoom();
    zoomed = target;
    var scale = fullWidth / target.w, writes = [], stack = [target], n, i;
    // First compute every change, then write them all at once.
    while (stack.length) {
      n = stack.pop();
      n.mark = zoomed;
      writes.push([n, xpad + (n.x - target.x) * scale, n.w * scale, false]);
      for (i = 0; i < n.children.length; i++) stack.push(n.children[i]);
    }
    for (n = target.parent; n; n = n.parent) {
      n.mark = zoomed;
      writes.push([n, xpad, fullWidth, true]);
    }
    if (writes.length * 2 < nodes.length) {
      showLayer(writes);
    } else {
      rewriteInPlace(writes);
    }
    unzoomEl.classList.remove("hide");
    saveState();
  }

  // A small zoom draws copies of the zoomed frames on a layer that covers
  // #frames, leaving #frames untouched: hiding thousands of frames would
  // cost the browser a restyle of each.
  function showLayer(writes) {
    layer = doc.createElementNS(svgns, "g");
    layer.setAttribute("id", "zoomlayer");
    var cover = doc.createElementNS(svgns, "rect");
    var svg = doc.documentElement;
    cover.setAttribute("x", "0");
    cover.setAttribute("y", "0");
    cover.setAttribute("width", svg.getAttribute("width"));
    cover.setAttribute("height", svg.getAttribute("height"));
    cover.setAttribute("fill", "url(#background)");
    layer.appendChild(cover);
    for (var k = 0; k < writes.length; k++) {
      var wr = writes[k], n = wr[0], copy = n.g.cloneNode(true);
      var view = {
        g: copy, rect: copy.querySelector("rect"),
        text: copy.querySelector("text"), y: n.y, shownLabel: n.label
      };
      place(view, wr[1].toFixed(1), wr[2].toFixed(1), labelFor(n.name, wr[2]));
      if (wr[3]) copy.classList.add("parent");
      copy.__flamesvg = n;
      n.copy = view;
      if (n.highlighted) view.rect.setAttribute("fill", searchColor);
      touched.push(n);
      layer.appendChild(copy);
    }
    framesEl.parentNode.insertBefore(layer, framesEl.nextSibling);
  }

  // A big zoom moves the frames themselves and hides the others.
  function rewriteInPlace(writes) {
    batch(function () {
      for (var k = 0; k < writes.length; k++) {
        var wr = writes[k], m = wr[0];
        place(m, wr[1].toFixed(1), wr[2].toFixed(1), labelFor(m.name, wr[2]));
        if (wr[3]) m.g.classList.add("parent");
        touched.push(m);
      }
      for (k = 0; k < nodes.length; k++) {
        if (nodes[k].mark !== zoomed) {
          nodes[k].g.classList.add("hide");
          hiddenOnes.push(nodes[k]);
        }
      }
    });
  }

  // --- search -----------------------------------------------------------------

  function clearHighlights() {
    for (var i = 0; i < highlighted.length; i++) {
      var n = highlighted[i];
      n.rect.setAttribute("fill", n.fill);
      if (n.copy) n.copy.rect.setAttribute("fill", n.fill);
      n.highlighted = false;
    }
    highlighted = [];
  }

  function resetSearch() {
    clearHighlights();
    searchTerm = null;
    searchEl.classList.remove("show");
    searchEl.firstChild.nodeValue = "Search";
    matchedText.nodeValue = " ";
    saveState();
  }

  // Highlights the frames whose name matches `term` and shows how much of
  // the total they cover, counting nested matches once.
  function search(term) {
    var re;
    try {
      re = new RegExp(term, ignoreCase ? "i" : "");
    } catch (e) {
      matchedText.nodeValue = "Invalid search: " + e.message;
      return;
    }
    clearHighlights();
    searchTerm = term;
    var spans = [], i;
    for (i = 0; i < nodes.length; i++) {
      var n = nodes[i];
      if (!re.test(n.name)) continue;
      highlighted.push(n);
      spans.push([n.x, n.x + n.w]);
    }
    for (i = 0; i < highlighted.length; i++) {
      highlighted[i].highlighted = true;
      highlighted[i].rect.setAttribute("fill", searchColor);
      if (highlighted[i].copy) highlighted[i].copy.rect.setAttribute("fill", searchColor);
    }
    spans.sort(function (a, b) { return a[0] - b[0]; });
    var covered = 0, end = -Infinity;
    for (i = 0; i < spans.length; i++) {
      var s = Math.max(spans[i][0], end), e2 = spans[i][1];
      if (e2 > s) covered += e2 - s;
      if (e2 > end) end = e2;
    }
    var pct = root && root.w > 0 ? 100 * covered / root.w : 0;
    pct = Math.min(100, pct);
    matchedText.nodeValue = "Matched: " +
        (pct === 100 ? "100" : pct.toFixed(1)) + "%";
    searchEl.classList.add("show");
    searchEl.firstChild.nodeValue = "Reset Search";
    saveState();
  }

  function promptSearch() {
    var term = window.prompt("Search for (regular expression):",
                             searchTerm || "");
    if (term) search(term);
  }

  function toggleIgnoreCase() {
    ignoreCase = !ignoreCase;
    icEl.classList.toggle("show", ignoreCase);
    if (searchTerm !== null) search(searchTerm);
  }

  // --- URL state --------------------------------------------------------------

  function saveState() {
    if (!window.history || !window.history.replaceState) return;
    var params = new URLSearchParams();
    if (zoomed) {
      params.set("x", zoomed.xAttr);
      params.set("y", zoomed.yAttr);
    }
    if (searchTerm !== null) params.set("s", searchTerm);
    var q = params.toString();
    try {
      window.history.replaceState(null, "", q ? "?" + q : location.pathname);
    } catch (e) { /* some viewers forbid it; the state is then not kept */ }
  }

  function loadState() {
    var params = new URLSearchParams(location.search);
    if (params.has("x") && params.has("y")) {
      var x = parseFloat(params.get("x")), y = parseFloat(params.get("y"));
      for (var i = 0; i < nodes.length; i++) {
        if (Math.abs(nodes[i].x - x) < 0.05 && Math.abs(nodes[i].y - y) < 0.05) {
          zoom(nodes[i]);
          break;
        }
      }
    }
    if (params.has("s")) search(params.get("s"));
  }

  // --- events ---------------------------------------------------------------

  function frameOf(el) {
    while (el && el.parentNode && el.parentNode !== framesEl &&
           !(layer && el.parentNode === layer)) {
      el = el.parentNode;
    }
    return el && el.parentNode ? el.__flamesvg || null : null;
  }

  function init(evt) {
    doc = (evt && evt.target && evt.target.ownerDocument) || document;
    framesEl = doc.getElementById("frames");
    detailsText = doc.getElementById("details").firstChild;
    matchedText = doc.getElementById("matched").firstChild;
    unzoomEl = doc.getElementById("unzoom");
    searchEl = doc.getElementById("search");
    icEl = doc.getElementById("ignorecase");
    nameType = framesEl.getAttribute("data-nametype") || "";
    charWidth = parseFloat(framesEl.getAttribute("data-fontsize")) *
                parseFloat(framesEl.getAttribute("data-fontwidth"));
    xpad = parseFloat(framesEl.getAttribute("data-xpad"));
    fullWidth = parseFloat(framesEl.getAttribute("data-width")) - 2 * xpad;
    load();
    for (var i = 0; i < nodes.length; i++) nodes[i].g.__flamesvg = nodes[i];

    // The frames and the zoom layer (the texts are moved above both).
    var svg = doc.documentElement;
    var controls = ["title", "subtitle", "details", "unzoom", "search",
                    "ignorecase", "matched"];
    for (i = 0; i < controls.length; i++) {
      var el = doc.getElementById(controls[i]);
      if (el) svg.appendChild(el);
    }
    svg.addEventListener("mouseover", function (e) {
      var n = frameOf(e.target);
      if (n) setDetails(nameType + " " + n.title);
    });
    svg.addEventListener("mouseout", function (e) {
      if (frameOf(e.target)) setDetails(" ");
    });
    svg.addEventListener("click", function (e) {
      var n = frameOf(e.target);
      if (!n) return;
      // A link frame (--nameattr href) is followed with Ctrl or Cmd.
      if (e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      zoom(n === zoomed ? n.parent : n);
    });
    unzoomEl.addEventListener("click", unzoom);
    searchEl.addEventListener("click", function () {
      if (searchTerm === null) promptSearch(); else resetSearch();
    });
    icEl.addEventListener("click", toggleIgnoreCase);
    window.addEventListener("keydown", function (e) {
      if (e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && e.keyCode === 70)) {
        e.preventDefault();
        promptSearch();
      } else if ((e.ctrlKey || e.metaKey) && e.keyCode === 73) {
        e.preventDefault();
        toggleIgnoreCase();
      } else if (e.key === "Escape") {
        unzoom();
        resetSearch();
      }
    });
    loadState();
  }

  return { init: init, zoom: zoom, unzoom: unzoom, search: search,
           resetSearch: resetSearch };
})();

function flamesvgInit(evt) { flamesvg.init(evt); }
