// Firefox's translation engine, bergamot-translator as WebAssembly (the npm
// package @browsermt/bergamot-translator, 0.4.9), run under Node with one
// worker, for bench/wasm.sh to time beside nmt.wasm:
//
//   node bench/bergamot.cjs PACKAGE_DIR MODEL SHORTLIST VOCAB <in >out
//
// PACKAGE_DIR is the installed package (.../node_modules/@browsermt/
// bergamot-translator); its worker/ folder needs a package.json saying
// {"type": "commonjs"} (the package says "module", which its CommonJS worker
// cannot run under; bench/wasm.sh writes it). MODEL (a Marian .bin),
// SHORTLIST (a binary lexical shortlist) and VOCAB (one SentencePiece model
// for both sides) are loaded as Firefox loads them: gemm-precision
// int8shiftAll (int8 weights quantized at load), beam 1 (greedy), no
// translation cache. Translates stdin's lines, CHUNK (default 8, as the
// package's BatchTranslator) to a request, each request batched inside
// Bergamot (mini-batch-words 1024), and writes one line per input line.
// On stderr, one line: "bergamot: load_ms L first_line_ms F total_ms T
// lines N", each counted from the start of the Node process
// (performance.now()): L when the model is loaded, F when the first
// request's translations (the first CHUNK lines; the first line alone on a
// one-line input) have been written, T at the end.
//
// It talks to the package's worker (worker/translator-worker.js) through the
// worker's own message protocol ({id, name, args} -> {id, result | error}),
// the way the package's translator.js does, without its model registry.
'use strict';
const { Worker } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const path = require('node:path');

const [pkg, modelPath, shortlistPath, vocabPath] = process.argv.slice(2);
if (!vocabPath) {
	process.stderr.write('usage: node bench/bergamot.cjs PACKAGE_DIR MODEL SHORTLIST VOCAB <in >out\n');
	process.exit(2);
}
const CHUNK = Math.max(parseInt(process.env.CHUNK || '8', 10), 1);

const worker = new Worker(path.join(pkg, 'worker', 'translator-worker.js'));
let next = 1;
const pending = new Map();
worker.on('message', ({ id, result, error }) => {
	const p = pending.get(id);
	pending.delete(id);
	if (error)
		p.reject(Object.assign(new Error(error.message), { name: error.name, stack: error.stack }));
	else
		p.resolve(result);
});
worker.on('error', (e) => {
	process.stderr.write(`bergamot: worker error: ${e.message}\n`);
	process.exit(1);
});
function call(name, ...args) {
	const id = next++;
	return new Promise((resolve, reject) => {
		pending.set(id, { resolve, reject });
		worker.postMessage({ id, name, args });
	});
}
function bytes(file) {
	const b = readFileSync(file);
	return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
}

async function main() {
	const input = readFileSync(0, 'utf-8');
	const lines = input.split('\n');
	if (lines[lines.length - 1] === '')
		lines.pop();
	await call('initialize', { cacheSize: 0, useNativeIntGemm: false });
	const vocab = bytes(vocabPath);
	await call('loadTranslationModel', { from: 'en', to: 'de' }, {
		model: bytes(modelPath),
		shortlist: bytes(shortlistPath),
		vocabs: [vocab, vocab],
		config: { 'gemm-precision': 'int8shiftAll', 'beam-size': '1' },
	});
	const loadMs = performance.now();
	let firstMs = 0;
	const models = [{ from: 'en', to: 'de' }];
	for (let i = 0; i < lines.length; i += CHUNK) {
		const texts = lines.slice(i, i + CHUNK).map((text) => ({ text, html: false, qualityScores: false }));
		const out = await call('translate', { models, texts });
		process.stdout.write(out.map((r) => r.target.text.replace(/\n/g, ' ') + '\n').join(''));
		if (!firstMs)
			firstMs = performance.now();
	}
	const totalMs = performance.now();
	process.stderr.write(`bergamot: load_ms ${loadMs.toFixed(0)} first_line_ms ${firstMs.toFixed(0)} ` +
		`total_ms ${totalMs.toFixed(0)} lines ${lines.length}\n`);
	await worker.terminate();
}
main().catch((e) => {
	process.stderr.write(`bergamot: ${e.stack || e.message}\n`);
	process.exit(1);
});
