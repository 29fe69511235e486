"""train/general.sh's synthetic text for the bt round: the target
language's monolingual text back-translated by the reverse model, and with
FT_WEIGHT the source language's forward-translated by the direction's own
model (taken from the reverse direction's back-translation, the same text by
the same model, where that exists). Into French, which has no monolingual
text, there is a bt round only with FT_WEIGHT. Between English and Spanish
the target language's text is also back-translated by Apertium
(RBMT_WEIGHT; train/rbmt.sh), and the recipe stops where Apertium lacks the
pair. Into English from French and Spanish, the general English of the en-de
pairs (news, Ding's sentences) is back-translated the same ways
(GENERAL_WEIGHT).

`nmt` is a stand-in that writes each line back prefixed with the model's
name, and `apertium` one that prefixes the mode, so each column's origin can
be checked.

    make test-train
"""
import gzip
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = r'''
set -eu
. train/logged.sh
eval "$(sed -n '/^MONO_LANGS=/p;/^timed()/,/^}/p;/^mono_text()/,/^}/p;/^translated()/,/^}/p;/^backtranslated()/,/^}/p;/^forwardtranslated()/,/^}/p;/^rbmt_backtranslated()/,/^}/p;/^general_english()/,/^}/p;/^general_backtranslated()/,/^}/p;/^synthetic()/,/^}/p' \
	train/general.sh)"
if synthetic "$@"; then echo "round: yes"; else echo "round: no"; fi
'''

# -m MODEL ...: each input line as "MODEL-NAME: line"; FAIL_AFTER=N stops
# after N lines (FAIL_MODEL: only that model does)
STAND_IN = r'''#!/bin/sh
while [ "$1" != -m ]; do shift; done
name=$(basename "$2" .q8.nmt)
[ -z "${FAIL_MODEL:-}" ] || [ "$FAIL_MODEL" = "$name" ] || FAIL_AFTER=
n=0
while IFS= read -r line; do
	n=$((n + 1))
	[ -n "${FAIL_AFTER:-}" ] && [ "$n" -gt "$FAIL_AFTER" ] && exit 1
	printf '%s: %s\n' "$name" "$line"
done
'''

APERTIUM = r'''#!/bin/sh
if [ "$1" = -l ]; then printf '%s\n' ${MODES-"  eng-spa" "  spa-eng"}; exit 0; fi
while IFS= read -r line; do printf '%s: %s\n' "$2" "$line"; done
'''

MONO = {
    'en': [('The weather is fine today.', 'brown:redistribution-permitted'),
           ('She read the letter twice.', 'janeaustenr:public-domain')],
    'es': [('La amistad es una igualdad armónica.', 'fortunes-es:GPL-2+')],
}


def checkout(tmp_path, models=('enes', 'esen', 'enfr')):
    root = tmp_path / 'repo'
    root.mkdir()
    os.symlink(os.path.join(ROOT, 'train'), root / 'train')
    nmt = root / 'nmt'
    nmt.write_text(STAND_IN)
    nmt.chmod(0o755)
    (root / 'bin').mkdir()
    (root / 'bin' / 'apertium').write_text(APERTIUM)
    (root / 'bin' / 'apertium').chmod(0o755)
    out = tmp_path / 'out'
    (out / 'mono').mkdir(parents=True)
    for lang, rows in MONO.items():
        with gzip.open(out / 'mono' / f'mono.{lang}.tsv.gz', 'wt', encoding='utf-8') as f:
            f.writelines(f'{s}\t{tag}\n' for s, tag in rows)
    for d in models:
        fin = out / f'{d}-final' / 'human'
        fin.mkdir(parents=True)
        (fin / f'{d}.q8.nmt').write_text('')
        (fin / 'flores.txt').write_text('')
    return root, out


def synthetic(repo, src, tgt, ft_weight='0', rbmt_weight='0', general_weight='0', **env):
    root, out = repo
    env = dict(os.environ, OUT=str(out), FT_WEIGHT=ft_weight, RBMT_WEIGHT=rbmt_weight, GENERAL_WEIGHT=general_weight,
               OPEN=str(root.parent / 'open'),
               PATH=f'{root / "bin"}:{os.environ["PATH"]}', **env)
    return subprocess.run(['sh', '-c', SCRIPT, 'general', src, tgt], cwd=root, env=env,
                          capture_output=True, text=True)


def rows(path):
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        return [line.rstrip('\n').split('\t') for line in f]


