// nmt's C library (nmt.h) as a WebAssembly module for JavaScript: the
// wrapper around build/wasm/libnmt.wasm (make wasm-lib), for Node (20 on)
// and browsers, main thread or Worker, with nothing else to install.
//
//   import { Nmt } from './nmt.js';
//   const nmt = await Nmt.load(bytesOrUrl);   // libnmt.wasm: bytes, a Module, a URL or (Node) a path
//   const model = nmt.openModel();            // the embedded default model; or openModel(bytes)
//   model.translate('A dog runs.', { beam: 4, html: false });   // a string
//   model.close();
//
// The module is a WASI reactor; the few WASI calls the C library makes
// (stderr, clocks, random numbers, an empty environment, exit) are answered
// here, the same way in Node and in browsers, and every other one fails with
// ENOSYS: the library itself opens no file (openModel takes bytes). Errors
// are NmtError exceptions with nmt.h's status code. docs/WASM.md.
//
// The page (wasm/index.html) runs this file in a classic Worker made from
// its text, without the last line: keep the one export statement there.

const NMT_ERRNO_BADF = 8, NMT_ERRNO_NOSYS = 52;

class NmtError extends Error {
	constructor(message, code) {
		super(message);
		this.name = 'NmtError';
		this.code = code;   // nmt.h's nmt_status: -1 argument, -3 format, -4 no memory, ...
	}
}

class NmtExit extends Error {
	constructor(status) {
		super(`libnmt.wasm exited (status ${status})`);
		this.status = status;
	}
}

// The WASI preview 1 imports the module asks for: the few the C library
// uses, and ENOSYS for every other one.
function wasiImports(module, state) {
	const view = () => new DataView(state.memory.buffer);
	const bytes = () => new Uint8Array(state.memory.buffer);
	const now = id => id === 0 ? BigInt(Date.now()) * 1000000n
		: BigInt(Math.round(performance.now() * 1e6));
	const known = {
		fd_write(fd, iovs, iovsLen, nwritten) {
			const v = view();
			let n = 0;
			for (let i = 0; i < iovsLen; i++) {
				const p = v.getUint32(iovs + 8 * i, true), len = v.getUint32(iovs + 8 * i + 4, true);
				if (fd === 1 || fd === 2)
					state.output(fd, bytes().slice(p, p + len));
				n += len;
			}
			if (fd !== 1 && fd !== 2)
				return NMT_ERRNO_BADF;
			view().setUint32(nwritten, n, true);
			return 0;
		},
		clock_time_get(id, precision, out) {
			view().setBigUint64(out, now(id), true);
			return 0;
		},
		clock_res_get(id, out) {
			view().setBigUint64(out, 1000n, true);
			return 0;
		},
		random_get(p, len) {
			for (let i = 0; i < len; i += 65536)
				crypto.getRandomValues(new Uint8Array(state.memory.buffer, p + i, Math.min(65536, len - i)));
			return 0;
		},
		environ_sizes_get(count, size) {
			view().setUint32(count, 0, true);
			view().setUint32(size, 0, true);
			return 0;
		},
		environ_get() { return 0; },
		args_sizes_get(count, size) {
			view().setUint32(count, 0, true);
			view().setUint32(size, 0, true);
			return 0;
		},
		args_get() { return 0; },
		fd_prestat_get() { return NMT_ERRNO_BADF; },   // no preopened directories
		fd_close() { return NMT_ERRNO_BADF; },
		proc_exit(status) { throw new NmtExit(status); },
	};
	const wasi = {};
	for (const imp of WebAssembly.Module.imports(module)) {
		if (imp.module !== 'wasi_snapshot_preview1' || imp.kind !== 'function')
			throw new NmtError(`libnmt.wasm imports ${imp.module}.${imp.name}, which nmt.js does not provide`, -5);
		wasi[imp.name] = known[imp.name] || (() => NMT_ERRNO_NOSYS);
	}
	return { wasi_snapshot_preview1: wasi };
}

