// The WebAssembly translator page (make wasm-page: build/wasm/page/index.html)
// in headless Chromium, opened from file:// with no server: waits for the
// Worker to load the embedded model, clicks into the text box, types a
// sentence, clicks Translate, finds the translation in the page, saves a
// screenshot; then HTML mode keeps the tags.
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
  if (page.errors.length) return fail(`console errors: ${page.errors.join("; ")}`);
  finish(0, "browser: ok");
}
main().catch(e => fail(e.stack || String(e)));