def test_into_spanish_back_translates_its_monolingual_text(tmp_path):
    repo = checkout(tmp_path)
    r = synthetic(repo, 'en', 'es')
    assert r.returncode == 0 and 'round: yes' in r.stdout
    synth = repo[1] / 'synth'
    assert rows(synth / 'bt.enes.tsv.gz') == [
        ['esen: La amistad es una igualdad armónica.', 'La amistad es una igualdad armónica.', 'bt-fortunes-es:GPL-2+']]
    assert not (synth / 'ft.enes.tsv.gz').exists()   # FT_WEIGHT=0
    assert sorted(os.listdir(synth)) == ['bt.enes.tsv.gz']   # no working files left


def test_forward_translation_is_the_reverse_directions_back_translation_retagged(tmp_path):
    repo = checkout(tmp_path)
    assert 'round: yes' in synthetic(repo, 'es', 'en').stdout   # es->en's bt: English by en->es
    r = synthetic(repo, 'en', 'es', ft_weight='1', FAIL_MODEL='enes', FAIL_AFTER='0')   # en->es translates nothing itself
    assert 'round: yes' in r.stdout, r.stderr
    synth = repo[1] / 'synth'
    bt = rows(synth / 'bt.esen.tsv.gz')
    assert bt[0] == ['The weather is fine today.', 'enes: The weather is fine today.', 'bt-brown:redistribution-permitted']
    assert rows(synth / 'ft.enes.tsv.gz') == [[e, o, 'ft-' + t[3:]] for e, o, t in bt]


def test_into_french_a_round_only_with_forward_translation(tmp_path):
    repo = checkout(tmp_path)
    r = synthetic(repo, 'en', 'fr')
    assert 'round: no' in r.stdout and 'no monolingual fr text' in r.stdout
    r = synthetic(repo, 'en', 'fr', ft_weight='1')
    assert 'round: yes' in r.stdout, r.stderr
    assert rows(repo[1] / 'synth' / 'ft.enfr.tsv.gz') == [
        ['The weather is fine today.', 'enfr: The weather is fine today.', 'ft-brown:redistribution-permitted'],
        ['She read the letter twice.', 'enfr: She read the letter twice.', 'ft-janeaustenr:public-domain']]
    assert not (repo[1] / 'synth' / 'bt.enfr.tsv.gz').exists()


def test_a_round_waits_for_its_reverse_model(tmp_path):
    repo = checkout(tmp_path, models=('enes',))
    r = synthetic(repo, 'en', 'es', ft_weight='1')
    assert 'round: no' in r.stdout and 'waits for the esen model' in r.stdout
    assert not (repo[1] / 'synth').exists()


def test_a_failed_translation_stops_the_recipe(tmp_path):
    repo = checkout(tmp_path)
    r = synthetic(repo, 'en', 'fr', ft_weight='1', FAIL_AFTER='1')
    assert r.returncode == 1 and 'round:' not in r.stdout
    assert 'forward translation enfr by' in r.stderr and 'failed' in r.stderr
    assert not (repo[1] / 'synth' / 'ft.enfr.tsv.gz').exists()


def test_apertium_back_translates_between_english_and_spanish(tmp_path):
    repo = checkout(tmp_path)
    synth = repo[1] / 'synth'
    assert 'round: yes' in synthetic(repo, 'es', 'en', rbmt_weight='1').stdout
    assert rows(synth / 'rbmt.esen.tsv.gz') == [
        ['The weather is fine today.', 'eng-spa: The weather is fine today.',
         'rbmt-brown:redistribution-permitted;apertium-eng-spa:GPL-2'],
        ['She read the letter twice.', 'eng-spa: She read the letter twice.',
         'rbmt-janeaustenr:public-domain;apertium-eng-spa:GPL-2']]
    assert 'round: yes' in synthetic(repo, 'en', 'es', rbmt_weight='1').stdout
    assert rows(synth / 'rbmt.enes.tsv.gz') == [
        ['spa-eng: La amistad es una igualdad armónica.', 'La amistad es una igualdad armónica.',
         'rbmt-fortunes-es:GPL-2+;apertium-eng-spa:GPL-2']]
    # none for a pair Apertium lacks, none with RBMT_WEIGHT=0
    assert 'round: yes' in synthetic(repo, 'en', 'fr', ft_weight='1', rbmt_weight='1').stdout
    (synth / 'rbmt.esen.tsv.gz').unlink()
    assert 'round: yes' in synthetic(repo, 'es', 'en').stdout
    assert sorted(p for p in os.listdir(synth) if p.endswith('.gz')) == [
        'bt.enes.tsv.gz', 'bt.esen.tsv.gz', 'ft.enfr.tsv.gz', 'rbmt.enes.tsv.gz']


