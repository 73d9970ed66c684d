// bench-scope.js PAGE: flamescope's page in headless Chromium: the time to
// load it (navigation to its tables inflated and the whole profile's graph
// painted), then, for
// selections of 1, 10 and 60 seconds and of the whole recording, the time
// from the click on the last cell (the first one clicked before) to the end
// of the next frame painted (a requestAnimationFrame callback, then a task
// queued from it), $CLICKS rounds each (default 9) at places spread over
// the recording. The clicks are mouse events dispatched on the heat map at
// the cells' places, as a reader's. Fails when a selection drew nothing or
// the page had an error.
//
// With $BENCH_RESULTS set (see lib.sh), each selection size's times are
// appended there as a figure of the group $BENCH_GROUP, for the page
// $SCOPE_COMMAND wrote.
//
// Needs playwright-core (test/browser/node_modules, `npm ci` there) and
// /usr/bin/chromium, as the browser tests do.
"use strict";
const path = require("path");
const { launch, spread } = require(path.join(__dirname, "..", "test", "browser", "chromium.js"));
const fs = require("fs");
const os = require("os");

const clicks = parseInt(process.env.CLICKS || "9", 10);

// Runs in the page: selects `rounds` ranges of `seconds` seconds (0: the
// whole recording) and returns the times and the frames each drew.
async function select([seconds, rounds]) {
  const painted = () => new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
  const canvas = document.getElementById("heatmap");
  const clickCell = (col, row) => {
    const box = canvas.getBoundingClientRect(), p = flamescope.cellRect(col, row);
    const at = { bubbles: true, cancelable: true, clientX: box.left + p.x, clientY: box.top + p.y };
    canvas.dispatchEvent(new MouseEvent("mousedown", at));
    canvas.dispatchEvent(new MouseEvent("mouseup", at));
  };
  const columns = flamescope.columns, rows = flamescope.rows;
  const span = seconds === 0 ? columns : Math.min(seconds, columns);
  const times = [], frames = [];
  for (let k = 0; k < rounds; k++) {
    const first = Math.floor((columns - span) * k / Math.max(rounds - 1, 1));
    clickCell(first, 0);
    await painted();
    const t = performance.now();
    clickCell(first + span - 1, rows - 1);
    await painted();
    times.push(performance.now() - t);
    frames.push(flamescope.frames().length);
  }
  return { times, frames };
}

async function main() {
  const file = path.resolve(process.argv[2]);
  const html = file.endsWith(".html") ? file : file + ".html";
  if (html !== file) fs.copyFileSync(file, html);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-scope-"));
  const browser = await launch(tmp, { width: 1240, height: 900 });
  let failed = false;
  try {
    const warm = await browser.newPage();  // the browser's own start-up
    await warm.goto("about:blank");
    await warm.close();
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const t0 = Date.now();
    await page.goto("file://" + html, { timeout: 120000 });
    await page.waitForFunction(() => window.flamescope, null, { timeout: 120000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    console.log(`load: ${Date.now() - t0} ms (navigation to the tables inflated and the whole profile's graph painted)`);
    const lines = [];
    for (const seconds of [1, 10, 60, 0]) {
      const r = await page.evaluate(select, [seconds, clicks]);
      const s = spread(r.times);
      const what = seconds ? `${seconds} s` : "the whole recording";
      console.log(`select ${what}: ${s.mid.toFixed(0)} ms (${s.lo.toFixed(0)}-${s.hi.toFixed(0)}), ` +
                  `${spread(r.frames).mid} frames drawn`);
      if (r.frames.some((n) => n < 2)) failed = true;
      lines.push(["BENCH", process.env.BENCH_GROUP || "scope", seconds === 60 ? "main" : "variant",
                  (s.mid / 1000).toFixed(3), (s.lo / 1000).toFixed(3), (s.hi / 1000).toFixed(3),
                  "-", "-", String(r.times.length), "-", "-",
                  `a selection of ${what} in the page of: ${process.env.SCOPE_COMMAND}`].join("\t"));
    }
    if (errors.length) {
      console.log("FAILED: page errors: " + errors.join("; "));
      failed = true;
    }
    if (process.env.BENCH_RESULTS) fs.appendFileSync(process.env.BENCH_RESULTS, lines.join("\n") + "\n");
  } finally {
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
    if (html !== file) fs.rmSync(html, { force: true });
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log("FAILED: " + (e && e.stack ? e.stack : e));
  process.exit(1);
});
