// bench-zoom.js LABEL=SVG...: how long a click-to-zoom takes in headless
// Chromium on each SVG, the same frames clicked in each. For every SVG: the
// load time, then $CLICKS frames (default 9, chosen the same way in every
// SVG: frames at least 20 px wide and narrower than the graph, spread evenly
// over them by row and then from left to right)
// are clicked one after the other, each followed by a click on Reset Zoom.
// The load is timed after one untimed load of the first SVG, so that the
// browser's start-up counts for none of them. A click is timed from just before the event is dispatched to the end of
// the next frame painted (a requestAnimationFrame callback, then a task
// queued from it, which runs after that frame's paint), so the script's
// work, the restyle, the layout and the paint all count. Prints the median
// and range of the zooms and of the resets, and fails when a click changed
// nothing (the SVG's viewer did not zoom).
//
// LABEL main is flamesvg's SVG and perl flamegraph.pl's: with $BENCH_RESULTS
// set (see lib.sh), each one's zoom times are appended there as a figure of
// the group $BENCH_GROUP, the command that drew the SVG taken from
// $ZOOM_MAIN or $ZOOM_PERL.
//
// Needs playwright-core (test/browser/node_modules, `npm ci` there) and
// /usr/bin/chromium, as the browser tests do.
"use strict";
const path = require("path");
const { launch, spread } = require(path.join(__dirname, "..", "test", "browser", "chromium.js"));
const fs = require("fs");
const os = require("os");

const clicks = parseInt(process.env.CLICKS || "9", 10);

function stats(values) {
  const s = spread(values);
  return `${s.mid.toFixed(0)} ms (${s.lo.toFixed(0)}-${s.hi.toFixed(0)})`;
}

// The zoom figures as lib.sh's measure writes its figures (seconds; no CPU
// time or memory), with main's ratio to perl.
function emitResults(svgs, results) {
  const file = process.env.BENCH_RESULTS;
  if (!file) return;
  const zoom = new Map(svgs.map((svg, i) => [svg.label, spread(results[i].zooms)]));
  const perl = zoom.get("perl");
  svgs.forEach((svg, i) => {
    const s = zoom.get(svg.label);
    const command = svg.label === "perl" ? process.env.ZOOM_PERL : process.env.ZOOM_MAIN;
    const ratio = svg.label !== "perl" && perl ? (perl.mid / s.mid).toFixed(1) : "-";
    const fields = ["BENCH", process.env.BENCH_GROUP || "zoom", svg.label,
                    (s.mid / 1000).toFixed(3), (s.lo / 1000).toFixed(3), (s.hi / 1000).toFixed(3),
                    "-", "-", String(results[i].zooms.length), ratio, "-",
                    `a click in the SVG of: ${command}`];
    fs.appendFileSync(file, fields.join("\t") + "\n");
  });
}

// Runs in the page: clicks the chosen frames, each then Reset Zoom, and
// returns the times. The frames are picked by their place so that two
// SVGs of the same profile get the same clicks.
async function clickFrames(count) {
  const painted = () => new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
  const timed = async (el) => {
    const t = performance.now();
    el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    await painted();
    return performance.now() - t;
  };
  const frames = [...document.querySelectorAll("#frames > g, #frames > a")];
  const wide = frames.filter((g) => {
    const rect = g.querySelector("rect");
    return rect && parseFloat(rect.getAttribute("width")) >= 20 &&
        parseFloat(rect.getAttribute("width")) < 1180;
  });
  // By row, then from left to right: flamegraph.pl writes its frames in
  // its hash's order, which changes from run to run.
  const at = (g, attr) => parseFloat(g.querySelector("rect").getAttribute(attr));
  wide.sort((a, b) => at(a, "y") - at(b, "y") || at(a, "x") - at(b, "x"));
  const picks = [];
  for (let k = 0; k < count && wide.length; k++) {
    picks.push(wide[Math.floor((k + 0.5) * wide.length / count)]);
  }
  const unzoom = document.getElementById("unzoom");
  const zooms = [], resets = [], titles = [];
  let unchanged = 0;
  await painted();
  for (const g of picks) {
    const rect = g.querySelector("rect");
    const before = rect.getAttribute("width");
    zooms.push(await timed(rect));
    // Our viewer draws a small zoom on a layer above #frames; the frame
    // itself keeps its width there.
    const layer = document.getElementById("zoomlayer");
    if (rect.getAttribute("width") === before && !layer) unchanged++;
    titles.push(g.querySelector("title").textContent);
    resets.push(await timed(unzoom));
  }
  return { frames: frames.length, zooms, resets, titles, unchanged };
}

async function main() {
  const svgs = process.argv.slice(2).map((arg) => {
    const eq = arg.indexOf("=");
    return { label: arg.slice(0, eq), file: path.resolve(arg.slice(eq + 1)) };
  });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-zoom-"));
  const browser = await launch(tmp);
  let failed = false;
  try {
    const results = [];
    // One untimed load first: the browser's own start-up (its first page,
    // renderer and fonts) would otherwise count in the first SVG's load.
    const warm = await browser.newPage();
    await warm.goto("file://" + svgs[0].file, { timeout: 120000 });
    await warm.close();
    for (const svg of svgs) {
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      const t0 = Date.now();
      await page.goto("file://" + svg.file, { timeout: 120000 });
      const loadMs = Date.now() - t0;
      const r = await page.evaluate(clickFrames, clicks);
      await page.close();
      results.push(r);
      console.log(`${svg.label}: ${r.frames} frames, load ${loadMs} ms; ` +
                  `zoom ${stats(r.zooms)}, reset ${stats(r.resets)} ` +
                  `(median (range) of ${r.zooms.length} clicks)`);
      if (r.unchanged > 0 || errors.length > 0 || r.zooms.length === 0) {
        console.log(`${svg.label}: FAILED: ${r.unchanged} clicks did not zoom; ` +
                    `page errors: ${errors.join("; ") || "none"}`);
        failed = true;
      }
    }
    emitResults(svgs, results);
    if (results.length > 1 &&
        results.some((r) => r.titles.join("\n") !== results[0].titles.join("\n"))) {
      console.log("note: the SVGs' clicked frames differ (their frame lists differ)");
    }
  } finally {
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log("FAILED: " + (e && e.stack ? e.stack : e));
  process.exit(1);
});