def test_without_the_apertium_pair_the_recipe_stops(tmp_path):
    repo = checkout(tmp_path)
    r = synthetic(repo, 'es', 'en', rbmt_weight='1', MODES='  eng-cat')
    assert r.returncode == 1 and 'round:' not in r.stdout
    assert 'apt-get install apertium-eng-spa, or RBMT_WEIGHT=0' in r.stderr


def open_parallel(tmp_path):
    d = tmp_path / 'open'
    d.mkdir()
    with gzip.open(d / 'news-en-de.tsv.gz', 'wt', encoding='utf-8') as f:
        f.write('Prices rose in November.\tDie Preise stiegen im November.\tnewstest2008\n')
    with gzip.open(d / 'en-de.tsv.gz', 'wt', encoding='utf-8') as f:
        f.write('Money does not grow on trees.\tGeld wächst nicht auf Bäumen.\tding-sent\n'
                'Open the file\tDatei öffnen\tgettext:gimp\n'
                'Prices rose in November.\tDie Preise sind im November gestiegen.\tding-sent\n')


def test_the_en_de_general_english_is_back_translated_into_english_only(tmp_path):
    repo = checkout(tmp_path)
    open_parallel(tmp_path)
    synth = repo[1] / 'synth'
    assert 'round: yes' in synthetic(repo, 'es', 'en', rbmt_weight='1', general_weight='2').stdout
    # the news and Ding's sentences, once each, the software strings left out
    assert rows(repo[1] / 'mono' / 'general.en.tsv.gz') == [
        ['Prices rose in November.', 'newstest:WMT-research'],
        ['Money does not grow on trees.', 'ding-sent:GPL-2+']]
    assert rows(synth / 'bt-general.esen.tsv.gz') == [
        ['Prices rose in November.', 'enes: Prices rose in November.', 'bt-newstest:WMT-research'],
        ['Money does not grow on trees.', 'enes: Money does not grow on trees.', 'bt-ding-sent:GPL-2+']]
    assert rows(synth / 'rbmt-general.esen.tsv.gz')[1] == [
        'Money does not grow on trees.', 'eng-spa: Money does not grow on trees.',
        'rbmt-ding-sent:GPL-2+;apertium-eng-spa:GPL-2']
    # French has no Apertium pair; out of English, and with GENERAL_WEIGHT=0, none
    assert 'round: yes' in synthetic(repo, 'fr', 'en', general_weight='2').stdout
    assert 'round: yes' in synthetic(repo, 'en', 'es', general_weight='2').stdout
    general = sorted(p for p in os.listdir(synth) if 'general' in p and p.endswith('.gz'))
    assert general == ['bt-general.esen.tsv.gz', 'bt-general.fren.tsv.gz', 'rbmt-general.esen.tsv.gz']
    (synth / 'bt-general.esen.tsv.gz').unlink()
    assert 'round: yes' in synthetic(repo, 'es', 'en').stdout
    assert not (synth / 'bt-general.esen.tsv.gz').exists()


CORPUS_SCRIPT = r'''
set -eu
eval "$(sed -n '/^other_language()/,/^}/p;/^dictionary()/,/^}/p;/^bt_corpus()/,/^}/p' train/general.sh)"
captions() { return 1; }
timed() { shift; "$@"; }
logged() { shift; "$@"; }
PY=echo
bt_corpus "$@"
'''


