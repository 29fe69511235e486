// The translator page's Worker (wasm/index.html): runs libnmt.wasm through
// wasm/nmt.js off the page's thread, so the page stays responsive while a
// text is translated. The page makes it a classic Worker from a Blob of
// nmt.js's text (its export line left out) followed by this file's, which
// works from file:// too (a Worker file or a module Worker would not).
//
// Messages in:  { type: 'load', wasm: libnmt.wasm as base64 }
//               { type: 'translate', id, text, html, beam }
// Messages out: { type: 'ready', version, metadata, ms }
//               { type: 'result', id, text, ms }
//               { type: 'error', id, message }   (id undefined: loading failed)
/* global Nmt */
'use strict';
let model = null;

function fromBase64(s) {
	const bin = atob(s);
	const b = new Uint8Array(bin.length);
	for (let i = 0; i < bin.length; i++)
		b[i] = bin.charCodeAt(i);
	return b;
}

self.onmessage = async e => {
	const m = e.data;
	if (m.type === 'load') {
		try {
			const t0 = performance.now();
			const nmt = await Nmt.load(fromBase64(m.wasm));
			model = nmt.openModel();
			self.postMessage({ type: 'ready', version: nmt.version, metadata: model.metadata,
				ms: Math.round(performance.now() - t0) });
		} catch (err) {
			self.postMessage({ type: 'error', message: String(err && err.message || err) });
		}
	} else if (m.type === 'translate') {
		try {
			if (!model)
				throw new Error('the model is not loaded');
			const t0 = performance.now();
			const text = model.translate(m.text, { html: !!m.html, beam: m.beam });
			self.postMessage({ type: 'result', id: m.id, text, ms: Math.round(performance.now() - t0) });
		} catch (err) {
			self.postMessage({ type: 'error', id: m.id, message: String(err && err.message || err) });
		}
	}
};
