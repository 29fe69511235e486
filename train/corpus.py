"""The general-domain training corpus of one language pair, cleaned and weighted.

    /usr/bin/python3 train/corpus.py --pair de --out DIR \
        [--open OPEN_PARALLEL] [--multi30k MULTI30K] \
        [--extra SYNTH.tsv.gz:WEIGHT ...]

(--open and --multi30k default to train/paths.sh's OPEN_PARALLEL and MULTI30K:
the environment's, else ../shared/data/open-parallel and ../shared/data/multi30k.)

Reads the open parallel text (English<TAB>other<TAB>source tag), the news
pairs (en-de), Multi30k's captions where the pair has them, and any extra
pairs (back-translations: the same three columns), and writes

    DIR/train.en.gz, DIR/train.XX.gz   one pair per line, shuffled
    DIR/train.tag.gz                   each line's source tag (its licence
                                       travels with it)
    DIR/pairs.tsv.gz                   each kept pair once: English, other,
                                       tag, its number of copies in train.*
    DIR/report.tsv                     per source: pairs read, kept after
                                       cleaning, why the rest went, its
                                       weight and the lines it contributed

Cleaning, in order: whitespace; escapes, accelerators and context prefixes
of software catalogs; the Ding dictionary's shorthand (sb., jdn. ...)
spelled out and its glosses dropped; markup stripped where both sides hold
the same tags, else the pair dropped; placeholders (%s, {0}, $VAR ...) must
match as multisets; lines of several sentences split where both sides split
into the same number; length (1-80 words a side) and length ratio; the
language of each side (function words: an untranslated side goes); exact
duplicates and pairs whose English is a validation or test sentence.

With --protect-tool (the engine's span protection, tests/protect_tool),
each pair whose two sides hold the same protected spans (numbers, times,
URLs, paths, code ...: text/spans.h) is added once more with every span
replaced by its language's placeholder word, exactly as the engine will
give the sentence to the model with protection on: the models learn to
carry the placeholder to where the span belongs (docs/INPUT.md).

Weights repeat a source's pairs: the few general sources (Ding's sentences,
news, game and everyday catalog sentences) count more, single-word catalog
entries and archaic Bible Spanish less. Fractions are drawn per pair from a
hash of it, so the corpus is the same on every run.
"""
import argparse
import collections
import gzip
import hashlib
import html
import os
import random
import re
import subprocess
import sys

# Per-source weights, by tag prefix (first match wins). Why: the sources
# closest to what people write are few (Ding's ~20k example sentences, ~28k
# news pairs) and would drown in ~200k software strings.
WEIGHTS = [
    ('ding-sent', 4.0),
    ('newstest', 3.0),
    ('multi30k', 1.5),
    ('ding-phr', 1.0),
    ('gettext', 1.0),
    ('ddtp', 0.7),
    ('lo-help', 0.7),
    ('gnome-help', 1.0),
    ('manpages', 0.4),
    ('bible', 0.3),
    ('', 1.0),
]
SHORT_WEIGHT = 0.35   # catalog entries of one or two words: menu labels, mostly
SYNTH_WEIGHT = 1.0

FUNCTION_WORDS = {
    'en': 'the and of to is that it you with for this are not your can have they she we which '
          'there their from by or at were been would should'.split(),
    'de': 'der das und ist nicht ein eine zu mit ich den dem von für auf wird werden sich im '
          'des auch wenn oder kann sind wir er nach bei wurde'.split(),
    'fr': 'le la les et est une des du pour dans pas que qui vous sur avec ce il au sont par '
          'ou cette nous elle'.split(),
    'es': 'el la los las y es una del para en que por con se su al lo como más pero sus '
          'este esta le'.split(),
}

DING_EN = [(r"\bsb\.'s\b", "somebody's"), (r'\bsb\.', 'somebody'), (r'\bsth\.', 'something'),
           (r'\bsb\b', 'somebody'), (r'\bsth\b', 'something')]
DING_OTHER = {
    'de': [(r'\bjdn\.', 'jemanden'), (r'\bjdm\.', 'jemandem'), (r'\bjds\.', 'jemandes'),
           (r'\bjd\.', 'jemand'), (r'\betw\.', 'etwas')],
}

PLACEHOLDER = re.compile(
    r"%(?:\d+\$)?[-#0+']*\d*(?:\.\d+)?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfgGcspn](?![A-Za-z])"  # printf
    r'|%\([A-Za-z_]+\)[sd]'      # Python
    r'|%\d+'                     # Qt
    r'|\{[A-Za-z0-9_]*\}'        # format fields
    r'|\$\{?[A-Za-z_]\w*\}?')    # shell and template variables
