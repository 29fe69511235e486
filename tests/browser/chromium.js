// Headless Chromium driven over the DevTools protocol
// (--remote-debugging-pipe: JSON messages ending in NUL on file descriptors
// 3 and 4), with Node's built-in modules only: what page_test.js and
// wasm_page_test.js drive their pages with.
//
//   const b = startBrowser({ chromium, onExit });   // onExit(msg): it died
//   const page = await b.page();                    // attached to the first tab
//   await page.navigate(url); await page.evaluate(expr); await page.click(id);
//   await page.type(text); await page.screenshot(file); page.errors;
//   await b.close();                                // and removes its profile
"use strict";
const { spawn, spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const sleep = ms => new Promise(r => setTimeout(r, ms));

function startBrowser({ chromium = "chromium", onExit = () => {} } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "nmt-browser-"));
  const args = ["--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-extensions", "--disable-background-networking", "--window-size=1000,700",
    `--user-data-dir=${profile}`, "about:blank"];
  const b = spawn(chromium, args, { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let log = "";
  b.stderr.on("data", d => { log += d; });
  b.on("exit", code => onExit(`chromium exited (${code}): ${log.slice(-2000)}`));
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

  // the first tab, with the page's script errors and console errors collected
  async function page() {
    const { targetInfos } = await send("Target.getTargets");
    let t = targetInfos.find(t => t.type === "page");
    if (!t) t = { targetId: (await send("Target.createTarget", { url: "about:blank" })).targetId };
    const { sessionId } = await send("Target.attachToTarget", { targetId: t.targetId, flatten: true });
    const cmd = (method, params) => send(method, params, sessionId);
    const errors = [];
    listeners.push(msg => {
      if (msg.sessionId !== sessionId) return;
      if (msg.method === "Runtime.exceptionThrown") errors.push(msg.params.exceptionDetails.text);
      if (msg.method === "Log.entryAdded" && msg.params.entry.level === "error") errors.push(msg.params.entry.text);
    });
    await cmd("Page.enable");
    await cmd("Runtime.enable");
    await cmd("Log.enable");
    const evaluate = async expr => {
      const r = await cmd("Runtime.evaluate", { expression: expr, returnByValue: true, awaitPromise: true });
      if (r.exceptionDetails) throw new Error(`${expr}: ${r.exceptionDetails.text}`);
      return r.result.value;
    };
    const click = async id => {
      const { x, y } = await evaluate(`(() => { const r = document.getElementById(${JSON.stringify(id)}).getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`);
      await cmd("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
      await cmd("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button: "left", clickCount: 1 });
      await cmd("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button: "left", clickCount: 1 });
    };
    const type = async text => {   // a key at a time, into the focused element
      for (const ch of text) {
        await cmd("Input.dispatchKeyEvent", { type: "keyDown", text: ch, key: ch, unmodifiedText: ch });
        await cmd("Input.dispatchKeyEvent", { type: "keyUp", key: ch });
      }
    };
    const navigate = async url => {
      const loaded = once("Page.loadEventFired", sessionId);
      await cmd("Page.navigate", { url });
      await loaded;
    };
    const screenshot = async file => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const shot = await cmd("Page.captureScreenshot", { format: "png" });
      fs.writeFileSync(file, Buffer.from(shot.data, "base64"));
    };
    return { cmd, evaluate, click, type, navigate, screenshot, errors };
  }

  // a clean exit (which removes its helper processes), then the profile
  async function close() {
    b.removeAllListeners("exit");
    if (b.exitCode === null && b.signalCode === null) {
      const exited = new Promise(r => b.on("exit", r));
      send("Browser.close").catch(() => {});
      if (await Promise.race([exited.then(() => true), sleep(5000)]) !== true) {
        b.kill("SIGKILL");
        await Promise.race([exited, sleep(5000)]);
      }
    }
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    } catch (e) {
      console.log(`browser: note: ${profile} not removed: ${e.message}`);
    }
  }
  return { page, close, sleep };
}

// exit 77 (a skip, for the test runner), saying so, when chromium is missing
function exitUnlessInstalled(chromium) {
  if (spawnSync("sh", ["-c", `command -v ${chromium}`]).status !== 0) {
    console.log(`browser: skipped: ${chromium} is not installed (Debian: apt-get install chromium)`);
    process.exit(77);
  }
}

module.exports = { startBrowser, exitUnlessInstalled, sleep };
