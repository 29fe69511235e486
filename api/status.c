#include "api.h"

#include <stdarg.h>
#include <stdio.h>

const char *nmt_status_string(nmt_status code)
{
	switch (code) {
	case NMT_OK: return "no error";
	case NMT_ERR_ARGUMENT: return "invalid argument";
	case NMT_ERR_IO: return "cannot read the model file";
	case NMT_ERR_FORMAT: return "not a valid nmt model";
	case NMT_ERR_NO_MEMORY: return "out of memory";
	case NMT_ERR_UNSUPPORTED: return "not supported by this build, CPU or machine";
	case NMT_ERR_DEVICE: return "the GPU failed";
	}
	return "unknown error code";
}

const char *nmt_version(void)
{
	return NMT_VERSION;
}

nmt_status api_fail(nmt_error *err, nmt_status code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
		err->code = code;
	}
	return code;
}

nmt_status api_ok(nmt_error *err)
{
	if (err) {
		err->code = NMT_OK;
		err->message[0] = '\0';
	}
	return NMT_OK;
}
