/* libnmt.wasm (make wasm-lib): nmt.h's API as a WebAssembly module for
 * JavaScript (wasm/nmt.js). The API's functions are exported as they are;
 * this file adds only what JavaScript cannot know: where the fields of
 * nmt.h's structs lie in this build's memory, so that wasm/nmt.js fills an
 * nmt_options and reads an nmt_error through the real layout. */
#include <stddef.h>

#include "../../nmt.h"

#define EXPORT(name) __attribute__((export_name(#name), used))

/* what: 0 sizeof(nmt_options), 1 its beam, 2 nbest, 3 html, 4 split,
 * 5 sizeof(nmt_error), 6 its message, 7 sizeof(nmt_error.message);
 * -1 for anything else. */
EXPORT(wasm_layout) int wasm_layout(int what)
{
	switch (what) {
	case 0: return (int)sizeof(nmt_options);
	case 1: return (int)offsetof(nmt_options, beam);
	case 2: return (int)offsetof(nmt_options, nbest);
	case 3: return (int)offsetof(nmt_options, html);
	case 4: return (int)offsetof(nmt_options, split);
	case 5: return (int)sizeof(nmt_error);
	case 6: return (int)offsetof(nmt_error, message);
	case 7: return (int)sizeof(((nmt_error *)0)->message);
	default: return -1;
	}
}