def test_the_bt_corpus_takes_apertiums_pairs_first(tmp_path):
    repo = checkout(tmp_path)
    out = repo[1]
    (out / 'synth').mkdir()
    for name in ('rbmt.esen', 'bt.esen', 'bt-general.esen', 'rbmt-general.esen'):
        (out / 'synth' / f'{name}.tsv.gz').write_bytes(b'')

    def extras(rbmt_weight, general_weight='0', dict_weight='0', direction=('es', 'en')):
        env = dict(os.environ, OUT=str(out), RBMT_WEIGHT=rbmt_weight, BT_WEIGHT='1', FT_WEIGHT='0', OPEN='o',
                   GENERAL_WEIGHT=general_weight, DICT_WEIGHT=dict_weight,
                   MULTI30K='m', CAPTION_WEIGHT='0.5')
        r = subprocess.run(['sh', '-c', CORPUS_SCRIPT, 'general', *direction], cwd=repo[0], env=env,
                           capture_output=True, text=True, check=True)
        words = r.stdout.split()
        return [os.path.relpath(words[i + 1], out) for i, w in enumerate(words) if w == '--extra']

    assert extras('2') == ['synth/rbmt.esen.tsv.gz:2', 'synth/bt.esen.tsv.gz:1']
    assert extras('0') == ['synth/bt.esen.tsv.gz:1']
    assert extras('1', '2') == ['synth/rbmt.esen.tsv.gz:1', 'synth/bt.esen.tsv.gz:1',
                                'synth/rbmt-general.esen.tsv.gz:2', 'synth/bt-general.esen.tsv.gz:2']


def test_the_bt_corpus_takes_the_dictionary_between_english_and_french_or_spanish(tmp_path):
    repo = checkout(tmp_path)
    out = repo[1]
    (out / 'dict').mkdir()
    for lang in ('es', 'de'):
        (out / 'dict' / f'freedict.{lang}.tsv.gz').write_bytes(b'')

    def extras(dict_weight, direction, dict_langs='fr es'):
        env = dict(os.environ, OUT=str(out), RBMT_WEIGHT='0', BT_WEIGHT='1', FT_WEIGHT='0', OPEN='o',
                   GENERAL_WEIGHT='0', DICT_WEIGHT=dict_weight, DICT_LANGS=dict_langs, MULTI30K='m',
                   CAPTION_WEIGHT='0.5')
        r = subprocess.run(['sh', '-c', CORPUS_SCRIPT, 'general', *direction], cwd=repo[0], env=env,
                           capture_output=True, text=True, check=True)
        words = r.stdout.split()
        return [os.path.relpath(words[i + 1], out) for i, w in enumerate(words) if w == '--extra']

    assert extras('2', ('en', 'es')) == ['dict/freedict.es.tsv.gz:2']
    assert extras('2', ('es', 'en')) == ['dict/freedict.es.tsv.gz:2']
    assert extras('0', ('es', 'en')) == []
    assert extras('2', ('en', 'de')) == []   # German's (Ding's everyday words) only where asked for
    assert extras('2', ('de', 'en'), 'fr es de') == ['dict/freedict.de.tsv.gz:2']
    assert extras('2', ('en', 'es'), 'fr de') == []


def test_a_failed_dictionary_stops_the_corpus(tmp_path):
    repo = checkout(tmp_path)
    env = dict(os.environ, OUT=str(repo[1]), RBMT_WEIGHT='0', BT_WEIGHT='1', FT_WEIGHT='0', OPEN='o',
               GENERAL_WEIGHT='0', DICT_WEIGHT='2', DICT_LANGS='fr es', MULTI30K='m', CAPTION_WEIGHT='0.5')
    script = CORPUS_SCRIPT.replace('PY=echo', 'PY=false')
    r = subprocess.run(['sh', '-c', script, 'general', 'en', 'fr'], cwd=repo[0], env=env,
                       capture_output=True, text=True)
    assert r.returncode != 0
    assert 'general.sh: the FreeDict pairs of fr failed' in r.stderr


def test_the_german_dictionary_is_made_with_the_monolingual_text(tmp_path):
    repo = checkout(tmp_path)
    out = repo[1]
    for lang in ('en', 'de'):
        if not (out / 'mono' / f'mono.{lang}.tsv.gz').exists():
            (out / 'mono' / f'mono.{lang}.tsv.gz').write_bytes(b'')
    script = CORPUS_SCRIPT.replace("/^dictionary()/", "/^mono_text()/,/^}/p;/^dictionary()/").replace(
        'bt_corpus "$@"', 'dictionary de')
    env = dict(os.environ, OUT=str(out), DICT_WEIGHT='2', DICT_LANGS='de', OPEN='o')
    r = subprocess.run(['sh', '-c', script, 'general'], cwd=repo[0], env=env, capture_output=True, text=True,
                       check=True)
    assert r.stdout.split() == ['train/freedict.py', '--lang', 'de', '--mono-en', f'{out}/mono/mono.en.tsv.gz',
                                '--mono-other', f'{out}/mono/mono.de.tsv.gz', '--open', 'o',
                                '--out', f'{out}/dict/freedict.de.tsv.gz']
