"""nmt: offline neural machine translation, the Python binding of libnmt.

    import nmt
    with nmt.Translator() as t:               # the built-in English->German model
        for r in t.translate(["A dog runs.", "Two men talk."]):
            print(r.translation, r.score)
    nmt.detect("Der Hund läuft.")             # 'de'
    nmt.translate("Le chien court.", source="auto", target="de")   # installed models, pivot


The C library (libnmt.so) does the work, the GIL released, on `threads`
threads of its own; a Translator may be shared by Python threads (each gets
its own session over the one model). docs/PYTHON.md has the details.
"""
import ctypes
import ctypes.util
import dataclasses
import os
import threading

__all__ = ['Translator', 'Translation', 'NmtError', 'Model', 'library_path', 'detect', 'models', 'translate']

NMT_MAX_BEAM, NMT_MAX_THREADS = 8, 256   # nmt.h (a #define reaches ctypes only as a copy)
NMT_SPLIT_NONE, NMT_SPLIT_SENTENCE = 0, 1   # nmt.h
NMT_OPEN_METADATA = 2
PIVOT = 'en'   # the language two models are chained through (nmt -l, cli/catalog.h)
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


class _Detection(ctypes.Structure):   # nmt.h's nmt_detection
    _fields_ = [('language', ctypes.c_char * 16), ('confidence', ctypes.c_double)]


# The per-call options a keyword sets: name -> how its value goes into nmt_options.
_OPTION_FIELDS = {
    'max_length': int, 'alpha': float, 'batch': int,
    'shortlist': lambda v: int(bool(v)), 'protect_spans': lambda v: int(bool(v)),
    'repeat_guard': lambda v: int(bool(v)), 'case_fold': lambda v: int(bool(v)),
    'split': lambda v: NMT_SPLIT_SENTENCE if v else NMT_SPLIT_NONE,
}
_DEVICES = {'cpu': 0, 'cuda': 1}


def _set_options(opts, options):
    """Set the keyword options on opts; the library checks the ranges."""
    for name, value in options.items():
        if name == 'device':
            if value not in _DEVICES:
                raise ValueError(f"device must be 'cpu' or 'cuda', not {value!r}")
            opts.device = _DEVICES[value]
        elif name in _OPTION_FIELDS:
            setattr(opts, name, _OPTION_FIELDS[name](value))
        else:
            raise TypeError(f'unknown option {name!r} (the options: device, '
                            + ', '.join(sorted(_OPTION_FIELDS)) + ')')


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
            lib.nmt_model_file_size.argtypes = [P]
            lib.nmt_model_file_size.restype = ctypes.c_size_t
            lib.nmt_detect.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_char_p),
                                       ctypes.c_int, ctypes.POINTER(_Detection), ctypes.c_int,
                                       ctypes.POINTER(ctypes.c_int), E]
            _lib = lib
        return _lib


def _check(status, err):
    if status != 0:
        raise NmtError(err.message.decode('utf-8', 'replace'))


class Translator:
    """A model opened once: `model` a packed .nmt file, or None for the
    model built into libnmt.so (English->German); `threads` the threads a
    translate call uses (default: one per core)."""

    def __init__(self, model=None, threads=None, _flags=0):
        lib = _library()
        self._lib, self._model = lib, ctypes.c_void_p()
        self.threads = int(threads) if threads else (os.cpu_count() or 1)
        if not 1 <= self.threads <= NMT_MAX_THREADS:
            raise ValueError(f'threads must be in 1..{NMT_MAX_THREADS}')
        err = _Error()
        if model is None:
            size = ctypes.c_size_t.in_dll(lib, 'nmt_embedded_model_size').value
            if size == 0:
                raise NmtError('this libnmt.so has no built-in model: give model=PATH')
            data = ctypes.addressof(ctypes.c_char.in_dll(lib, 'nmt_embedded_model'))
            _check(lib.nmt_model_open_buffer(data, size, _flags, ctypes.byref(self._model), ctypes.byref(err)),
                   err)
        else:
            path = os.fsencode(model)
            _check(lib.nmt_model_open(path, _flags, ctypes.byref(self._model), ctypes.byref(err)), err)
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

    def translate(self, texts, beam=4, html=False, alignment=False, nbest=1, **options):
        """Translate a string (one Translation, or a list of nbest) or a list
        of strings (a list of those, in order). Each string is a paragraph:
        split into sentences, each translated, joined as they stood. Bytes
        that are not UTF-8 travel as surrogate escapes (errors=
        'surrogateescape'), both ways, as nmt passes them through.

        The C API's other per-call options, by keyword (nmt.h's nmt_options;
        the defaults are its): max_length (target pieces, 0 = 1.5 x source +
        10), alpha (length normalization; by default the model's own), shortlist, batch (texts decoded
        together, 0 = automatic), device ('cpu' or 'cuda'), split (False: each
        string is one sentence), protect_spans, repeat_guard, case_fold."""
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
        _set_options(opts, options)
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


