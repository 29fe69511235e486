#!/usr/bin/env python3
"""Spans inside general sentences, and the same sentences without them:
each pair of a parallel set (FLORES dev) gets one phrase put before its
final punctuation, on both sides, in two versions:

    PREFIX.spans.SRC / PREFIX.spans.TGT   the phrase holds a protected span
                                          (time, date, price, number, room,
                                          percentage, URL, e-mail, path, code)
    PREFIX.plain.SRC / PREFIX.plain.TGT   the same phrase with ordinary words
                                          where the span was
    PREFIX.spans.gold                     each line's span

    bench/make_spans_general.py SRC_FILE TGT_FILE SRC TGT PREFIX
    bench/make_spans_general.py --mask PREFIX.spans.gold FILE

Languages: en, de, fr, es. bench/spans_general.sh scores a model on both:
spans verbatim, and the BLEU of the sentences with spans (protection on)
beside the BLEU of the same sentences with ordinary words. --mask writes
FILE (translations or references of the span set) with each line's span
as the one word SPAN: BLEU's 13a tokenization cuts a URL or a date into up
to ten tokens, which a copied span would all match, so unmasked the span
set would score far above the plain set for the span alone.
"""
import random
import sys

# (span version, ordinary version) per language; {s} is the span
PHRASES = [
    ('time', lambda r: f'{r.randint(1, 12)}:{r.randint(0, 59):02d}', {
        'en': ('at {s}', 'at noon'), 'de': ('um {s}', 'am Mittag'),
        'fr': ('à {s}', 'à midi'), 'es': ('a las {s}', 'al mediodía')}),
    ('date', lambda r: f'{r.randint(1, 28):02d}/{r.randint(1, 12):02d}/{r.randint(1990, 2030)}', {
        'en': ('on {s}', 'on Monday'), 'de': ('am {s}', 'am Montag'),
        'fr': ('le {s}', 'lundi'), 'es': ('el {s}', 'el lunes')}),
    ('price', lambda r: f'${r.randint(2, 99)}.{r.randint(0, 99):02d}', {
        'en': ('for {s}', 'for ten dollars'), 'de': ('für {s}', 'für zehn Dollar'),
        'fr': ('pour {s}', 'pour dix dollars'), 'es': ('por {s}', 'por diez dólares')}),
    ('count', lambda r: str(r.randint(20, 999)), {
        'en': ('with {s} people', 'with many people'), 'de': ('mit {s} Menschen', 'mit vielen Menschen'),
        'fr': ('avec {s} personnes', 'avec beaucoup de personnes'),
        'es': ('con {s} personas', 'con muchas personas')}),
    ('room', lambda r: str(r.randint(100, 999)), {
        'en': ('in room {s}', 'in the large room'), 'de': ('in Raum {s}', 'im großen Raum'),
        'fr': ('dans la salle {s}', 'dans la grande salle'), 'es': ('en la sala {s}', 'en la sala grande')}),
    ('percent', lambda r: f'{r.randint(5, 90)}%', {
        'en': ('by {s}', 'by half'), 'de': ('um {s}', 'um die Hälfte'),
        'fr': ('de {s}', 'de moitié'), 'es': ('en un {s}', 'a la mitad')}),
    ('url', lambda r: 'https://example.org/' + r.choice(['news', 'report', 'help', 'about']) + '.html', {
        'en': ('(see {s})', '(see the website)'), 'de': ('(siehe {s})', '(siehe die Website)'),
        'fr': ('(voir {s})', '(voir le site web)'), 'es': ('(véase {s})', '(véase el sitio web)')}),
    ('mail', lambda r: r.choice(['anna', 'info', 'press', 'b.lee']) + '@example.org', {
        'en': ('(contact: {s})', '(contact: the office)'), 'de': ('(Kontakt: {s})', '(Kontakt: das Büro)'),
        'fr': ('(contact : {s})', '(contact : le bureau)'), 'es': ('(contacto: {s})', '(contacto: la oficina)')}),
    ('path', lambda r: '/home/' + r.choice(['anna', 'bob']) + '/notes' + str(r.randint(1, 9)) + '.txt', {
        'en': ('(file {s})', '(a text file)'), 'de': ('(Datei {s})', '(eine Textdatei)'),
        'fr': ('(fichier {s})', '(un fichier texte)'), 'es': ('(archivo {s})', '(un archivo de texto)')}),
]

ENDINGS = '.!?'


def put_in(sentence, phrase):
    """sentence with phrase before its final punctuation (or at its end)."""
    s = sentence.rstrip()
    k = len(s)
    while k > 0 and s[k - 1] in ENDINGS:
        k -= 1
    return s[:k].rstrip() + ' ' + phrase + (s[k:] or '.')


def mask(gold_file, text_file):
    golds = open(gold_file, encoding='utf-8').read().splitlines()
    for gold, line in zip(golds, open(text_file, encoding='utf-8').read().splitlines()):
        print(line.replace(gold, ' SPAN '))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--mask':
        return mask(sys.argv[2], sys.argv[3])
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    src_file, tgt_file, src, tgt, prefix = sys.argv[1:]
    for lang in (src, tgt):
        if lang not in PHRASES[0][2]:
            sys.exit(f'make_spans_general.py: no phrases for language {lang!r}')
    srcs = open(src_file, encoding='utf-8').read().splitlines()
    tgts = open(tgt_file, encoding='utf-8').read().splitlines()
    if len(srcs) != len(tgts):
        sys.exit(f'make_spans_general.py: {src_file} and {tgt_file} differ in length')
    rng = random.Random(2026)
    out = {name: open(f'{prefix}.{name}', 'w', encoding='utf-8')
           for name in (f'spans.{src}', f'spans.{tgt}', f'plain.{src}', f'plain.{tgt}', 'spans.gold')}
    for i, (s, t) in enumerate(zip(srcs, tgts)):
        _, make, langs = PHRASES[i % len(PHRASES)]
        span = make(rng)
        for side, text, lang in (('src', s, src), ('tgt', t, tgt)):
            with_span, plain = langs[lang]
            out[f'spans.{lang}'].write(put_in(text, with_span.format(s=span)) + '\n')
            out[f'plain.{lang}'].write(put_in(text, plain) + '\n')
        out['spans.gold'].write(span + '\n')
    for f in out.values():
        f.close()


if __name__ == '__main__':
    main()
