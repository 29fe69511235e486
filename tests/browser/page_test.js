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
const sleep = ms => new Promise(r => setTimeout(r, ms));
const { spawn, spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const NMT = process.argv[2] || "./nmt";
const OUT = process.argv[3] || "build/browser";
const CHROMIUM = process.env.CHROMIUM || "chromium";
const SENTENCE = "A dog runs in the park.";

if (spawnSync("sh", ["-c", `command -v ${CHROMIUM}`]).status !== 0) {
  console.log(`browser: skipped: ${CHROMIUM} is not installed (Debian: apt-get install chromium)`);
  process.exit(77);
}

const children = [];
let profile = null, finishing = false;
// stop the server and the browser, wait for them, remove the profile, exit
async function finish(code, msg) {
  if (finishing) return;
  finishing = true;
  if (msg) console.log(msg);
  const gone = children.filter(c => c.exitCode === null && c.signalCode === null)
    .map(c => new Promise(r => { c.on("exit", r); c.kill("SIGKILL"); }));
  await Promise.race([Promise.all(gone), sleep(5000)]);
  if (profile) {
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    } catch (e) {
      console.log(`browser: note: ${profile} not removed: ${e.message}`);
    }
  }
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

// Chromium with the DevTools protocol on a pipe
function startBrowser() {
  profile = fs.mkdtempSync(path.join(os.tmpdir(), "nmt-browser-"));
  const args = ["--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-extensions", "--disable-background-networking", "--window-size=1000,700",
    `--user-data-dir=${profile}`, "about:blank"];
  const b = spawn(CHROMIUM, args, { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  children.push(b);
  let log = "";
  b.stderr.on("data", d => { log += d; });
  b.on("exit", code => fail(`chromium exited (${code}): ${log.slice(-2000)}`));
  const toBrowser = b.stdio[3], fromBrowser = b.stdio[4];
  let id = 0, buf = "";
  const waiting = new Map(), listeners = [];
  fromBrowser.on("data", d => {
    buf += d.toString("utf8");
    let end;
    while ((end = buf.indexOf("\0")) >= 0) {
      const msg = JSON.parse(buf.slice(0, end));
      buf = buf.slice(end + 1);
      if (msg.id !== undefined && waiting.has(msg.id)) {
        const w = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (msg.error) w.reject(new Error(`${w.method}: ${msg.error.message}`));
        else w.resolve(msg.result);
      } else if (msg.method) {
        for (const l of listeners.slice()) l(msg);
      }
    }
  });
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    const m = { id: ++id, method, params };
    if (sessionId) m.sessionId = sessionId;
    waiting.set(m.id, { resolve, reject, method });
    toBrowser.write(JSON.stringify(m) + "\0");
  });
  const once = (method, sessionId) => new Promise(resolve => {
    const l = msg => {
      if (msg.method === method && (!sessionId || msg.sessionId === sessionId)) {
        listeners.splice(listeners.indexOf(l), 1);
        resolve(msg.params);
      }
    };
    listeners.push(l);
  });
  const on = l => listeners.push(l);   // every event, for good
  const close = async () => {   // a clean exit, which removes its helper processes
    b.removeAllListeners("exit");   // (no longer a failure)
    const exited = new Promise(r => b.on("exit", r));
    send("Browser.close").catch(() => {});
    await Promise.race([exited, sleep(5000)]);
  };
  return { send, once, on, close };
}

async function main() {
  const port = await startServer();
  const url = `http://127.0.0.1:${port}/`;
  const { send, once, on, close } = startBrowser();
  const { targetInfos } = await send("Target.getTargets");
  let page = targetInfos.find(t => t.type === "page");
  if (!page) page = { targetId: (await send("Target.createTarget", { url: "about:blank" })).targetId };
  const { sessionId } = await send("Target.attachToTarget", { targetId: page.targetId, flatten: true });
  const cmd = (method, params) => send(method, params, sessionId);
  const evaluate = async expr => {
    const r = await cmd("Runtime.evaluate", { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`${expr}: ${r.exceptionDetails.text}`);
    return r.result.value;
  };
  const errors = [];
  await cmd("Page.enable");
  await cmd("Runtime.enable");
  await cmd("Log.enable");
  // (a Content-Security-Policy violation or a script error shows up here)
  const onEvent = msg => {
    if (msg.sessionId !== sessionId) return;
    if (msg.method === "Runtime.exceptionThrown") errors.push(msg.params.exceptionDetails.text);
    if (msg.method === "Log.entryAdded" && msg.params.entry.level === "error") errors.push(msg.params.entry.text);
  };
  on(onEvent);
  const loaded = once("Page.loadEventFired", sessionId);
  await cmd("Page.navigate", { url });
  await loaded;
  // the pickers are filled from /languages
  let n = 0;
  for (let i = 0; i < 100 && n === 0; i++, await sleep(100))
    n = await evaluate('document.getElementById("target").options.length');
  if (n === 0) return fail(`the target picker stayed empty; page error: ${await evaluate('document.getElementById("error").textContent')}`);
  const sources = await evaluate('[...document.getElementById("source").options].map(o => o.value).join(",")');
  if (!sources.split(",").includes("auto")) return fail(`no "Detect language" in the source picker (${sources})`);
  console.log(`browser: loaded ${url}: source picker ${sources}`);

  const center = async id => evaluate(`(() => { const r = document.getElementById("${id}").getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`);
  const click = async id => {
    const { x, y } = await center(id);
    await cmd("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
    await cmd("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button: "left", clickCount: 1 });
    await cmd("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button: "left", clickCount: 1 });
  };
  // click into the text box and type the sentence, a key at a time
  await click("q");
  for (const ch of SENTENCE) {
    await cmd("Input.dispatchKeyEvent", { type: "keyDown", text: ch, key: ch, unmodifiedText: ch });
    await cmd("Input.dispatchKeyEvent", { type: "keyUp", key: ch });
  }
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
  fs.mkdirSync(OUT, { recursive: true });
  const shot = await cmd("Page.captureScreenshot", { format: "png" });
  const file = path.join(OUT, "page.png");
  fs.writeFileSync(file, Buffer.from(shot.data, "base64"));
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
  await close();
  finish(0, "browser: ok");
}
main().catch(e => fail(e.stack || String(e)));
