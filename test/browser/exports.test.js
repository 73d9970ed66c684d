// flamefold's exports in the programs they are for, in Debian's headless
// Chromium:
// - a speedscope file validates against the schema speedscope's npm package
//   ships (file-format-schema.json, with ajv), loads into speedscope (the
//   package's own app, served from 127.0.0.1), and its Sandwich view's
//   totals are the fold's: each frame's total (a stack counted once however
//   often the frame recurs in it) and self;
// - a d3 file loads into d3-flame-graph (npm, with d3) and the graph's
//   frames show the fold's totals, the root's being the fold's total.
// The fold is a small profile of folded stacks with names that need JSON's
// escapes; and a perf script text, whose speedscope file has a profile per
// thread, of which speedscope opens the heaviest with that thread's totals.
// Any page error fails the test.
//
// Environment: FLAMEFOLD (the binary), TESTDATA (testdata/).
"use strict";
const { chromium } = require("playwright-core");
const Ajv = require("ajv");
const { execFileSync } = require("child_process");
const fs = require("fs");
const http = require("http");
const os = require("os");
const path = require("path");

const flamefold = process.env.FLAMEFOLD;
const testdata = process.env.TESTDATA;
const modules = path.join(__dirname, "node_modules");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "flamefold-exports-"));
const { check, failures } = require("./check");

function fold(args) {
  return execFileSync(flamefold, args, { maxBuffer: 1 << 30 });
}

// The fold's stacks: [[frames], count].
function stacksOf(folded) {
  return folded.toString("utf8").split("\n").filter((l) => l).map((l) => {
    const cut = l.lastIndexOf(" ");
    return [l.slice(0, cut).split(";"), Number(l.slice(cut + 1))];
  });
}

// Each frame name's total and self over the stacks.
function frameTotals(stacks) {
  const totals = new Map();
  for (const [frames, count] of stacks) {
    for (const name of new Set(frames)) {
      const t = totals.get(name) || { total: 0, self: 0 };
      t.total += count;
      totals.set(name, t);
    }
    totals.get(frames[frames.length - 1]).self += count;
  }
  return totals;
}

