// flamescope's page in Debian's headless Chromium, on a testdata recording
// (perf script text of about 30 seconds):
// - each heat map cell's samples equal those counted here from the text's
//   sample times (rows a fraction of the second, columns seconds from the
//   first sample's), each column's sum the line of `flamescope
//   --per-second`, and hovering a cell shows its count;
// - before any selection the graph is the whole profile's, frame for frame
//   `flamefold | flamesvg`'s: the frames the page draws on its canvas
//   (flamescope.frames(), each with its title, rectangle, fill and label
//   as flamesvg prints them) are the SVG's;
// - a range selected with two clicks, and one dragged, draws the frames of
//   `flamefold --time-range R | flamesvg` for the range R the page shows,
//   and R keeps exactly the samples of the cells selected: the same frames
//   come from flamefold on the samples of those cells, cut from the text
//   here; the saved folded stacks are flamefold's;
// - on a perf.data recording, a selection draws flamefold --time-range's
//   frames for the range the page names;
// - a profile of hostile frame names loads, its names shown as they are.
// Any page error or console error fails the test.
//
// Environment: FLAMESCOPE, FLAMEFOLD, FLAMESVG (the binaries), TESTDATA.
"use strict";
const { launch } = require("./chromium");
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const zlib = require("zlib");

const flamescope = process.env.FLAMESCOPE;
const flamefold = process.env.FLAMEFOLD;
const flamesvg = process.env.FLAMESVG;
const testdata = process.env.TESTDATA;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "flamescope-browser-"));
const { check, failures } = require("./check");

function run(bin, args, input, env) {
  return execFileSync(bin, args, { maxBuffer: 1 << 30, input, env: { ...process.env, ...env },
                                   stdio: ["pipe", "pipe", "ignore"] });
}

// The samples of perf script text: each with its header's time in
// nanoseconds and its lines (header, frames and the blank line after).
function samplesOf(text) {
  const samples = [];
  for (const block of text.split(/\n\n+/)) {
    const m = /^\S.*? (\d+)\.(\d{6}): /m.exec(block);
    if (!m || block.startsWith("#")) continue;
    samples.push({ ns: BigInt(m[1]) * 1000000000n + BigInt(m[2]) * 1000n,
                   text: block.replace(/^\n+/, "") + "\n\n" });
  }
  return samples;
}

// The cell of a time: [second from the first sample's, row].
function cellOf(ns, baseNs, rows) {
  const off = ns - baseNs;
  return [Number(off / 1000000000n), Number((off % 1000000000n) * BigInt(rows) / 1000000000n)];
}

// The frames drawn under `selector` in the page open in `page`.
async function framesIn(page, selector) {
  return page.evaluate((sel) => {
    const out = [];
    for (const g of document.querySelectorAll(sel + " > g")) {
      const r = g.querySelector("rect"), t = g.querySelector("text");
      out.push([g.querySelector("title").textContent, r.getAttribute("x"),
                r.getAttribute("y"), r.getAttribute("width"), r.getAttribute("height"),
                r.getAttribute("fill"), t ? t.textContent : ""].join("|"));
    }
    return out.sort();
  }, selector);
}

// Opens a flamescope page in `page`: its tables are inflated after the
// load, then window.flamescope is set.
async function openScope(page, file) {
  await page.goto("file://" + file);
  await page.waitForFunction(() => window.flamescope, null, { timeout: 60000 });
}

// The frames flamescope's page drew, in the same form.
async function drawnFrames(page) {
  return (await page.evaluate(() => flamescope.frames())).sort();
}

async function svgFrames(browser, folded) {
  const file = path.join(tmp, "graph-" + Math.random().toString(36).slice(2) + ".svg");
  fs.writeFileSync(file, run(flamesvg, [], folded));
  const page = await browser.newPage();
  await page.goto("file://" + file);
  const frames = await framesIn(page, "#frames");
  await page.close();
  return frames;
}

function sameFrames(what, got, want) {
  const missing = want.filter((f) => !got.includes(f));
  const extra = got.filter((f) => !want.includes(f));
  check(what + " (" + want.length + " frames)", want.length > 1 && missing.length === 0 &&
        extra.length === 0 && got.length === want.length,
        "missing " + JSON.stringify(missing.slice(0, 3)) + ", extra " +
        JSON.stringify(extra.slice(0, 3)) + ", " + got.length + " vs " + want.length);
}

