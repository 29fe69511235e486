// wasm/nmt.js (the C library as a WebAssembly module, make wasm-lib) from
// the command line, for tests/e2e/wasm_lib.sh:
//
//   node tests/wasm/nmt_js.mjs [-b N] [--html] [-m MODEL] <in >out
//        translates stdin line by line as ./nmt does (the embedded model,
//        or MODEL's bytes); an NmtError: "nmt.js: MESSAGE (status N)", exit 1
//   node tests/wasm/nmt_js.mjs --api
//        checks the wrapper's API, an "ok: ..." or "FAIL: ..." line each
//
// NMT_LIB=FILE: another libnmt.wasm (default build/wasm/libnmt.wasm).
import { readFileSync } from 'node:fs';
import { Nmt, NmtError } from '../../wasm/nmt.js';

const lib = process.env.NMT_LIB || new URL('../../build/wasm/libnmt.wasm', import.meta.url);
const args = process.argv.slice(2);
const options = {};
let modelFile = null, api = false;
for (let i = 0; i < args.length; i++) {
	if (args[i] === '-b') options.beam = Number(args[++i]);
	else if (args[i] === '--html') options.html = true;
	else if (args[i] === '-m') modelFile = args[++i];
	else if (args[i] === '--api') api = true;
	else {
		process.stderr.write(`nmt_js.mjs: unknown argument ${args[i]}\n`);
		process.exit(2);
	}
}

async function checkApi() {
	const check = (name, ok) => console.log(`${ok ? 'ok' : 'FAIL'}: ${name}`);
	const throws = (name, f, code) => {
		try {
			f();
			check(`${name} (no error)`, false);
		} catch (e) {
			check(`${name} (${e.message}, status ${e.code})`, e instanceof NmtError && (code === undefined || e.code === code));
		}
	};
	// a compiled Module and bytes load alike
	const bytes = readFileSync(lib);
	const nmt = await Nmt.load(await WebAssembly.compile(bytes));
	check(`load: version ${nmt.version}`, /^\d+\.\d+\.\d+$/.test(nmt.version));
	check('the embedded model is there', nmt.hasEmbeddedModel);
	const m = nmt.openModel();
	check('metadata names the languages', /^src_lang=en$/m.test(m.metadata) && /^tgt_lang=de$/m.test(m.metadata));
	const one = m.translate('A dog runs along the beach.', { beam: 1 });
	check(`translate: "${one}"`, one.length > 0 && !one.includes('\n'));
	check('two lines give two lines, an empty one stays empty',
		m.translate('A dog runs.\n\nA cat sleeps.', { beam: 1 }).split('\n').map(l => l.length > 0).join() === 'true,false,true');
	const n = await Nmt.load(bytes);
	const m2 = n.openModel();
	check('a second instance translates the same', m2.translate('A dog runs along the beach.', { beam: 1 }) === one);
	// errors: NmtError with nmt.h's status, and the module goes on working
	throws('bad model bytes', () => n.openModel(new Uint8Array(1000).fill(7)), -3);
	const head = new Uint8Array(n._x.memory.buffer, n._x.nmt_embedded_model.value, 4096).slice();
	throws('the first 4096 bytes of the embedded model', () => n.openModel(head), -3);
	throws('no bytes', () => n.openModel(new Uint8Array(0)), -3);
	throws('beam 9', () => m2.translate('A dog runs.', { beam: 9 }), -1);
	check('after the errors it still translates', m2.translate('A dog runs along the beach.', { beam: 1 }) === one);
	m2.close();
	m2.close();
	throws('translate after close', () => m2.translate('A dog runs.'), -1);
	// many opens and closes: the memory is given back (it does not grow)
	const before = n._x.memory.buffer.byteLength;
	for (let i = 0; i < 20; i++) {
		const k = n.openModel();
		k.translate('A dog runs.', { beam: 1 });
		k.close();
	}
	check(`20 opens and closes: memory ${before} -> ${n._x.memory.buffer.byteLength} bytes`,
		n._x.memory.buffer.byteLength === before);
	m.close();
}

try {
	if (api) {
		await checkApi();
	} else {
		const nmt = await Nmt.load(lib);
		const model = nmt.openModel(modelFile === null ? undefined : readFileSync(modelFile));
		process.stdout.write(model.translate(readFileSync(0, 'utf8').replace(/\n$/, ''), options) + '\n');
		model.close();
	}
} catch (e) {
	if (!(e instanceof NmtError))
		throw e;
	process.stderr.write(`nmt.js: ${e.message} (status ${e.code})\n`);
	process.exit(1);
}