TAG = re.compile(r'</?([A-Za-z][\w:-]*)[^<>]*?/?>')
BLOCK_TAGS = {'p', 'br', 'li', 'ul', 'ol', 'div', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'para', 'title'}
SENTENCE_END = re.compile(r'(?<=[.!?])\s+(?=[A-ZÄÖÜÀ-ÝÑ"„«¿¡“])')
WORD = re.compile(r'\w+', re.UNICODE)


def weight_of(tag, n_words):
    base = next(w for prefix, w in WEIGHTS if tag.startswith(prefix))
    if tag.startswith('gettext') and n_words <= 2:
        base *= SHORT_WEIGHT
    return base


def copies(weight, key):
    """floor(weight) copies, one more with probability frac(weight), drawn
    from a hash of the pair so the corpus does not depend on the run."""
    whole = int(weight)
    frac = weight - whole
    if frac > 0:
        h = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), 'little')
        if h / 2**64 < frac:
            whole += 1
    return whole


def normalize_space(s):
    return ' '.join(s.split())


def clean_catalog(s):
    """Software catalog conventions: literal escapes, context prefixes
    (`?ctx:text`, `ctx|text`), LyX shortcut suffixes (`text|a`), and
    accelerators (`&File`, `_File`)."""
    s = s.replace('\\n', ' ').replace('\\t', ' ').replace('\\"', '"')
    s = re.sub(r'^\?[\w-]+:', '', s)
    s = re.sub(r'\|[^|\s]{1,2}$', '', s)
    s = re.sub(r'&&', '&', s)
    s = re.sub(r'(?<![\w&])&(?=[^\W\d_])', '', s)
    s = re.sub(r'(?<![\w_])_(?=[^\W\d_])', '', s)
    s = re.sub(r'\(_?\w\)$', '', s)   # "(_N)" accelerator hints
    return s


# "Platz/die Plätze": an alternative of several words, whose scope a slash
# does not show; such a pair is dropped rather than cut in the wrong place.
DING_WIDE_ALTERNATIVE = re.compile(r'/(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer|the|a|an|'
                                   r'le|la|les|un|une|el|los|las|una|sich|to)\s', re.IGNORECASE)


def clean_ding(s, rules):
    s = re.sub(r'\s*/[^/\s][^/]*/\s*$', '', s)   # trailing /ABBR/ forms
    s = re.sub(r'\s*\{[^}]*\}', '', s)           # {f}, {pl} grammar marks
    s = re.sub(r'\s*\[[^\]]*\]', '', s)          # [Br.] [ugs.] usage marks
    s = re.sub(r'\s*\([^)]*\)', '', s)           # glosses differ across sides
    for pat, rep in rules:
        s = re.sub(pat, rep, s)
    # "raise/sound the alarm": keep the first alternative
    s = re.sub(r'(\w+)/\w+', r'\1', s)
    return s


def strip_markup(en, xx):
    """Both sides without their tags, or None when the sides' tags differ."""
    te = sorted(m.group(1).lower() for m in TAG.finditer(en))
    tx = sorted(m.group(1).lower() for m in TAG.finditer(xx))
    if not te and not tx:
        return en, xx
    if te != tx:
        return None
    def strip(s):   # inline tags join their words, block tags separate them
        return html.unescape(TAG.sub(lambda m: ' ' if m.group(1).lower() in BLOCK_TAGS else '', s))
    return strip(en), strip(xx)


def placeholders_match(en, xx):
    return collections.Counter(PLACEHOLDER.findall(en)) == collections.Counter(PLACEHOLDER.findall(xx))


def function_word_counts(text, lang, other):
    words = [w.lower() for w in WORD.findall(text)]
    a, b = set(FUNCTION_WORDS[lang]), set(FUNCTION_WORDS[other])
    return sum(w in a for w in words), sum(w in b for w in words)


def wrong_language(en, xx, lang):
    """A side that reads as the other language: an untranslated catalog
    entry, or a pair given in the wrong order."""
    own, foreign = function_word_counts(xx, lang, 'en')
    if foreign >= 2 and foreign > own:
        return True
    own, foreign = function_word_counts(en, 'en', lang)
    return foreign >= 2 and foreign > own


def length_ok(en, xx):
    ne, nx = len(en.split()), len(xx.split())
    if not (1 <= ne <= 80 and 1 <= nx <= 80):
        return False
    ce, cx = len(en), len(xx)
    if max(ce, cx) <= 12:
        return max(ce, cx) <= 4 * min(ce, cx)
    return 0.45 <= cx / ce <= 2.4


