"""nmt: offline neural machine translation, the Python binding of libnmt.

    import nmt
    with nmt.Translator() as t:               # the built-in English->German model
        for r in t.translate(["A dog runs.", "Two men talk."]):
            print(r.translation, r.score)

The C library (libnmt.so) does the work, the GIL released, on `threads`
threads of its own; a Translator may be shared by Python threads (each gets
its own session over the one model). docs/PYTHON.md has the details.
"""
import ctypes
import ctypes.util
import dataclasses
import os
import threading

__all__ = ['Translator', 'Translation', 'NmtError', 'library_path']

NMT_MAX_BEAM = 8
_CHUNK = 1024   # texts handed to the library at a time (bounds its memory)


class NmtError(RuntimeError):
    """An error the library reported (its one-line message)."""


class _Error(ctypes.Structure):
    _fields_ = [('code', ctypes.c_int), ('message', ctypes.c_char * 256)]


class _Options(ctypes.Structure):   # nmt.h's nmt_options, field for field
    _fields_ = [('beam', ctypes.c_int), ('nbest', ctypes.c_int), ('max_length', ctypes.c_int),
                ('alpha', ctypes.c_double), ('shortlist', ctypes.c_int), ('threads', ctypes.c_int),
                ('batch', ctypes.c_int), ('device', ctypes.c_int), ('split', ctypes.c_int),
                ('alignment', ctypes.c_int), ('html', ctypes.c_int), ('protect_spans', ctypes.c_int),
                ('repeat_guard', ctypes.c_int), ('case_fold', ctypes.c_int)]


class _Translation(ctypes.Structure):   # nmt.h's nmt_translation
    _fields_ = [('text', ctypes.c_char_p), ('len', ctypes.c_size_t), ('logprob', ctypes.c_float),
                ('score', ctypes.c_float), ('n_words', ctypes.c_int),
                ('word_logprob', ctypes.POINTER(ctypes.c_float)), ('alignment', ctypes.c_char_p)]


@dataclasses.dataclass
class Translation:
    """One translation: its text, the score the search ranked it by
    (logprob / length^alpha), the log-probability, and with
    alignment=True the word alignment ("0-0 1-2": source word - target
    word, words split on whitespace), else None."""
    translation: str
    score: float
    logprob: float
    alignment: str = None


def library_path():
    """Where libnmt.so is taken from: $NMT_LIBRARY, the copy installed with
    this package, or the system's."""
    env = os.environ.get('NMT_LIBRARY')
    if env:
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'libnmt.so')
    if os.path.exists(here):
        return here
    found = ctypes.util.find_library('nmt')
    if not found:
        raise NmtError('libnmt.so not found: build it with `make libnmt.so` and install this package '
                       '(pip install ./python), or set NMT_LIBRARY')
    return found


_lib = None
_lib_lock = threading.Lock()