async function main() {
  const input = path.join(testdata, "example", "example-perf.txt.gz");
  const text = zlib.gunzipSync(fs.readFileSync(input)).toString("latin1");
  const samples = samplesOf(text);
  const rows = 50;
  const html = path.join(tmp, "scope.html");
  run(flamescope, ["-o", html, input]);
  const perSecond = run(flamescope, ["--per-second", input]).toString().trim().split("\n");

  const browser = await launch(tmp, { width: 1240, height: 900 });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push("page error: " + e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("blob:")) errors.push("request: " + r.url()); });
  await openScope(page, html);

  // The cells, against the text's sample times.
  let first = samples[0].ns;
  for (const s of samples) if (s.ns < first) first = s.ns;
  const baseNs = first - first % 1000000000n;
  const want = new Map();
  for (const s of samples) {
    const key = cellOf(s.ns, baseNs, rows).join(",");
    want.set(key, (want.get(key) || 0) + 1);
  }
  const shape = await page.evaluate(() => [flamescope.rows, flamescope.columns, flamescope.base]);
  check("the heat map's shape", shape[0] === rows && shape[1] === perSecond.length - 1 &&
        BigInt(shape[2]) * 1000000000n === baseNs, JSON.stringify(shape));
  const got = await page.evaluate(() => {
    const cells = {};
    for (let c = 0; c < flamescope.columns; c++) {
      for (let r = 0; r < flamescope.rows; r++) {
        const n = flamescope.cellSamples(c, r);
        if (n) cells[c + "," + r] = n;
      }
    }
    return cells;
  });
  const bad = [];
  for (const key of new Set([...want.keys(), ...Object.keys(got)])) {
    if ((want.get(key) || 0) !== (got[key] || 0)) bad.push(key + ": " + got[key] + " vs " + want.get(key));
  }
  check("every cell holds the samples of its time (" + samples.length + " samples, " +
        want.size + " cells)", bad.length === 0 && want.size > 100, bad.slice(0, 5).join("; "));
  check("--per-second's header", perSecond[0] === "SECOND SAMPLES", perSecond[0]);
  const columnSums = await page.evaluate(() => {
    const sums = [];
    for (let c = 0; c < flamescope.columns; c++) {
      let n = 0;
      for (let r = 0; r < flamescope.rows; r++) n += flamescope.cellSamples(c, r);
      sums.push(c + " " + n);
    }
    return sums;
  });
  check("each column's sum is --per-second's line", JSON.stringify(columnSums) ===
        JSON.stringify(perSecond.slice(1)), columnSums.slice(0, 3) + " vs " + perSecond.slice(1, 4));

  // Hover.
  const box = await page.locator("#heatmap").boundingBox();
  async function at(col, row) {
    const p = await page.evaluate(([c, r]) => flamescope.cellRect(c, r), [col, row]);
    return [box.x + p.x, box.y + p.y];
  }
  const busy = [...want.entries()].sort((a, b) => b[1] - a[1])[0];
  const [bc, br] = busy[0].split(",").map(Number);
  await page.mouse.move(...(await at(bc, br)));
  const hover = await page.locator("#hover").textContent();
  check("hovering a cell shows its second, offset and samples",
        hover === "second " + bc + ", offset " + (br * 1000 / rows) + " ms: " + busy[1] + " samples", hover);

  // The whole profile before any selection.
  const whole = run(flamefold, [input]);
  sameFrames("the whole profile's graph is flamefold | flamesvg's",
             await drawnFrames(page), await svgFrames(browser, whole));
  check("the whole profile's command", (await page.locator("#command").textContent()) ===
        "flamefold " + input + " | flamesvg > selection.svg");

  // Selects from cell a to cell b with `how` and compares the graph.
  async function selected(what, a, b, how) {
    if (how === "clicks") {
      await page.mouse.click(...(await at(...a)));
      await page.mouse.click(...(await at(...b)));
    } else {
      await page.mouse.move(...(await at(...a)));
      await page.mouse.down();
      await page.mouse.move(...(await at(...b)), { steps: 5 });
      await page.mouse.up();
    }
    const command = await page.locator("#command").textContent();
    const m = / --time-range (\d+)\.(\d{9}),(\d+)\.(\d{9}) \| flamesvg/.exec(command);
    check(what + ": the page names a --time-range", m !== null, command);
    if (!m) return;
    const lo = BigInt(m[1]) * 1000000000n + BigInt(m[2]);
    const hi = BigInt(m[3]) * 1000000000n + BigInt(m[4]);
    // The range holds exactly the cells from a to b, in time order.
    const [ca, cb] = [a[0] * rows + a[1], b[0] * rows + b[1]].sort((x, y) => x - y);
    const inRange = samples.filter((s) => s.ns >= lo && s.ns <= hi);
    const inCells = samples.filter((s) => {
      const [c, r] = cellOf(s.ns, baseNs, rows);
      return c * rows + r >= ca && c * rows + r <= cb;
    });
    check(what + ": the range keeps the samples of the cells (" + inCells.length + ")",
          inRange.length === inCells.length && inCells.length > 0 &&
          inRange.every((s, i) => s === inCells[i]), inRange.length + " vs " + inCells.length);
    const cut = run(flamefold, [], Buffer.from(inCells.map((s) => s.text).join(""), "latin1"));
    const drawn = await drawnFrames(page);
    sameFrames(what + ": the graph is flamefold's of those samples",
               drawn, await svgFrames(browser, cut));
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save")]);
    const saved = fs.readFileSync(await download.path(), "utf8");
    check(what + ": the saved stacks are flamefold's", saved === cut.toString("utf8"),
          saved.slice(0, 200) + " vs " + cut.toString("utf8").slice(0, 200));
    const range = m[1] + "." + m[2] + "," + m[3] + "." + m[4];
    const folded = run(flamefold, ["--time-range", range, input]);
    check(what + ": flamefold --time-range " + range + " folds the same stacks",
          folded.equals(cut));
    sameFrames(what + ": the graph is flamefold --time-range | flamesvg's",
               drawn, await svgFrames(browser, folded));
  }
  await selected("two clicks", [bc, br], [Math.min(bc + 2, shape[1] - 1), 10], "clicks");
  await selected("two clicks backwards", [5, 30], [3, 45], "clicks");
  await selected("a drag", [bc, 0], [bc, rows - 1], "drag");

  // A recording: the range the page names, given to flamefold with the
  // recording, draws the frames the page drew.
  const data = path.join(testdata, "perf-data", "system-wide");
  const recordingArgs = ["-q", "--kallsyms", path.join(data, "kallsyms"), path.join(data, "perf.data")];
  const recordingPage = path.join(tmp, "recording.html");
  run(flamescope, ["-o", recordingPage, ...recordingArgs], undefined, { HOME: "/nonexistent" });
  await openScope(page, recordingPage);
  const range = await page.evaluate(() => flamescope.select(20, flamescope.rows + 30));
  const recorded = run(flamefold, ["--time-range", range, ...recordingArgs], undefined,
                       { HOME: "/nonexistent" });
  sameFrames("a recording's selection is flamefold --time-range " + range + " | flamesvg's",
             await drawnFrames(page), await svgFrames(browser, recorded));

  // Hostile names.
  const hostile = ["</script><script>window.pwned=1</script>", "a&amp;b<i>\"c\"</i>",
                   "<!--x", "\u00e9t\u00e9\u2028sep"];
  let perf = "";
  for (let i = 0; i < 40; i++) {
    perf += "app 10/10 [000] 100." + String(100000 + i * 20000).padStart(6, "0") + ": cycles:\n" +
            "\t1000 " + hostile[i % hostile.length] + " (/bin/app)\n\t2000 main (/bin/app)\n\n";
  }
  const hostilePage = path.join(tmp, "hostile.html");
  run(flamescope, ["-o", hostilePage, "--title", "</title><script>x</script>"], Buffer.from(perf, "utf8"));
  await openScope(page, hostilePage);
  const titles = (await drawnFrames(page)).join("\n");
  check("hostile names: no script of theirs ran", await page.evaluate(() => window.pwned === undefined));
  // Each leaf as flamefold names it (it drops the quotes, as
  // stackcollapse-perf.pl does).
  const leaves = run(flamefold, [], Buffer.from(perf, "utf8")).toString("utf8").trim()
      .split("\n").map((l) => l.slice(l.lastIndexOf(";") + 1, l.lastIndexOf(" ")));
  check("hostile names: each shown as it is", leaves.length === 4 && leaves.every(
      (h) => titles.includes(h + " (10 samples, 25.00%)")), leaves.join(", ") + ": " + titles);
  check("hostile names: the title is text", (await page.title()) === "</title><script>x</script>");

  check("no page errors or requests", errors.length === 0, errors.join("; "));
  await browser.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  if (failures() > 0) {
    console.log(failures() + " failure(s)");
    process.exit(1);
  }
  console.log("all passed");
}

main().catch((e) => {
  console.log("FAIL " + e.stack);
  process.exit(1);
});