def split_sentences(en, xx):
    """Several sentences on one line: pairs of sentences where both sides
    split the same way, else the line whole."""
    se, sx = SENTENCE_END.split(en), SENTENCE_END.split(xx)
    if len(se) > 1 and len(se) == len(sx):
        return list(zip(se, sx))
    return [(en, xx)]


def clean_pair(en, xx, tag, lang):
    """Cleaned sentence pairs of one input pair, or a reason it was dropped."""
    en, xx = normalize_space(en), normalize_space(xx)
    if tag.startswith('gettext'):
        en, xx = clean_catalog(en), clean_catalog(xx)
    if tag.startswith('ding'):
        if DING_WIDE_ALTERNATIVE.search(en) or DING_WIDE_ALTERNATIVE.search(xx):
            return 'alternatives'
        en, xx = clean_ding(en, DING_EN), clean_ding(xx, DING_OTHER.get(lang, []))
    stripped = strip_markup(en, xx)
    if stripped is None:
        return 'markup'
    en, xx = (normalize_space(s) for s in stripped)
    if not en or not xx:
        return 'empty'
    if not placeholders_match(en, xx):
        return 'placeholders'
    if en == xx and len(WORD.findall(en)) >= 2:
        return 'untranslated'
    if wrong_language(en, xx, lang):
        return 'language'
    out = [(e, x) for e, x in split_sentences(en, xx) if length_ok(e, x)]
    return out or 'length'


def read_tsv(path):
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) >= 3:
                yield parts[0], parts[1], parts[2]


def read_multi30k(folder, lang):
    def lines(name):
        with gzip.open(os.path.join(folder, name), 'rt', encoding='utf-8') as f:
            return [l.rstrip('\n') for l in f]
    for e, x in zip(lines('train.en.gz'), lines(f'train.{lang}.gz')):
        yield e, x, 'multi30k:CC-BY-4.0'


def held_out_english(open_dir, multi30k):
    """English sentences of the validation and test sets: never trained on."""
    held = set()
    paths = [os.path.join(open_dir, 'dev', 'flores-dev.en')]
    if multi30k:
        paths += [os.path.join(multi30k, n) for n in
                  ('val.en.gz', 'test_2016_flickr.en.gz', 'test_2017_flickr.en.gz')]
    for p in paths:
        if os.path.exists(p):
            opener = gzip.open if p.endswith('.gz') else open
            with opener(p, 'rt', encoding='utf-8') as f:
                held.update(normalize_space(l) for l in f)
    return held


def source_name(tag):
    return tag.split(':')[0]


def build(inputs, lang, held):
    """inputs: (iterable of (en, xx, tag), weight or None). Returns the
    kept pairs as (en, xx, tag, copies) and the per-source statistics."""
    stats = collections.defaultdict(collections.Counter)
    seen = set()
    out = []
    for stream, fixed_weight in inputs:
        for en, xx, tag in stream:
            name = source_name(tag)
            stats[name]['read'] += 1
            result = clean_pair(en, xx, tag, lang)
            if isinstance(result, str):
                stats[name]['drop_' + result] += 1
                continue
            for e, x in result:
                if e in held:
                    stats[name]['drop_held_out'] += 1
                    continue
                key = e + '\t' + x
                if key in seen:
                    stats[name]['drop_duplicate'] += 1
                    continue
                seen.add(key)
                stats[name]['kept'] += 1
                w = fixed_weight if fixed_weight is not None else weight_of(tag, len(e.split()))
                stats[name]['weight_sum'] += w
                n = copies(w, key)
                stats[name]['lines'] += n
                out.append((e, x, tag, n))
    return out, stats


def protect(tool, lang, lines):
    """Each line as the engine protects it: (substituted text, [spans])."""
    out = subprocess.run([tool, lang], input='\n'.join(lines) + '\n', capture_output=True,
                         text=True, encoding='utf-8', check=True).stdout.split('\n')
    fields = [line.split('\t') for line in out[:len(lines)]]
    return [(f[0], f[1:]) for f in fields]


def placeholder_pairs(unique, lang, tool, stats):
    """The pairs of unique whose sides hold the same spans (as multisets),
    each side protected: (en, xx, tag, 1), not already a pair of unique."""
    en = protect(tool, 'en', [u[0] for u in unique])
    xx = protect(tool, lang, [u[1] for u in unique])
    have = {u[0] + '\t' + u[1] for u in unique}
    out = []
    for (e, e_spans), (x, x_spans), (_, _, tag, _) in zip(en, xx, unique):
        if not e_spans or collections.Counter(e_spans) != collections.Counter(x_spans):
            continue
        key = e + '\t' + x
        if key in have:
            continue
        have.add(key)
        s = stats['+placeholders']
        s['kept'] += 1
        s['weight_sum'] += 1
        s['lines'] += 1
        out.append((e, x, tag, 1))
    return out