def _library():
    global _lib
    with _lib_lock:
        if _lib is None:
            lib = ctypes.CDLL(library_path())   # a CDLL call releases the GIL
            P, E = ctypes.c_void_p, ctypes.POINTER(_Error)
            lib.nmt_model_open.argtypes = [ctypes.c_char_p, ctypes.c_uint, ctypes.POINTER(P), E]
            lib.nmt_model_open_buffer.argtypes = [P, ctypes.c_size_t, ctypes.c_uint, ctypes.POINTER(P), E]
            lib.nmt_model_close.argtypes = [P]
            lib.nmt_model_metadata_value.argtypes = [P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
            lib.nmt_options_init.argtypes = [ctypes.POINTER(_Options)]
            lib.nmt_session_new.argtypes = [P, ctypes.POINTER(P), E]
            lib.nmt_session_free.argtypes = [P]
            lib.nmt_translate_batch.argtypes = [P, ctypes.POINTER(_Options), ctypes.POINTER(ctypes.c_char_p),
                                                ctypes.POINTER(ctypes.c_size_t), ctypes.c_int, ctypes.POINTER(P), E]
            lib.nmt_result_nbest.argtypes = [P, ctypes.c_int]
            lib.nmt_result_get.argtypes = [P, ctypes.c_int, ctypes.c_int]
            lib.nmt_result_get.restype = ctypes.POINTER(_Translation)
            lib.nmt_result_free.argtypes = [P]
            lib.nmt_version.restype = ctypes.c_char_p
            _lib = lib
        return _lib


def _check(status, err):
    if status != 0:
        raise NmtError(err.message.decode('utf-8', 'replace'))


class Translator:
    """A model opened once: `model` a packed .nmt file, or None for the
    model built into libnmt.so (English->German); `threads` the threads a
    translate call uses (default: one per core)."""

    def __init__(self, model=None, threads=None):
        lib = _library()
        self._lib, self._model = lib, ctypes.c_void_p()
        self.threads = int(threads) if threads else (os.cpu_count() or 1)
        if not 1 <= self.threads <= 256:
            raise ValueError('threads must be in 1..256')
        err = _Error()
        if model is None:
            size = ctypes.c_size_t.in_dll(lib, 'nmt_embedded_model_size').value
            if size == 0:
                raise NmtError('this libnmt.so has no built-in model: give model=PATH')
            data = ctypes.addressof(ctypes.c_char.in_dll(lib, 'nmt_embedded_model'))
            _check(lib.nmt_model_open_buffer(data, size, 0, ctypes.byref(self._model), ctypes.byref(err)), err)
        else:
            path = os.fsencode(model)
            _check(lib.nmt_model_open(path, 0, ctypes.byref(self._model), ctypes.byref(err)), err)
        self._local = threading.local()
        self._sessions, self._lock = [], threading.Lock()

    def metadata(self, key):
        """A metadata value of the model ("src_lang", "tgt_lang", "arch", ...), or None."""
        buf = ctypes.create_string_buffer(256)
        if self._lib.nmt_model_metadata_value(self._live(), key.encode(), buf, len(buf)) != 0:
            return None
        return buf.value.decode('utf-8', 'replace')

    def _live(self):
        if not self._model:
            raise NmtError('the Translator is closed')
        return self._model

    def _session(self):
        s = getattr(self._local, 'session', None)
        if s is None:
            s, err = ctypes.c_void_p(), _Error()
            _check(self._lib.nmt_session_new(self._live(), ctypes.byref(s), ctypes.byref(err)), err)
            with self._lock:
                self._sessions.append(s)
            self._local.session = s
        return s

    def translate(self, texts, beam=4, html=False, alignment=False, nbest=1):
        """Translate a string (one Translation, or a list of nbest) or a list
        of strings (a list of those, in order). Each string is a paragraph:
        split into sentences, each translated, joined as they stood. Bytes
        that are not UTF-8 travel as surrogate escapes (errors=
        'surrogateescape'), both ways, as nmt passes them through."""
        single = isinstance(texts, str)
        items = [texts] if single else list(texts)
        if not all(isinstance(t, str) for t in items):
            raise TypeError('texts must be a string or a list of strings')
        if not 1 <= beam <= NMT_MAX_BEAM or not 1 <= nbest <= beam:
            raise ValueError(f'beam must be in 1..{NMT_MAX_BEAM} and nbest in 1..beam')
        opts = _Options()
        self._lib.nmt_options_init(ctypes.byref(opts))
        opts.beam, opts.nbest, opts.threads = beam, nbest, self.threads
        opts.html, opts.alignment = int(bool(html)), int(bool(alignment))
        out = []
        for at in range(0, len(items), _CHUNK):
            out += self._batch(items[at:at + _CHUNK], opts, nbest)
        return out[0] if single else out

    def _batch(self, items, opts, nbest):
        data = [t.encode('utf-8', 'surrogateescape') for t in items]
        n = len(data)
        texts = (ctypes.c_char_p * n)(*data)
        lens = (ctypes.c_size_t * n)(*[len(d) for d in data])
        result, err = ctypes.c_void_p(), _Error()
        _check(self._lib.nmt_translate_batch(self._session(), ctypes.byref(opts), texts, lens, n,
                                             ctypes.byref(result), ctypes.byref(err)), err)
        try:
            out = []
            for i in range(n):
                k_max = self._lib.nmt_result_nbest(result, i)
                found = [self._translation(self._lib.nmt_result_get(result, i, k).contents)
                         for k in range(k_max)]
                out.append(found[0] if nbest == 1 else found)
            return out
        finally:
            self._lib.nmt_result_free(result)

    @staticmethod
    def _translation(t):
        text = ctypes.string_at(t.text, t.len).decode('utf-8', 'surrogateescape')
        align = t.alignment.decode() if t.alignment else None
        return Translation(text, float(t.score), float(t.logprob), align)

    def close(self):
        """Free the sessions and the model (also on leaving a with block)."""
        with self._lock:
            for s in self._sessions:
                self._lib.nmt_session_free(s)
            self._sessions = []
        if self._model:
            self._lib.nmt_model_close(self._model)
            self._model = ctypes.c_void_p()
        self._local = threading.local()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def version():
    """The library's version."""
    return _library().nmt_version().decode()
