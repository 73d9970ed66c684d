// What the browser tests share: `check(what, ok, detail)` prints "ok WHAT"
// or "FAIL WHAT: DETAIL" and counts the failures (`failures()`).
"use strict";
let failed = 0;

function check(what, ok, detail) {
  if (ok) {
    console.log("ok " + what);
  } else {
    failed++;
    console.log("FAIL " + what + (detail !== undefined ? ": " + detail : ""));
  }
}

module.exports = { check, failures: () => failed };
