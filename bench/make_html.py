#!/usr/bin/env python3
"""Make the markup test set: test captions with one word of an unambiguous
translation (dog -> Hund, ...) in a tag, and every third line also a link
around the caption's first two words and a <br> after it.

    bench/make_html.py CAPTIONS.en OUT_PREFIX

writes OUT_PREFIX.html (one fragment a line) and OUT_PREFIX.words (the
tagged word's German translation, or "-" where the line has none of the
listed words). bench/html.sh scores a translation of them.
"""
import re
import sys

WORDS = {'dog': 'Hund', 'dogs': 'Hunde', 'man': 'Mann', 'men': 'Männer', 'woman': 'Frau', 'women': 'Frauen',
         'girl': 'Mädchen', 'boy': 'Junge', 'child': 'Kind', 'children': 'Kinder', 'ball': 'Ball', 'water': 'Wasser',
         'street': 'Straße', 'beach': 'Strand', 'bike': 'Fahrrad', 'bicycle': 'Fahrrad', 'car': 'Auto',
         'shirt': 'Hemd', 'hat': 'Hut', 'snow': 'Schnee', 'grass': 'Gras', 'guitar': 'Gitarre', 'people': 'Leute'}
TAGS = ['<b>', '<i>', '<em class="x">', '<span style="color:red">']


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out = open(sys.argv[2] + '.html', 'w', encoding='utf-8')
    gold = open(sys.argv[2] + '.words', 'w', encoding='utf-8')
    for i, line in enumerate(open(sys.argv[1], encoding='utf-8')):
        words = line.split()
        want = '-'
        for j, w in enumerate(words):
            if w.lower() in WORDS:
                tag = TAGS[i % len(TAGS)]
                name = re.match(r'<(\w+)', tag).group(1)
                words[j] = tag + w + '</' + name + '>'
                want = WORDS[w.lower()]
                break
        words = [w.replace('&', '&amp;') for w in words]
        if i % 3 == 0 and len(words) > 3:   # a link around the first two words, a line break after
            words[0] = '<a href="https://example.com/?q=%d&amp;x=1">' % i + words[0]
            words[1] = words[1] + '</a>'
            words.append('<br>')
        out.write(' '.join(words) + '\n')
        gold.write(want + '\n')


if __name__ == '__main__':
    main()
