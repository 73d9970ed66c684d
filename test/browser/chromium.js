// What the browser tests and benchmarks share: Debian's headless Chromium,
// launched with a fresh profile in `dir` (no sync, updates or background
// network), and the median and range of timings.
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

function launch(dir, viewport) {
  return chromium.launchPersistentContext(path.join(dir, "profile"), {
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
    viewport,
  });
}

// The median, least and greatest of the values.
function spread(values) {
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  return { mid, lo: v[0], hi: v[v.length - 1] };
}

module.exports = { launch, spread };
