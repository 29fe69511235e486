# Where the data beside the checkout is and which Python runs the scripts:
# the one place these defaults are written (here in train/, beside the
# recipes that need most of them, so that a copy of train/ alone, as the
# trainer's tests make, has them). Sourced (not run) from the repository
# root, where its relative paths start, by train/common.sh, bench/common.sh,
# tests/e2e/lib.sh and the tests that read Multi30k; the Makefile and
# train/corpus.py read it too. Each setting keeps a value given in the
# environment; it exports nothing.

# SHARED: the shared folder beside the repository (data sets, fixtures).
SHARED=${SHARED:-../shared}
# MULTI30K: Multi30k task 1 (train.en.gz, val.de.gz, test_2016_flickr.en.gz, ...).
MULTI30K=${MULTI30K:-$SHARED/data/multi30k}
# MULTI30K_TASK2: Multi30k task 2's captions (train.1.en.gz, val.1.en.gz, ...).
MULTI30K_TASK2=${MULTI30K_TASK2:-$SHARED/data/multi30k-task2}
# OPEN_PARALLEL: the open parallel text of the general-domain models
# (en-XX.tsv.gz, news-en-de.tsv.gz, dev/).
OPEN_PARALLEL=${OPEN_PARALLEL:-$SHARED/data/open-parallel}
# FLORES: FLORES-200 dev (flores-dev.en, ...), the validation set of the
# general-domain models: choose with it, never with FLORES devtest.
FLORES=${FLORES:-$OPEN_PARALLEL/dev}
# PYTHON: the interpreter, Debian's (its torch, sentencepiece, ...).
PYTHON=${PYTHON:-/usr/bin/python3}
