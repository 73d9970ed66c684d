"use strict";
// flamesvg's viewer. Hover shows a frame's title in the details line.
function flamesvgInit(evt) {
  var doc = evt.target.ownerDocument || document;
  var details = doc.getElementById("details").firstChild;
  var frames = doc.getElementById("frames");
  var prefix = frames.getAttribute("data-nametype") || "";
  frames.addEventListener("mouseover", function (e) {
    var g = e.target.closest ? e.target.closest("#frames > *") : null;
    if (g) details.nodeValue = prefix + " " + g.querySelector("title").textContent;
  });
  frames.addEventListener("mouseout", function () { details.nodeValue = " "; });
}
