// Runs nmt built for WebAssembly (make wasm: build/wasm/nmt.wasm) under
// Node's WASI (node:wasi, preview1; Node 20 or later):
//
//   node wasm/nmt.mjs [nmt's arguments] <in >out
//
// The arguments, the environment, stdin, stdout and stderr are nmt's; its
// exit status is the runner's. The host's "/" is preopened and its working
// directory passed in PWD (wasm/start.c moves there), so file paths, -m
// MODEL's included, work as they do natively. Given a model (-m FILE) it runs
// build/wasm/nmt-core.wasm, the build without the default model inside, where
// that is built: the default's bytes would be read, compiled and copied for
// nothing. NMT_WASM=FILE runs another build. The program is single-threaded
// (WASI has no threads) and has no `nmt serve` (no sockets). docs/WASM.md.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// WASI's functions as plain calls, not V8 "fast API" calls: Node's WASI
// accounts its buffers to the garbage collector, which may then collect
// inside a fast call, where it must not (nodejs/node#46777): Node 20 died
// with status 139, after nmt had written its output, in about 1 run of 80
// with the cores loaded. Set before the module is compiled.
setFlagsFromString('--no-turbo-fast-api-calls');

// node:wasi warns that it is experimental on every run: not nmt's to say.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
	if (!String(warning).includes('WASI'))
		emitWarning.call(process, warning, ...rest);
};
const { WASI } = await import('node:wasi');

// Whether the arguments name a model as nmt's option parser reads them: -m
// FILE, -mFILE, --model FILE, --model=FILE, before a "--".
function namesModel(args) {
	for (let i = 0; i < args.length && args[i] !== '--'; i++) {
		const a = args[i];
		if (((a === '-m' || a === '--model') && i + 1 < args.length) || (a.startsWith('-m') && a.length > 2 && a[2] !== '-') ||
		    a.startsWith('--model='))
			return true;
	}
	return false;
}

const build = (name) => fileURLToPath(new URL(`../build/wasm/${name}`, import.meta.url));
const core = build('nmt-core.wasm');
const path = process.env.NMT_WASM ||
	(namesModel(process.argv.slice(2)) && existsSync(core) ? core : build('nmt.wasm'));
let bytes;
try {
	bytes = await readFile(path);
} catch (e) {
	const why = e.code === 'ENOENT' ? 'no such file' : e.message;
	process.stderr.write(`nmt: cannot read ${path}: ${why} (make wasm builds it)\n`);
	process.exit(1);
}
const wasi = new WASI({
	version: 'preview1',
	args: ['nmt', ...process.argv.slice(2)],
	env: { ...process.env, PWD: process.cwd() },
	preopens: { '/': '/' },
	returnOnExit: true,
});
let status;
try {
	const module = await WebAssembly.compile(bytes);
	const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
	status = wasi.start(instance);
} catch (e) {
	// a trap (out of memory, a bug): nmt natively would have crashed
	process.stderr.write(`nmt: ${e.message}\n`);
	status = 70;
}
process.emitWarning = emitWarning;
// Exit at once: nmt's output is already written (WASI writes fd 1 and 2
// synchronously), and nothing of Node's event loop is left to wait for.
process.exit(status);
