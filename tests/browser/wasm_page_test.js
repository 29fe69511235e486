// The WebAssembly translator page (make wasm-page: build/wasm/page/index.html)
// in headless Chromium, opened from file:// with no server: waits for the
// Worker to load the embedded model, clicks into the text box, types a
// sentence, clicks Translate, finds the translation in the page, saves a
// screenshot; then HTML mode keeps the tags; then a long text is translated
// while a timer on the main thread measures its longest pause (the page
// stays responsive: the Worker does the work).
//
//   node tests/browser/wasm_page_test.js [PAGE] [OUTDIR]
//        (build/wasm/page/index.html, build/browser; PAGE may be an http:// URL)
//
// Exits 0 with "browser: ..." lines when the page translates (EXPECT=TEXT:
// the translation must be TEXT), 1 on a failure, 77 when chromium is not
// installed (CHROMIUM names another).
"use strict";
const path = require("path");
const { startBrowser, exitUnlessInstalled, sleep } = require("./chromium.js");

const ARG = process.argv[2] || "build/wasm/page/index.html";   // or an http:// URL
const OUT = process.argv[3] || "build/browser";
const CHROMIUM = process.env.CHROMIUM || "chromium";
const SENTENCE = "A dog runs along the beach.";
const HTML = "A <b>dog</b> runs along the beach.";
const LINES = +(process.env.LINES || 400);             // the long text of the responsiveness check
const MAX_GAP_MS = +(process.env.MAX_GAP_MS || 250);   // the longest main-thread pause allowed in it

exitUnlessInstalled(CHROMIUM);

let browser = null, finishing = false;
async function finish(code, msg) {
  if (finishing) return;
  finishing = true;
  if (msg) console.log(msg);
  if (browser) await browser.close();
  process.exit(code);
}
const fail = msg => finish(1, "browser: FAIL: " + msg);
setTimeout(() => fail("did not finish in 120 s"), 120000).unref();

async function main() {
  browser = startBrowser({ chromium: CHROMIUM, onExit: msg => fail(msg) });
  const page = await browser.page();
  const url = /^https?:\/\//.test(ARG) ? ARG : "file://" + path.resolve(ARG);
  await page.navigate(url);
  const text = id => page.evaluate(`document.getElementById(${JSON.stringify(id)}).textContent`);
  // the Worker loads the module and the embedded model; Translate is enabled then
  let ready = false;
  for (let i = 0; i < 600 && !ready; i++, await sleep(100)) {
    ready = !(await page.evaluate('document.getElementById("go").disabled'));
    const err = await text("error");
    if (err) return fail(`the page shows an error while loading: ${err}`);
  }
  if (!ready) return fail("Translate was not enabled in 60 s: " + await text("status"));
  console.log(`browser: loaded ${url}: ${await text("status")}`);

  const translate = async () => {
    await page.evaluate('document.getElementById("out").textContent = ""');
    await page.click("go");
    let out = "";
    for (let i = 0; i < 600 && !out; i++, await sleep(100)) {
      out = await text("out");
      const err = await text("error");
      if (err) throw new Error(`the page shows an error: ${err}`);
    }
    if (!out) throw new Error("no translation appeared in 60 s");
    return out;
  };
  await page.click("q");
  await page.type(SENTENCE);
  const typed = await page.evaluate('document.getElementById("q").value');
  if (typed !== SENTENCE) return fail(`typed ${JSON.stringify(SENTENCE)}, the text box holds ${JSON.stringify(typed)}`);
  const out = await translate();
  if (process.env.EXPECT && out !== process.env.EXPECT)
    return fail(`the page shows ${JSON.stringify(out)}, not ${JSON.stringify(process.env.EXPECT)}`);
  console.log(`browser: typed "${SENTENCE}", clicked Translate, the page shows "${out}" (${await text("status")})`);
  const file = path.join(OUT, "wasm_page.png");
  await page.screenshot(file);
  console.log(`browser: screenshot ${file}`);

  // HTML mode (the checkbox clicked): the tags come back
  await page.click("html");
  await page.evaluate(`document.getElementById("q").value = ${JSON.stringify(HTML)}`);
  const html = await translate();
  if (process.env.EXPECT_HTML && html !== process.env.EXPECT_HTML)
    return fail(`HTML mode: the page shows ${JSON.stringify(html)}, not ${JSON.stringify(process.env.EXPECT_HTML)}`);
  if (!/<b>.*<\/b>/.test(html)) return fail(`HTML mode: the translation ${JSON.stringify(html)} lost the tags`);
  console.log(`browser: HTML mode: "${html}"`);

  // Responsiveness: a long text (LINES lines) translated while a 10 ms timer
  // on the page's main thread notes its longest gap. The Worker translates,
  // so the gap stays a small part of the translation's time; were the
  // translation on the main thread, the gap would be all of it.
  await page.click("html");   // back to plain text
  const lines = Array.from({ length: LINES }, (_, i) => `${SENTENCE} It is ${i + 1} meters long.`).join("\n");
  await page.evaluate(`document.getElementById("q").value = ${JSON.stringify(lines)}`);
  await page.evaluate(`(() => {
    window.probe = { max: 0, ticks: 0, last: performance.now() };
    window.probe.timer = setInterval(() => {
      const t = performance.now();
      probe.max = Math.max(probe.max, t - probe.last);
      probe.ticks++;
      probe.last = t;
    }, 10);
  })()`);
  const start = Date.now();
  const long = await translate();
  const ms = Date.now() - start;
  const probe = JSON.parse(await page.evaluate(`(() => { clearInterval(probe.timer);
    return JSON.stringify({ max: probe.max, ticks: probe.ticks }); })()`));
  const got = long.split("\n").length;
  if (got !== LINES) return fail(`the long text: ${LINES} lines in, ${got} out`);
  console.log(`browser: responsive: ${LINES} lines translated in ${ms} ms; the main thread's 10 ms timer ` +
    `ticked ${probe.ticks} times, its longest gap ${probe.max.toFixed(1)} ms`);
  if (ms < 500) return fail(`the long text took only ${ms} ms: too short to show responsiveness (LINES)`);
  if (probe.max > MAX_GAP_MS || probe.max > ms / 4)
    return fail(`the main thread was blocked for ${probe.max.toFixed(1)} ms of the ${ms} ms translation`);
  if (page.errors.length) return fail(`console errors: ${page.errors.join("; ")}`);
  finish(0, "browser: ok");
}
main().catch(e => fail(e.stack || String(e)));