def write_report(path, stats):
    reasons = sorted({k for s in stats.values() for k in s if k.startswith('drop_')})
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\t'.join(['source', 'read', 'kept', 'mean_weight', 'lines'] +
                          [r[5:] for r in reasons]) + '\n')
        total = collections.Counter()
        for name in sorted(stats, key=lambda n: -stats[n]['lines']):
            s = stats[name]
            total.update(s)
            mean = s['weight_sum'] / s['kept'] if s['kept'] else 0.0
            f.write('\t'.join([name, str(s['read']), str(s['kept']), f'{mean:.2f}', str(s['lines'])] +
                              [str(s[r]) for r in reasons]) + '\n')
        mean = total['weight_sum'] / total['kept'] if total['kept'] else 0.0
        f.write('\t'.join(['total', str(total['read']), str(total['kept']), f'{mean:.2f}',
                           str(total['lines'])] + [str(total[r]) for r in reasons]) + '\n')


def write_corpus(out_dir, lang, unique, seed):
    with gzip.open(os.path.join(out_dir, 'pairs.tsv.gz'), 'wt', encoding='utf-8') as f:
        for e, x, t, n in unique:
            f.write(f'{e}\t{x}\t{t}\t{n}\n')
    pairs = [(e, x, t) for e, x, t, n in unique for _ in range(n)]
    random.Random(seed).shuffle(pairs)
    files = {k: gzip.open(os.path.join(out_dir, f'train.{k}.gz'), 'wt', encoding='utf-8')
             for k in ('en', lang, 'tag')}
    for e, x, t in pairs:
        files['en'].write(e + '\n')
        files[lang].write(x + '\n')
        files['tag'].write(t + '\n')
    for f in files.values():
        f.close()


def shell_setting(name):
    """A setting of train/paths.sh, as the shell scripts get it: the
    environment's value, else its default there (relative to the working
    directory)."""
    paths = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'paths.sh')
    return subprocess.run(['sh', '-c', '. "$0" && printf %s "$' + name + '"', paths],
                          check=True, capture_output=True, text=True).stdout


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--pair', required=True, choices=('de', 'fr', 'es'), help='the language beside English')
    p.add_argument('--out', required=True)
    p.add_argument('--open', help="the open parallel text (default: train/paths.sh's OPEN_PARALLEL)")
    p.add_argument('--multi30k', help="Multi30k task 1 (default: train/paths.sh's MULTI30K)")
    p.add_argument('--extra', action='append', default=[],
                   help='PATH.tsv.gz[:WEIGHT] more pairs (English, other, tag), e.g. back-translations')
    p.add_argument('--protect-tool', help="the engine's span protection (tests/protect_tool): "
                   'adds the pairs with the same spans on both sides, spans replaced by placeholders')
    p.add_argument('--seed', type=int, default=1)
    a = p.parse_args()
    a.open = a.open or shell_setting('OPEN_PARALLEL')
    a.multi30k = a.multi30k or shell_setting('MULTI30K')
    lang = a.pair
    os.makedirs(a.out, exist_ok=True)

    inputs = []
    # Order matters for duplicates: the first source to bring a pair keeps it.
    if os.path.exists(os.path.join(a.multi30k, f'train.{lang}.gz')):
        inputs.append((read_multi30k(a.multi30k, lang), None))
    news = os.path.join(a.open, f'news-en-{lang}.tsv.gz')
    if os.path.exists(news):
        inputs.append((read_tsv(news), None))
    inputs.append((read_tsv(os.path.join(a.open, f'en-{lang}.tsv.gz')), None))
    for spec in a.extra:
        path, _, w = spec.partition(':')
        inputs.append((read_tsv(path), float(w) if w else SYNTH_WEIGHT))

    held = held_out_english(a.open, a.multi30k)
    unique, stats = build(inputs, lang, held)
    if a.protect_tool:
        unique += placeholder_pairs(unique, lang, a.protect_tool, stats)
    write_corpus(a.out, lang, unique, a.seed)
    write_report(os.path.join(a.out, 'report.tsv'), stats)
    print(open(os.path.join(a.out, 'report.tsv'), encoding='utf-8').read(), end='')
    print(f'corpus.py: {len(unique)} pairs, {sum(u[3] for u in unique)} lines in {a.out}', file=sys.stderr)


if __name__ == '__main__':
    main()
