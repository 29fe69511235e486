// The page nmt serve answers GET / with, in a real browser: headless
// Chromium, driven over the DevTools protocol (--remote-debugging-pipe:
// JSON messages ending in NUL on file descriptors 3 and 4), with Node's
// built-in modules only. Starts `NMT serve --port 0` (the embedded model),
// loads /, clicks into the text box, types a sentence, clicks Translate,
// waits for a translation in the page and saves a screenshot.
//
//   node tests/browser/page_test.js [NMT] [OUTDIR]   (./nmt, build/browser)
//
// Exits 0 with "browser: ..." lines when the page translates, 1 on a
// failure, 77 when chromium is not installed (CHROMIUM names another).
"use strict";
const { spawn } = require("child_process");
const { startBrowser, exitUnlessInstalled, sleep } = require("./chromium.js");

const NMT = process.argv[2] || "./nmt";
const OUT = process.argv[3] || "build/browser";
const CHROMIUM = process.env.CHROMIUM || "chromium";
const SENTENCE = "A dog runs in the park.";

exitUnlessInstalled(CHROMIUM);

const children = [];
let browser = null, finishing = false;
// stop the browser (its profile removed) and the server, then exit
async function finish(code, msg) {
  if (finishing) return;
  finishing = true;
  if (msg) console.log(msg);
  if (browser) await browser.close();
  const gone = children.filter(c => c.exitCode === null && c.signalCode === null)
    .map(c => new Promise(r => { c.on("exit", r); c.kill("SIGKILL"); }));
  await Promise.race([Promise.all(gone), sleep(5000)]);
  process.exit(code);
}
const fail = msg => finish(1, "browser: FAIL: " + msg);
setTimeout(() => fail("did not finish in 120 s"), 120000).unref();

// nmt serve on a port the system picks, read from its first line
function startServer() {
  return new Promise((resolve, reject) => {
    const srv = spawn(NMT, ["serve", "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
    children.push(srv);
    let err = "";
    srv.stderr.on("data", d => {
      err += d;
      const m = /on http:\/\/127\.0\.0\.1:(\d+) /.exec(err);
      if (m) resolve(Number(m[1]));
    });
    srv.on("exit", code => reject(new Error(`nmt serve exited (${code}): ${err.trim()}`)));
  });
}

async function main() {
  const port = await startServer();
  const url = `http://127.0.0.1:${port}/`;
  browser = startBrowser({ chromium: CHROMIUM, onExit: fail });
  // (a Content-Security-Policy violation or a script error shows up in errors)
  const { evaluate, click, type, navigate, screenshot, errors } = await browser.page();
  await navigate(url);
  // the pickers are filled from /languages
  let n = 0;
  for (let i = 0; i < 100 && n === 0; i++, await sleep(100))
    n = await evaluate('document.getElementById("target").options.length');
  if (n === 0) return fail(`the target picker stayed empty; page error: ${await evaluate('document.getElementById("error").textContent')}`);
  const sources = await evaluate('[...document.getElementById("source").options].map(o => o.value).join(",")');
  if (!sources.split(",").includes("auto")) return fail(`no "Detect language" in the source picker (${sources})`);
  console.log(`browser: loaded ${url}: source picker ${sources}`);

  // click into the text box and type the sentence, a key at a time
  await click("q");
  await type(SENTENCE);
  const typed = await evaluate('document.getElementById("q").value');
  if (typed !== SENTENCE) return fail(`typed ${JSON.stringify(SENTENCE)}, the text box holds ${JSON.stringify(typed)}`);
  await click("go");
  let out = "";
  for (let i = 0; i < 600 && !out; i++, await sleep(100)) {
    out = await evaluate('document.getElementById("out").textContent');
    const err = await evaluate('document.getElementById("error").textContent');
    if (err) return fail(`the page shows an error: ${err}`);
  }
  if (!out) return fail("no translation appeared in 60 s");
  console.log(`browser: typed "${SENTENCE}", clicked Translate, the page shows "${out}"`);
  const file = `${OUT}/page.png`;
  await screenshot(file);
  console.log(`browser: screenshot ${file}`);

  // then "Detect language" and HTML mode (the pickers set by script, the
  // click real): the detected language and the tags come back
  const translateAgain = async () => {
    await evaluate('document.getElementById("out").textContent = ""');
    await click("go");
    let o = "";
    for (let i = 0; i < 600 && !o; i++, await sleep(100)) {
      o = await evaluate('document.getElementById("out").textContent');
      const err = await evaluate('document.getElementById("error").textContent');
      if (err) throw new Error(`the page shows an error: ${err}`);
    }
    return o;
  };
  await evaluate(`(() => { const s = document.getElementById("source"); s.value = "auto";
    s.dispatchEvent(new Event("change")); document.getElementById("format").value = "html";
    document.getElementById("q").value = "A <b>dog</b> runs in the park."; })()`);
  const html = await translateAgain();
  const detected = await evaluate('document.getElementById("detected").textContent');
  if (!/^Detected: English \(/.test(detected)) return fail(`source auto: the page shows ${JSON.stringify(detected)}, not the detected English`);
  if (!/<b>.*<\/b>/.test(html)) return fail(`HTML mode: the translation ${JSON.stringify(html)} lost the tags`);
  console.log(`browser: Detect language and HTML: "${html}", ${detected}`);
  if (errors.length) return fail(`console errors: ${errors.join("; ")}`);
  finish(0, "browser: ok");
}
main().catch(e => fail(e.stack || String(e)));