// Serves `files` ({url path: file}) and `dirs` ({url prefix: folder}).
function serve(files, dirs) {
  const types = { ".html": "text/html", ".js": "text/javascript",
                  ".css": "text/css", ".json": "application/json",
                  ".wasm": "application/wasm" };
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split(/[?#]/)[0]);
    let file = files[url];
    for (const [prefix, dir] of Object.entries(dirs)) {
      if (!file && url.startsWith(prefix)) {
        file = path.join(dir, path.normalize(url.slice(prefix.length)) || "index.html");
      }
    }
    if (file && fs.existsSync(file) && fs.statSync(file).isDirectory()) {
      file = path.join(file, "index.html");
    }
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
    res.end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function validateSpeedscope(file) {
  const schema = JSON.parse(fs.readFileSync(
    path.join(modules, "speedscope", "dist", "release", "file-format-schema.json")));
  const ajv = new Ajv({ strict: false, allErrors: true });
  const valid = ajv.validate(schema, JSON.parse(fs.readFileSync(file, "utf8")));
  check("speedscope file valid against speedscope's schema", valid,
        JSON.stringify(ajv.errors));
  // The schema must be able to say no: a sample naming a frame as a string.
  const broken = JSON.parse(fs.readFileSync(file, "utf8"));
  broken.profiles[0].samples[0] = ["x"];
  check("speedscope's schema rejects a broken file", !ajv.validate(schema, broken));
}

// speedscope's Sandwich view: {name: {total, self}} from its table (the
// visible one: the profile selector, hidden, is a table too).
async function sandwichTotals(page, open = true) {
  if (open) {
    await page.waitForSelector("text=Sandwich", { timeout: 20000 });
    await page.keyboard.press("3");  // the Sandwich view
  }
  const visibleRows = () => [...document.querySelectorAll("table tr")]
    .filter((tr) => tr.offsetParent !== null && tr.querySelectorAll("td").length >= 3);
  await page.waitForFunction(`(${visibleRows})().length > 0`, null, { timeout: 20000 });
  return page.evaluate(`(${visibleRows})().map((row) =>
    [...row.querySelectorAll("td")].map((td) => td.textContent.trim()))`)
    .then((rows) => {
      const out = {};
      for (const cells of rows) {
        // Total, Self, Symbol Name; a value cell shows "12" or "12.00"
        // then a percentage.
        out[cells[cells.length - 1]] = { total: parseFloat(cells[0]),
                                         self: parseFloat(cells[1]) };
      }
      return out;
    });
}

// Loads `file` into speedscope and compares its Sandwich view with
// `totals`. The view draws only the rows in sight: with `all`, every frame
// must be listed; else the frames listed must be right, and, the view
// sorted by total, `top` must come first with its total.
async function checkSpeedscope(browser, base, totals, errors,
                               file = "/profile.speedscope.json",
                               all = true, top = "") {
  const page = await browser.newPage();
  page.on("pageerror", (e) => errors.push("speedscope: " + e.message));
  await page.goto(base + "/speedscope/#profileURL=" +
                  encodeURIComponent(base + file));
  const shown = await sandwichTotals(page);
  const names = all ? [...totals.keys()] : Object.keys(shown);
  check("speedscope lists " + (all ? "every frame" : "frames"),
        names.every((n) => n in shown) && names.length > 0 &&
        Object.keys(shown).length === names.length,
        JSON.stringify(Object.keys(shown)));
  const wrong = names.filter((n) => !shown[n] || !totals.has(n) ||
                             shown[n].total !== totals.get(n).total ||
                             shown[n].self !== totals.get(n).self);
  check("speedscope's totals and selfs are the fold's", wrong.length === 0,
        wrong.map((n) => n + ": " + JSON.stringify(shown[n]) + " want " +
                  JSON.stringify(totals.get(n))).join("; "));
  if (top) {
    await page.click("th:has-text('Total') >> visible=true");
    const sorted = await sandwichTotals(page, false);
    const first = Object.keys(sorted)[0];
    check("speedscope's heaviest frame by total is " + top + ", with the fold's total",
          first === top && totals.has(top) &&
          sorted[top].total === totals.get(top).total,
          first + ": " + JSON.stringify(sorted[first]) + " want " +
          JSON.stringify(totals.get(top)));
  }
  await page.close();
}

// A perf script text's speedscope file has a profile per thread
// ("comm-tid"); speedscope opens the heaviest, whose totals are those of
// the thread's own stacks: the lines of `flamefold --tid` whose process
// frame ends "/TID", with the process frame as flamefold names it without
// --tid (the comm).
function threadTotals(text, doc) {
  const active = doc.profiles[doc.activeProfileIndex];
  const heaviest = doc.profiles.every((p) => p.endValue <= active.endValue);
  check("speedscope opens the heaviest thread", heaviest, active.name);
  const tid = active.name.slice(active.name.lastIndexOf("-") + 1);
  const comm = active.name.slice(0, active.name.lastIndexOf("-"));
  const stacks = stacksOf(fold(["--tid", text]))
    .filter(([frames]) => frames[0].endsWith("/" + tid))
    .map(([frames, count]) => [[comm, ...frames.slice(1)], count]);
  check("the heaviest thread has stacks", stacks.length > 0, active.name);
  return frameTotals(stacks);
}

async function checkD3(browser, base, stacks, errors) {
  fs.writeFileSync(path.join(tmp, "d3.html"),
    "<!DOCTYPE html><html><head><meta charset='utf-8'>" +
    "<script src='/d3/dist/d3.min.js'></script>" +
    "<script src='/d3-flame-graph/dist/d3-flamegraph.umd.js'></script></head>" +
    "<body><div id='chart'></div><script>" +
    "fetch('/profile.d3.json').then((r) => r.json()).then((data) => {" +
    " const chart = flamegraph.default().width(1200).minFrameSize(0);" +
    " d3.select('#chart').datum(data).call(chart);" +
    " document.body.dataset.done = '1'; });" +
    "</script></body></html>");
  const page = await browser.newPage();
  page.on("pageerror", (e) => errors.push("d3-flame-graph: " + e.message));
  await page.goto(base + "/d3.html");
  await page.waitForSelector("body[data-done='1']", { state: "attached", timeout: 20000 })
    .catch((e) => { throw new Error(errors.join("; ") || e.message); });
  const titles = await page.$$eval("#chart g title", (ts) => ts.map((t) => t.textContent));
  const total = stacks.reduce((s, [, c]) => s + c, 0);
  check("d3-flame-graph shows the root with the fold's total",
        titles.some((t) => t.startsWith("root (") && t.endsWith(", " + total + " samples)")),
        titles.slice(0, 3).join(" | "));
  // Each process frame (the first) with its total.
  const processes = new Map();
  for (const [frames, count] of stacks) {
    processes.set(frames[0], (processes.get(frames[0]) || 0) + count);
  }
  const missing = [...processes].filter(([name, value]) =>
    !titles.some((t) => t.startsWith(name + " (") && t.endsWith(", " + value + " samples)")));
  check("d3-flame-graph's process frames have the fold's totals", missing.length === 0,
        JSON.stringify(missing));
  await page.close();
}

async function main() {
  const input = path.join(tmp, "in.folded");
  fs.writeFileSync(input, [
    'app;main;parse;"quoted"\\name 5',
    "app;main;parse;lex 7",
    "app;main;run;run;run 4",
    "app;main;run;tab\there 2",
    "caf\u00e9;fn<T>::call 3",
    "worker;main;parse 6",
  ].join("\n") + "\n");
  const folded = fold([input]);
  const stacks = stacksOf(folded);
  fs.writeFileSync(path.join(tmp, "profile.speedscope.json"), fold(["--format=speedscope", input]));
  fs.writeFileSync(path.join(tmp, "profile.d3.json"), fold(["--format=d3", input]));
  validateSpeedscope(path.join(tmp, "profile.speedscope.json"));
  const text = path.join(testdata, "flamegraph-tests",
                         "perf-iperf-stacks-pidtid-01.txt.gz");
  const threads = path.join(tmp, "threads.speedscope.json");
  fs.writeFileSync(threads, fold(["--format=speedscope", text]));
  validateSpeedscope(threads);
  const threadDoc = JSON.parse(fs.readFileSync(threads, "utf8"));
  check("a profile per thread", threadDoc.profiles.length > 1,
        threadDoc.profiles.length);

  const server = await serve({
    "/profile.speedscope.json": path.join(tmp, "profile.speedscope.json"),
    "/profile.d3.json": path.join(tmp, "profile.d3.json"),
    "/threads.speedscope.json": threads,
    "/d3.html": path.join(tmp, "d3.html"),
  }, {
    "/speedscope/": path.join(modules, "speedscope", "dist", "release"),
    "/d3-flame-graph/": path.join(modules, "d3-flame-graph"),
    "/d3/": path.join(modules, "d3"),
  });
  const base = "http://127.0.0.1:" + server.address().port;
  const browser = await chromium.launchPersistentContext(path.join(tmp, "profile"), {
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-quic", "--use-gl=swiftshader",
           "--enable-unsafe-swiftshader", "--no-first-run",
           "--disable-background-networking", "--disable-component-update",
           "--disable-sync"],
    viewport: { width: 1240, height: 700 },
  });
  const errors = [];
  try {
    await checkSpeedscope(browser, base, frameTotals(stacks), errors);
    await checkSpeedscope(browser, base, threadTotals(text, threadDoc), errors,
                          "/threads.speedscope.json", false, "iperf");
    await checkD3(browser, base, stacks, errors);
  } finally {
    await browser.close();
    server.close();
  }
  check("no page errors", errors.length === 0, errors.join("; "));
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(failures() ? failures() + " failed" : "all passed");
  process.exit(failures() ? 1 : 0);
}

main().catch((e) => {
  check("the test ran to its end", false, e && e.stack ? e.stack : e);
  process.exit(1);
});