async function readSource(source) {
	if (source instanceof WebAssembly.Module || source instanceof ArrayBuffer || ArrayBuffer.isView(source))
		return source;
	const isNode = typeof process !== 'undefined' && process.versions && process.versions.node;
	const url = source instanceof URL ? source : null;
	if (isNode && (typeof source === 'string' ? !/^[a-z]+:\/\//i.test(source) : url.protocol === 'file:')) {
		const { readFile } = await import('node:fs/promises');
		return readFile(source);
	}
	const r = await fetch(source);
	if (!r.ok)
		throw new NmtError(`cannot fetch ${source}: ${r.status} ${r.statusText}`, -2);
	return r.arrayBuffer();
}

class Nmt {
	// source: libnmt.wasm's bytes (ArrayBuffer, typed array), a compiled
	// WebAssembly.Module, or where to get it (a URL; in Node also a file path).
	// options.stderr(text): what the module writes to stderr (default: console.warn).
	static async load(source, options = {}) {
		const got = await readSource(source);
		const module = got instanceof WebAssembly.Module ? got : await WebAssembly.compile(got);
		const state = { memory: null, output: null };
		const instance = await WebAssembly.instantiate(module, wasiImports(module, state));
		return new Nmt(instance, state, options);
	}

	constructor(instance, state, options) {
		const x = instance.exports;
		this._x = x;
		state.memory = x.memory;
		const decoder = new TextDecoder();
		const write = options.stderr || (s => console.warn(s));
		state.output = (fd, b) => write(decoder.decode(b));
		if (x._initialize)
			x._initialize();
		this._encoder = new TextEncoder();
		this._decoder = new TextDecoder();
		this._layout = {};
		['options', 'beam', 'nbest', 'html', 'split', 'error', 'message', 'messageSize']
			.forEach((k, i) => { this._layout[k] = x.wasm_layout(i); });
		this.version = this._string(x.nmt_version());
	}

	get _bytes() { return new Uint8Array(this._x.memory.buffer); }
	get _view() { return new DataView(this._x.memory.buffer); }

	_malloc(n) {
		const p = this._x.malloc(Math.max(n, 1));
		if (!p)
			throw new NmtError('out of memory', -4);
		return p;
	}

	// the NUL-terminated string at p (up to max bytes)
	_string(p, max = Infinity) {
		const b = this._bytes;
		let end = p;
		while (end - p < max && b[end] !== 0)
			end++;
		return this._decoder.decode(b.subarray(p, end));
	}

	_cString(s) {
		const utf8 = this._encoder.encode(s);
		const p = this._malloc(utf8.length + 1);
		this._bytes.set(utf8, p);
		this._bytes[p + utf8.length] = 0;
		return p;
	}

	// an nmt_error, zeroed
	_error() {
		const p = this._malloc(this._layout.error);
		this._bytes.fill(0, p, p + this._layout.error);
		return p;
	}

	// throw an NmtError if status is not NMT_OK, with err's message
	_check(status, err) {
		if (status === 0)
			return;
		const m = this._string(err + this._layout.message, this._layout.messageSize)
			|| this._string(this._x.nmt_status_string(status));
		throw new NmtError(m, status);
	}

	// Whether the module has a default model built in (openModel() opens it).
	get hasEmbeddedModel() {
		const x = this._x;
		return !!(x.nmt_embedded_model_size && this._view.getUint32(x.nmt_embedded_model_size.value, true));
	}

	// A packed model (model-pack's output) from its bytes (ArrayBuffer or a
	// typed array), copied into the module's memory; no bytes: the embedded
	// default model. NmtError when the bytes are not an nmt model.
	openModel(bytes) {
		const x = this._x;
		let data, size, owned = 0;
		if (bytes === undefined || bytes === null) {
			if (!this.hasEmbeddedModel)
				throw new NmtError('this libnmt.wasm has no embedded model: give openModel a model\'s bytes', -1);
			data = x.nmt_embedded_model.value;
			size = this._view.getUint32(x.nmt_embedded_model_size.value, true);
		} else {
			const b = bytes instanceof ArrayBuffer ? new Uint8Array(bytes)
				: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
			// 64-byte aligned: nmt_model_open_buffer uses it in place
			owned = data = x.aligned_alloc(64, Math.ceil(Math.max(b.length, 1) / 64) * 64);
			if (!data)
				throw new NmtError('out of memory', -4);
			this._bytes.set(b, data);
			size = b.length;
		}
		const err = this._error(), out = this._malloc(4);
		try {
			this._check(x.nmt_model_open_buffer(data, size, 0, out, err), err);
			const model = this._view.getUint32(out, true);
			const status = x.nmt_session_new(model, out, err);
			if (status !== 0)
				x.nmt_model_close(model);
			this._check(status, err);
			const session = this._view.getUint32(out, true);
			const m = new NmtModel(this, model, session, owned);
			owned = 0;
			return m;
		} finally {
			x.free(err);
			x.free(out);
			if (owned)
				x.free(owned);
		}
	}
}

class NmtModel {
	constructor(nmt, model, session, buffer) {
		this._nmt = nmt;
		this._model = model;
		this._session = session;
		this._buffer = buffer;
	}

	_open() {
		if (!this._model)
			throw new NmtError('the model is closed', -1);
		return this._nmt;
	}

	// The model's metadata, key=value lines (languages, sizes, weight format).
	get metadata() {
		const n = this._open(), x = n._x;
		const len = n._malloc(4);
		try {
			const p = x.nmt_model_metadata(this._model, len);
			return n._decoder.decode(n._bytes.subarray(p, p + n._view.getUint32(len, true)));
		} finally {
			x.free(len);
		}
	}

	// The translation of text, line by line as ./nmt does (each line a
	// paragraph cut into sentences). options: beam (1..8, default 4; 1 =
	// greedy), html (true: the lines are HTML fragments, as ./nmt --html).
	translate(text, options = {}) {
		const n = this._open(), x = n._x, L = n._layout;
		const opt = n._malloc(L.options), err = n._error(), out = n._malloc(4);
		try {
			x.nmt_options_init(opt);
			const v = n._view;
			if (options.beam !== undefined)
				v.setInt32(opt + L.beam, options.beam, true);
			if (options.html)
				v.setInt32(opt + L.html, 1, true);
			return String(text).split(/\r?\n/).map(line => {
				const s = n._cString(line);
				try {
					n._check(x.nmt_translate(this._session, opt, s, out, err), err);
				} finally {
					x.free(s);
				}
				const result = n._view.getUint32(out, true);
				const t = n._string(x.nmt_result_text(result, 0, 0));
				x.nmt_result_free(result);
				return t;
			}).join('\n');
		} finally {
			x.free(opt);
			x.free(err);
			x.free(out);
		}
	}

	// Frees the model, its session and its copy of the bytes; translate
	// fails afterwards. Closing twice is allowed.
	close() {
		if (!this._model)
			return;
		const x = this._nmt._x;
		x.nmt_session_free(this._session);
		x.nmt_model_close(this._model);
		if (this._buffer)
			x.free(this._buffer);
		this._model = this._session = this._buffer = 0;
	}
}

export { Nmt, NmtModel, NmtError };
