// The npm package `libretranslate` (1.0.1, pinned by package-lock.json here)
// against a running `nmt serve`. Starts nothing: it is given the server's
// URL, the modules folder `npm ci` installed the package into, a sentence
// and the translation `nmt` gives of it on the server's model.
//
//   node tests/clients/libretranslate_client.mjs URL NODE_MODULES SENTENCE WANT
//
// tests/e2e/clients.sh runs it (and installs the package first). The
// package exports one function, translate(), which reads GET /languages
// (the codes it accepts, plus "auto") and then posts JSON to /translate; it
// has no detect() or languages() of its own, so /detect and /languages are
// read here with Node's fetch(), as the package reads /languages.
//
// Prints "ok: ..." per check and "FAIL: ..." per failed one; exits 1 if any
// failed.
import { createRequire } from "node:module";
import path from "node:path";

const [url, modules, sentence, want] = process.argv.slice(2);
if (!want) {
  console.log("usage: node libretranslate_client.mjs URL NODE_MODULES SENTENCE WANT");
  process.exit(2);
}
const require = createRequire(path.resolve(modules) + "/");
const lt = require("libretranslate");
const pkg = require("libretranslate/package.json");

let failed = 0;
function check(name, cond, got) {
  if (cond) console.log(`ok: ${name}`);
  else {
    failed++;
    console.log(`FAIL: ${name}: got ${JSON.stringify(got)}`);
  }
}
async function attempt(name, fn, test) {
  try {
    const got = await fn();
    check(name, test(got), got);
  } catch (e) {
    failed++;
    console.log(`FAIL: ${name}: ${e}`);
  }
}

console.log(`libretranslate ${pkg.version}, exports: ${Object.keys(lt).join(", ")}`);
await attempt("translate() source auto = nmt's translation",
  () => lt.translate({ query: sentence, source: "auto", target: "de", apiurl: url }), t => t === want);
await attempt("translate() with no source (the package's default, auto)",
  () => lt.translate({ query: sentence, target: "de", apiurl: url }), t => t === want);
await attempt("translate() source en",
  () => lt.translate({ query: sentence, source: "en", target: "de", apiurl: url }), t => t === want);
await attempt("translate() a q array, format html",
  () => lt.translate({ query: [sentence, sentence], source: "auto", target: "de", format: "html", apiurl: url }),
  t => Array.isArray(t) && t.length === 2 && t[0] === want && t[1] === want);
// the package refuses a code /languages does not list, before /translate
await attempt("translate() to a language /languages lacks is refused by the package",
  () => lt.translate({ query: sentence, source: "en", target: "fr", apiurl: url }).then(
    t => ({ resolved: t }), e => ({ rejected: String(e) })),
  r => /not found/.test(r.rejected || ""));
await attempt("GET /languages (fetch, as the package reads it): en -> de",
  () => fetch(`${url}/languages`).then(r => r.json()),
  l => Array.isArray(l) && l.some(x => x.code === "en" && x.targets.includes("de")) && l.some(x => x.code === "de"));
await attempt("POST /detect (fetch, JSON): en first",
  () => fetch(`${url}/detect`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ q: "A dog runs along the beach with its owner." }),
  }).then(r => r.json()),
  d => Array.isArray(d) && d.length >= 1 && d[0].language === "en" && d[0].confidence > 0 && d[0].confidence <= 100);
await attempt("POST /detect (fetch, a form): de first",
  () => fetch(`${url}/detect`, {
    method: "POST", body: new URLSearchParams({ q: "Ein Hund läuft mit seinem Besitzer am Strand entlang." }),
  }).then(r => r.json()),
  d => Array.isArray(d) && d.length >= 1 && d[0].language === "de");
process.exit(failed ? 1 : 0);