def detect(text, candidates=None, confidences=False):
    """The language of `text` (a str), with the language profile built into
    libnmt.so (nmt detect's): its code ("de"), or "und" for a text without
    letters or in a script no candidate is written in. `candidates` a list
    of codes (default: every language of the profile). With
    confidences=True a list of (code, confidence) pairs instead, best
    first, the confidences summing to 1 ([] for "und")."""
    if not isinstance(text, str):
        raise TypeError('text must be a string')
    lib, err = _library(), _Error()
    codes = [c.encode() for c in candidates] if candidates is not None else []
    cands = (ctypes.c_char_p * max(len(codes), 1))(*codes)
    out, n = (_Detection * 64)(), ctypes.c_int()
    data = text.encode('utf-8', 'surrogateescape')
    _check(lib.nmt_detect(data, len(data), cands, len(codes), out, 64, ctypes.byref(n), ctypes.byref(err)), err)
    found = [(out[i].language.decode(), float(out[i].confidence)) for i in range(n.value)]
    if confidences:
        return found
    return found[0][0] if found else 'und'


@dataclasses.dataclass
class Model:
    """An installed model: its languages, family, weight format, size in
    bytes, and file (None: the model built into libnmt.so)."""
    src: str
    tgt: str
    arch: str
    quant: str
    size: int
    path: str = None


def models_path():
    """The directories models() searches, in order: $NMT_MODELS
    (colon-separated), ~/.local/share/nmt, /usr/local/share/nmt/models (where
    `make install` puts the shipped models), as nmt -l does."""
    dirs = [d for d in os.environ.get('NMT_MODELS', '').split(':') if d]
    home = os.environ.get('HOME')
    if home:
        dirs.append(os.path.join(home, '.local', 'share', 'nmt'))
    return dirs + ['/usr/local/share/nmt/models']


def _describe(path):
    t = Translator(path, threads=1, _flags=NMT_OPEN_METADATA)
    try:
        return Model(t.metadata('src_lang') or 'und', t.metadata('tgt_lang') or 'und', t.metadata('arch') or '?',
                     t.metadata('quant') or '?', int(t._lib.nmt_model_file_size(t._model)), path)
    finally:
        t.close()


def models():
    """The installed models, in the order nmt -l chooses among them: the
    *.nmt files of models_path()'s directories (each in name order), then
    the built-in one. Files that are not models are skipped."""
    found = []
    for d in models_path():
        try:
            names = sorted(n for n in os.listdir(d) if n.endswith('.nmt') and len(n) > 4)
        except OSError:
            continue
        for name in names:
            try:
                found.append(_describe(os.path.join(d, name)))
            except NmtError:
                pass
    if ctypes.c_size_t.in_dll(_library(), 'nmt_embedded_model_size').value:
        found.append(_describe(None))
    return found


def _route(installed, src, tgt):
    """The models from src to tgt: a direct one, or two through PIVOT; None."""
    def find(s, t):
        return next((m for m in installed if m.src == s and m.tgt == t), None)
    direct = find(src, tgt)
    if direct:
        return [direct]
    first, second = find(src, PIVOT), find(PIVOT, tgt)
    return [first, second] if first and second else None


def translate(texts, source, target, beam=4, threads=None, **options):
    """Translate a string (its translation, a str) or a list of strings (a
    list of str, in order) from `source` into `target` with the installed
    models (models()): the one for the pair, or two chained through English.
    The keyword options are Translator.translate's (html, max_length, alpha,
    shortlist, batch, device, split, protect_spans, repeat_guard, case_fold),
    given to each model of the chain.
    source="auto": each text from the language detect() names for it, among
    the installed models' source languages that reach `target` (texts in
    `target`, or without letters, come back unchanged); the texts of one
    language are translated together. Each model needed is opened once per
    call; for many calls with one pair, a Translator is cheaper."""
    single = isinstance(texts, str)
    items = [texts] if single else list(texts)
    if not all(isinstance(t, str) for t in items):
        raise TypeError('texts must be a string or a list of strings')
    for name in ('nbest', 'alignment'):
        if name in options:
            raise TypeError(f'{name} is a Translator option: a chain of models gives one translation')
    installed = models()
    if source == 'auto':
        langs = _detect_sources(installed, items, target)
    else:
        if source != target and _route(installed, source, target) is None:
            raise NmtError(f'no installed model translates {source} to {target}, directly or through {PIVOT}')
        langs = [source] * len(items)
    out = list(items)
    opened = {}
    try:
        for lang in dict.fromkeys(langs):
            route = _route(installed, lang, target) if lang != target else None
            if route is None:
                continue   # already in target, or "und"
            at = [i for i, l in enumerate(langs) if l == lang]
            batch = [items[i] for i in at]
            for m in route:
                if m.path not in opened:
                    opened[m.path] = Translator(m.path, threads)
                batch = [r.translation for r in opened[m.path].translate(batch, beam=beam, **options)]
            for i, t in zip(at, batch):
                out[i] = t
    finally:
        for t in opened.values():
            t.close()
    return out[0] if single else out


def _detect_sources(installed, items, target):
    """Each text's language among the sources that reach target, and target."""
    sources = [m.src for m in installed if m.src != target and _route(installed, m.src, target)]
    cands = list(dict.fromkeys(sources + [target]))
    usable = [c for c in cands if _profile_knows(c)]
    if not [c for c in usable if c != target]:
        raise NmtError(f'no installed model whose language the profile knows translates into {target}, '
                       f'directly or through {PIVOT}')
    return [detect(t, usable) for t in items]


def _profile_knows(code):
    try:
        detect('', [code])
        return True
    except NmtError:
        return False
