# nmt — see README.md.
#
#   make                 ./nmt (static, musl) and ./model-pack
#   make ARCH=aarch64    the same two for 64-bit ARM (cross-compiled, musl)
#   make test            unit tests (cmocka) + end-to-end tests + the Python binding's (pytest)
#   make libnmt.so       the shared library (nmt.h's API and the default model), for python/
#   make test ARCH=aarch64  the same, cross-built and run under qemu-aarch64-static
#   make test SANITIZE=1 the same, built with clang -fsanitize=address,undefined and the engine's asserts
#   make DEBUG=1         the binaries (and make test DEBUG=1 the tests) with the engine's asserts
#   make PROFILE=1       the binaries with per-stage timers: nmt prints a table at exit (bench/ssru_profile.sh)
#   make SLEEF=1         also ./nmt-sleef: dynamic, element-wise math on SLEEF
#   make CUDA=1          also ./nmt-cuda: dynamic, with the CUDA path (--device cuda)
#   make test-cuda CUDA=1  its tests (they skip, saying why, without a GPU)
#   make check-clang     compile everything with clang -Wall -Wextra -Werror (the profile build's code too)
#   make wasm            build/wasm/nmt.wasm: nmt for wasm32-wasi, the default model inside (wasm/nmt.mjs runs it)
#   make models          the default model and the other directions packed as f32, q8, q4 and q4n (build/models/)
#   make caption-models  the image-caption models (models/captions/) packed into build/models/captions/
#   make bench-kernels   kernel GOP/s per format and ISA, and the CPU's peak
#   make fuzz            every libFuzzer harness for FUZZ_SECONDS (default 60) each
#   make memcheck        valgrind memcheck on end-to-end translations
#   make spm-parity      tokenizer vs spm_encode/spm_decode (needs sentencepiece)
#   make test-train      the trainer's own tests (pytest; needs python3-torch)
#   make clean

MUSL_CC  ?= musl-gcc
HOST_CC  ?= cc
HOST_CXX ?= c++
# The Python and Multi30k task 1's folder: train/paths.sh's (where the
# scripts read them too), unless given to make or in the environment.
paths_sh = $(shell . train/paths.sh && printf %s "$$$(1)")
PYTHON   ?= $(call paths_sh,PYTHON)
MULTI30K ?= $(call paths_sh,MULTI30K)
# The end-to-end tests get them from make, so that what make was given holds there too.
E2E_ENV  = PYTHON="$(PYTHON)" MULTI30K="$(MULTI30K)"
# -ffp-contract=off: no fused multiply-adds, so float results are the same
# on every ISA (quant/f32_scalar.c). -fno-trapping-math lets the branch-free
# math of quant/vecmath.h be vectorized (nothing reads the FP exception flags);
# gcc also needs its dynamic vectorizer cost model for those loops at -O2.
# The engine's asserts (docs/DESIGN.md §1, "Invariants") are compiled out
# (-DNDEBUG) of every build but the sanitized tests (SANITIZE=1) and DEBUG=1
# builds, whose variants add -UNDEBUG.
CFLAGS_COMMON = -std=c11 -D_GNU_SOURCE -ffp-contract=off -fno-trapping-math -Wall -Wextra -Werror -O2 -g0 -ffunction-sections -fdata-sections -DNDEBUG
gcc_only = $(if $(findstring clang,$(1)),,-fvect-cost-model=dynamic)
CFLAGS   ?=
LDLIBS   = -lm

# The library (libnmt.a): the public API of nmt.h (api/) over the engine,
# its kernels and the tokenizer; everything the binaries and tests share.
LIB_SRC  = $(wildcard api/*.c) $(wildcard common/*.c) $(wildcard format/*.c) $(wildcard engine/*.c) $(wildcard family/*/*.c) $(wildcard quant/*.c) $(wildcard vocab/*.c) $(wildcard text/*.c)
PACK_SRC = $(filter-out pack/main.c,$(wildcard pack/*.c))
# The command line's input reader (nmt only; main.c uses nmt.h's API).
CLI_SRC  = $(wildcard cli/*.c server/*.c)
# nmt install packs a Marian model's folder with the packer's own code, so
# the one binary installs it (every program linking CLI_SRC links these too).
CLI_PACK_SRC = $(PACK_SRC)
# nmt serve's page (server/page.html), embedded by server/page.S.
CLI_ASM  = server/page
TEST_SRC = $(wildcard tests/test_*.c)

# The default model: packed at build time from the committed checkpoint and
# SentencePiece models in models/ (never retrained by make), then embedded
# into ./nmt. `make models` packs every weight format; EMBED_QUANT picks
# the one embedded (chosen by measurement: docs/RESULTS.md): the 4-bit format
# the model has its own weights for (models/ende-q4n+i8.safetensors, else
# -q4n, else -q4.safetensors: rounded by GPTQ or fine-tuned for that format,
# which packs those; q4n+i8 is model-pack's embeddings in q4n, the other
# matrices in i8), EMBED_MODEL= (empty) builds a binary without a model. The models
# are the general-domain ones (train/general.sh, installed by
# train/install_general.sh; models/NAME.txt says where each came from).
FOUR_BIT_FORMATS = q4n+i8 q4n q4
four_bit_of = $(firstword $(foreach q,$(FOUR_BIT_FORMATS),$(if $(wildcard models/$(1)-$(q).safetensors),$(q))))
EMBED_QUANT ?= $(or $(call four_bit_of,ende),q4)
DEFAULT_SPM = models/ende.en.model models/ende.de.model
DEFAULT_VMAP = $(wildcard models/ende.vmap)
default_weights = $(firstword $(wildcard models/ende-$(1).safetensors) models/ende.safetensors)
EMBED_MODEL ?= $(if $(wildcard models/ende.safetensors),build/models/ende.$(EMBED_QUANT).nmt)
EMBED_FLAGS = $(if $(EMBED_MODEL),-DNMT_EMBED_PATH='"$(EMBED_MODEL)"')
MODEL_VARIANTS = $(foreach q,f32 q8 q4 q4n q4n+i8,build/models/ende.$(q).nmt)
# The products of the PRECOMPUTE_TOP most frequent pieces' embeddings are
# computed by each translator as it first meets the piece (exact; nothing
# at open): with 1000 greedy decoding of general text takes 13% less time
# than with 250 computed at open (docs/RESULTS.md, "What each technique buys").
PRECOMPUTE_TOP ?= 1000
# The other directions (models/NAME.*: NAME.safetensors, NAME.vmap and the
# SentencePiece models NAME.SRC.model, NAME.TGT.model) are not embedded:
# `make models` packs them, `make install` installs them, nmt -l SRC-TGT
# finds them. Each entry is NAME:SRC:TGT; one whose weights are absent is
# skipped. The format shipped is the 4-bit one the direction has its own
# weights for (models/NAME-q4n+i8.safetensors, else -q4n, else -q4), else q8
# (4 bits by nearest rounding lose too much: docs/RESULTS.md).
DIRECTIONS = deen:de:en enfr:en:fr fren:fr:en enes:en:es esen:es:en
direction_field = $(word $(2),$(subst :, ,$(1)))
direction_name = $(call direction_field,$(1),1)
PRESENT_DIRECTIONS = $(foreach d,$(DIRECTIONS),$(if $(wildcard models/$(call direction_name,$(d)).safetensors),$(d)))
direction_quant = $(or $(call four_bit_of,$(1)),q8)
DIRECTION_VARIANTS = $(foreach d,$(PRESENT_DIRECTIONS),$(foreach q,f32 q8 q4 q4n q4n+i8,build/models/$(call direction_name,$(d)).$(q).nmt))
DIRECTION_SHIPPED = $(foreach d,$(PRESENT_DIRECTIONS),build/models/$(call direction_name,$(d)).$(call direction_quant,$(call direction_name,$(d))).nmt)
# The image-caption models of Multi30k (train/default.sh; the default before
# the general-domain ones), in models/captions/ the same way: `make
# caption-models` packs each in its shipped format into build/models/captions/
# for `nmt -m` or `nmt install`; never installed by make. Each entry is
# NAME:SRC:TGT:FORMAT, the format each shipped in (en->de's q4 translates as
# the embedded default of before did, byte for byte).
CAPTION_DIRECTIONS = ende:en:de:q4 deen:de:en:q4 enfr:en:fr:q8 fren:fr:en:q8
CAPTION_SHIPPED = $(foreach d,$(CAPTION_DIRECTIONS),build/models/captions/$(call direction_name,$(d)).$(call direction_field,$(d),4).nmt)
# nmt detect's language profile (train/langid.py), embedded in every
# program that links the command line's code; LANGID_PROFILE= (empty) builds
# without one.
LANGID_PROFILE ?= $(wildcard models/langid.bin)
LANGID_FLAGS = $(if $(LANGID_PROFILE),-DNMT_LANGID_PATH='"$(LANGID_PROFILE)"')
# The embedded model's object is named after the model, so choosing another
# one rebuilds it.
EMBED_TAG = $(if $(EMBED_MODEL),$(basename $(notdir $(EMBED_MODEL))),none)

# Host builds go to build/host, sanitized ones to build/san, so the two never mix.
H = build/host
ifeq ($(SANITIZE),1)
HOST_CC  = clang
HOST_CXX = clang++
SAN      = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
H = build/san
endif

# ARCH=aarch64 on an x86-64 machine: the static binaries cross-compiled
# against Debian's musl for arm64 (musl-dev:arm64 + gcc-aarch64-linux-gnu),
# objects in build/musl-aarch64; the tests cross-compiled against glibc and
# cmocka for arm64 and run, like the binaries, under qemu-aarch64-static.
# The default model is packed by a native model-pack (a packed file is the
# same on every architecture).
B = build/musl
PACKER = ./model-pack
ifeq ($(ARCH),aarch64)
ifneq ($(shell uname -m),aarch64)
MUSL_CC  = aarch64-linux-gnu-gcc -specs /usr/lib/aarch64-linux-musl/musl-gcc.specs
HOST_CC  = aarch64-linux-gnu-gcc
AR       = aarch64-linux-gnu-ar
B = build/musl-aarch64
H = build/a64-host
PACKER = build/native/model-pack
QEMU     = qemu-aarch64-static
RUNNER   = $(QEMU) -L /usr/aarch64-linux-gnu
E2E_ENV += NMT="$(QEMU) ./nmt" PACK="$(QEMU) ./model-pack" RUNNER="$(RUNNER)"
# Debian's gcc 12 for aarch64 stops with an internal compiler error
# vectorizing a test's double-precision sum; the test needs no vectorizing.
$(H)/tests/test_kernels.o: CFLAGS += -fno-tree-vectorize
# A dynamically linked glibc program's pthread_create never returns under
# qemu-user here (the static musl binaries' threads work): the API tests
# stay on one thread.
$(H)/tests/test_api.o: CFLAGS += -DNMT_TEST_NO_THREADS
endif
endif
# DEBUG=1 builds (the engine's asserts in) keep their objects apart too.
ifeq ($(DEBUG),1)
B := $(B)-debug
H := $(H)-debug
endif
# So do PROFILE=1 builds: engine/profile.h's per-stage timers compiled in
# (-DENGINE_PROFILE) and printed by nmt at exit; nmt keeps its symbol table,
# which callgrind needs to charge instructions to functions.
ifeq ($(PROFILE),1)
B := $(B)-profile
H := $(H)-profile
PROFILE_FLAGS = -DENGINE_PROFILE
endif
# make test's host nmt with those timers (tests/e2e/profile.sh) has its
# objects apart as well: in a PROFILE=1 build, H's own.
HP = $(if $(filter 1,$(PROFILE)),$(H),$(H)-profile)
.DEFAULT_GOAL := all

# One compile rule for every build variant: $(call variant,DIR,CC,FLAGS)
# compiles X.c into DIR/X.o with CC and the common flags plus FLAGS, and
# the embedded model's assembly into DIR/cli/embedded-NAME.o. Flags for one
# object go on it as target-specific CFLAGS.
define variant
$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	$(2) $$(CFLAGS_COMMON) $$(call gcc_only,$(2)) $(3) $$(CFLAGS) -MMD -MP -c $$< -o $$@

$(1)/cli/embedded-$$(EMBED_TAG).o: cli/embedded.S $$(EMBED_MODEL)
	@mkdir -p $$(dir $$@)
	$(2) $$(EMBED_FLAGS) -c $$< -o $$@

$(1)/cli/langid_profile.o: cli/langid_profile.S $$(LANGID_PROFILE)
	@mkdir -p $$(dir $$@)
	$(2) $$(LANGID_FLAGS) -c $$< -o $$@

$(1)/server/page.o: server/page.S server/page.html
	@mkdir -p $$(dir $$@)
	$(2) -c $$< -o $$@
endef

# The binaries are relinked when ARCH, DEBUG or PROFILE changes (their objects live apart).
ARCH_STAMP = build/arch-$(if $(ARCH),$(ARCH),native)$(if $(filter 1,$(DEBUG)),-debug)$(if $(filter 1,$(PROFILE)),-profile)

$(ARCH_STAMP):
	@mkdir -p build
	@rm -f build/arch-*
	@touch $@

.PHONY: all test test-train check-clang clean wasm wasm-lib wasm-page wasm-kernels wasm-if-available spm-parity bench-kernels models caption-models fuzz memcheck install install-check test-cuda
all: nmt model-pack $(if $(SANITIZE),,libnmt.a)

# ---- static binaries (musl) ---------------------------------------------
$(eval $(call variant,$(B),$(MUSL_CC),$(if $(filter 1,$(DEBUG)),-UNDEBUG) $(PROFILE_FLAGS)))
# What runs once per line or per file (the API, the command line, the file
# reader, text handling, the tokenizer, the server, the packer's readers) is
# compiled for size: 13 KB less in the static binary, whose budget with the
# default model is 8 MB (and 16 KB less in model-pack, as fast: the
# quantizer it spends its time in is quant/'s, at -O2).
# (private: a target-specific variable is otherwise inherited by the
# target's prerequisites, and cli/embedded-*.o depends, through the packed
# model and model-pack, on every kernel.)
COLD_ENGINE = engine/family engine/model engine/state engine/tensors engine/translator engine/translator_output \
	engine/vmap family/gru/arch family/gru/gru family/gru/precomp family/ssru/ssru family/ssru/ssru_arch
# The text pipeline's per-line work, all but the repetition guard, which runs every decode step,
# and language identification, which runs once per input character (nmt detect: 3x the speed at -O2).
COLD_TEXT = $(filter-out text/guard text/langid,$(basename $(wildcard text/*.c)))
$(B)/api/%.o $(B)/common/%.o $(B)/cli/%.o $(B)/server/%.o $(B)/format/%.o $(B)/vocab/%.o $(B)/pack/%.o $(B)/main.o \
	$(foreach f,$(COLD_ENGINE) $(COLD_TEXT),$(B)/$(f).o): private CFLAGS += -Os
# On x86-64 the generic element-wise kernels run only for NMT_KERNELS=scalar
# or a CPU without AVX2 (14 KB less); aarch64 runs them always, at -O2.
ifneq ($(ARCH),aarch64)
$(B)/quant/ew_generic.o: private CFLAGS += -Os
endif
# Where `make install` puts the shipped models, searched by nmt -l (cli/catalog.c).
%/cli/catalog.o: private CFLAGS += -DNMT_PREFIX='"$(PREFIX)"'

build/models/ende.%.nmt: $(DEFAULT_SPM) $(DEFAULT_VMAP) models/ende.safetensors $(wildcard models/ende-*.safetensors) $(PACKER)
	@mkdir -p build/models
	$(PACKER) --quant $* --precompute-top $(PRECOMPUTE_TOP) $(if $(DEFAULT_VMAP),--vmap $(DEFAULT_VMAP)) -o $@ \
		$(call default_weights,$*) $(DEFAULT_SPM)

# $(1) the folder under models/ ("" or captions/), $(2) NAME, $(3) SRC, $(4) TGT
define direction_rule
build/models/$(1)$(2).%.nmt: models/$(1)$(2).$(3).model models/$(1)$(2).$(4).model models/$(1)$(2).vmap \
		models/$(1)$(2).safetensors $$(wildcard models/$(1)$(2)-*.safetensors) $$(PACKER)
	@mkdir -p build/models/$(1)
	$$(PACKER) --quant $$* --precompute-top $$(PRECOMPUTE_TOP) --vmap models/$(1)$(2).vmap -o $$@ \
		$$(firstword $$(wildcard models/$(1)$(2)-$$*.safetensors) models/$(1)$(2).safetensors) \
		models/$(1)$(2).$(3).model models/$(1)$(2).$(4).model
endef
direction_rules = $(foreach d,$(2),$(eval $(call direction_rule,$(1),$(call direction_field,$(d),1),$(call direction_field,$(d),2),$(call direction_field,$(d),3))))
$(call direction_rules,,$(DIRECTIONS))
$(call direction_rules,captions/,$(CAPTION_DIRECTIONS))

# the native packer a cross build packs its models with
$(eval $(call variant,build/native,musl-gcc))

build/native/model-pack: $(patsubst %.c,build/native/%.o,pack/main.c $(PACK_SRC) $(LIB_SRC)) build/native/cli/langid_profile.o
	musl-gcc -static -o $@ $^ $(LDLIBS)

models: $(MODEL_VARIANTS) $(DIRECTION_VARIANTS)
	@ls -l $(MODEL_VARIANTS) $(DIRECTION_VARIANTS)

caption-models: $(CAPTION_SHIPPED)
	@ls -l $(CAPTION_SHIPPED)

# The library carries the language profile, for nmt_detect.
LIB_MUSL = $(patsubst %.c,$(B)/%.o,$(LIB_SRC)) $(B)/cli/langid_profile.o

# make SLEEF=1: also ./nmt-sleef, dynamically linked (glibc), whose array
# math runs on SLEEF's vector functions (quant/vecmath_sleef.c).
ifeq ($(SLEEF),1)
all: nmt-sleef
endif
$(eval $(call variant,build/sleef,$(HOST_CC),-DNMT_WITH_SLEEF))

nmt-sleef: $(patsubst %.c,build/sleef/%.o,main.c $(CLI_SRC) $(CLI_PACK_SRC) $(LIB_SRC)) $(CLI_ASM:%=build/sleef/%.o) build/sleef/cli/embedded-$(EMBED_TAG).o \
		build/sleef/cli/langid_profile.o
	$(HOST_CC) -o $@ $^ -lsleef -lpthread $(LDLIBS)

$(B)/libnmt.a: $(LIB_MUSL)
	rm -f $@
	$(AR) rcs $@ $^

# make CUDA=1: also ./nmt-cuda, dynamically linked (glibc) against CUDA's
# static runtime, with family/gru/cuda.cu (nvcc) in place of family/gru/cuda_none.c:
# `--device cuda` runs the model on an NVIDIA GPU. NVCC_ARCH sets the GPUs
# compiled for (sm_75 code and PTX, which newer GPUs compile when loading).
CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
NVCC_ARCH ?= sm_75
CUDA_LIB_SRC = $(filter-out family/gru/cuda_none.c,$(LIB_SRC))
CUDA_LIBS = -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++
ifeq ($(CUDA),1)
all: nmt-cuda
endif
$(eval $(call variant,build/cuda,$(HOST_CC)))

# -fmad=false: no fused multiply-adds, as -ffp-contract=off on the CPU
build/cuda/family/gru/cuda.o: family/gru/cuda.cu
	@mkdir -p $(dir $@)
	$(NVCC) -std=c++17 -O2 -fmad=false -arch=$(NVCC_ARCH) -I. -Xcompiler -Wall,-Wextra,-Werror -MMD -MP -c $< -o $@

CUDA_OBJS = $(patsubst %.c,build/cuda/%.o,$(CUDA_LIB_SRC)) build/cuda/family/gru/cuda.o build/cuda/cli/langid_profile.o

nmt-cuda: build/cuda/main.o $(patsubst %.c,build/cuda/%.o,$(CLI_SRC) $(CLI_PACK_SRC)) $(CLI_ASM:%=build/cuda/%.o) build/cuda/cli/embedded-$(EMBED_TAG).o \
		$(CUDA_OBJS)
	$(HOST_CC) -o $@ $^ $(CUDA_LIBS) $(LDLIBS)

# The GPU against the CPU engine on the tiny model in each weight format;
# without a GPU (or a driver) every test skips with the reason.
build/cuda/tests/test_cuda: build/cuda/tests/test_cuda.o $(CUDA_OBJS)
	$(HOST_CC) -o $@ $^ -lcmocka $(CUDA_LIBS) $(LDLIBS)

build/tiny.%.nmt: $(PACKER) tests/fixtures/tiny/tiny.safetensors tests/fixtures/tiny/src.model tests/fixtures/tiny/tgt.model
	$(PACKER) --quant $* -o $@ tests/fixtures/tiny/tiny.safetensors tests/fixtures/tiny/src.model tests/fixtures/tiny/tgt.model

test-cuda: nmt-cuda build/cuda/tests/test_cuda build/tiny.nmt build/tiny.q8.nmt build/tiny.q4.nmt build/tiny.q4n.nmt build/tiny.i8.nmt build/tiny_vmap_small.nmt build/marian_all.nmt
	build/cuda/tests/test_cuda
	@if echo 'A dog runs along the beach.' | ./nmt-cuda -m build/tiny.nmt --device cuda >build/cuda/e2e.out 2>build/cuda/e2e.err; then \
		echo 'A dog runs along the beach.' | ./nmt-cuda -m build/tiny.nmt >build/cuda/e2e.cpu && \
		cmp build/cuda/e2e.out build/cuda/e2e.cpu && echo "nmt-cuda --device cuda: same translation as the CPU"; \
	else \
		grep -q '^nmt: no CUDA device' build/cuda/e2e.err && [ $$(wc -l <build/cuda/e2e.err) -eq 1 ] && \
		echo "nmt-cuda --device cuda: skipped, $$(cat build/cuda/e2e.err)"; \
	fi

# nmt is main.c on the library's API, linked like any program embedding it.
# The shipped static programs carry no symbol table (-s): 30-50 KB an edge
# device need not store; build/host/ keeps symbols for debugging.
nmt: $(B)/main.o $(patsubst %.c,$(B)/%.o,$(CLI_SRC) $(CLI_PACK_SRC)) $(CLI_ASM:%=$(B)/%.o) $(B)/cli/embedded-$(EMBED_TAG).o $(B)/cli/langid_profile.o \
		$(B)/libnmt.a $(ARCH_STAMP)
	$(MUSL_CC) -static $(if $(PROFILE_FLAGS),,-s) -Wl,--gc-sections -o $@ $(filter %.o,$^) $(B)/libnmt.a -lpthread $(LDLIBS)

model-pack: $(B)/pack/main.o $(patsubst %.c,$(B)/%.o,$(PACK_SRC)) $(LIB_MUSL) $(ARCH_STAMP)
	$(MUSL_CC) -static -s -Wl,--gc-sections -o $@ $(filter %.o,$^) $(LDLIBS)

# ---- WebAssembly (wasm32-wasi), for Node and other WASI runtimes ------------
# make wasm: build/wasm/nmt.wasm, nmt with the embedded default model, built
# with clang's wasm32-wasi target against wasi-libc and linked by wasm-ld
# (Debian: clang, lld, wasi-libc, libclang-rt-14-dev-wasm32). WASI has no
# threads (-DNMT_NO_THREADS: api/session.c runs every batch on the one), no
# mmap (common/file_map.c reads a model file instead) and no sockets, so server/
# is left out (-DNMT_NO_SERVER: nmt serve says so). The x86 and NEON kernels
# compile to nothing; quant/q_wasm.c's (wasm-simd128) run. wasm/nmt.mjs runs it
# under Node (docs/WASM.md).
WASM_CC    ?= clang --target=wasm32-wasi --sysroot=/usr -isystem /usr/include/wasm32-wasi
# (64 KB by default: the engine's stack frames want more)
WASM_STACK ?= 8388608
# The command's memory from the start, 512 MiB (reserved, not resident, until
# touched): Node 20's node:wasi keeps the memory it saw at start and, once the
# program grows it, reads and writes freed memory in its file calls; Node
# crashed (SIGSEGV) after about 900 sentences of an imported Marian model,
# whose buffers grew the memory. The program rarely needs to grow it now.
WASM_MEMORY ?= 536870912
# 128-bit SIMD (every current runtime, Node 16.4 on): quant/q_wasm.c's kernels
# (7x the scalar ones on test_2016) and the vectorized element-wise ones, the
# same output. WASM_SIMD= builds the scalar kernels alone.
WASM_SIMD  ?= -msimd128
W = build/wasm
WASM_SRC = main.c $(wildcard cli/*.c) $(CLI_PACK_SRC) $(LIB_SRC) $(wildcard wasm/*.c)
# Whether WASM_CC compiles and links a C program (make test's check).
WASM_PROBE = f=$$(mktemp) && printf 'int main(void){return 0;}\n' | $(WASM_CC) -x c - -o $$f >/dev/null 2>&1; \
	ok=$$?; rm -f $$f; [ $$ok -eq 0 ]
$(eval $(call variant,$(W),$(WASM_CC),$(WASM_SIMD) -DNMT_NO_THREADS -DNMT_NO_SERVER -D_WASI_EMULATED_GETPID))

WASM_LINK = $(WASM_CC) -Wl,--gc-sections -Wl,--strip-all -Wl,-z,stack-size=$(WASM_STACK) -Wl,--initial-memory=$(WASM_MEMORY) \
	-o $@ $^ -lwasi-emulated-getpid $(LDLIBS)
$(W)/nmt.wasm: $(patsubst %.c,$(W)/%.o,$(WASM_SRC)) $(W)/cli/embedded-$(EMBED_TAG).o $(W)/cli/langid_profile.o
	$(WASM_LINK)
# build/wasm/nmt-core.wasm: the same program without the default model, which
# wasm/nmt.mjs runs when its arguments name a model (-m FILE): a runtime reads,
# compiles and copies every byte of a module before the program starts, and
# the default's are 93% of nmt.wasm's.
$(W)/nmt-core.wasm: $(patsubst %.c,$(W)/%.o,$(WASM_SRC)) $(W)/cli/no-model.o $(W)/cli/langid_profile.o
	$(WASM_LINK)
$(W)/cli/no-model.o: cli/embedded.S
	@mkdir -p $(dir $@)
	$(WASM_CC) -c $< -o $@

wasm: $(W)/nmt.wasm $(W)/nmt-core.wasm

# make wasm-lib: build/wasm/libnmt.wasm, nmt.h's API (api/libnmt.map's list,
# the embedded model's symbols included) as a WASI reactor for JavaScript,
# with malloc, free and aligned_alloc and wasm/lib/layout.c's wasm_layout;
# wasm/nmt.js wraps it. The objects are nmt.wasm's.
WASM_LIB_EXPORTS = $(shell sed -n 's/^[[:space:]]*\(nmt_[a-z_]*\);$$/\1/p' api/libnmt.map) malloc free aligned_alloc
$(W)/libnmt.wasm: $(patsubst %.c,$(W)/%.o,$(LIB_SRC) wasm/lib/layout.c) $(W)/cli/embedded-$(EMBED_TAG).o $(W)/cli/langid_profile.o \
		api/libnmt.map
	$(WASM_CC) -mexec-model=reactor -Wl,--gc-sections -Wl,--strip-all -Wl,-z,stack-size=$(WASM_STACK) \
		$(WASM_LIB_EXPORTS:%=-Wl,--export=%) -o $@ $(filter %.o,$^) -lwasi-emulated-getpid $(LDLIBS)

# make wasm-page: build/wasm/page/index.html, the translator as one page that
# works from a static folder or file:// with no server and no network:
# wasm/index.html with wasm/nmt.js, wasm/worker.js and libnmt.wasm (base64)
# put inside by wasm/page.sh.
$(W)/page/index.html: wasm/index.html wasm/nmt.js wasm/worker.js wasm/page.sh $(W)/libnmt.wasm
	@mkdir -p $(dir $@)
	sh wasm/page.sh wasm/index.html $(W)/libnmt.wasm >$@.tmp && mv $@.tmp $@

wasm-lib: $(W)/libnmt.wasm
wasm-page: $(W)/page/index.html

# make wasm-kernels: build/wasm/wasm_kernels.wasm, tests/wasm_kernels.c (the
# WebAssembly SIMD kernels against the scalar ones, without cmocka), which
# tests/e2e/wasm.sh runs under node.
$(W)/wasm_kernels.wasm: $(W)/tests/wasm_kernels.o $(patsubst %.c,$(W)/%.o,$(wildcard quant/*.c) $(wildcard format/*.c))
	$(WASM_CC) -Wl,--gc-sections -Wl,--strip-all -o $@ $^ $(LDLIBS)

wasm-kernels: $(W)/wasm_kernels.wasm

# make test: nmt.wasm, libnmt.wasm, the page and the kernels' test when the
# tools are there (tests/e2e/wasm.sh and wasm_lib.sh check them).
wasm-if-available:
	@if $(WASM_PROBE); then $(MAKE) --no-print-directory wasm wasm-lib wasm-page wasm-kernels; \
	else echo "wasm: skipped (no clang wasm32-wasi target, wasi-libc or wasm-ld: make wasm needs them)"; fi

# ---- the shared library, for other languages (python/) --------------------
# libnmt.so: nmt.h's API for the host's C library, position-independent, with
# the default model linked in (the symbols nmt_embedded_model and
# nmt_embedded_model_size, which the Python package opens when given no model).
$(eval $(call variant,build/pic,$(HOST_CC),-fPIC))

libnmt.so: $(patsubst %.c,build/pic/%.o,$(LIB_SRC)) build/pic/cli/embedded-$(EMBED_TAG).o build/pic/cli/langid_profile.o \
		api/libnmt.map
	$(HOST_CC) -shared -Wl,-soname,libnmt.so -Wl,--version-script=api/libnmt.map -o $@ $(filter %.o,$^) -lpthread $(LDLIBS)

# ---- the library for programs that embed nmt -----------------------------
# libnmt.a for the host's own C library (glibc here), so programs built with
# the system compiler can link it: nmt.h's API (docs/API.md).
$(H)/libnmt.a: $(patsubst %.c,$(H)/%.o,$(LIB_SRC)) $(H)/cli/langid_profile.o
	rm -f $@
	$(AR) rcs $@ $^

libnmt.a: $(H)/libnmt.a $(ARCH_STAMP)
	cp $< $@

# The example programs, linked against the library alone (the tests run them).
$(H)/examples/%.o: CFLAGS += -I.
$(H)/examples/%: $(H)/examples/%.o $(H)/libnmt.a
	$(HOST_CC) $(SAN) -o $@ $< $(H)/libnmt.a -lpthread $(LDLIBS)

EXAMPLES = $(patsubst examples/%.c,$(H)/examples/%,$(wildcard examples/*.c))

# make install PREFIX=/usr/local DESTDIR=: the two programs, the library,
# its header, a pkg-config file, the man pages and the shipped models.
PREFIX  ?= /usr/local
DESTDIR ?=
# The shipped models go to share/nmt/models, where nmt -l finds them.
SHIPPED_MODELS = $(if $(EMBED_MODEL),build/models/ende.$(EMBED_QUANT).nmt) \
	$(DIRECTION_SHIPPED)
install: nmt model-pack libnmt.a nmt.pc.in docs/nmt.1 docs/model-pack.1 $(SHIPPED_MODELS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/nmt/models
	$(if $(SHIPPED_MODELS),install -m 644 $(SHIPPED_MODELS) $(DESTDIR)$(PREFIX)/share/nmt/models/)
	install -m 755 nmt model-pack $(DESTDIR)$(PREFIX)/bin/
	install -m 644 libnmt.a $(DESTDIR)$(PREFIX)/lib/
	install -m 644 nmt.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(shell sed -n 's/^#define NMT_VERSION "\(.*\)"/\1/p' nmt.h)|' \
		nmt.pc.in >$(DESTDIR)$(PREFIX)/lib/pkgconfig/nmt.pc
	install -m 644 docs/nmt.1 docs/model-pack.1 $(DESTDIR)$(PREFIX)/share/man/man1/

# The installed files work: a staged install, and the example program built
# from it with pkg-config alone, translating with the tiny model.
STAGE = build/stage
install-check: build/tiny.nmt
	rm -rf $(STAGE)
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(STAGE)) PREFIX=/usr >/dev/null
	PKG_CONFIG_SYSROOT_DIR=$(abspath $(STAGE)) PKG_CONFIG_LIBDIR=$(abspath $(STAGE))/usr/lib/pkgconfig \
		sh -c '$(HOST_CC) -o $(STAGE)/translate examples/translate.c $$(pkg-config --cflags --libs --static nmt)'
	$(RUNNER) $(STAGE)/translate build/tiny.nmt "A dog runs." | grep -q .
	$(if $(SHIPPED_MODELS),HOME=/nonexistent $(RUNNER) $(STAGE)/usr/bin/nmt models | grep -q '^en-de .*share/nmt/models/ende')
	@echo "install-check: installed header, library and pkg-config file build the example, and it translates; the installed nmt finds the installed models"

# ---- tests (host compiler, cmocka) --------------------------------------
ASSERTS_H = $(if $(filter 1,$(SANITIZE) $(DEBUG)),-UNDEBUG)
$(eval $(call variant,$(H),$(HOST_CC),$(SAN) $(ASSERTS_H) $(PROFILE_FLAGS)))

# the embedded-model symbols with no model, for test programs that link the CLI's code
$(sort $(H)/cli/embedded.o $(HP)/cli/embedded.o) build/fuzz/cli/embedded.o: cli/embedded.S
	@mkdir -p $(dir $@)
	$(HOST_CC) -c $< -o $@

LIB_HOST = $(patsubst %.c,$(H)/%.o,$(LIB_SRC) $(PACK_SRC) $(CLI_SRC)) $(CLI_ASM:%=$(H)/%.o) $(H)/cli/embedded.o $(H)/cli/langid_profile.o
TESTS    = $(patsubst tests/%.c,$(H)/tests/%,$(TEST_SRC))
ifeq ($(ARCH),aarch64)
# (the GPU path's emulation needs a C++ cross compiler: tested on the host)
TESTS   := $(filter-out $(H)/tests/test_cuda,$(TESTS))
endif

$(H)/tests/%: $(H)/tests/%.o $(LIB_HOST)
	$(HOST_CC) $(SAN) -o $@ $^ -lcmocka -lpthread $(LDLIBS)

$(H)/tests/spm_tool: $(H)/tests/spm_tool.o $(LIB_HOST)
	$(HOST_CC) $(SAN) -o $@ $^ $(LDLIBS)

$(H)/tests/http_tool: $(H)/tests/http_tool.o
	$(HOST_CC) $(SAN) -o $@ $^

$(H)/tests/split_tool: $(H)/tests/split_tool.o $(LIB_HOST)
	$(HOST_CC) $(SAN) -o $@ $^ $(LDLIBS)

$(H)/tests/protect_tool: $(H)/tests/protect_tool.o $(LIB_HOST)
	$(HOST_CC) $(SAN) -o $@ $^ $(LDLIBS)

# The language profile's features for train/langid.py (the classifier's own code).
$(H)/tests/langid_tool: $(H)/tests/langid_tool.o $(LIB_HOST)
	$(HOST_CC) $(SAN) -o $@ $^ $(LDLIBS)

# The CUDA path's tests, run here on family/gru/cuda.cu itself compiled for the
# CPU (tests/cuda_emu.h): every kernel, buffer and table of the GPU path
# against the CPU engine, on any machine. make test-cuda CUDA=1 runs the same
# tests on a real GPU.
$(H)/family/gru/cuda_emu.o: family/gru/cuda.cu tests/cuda_emu.h
	@mkdir -p $(dir $@)
	$(HOST_CXX) -std=c++17 -x c++ $(filter-out -std=c11,$(CFLAGS_COMMON)) $(SAN) $(ASSERTS_H) -DNMT_CUDA_EMULATE \
		-include tests/cuda_emu.h -I. -MMD -MP -c $< -o $@

# nmt with the emulated GPU path (--device cuda runs cuda.cu on the CPU):
# bench/cuda_emu.sh compares its translations with the CPU engine's on the
# default model (docs/RESULTS.md).
$(H)/nmt-cuda-emu: $(H)/main.o $(filter-out $(H)/family/gru/cuda_none.o,$(LIB_HOST)) $(H)/family/gru/cuda_emu.o
	$(HOST_CC) $(SAN) -o $@ $^ -lstdc++ -lpthread $(LDLIBS)

$(H)/tests/test_cuda.o: CFLAGS += -DNMT_TEST_CUDA_EMULATED
$(H)/tests/test_cuda: $(H)/tests/test_cuda.o $(filter-out $(H)/family/gru/cuda_none.o,$(LIB_HOST)) $(H)/family/gru/cuda_emu.o
	$(HOST_CC) $(SAN) -o $@ $^ -lcmocka -lstdc++ -lpthread $(LDLIBS)

# The allocation-counting test sees every malloc/calloc/realloc of the
# engine's objects through the linker's --wrap.
$(H)/tests/test_alloc: LDLIBS += -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc

# SLEEF (Debian's libsleef-dev, a shared library only) is the accuracy oracle
# of the element-wise math when it is installed; libm in double otherwise.
HAVE_SLEEF := $(shell printf '#include <sleef.h>\n' | $(HOST_CC) -E -x c - >/dev/null 2>&1 && echo yes)
ifeq ($(HAVE_SLEEF),yes)
$(H)/tests/test_vecmath.o: CFLAGS += -DNMT_HAVE_SLEEF
$(H)/tests/test_vecmath: LDLIBS += -lsleef
endif

# The tiny parity model, packed by the model-pack under test.
build/tiny.nmt: $(PACKER) tests/fixtures/tiny/tiny.safetensors tests/fixtures/tiny/src.model tests/fixtures/tiny/tgt.model
	@mkdir -p build
	$(PACKER) -o $@ tests/fixtures/tiny/tiny.safetensors tests/fixtures/tiny/src.model tests/fixtures/tiny/tgt.model

# Host builds of the two programs; with SANITIZE=1 the end-to-end tests run
# on these instead, so ASan/UBSan watch the CLI and the packer as well.
$(H)/nmt: $(H)/main.o $(LIB_HOST)
	$(HOST_CC) $(SAN) -o $@ $^ -lpthread $(LDLIBS)

$(H)/model-pack: $(H)/pack/main.o $(LIB_HOST)
	$(HOST_CC) $(SAN) -o $@ $^ $(LDLIBS)

ifeq ($(SANITIZE),1)
E2E_SANITIZED_BUILD = $(H)/nmt $(H)/model-pack
endif

# make test's nmt with the timers of PROFILE=1, for tests/e2e/profile.sh
# (in a PROFILE=1 build, $(H)/nmt itself).
ifneq ($(PROFILE),1)
$(eval $(call variant,$(HP),$(HOST_CC),$(SAN) $(ASSERTS_H) -DENGINE_PROFILE))
$(HP)/nmt: $(patsubst %.c,$(HP)/%.o,main.c $(LIB_SRC) $(PACK_SRC) $(CLI_SRC)) $(CLI_ASM:%=$(HP)/%.o) $(HP)/cli/embedded.o \
		$(HP)/cli/langid_profile.o
	$(HOST_CC) $(SAN) -o $@ $^ -lpthread $(LDLIBS)
endif

# An imported Marian model (the SSRU family), from its fixture.
build/marian_all.nmt: $(PACKER) tests/fixtures/marian/all.npz tests/fixtures/tiny/tgt.model
	@mkdir -p build
	$(PACKER) --marian tests/fixtures/marian/all.npz --vocab tests/fixtures/tiny/tgt.model -o $@

# The same model with the two fixture vocabulary maps.
build/tiny_vmap_%.nmt: $(PACKER) tests/fixtures/tiny/vmap_%.txt tests/fixtures/tiny/tiny.safetensors
	$(PACKER) --vmap tests/fixtures/tiny/vmap_$*.txt -o $@ tests/fixtures/tiny/tiny.safetensors tests/fixtures/tiny/src.model tests/fixtures/tiny/tgt.model

# The fuzz harnesses (tests/fuzz/) replayed over their committed corpora,
# seeds and every input that once failed, by the end-to-end tests.
FUZZ_NAMES = model tokenizer lines translate split spans html marian http json form langid inflate folder
REPLAYS  = $(foreach n,$(FUZZ_NAMES),$(H)/tests/fuzz/replay_$(n))

$(H)/tests/fuzz/replay_%: $(H)/tests/fuzz/fuzz_%.o $(H)/tests/fuzz/replay.o $(LIB_HOST)
	$(HOST_CC) $(SAN) -o $@ $^ $(LDLIBS) -lpthread

# The NEON kernels: the quantization tests cross-built for aarch64 and run
# under qemu, when the cross compiler, qemu-user-static and cmocka for arm64
# are installed (.ci/run installs them); skipped with a note otherwise.
A64_CC   ?= aarch64-linux-gnu-gcc
QEMU_A64 ?= qemu-aarch64-static
HAVE_A64 := $(shell command -v $(A64_CC) >/dev/null 2>&1 && command -v $(QEMU_A64) >/dev/null 2>&1 && \
	test -e /usr/lib/aarch64-linux-gnu/libcmocka.so && echo yes)
ifeq ($(HAVE_A64),yes)
ifneq ($(ARCH),aarch64)
A64_TESTS = build/a64/test_quant.qemu
endif
endif

build/a64/test_quant: tests/test_quant.c $(wildcard quant/*.c) format/weights.c
	@mkdir -p $(dir $@)
	$(A64_CC) $(CFLAGS_COMMON) $(call gcc_only,$(A64_CC)) $(CFLAGS) $^ -o $@ -lcmocka -lm

build/a64/%.qemu: build/a64/%
	printf '#!/bin/sh\nexec $(QEMU_A64) -L /usr/aarch64-linux-gnu %s "$$@"\n' "$(abspath $<)" >$@
	chmod +x $@

# The Python binding's tests (python/tests: pytest, Debian's python3-pytest)
# run on the host's own libnmt.so, so not in a cross build, nor with
# SANITIZE=1 (libnmt.so is not a sanitized build: plain make test runs them).
PYTEST_CMD = $(PYTHON) -m pytest -q -p no:cacheprovider python/tests
HAVE_PYTEST := $(shell $(PYTHON) -c 'import pytest' 2>/dev/null && echo 1)
PY_TESTS_HERE = $(if $(filter aarch64,$(ARCH))$(filter 1,$(SANITIZE)),,yes)
PY_TESTS = $(if $(PY_TESTS_HERE),$(if $(HAVE_PYTEST),yes))

test: all $(TESTS) $(A64_TESTS) build/tiny.nmt build/tiny.q8.nmt build/tiny.q4.nmt build/tiny.q4n.nmt build/tiny.i8.nmt build/tiny_vmap_full.nmt build/tiny_vmap_small.nmt build/marian_all.nmt $(E2E_SANITIZED_BUILD) $(HP)/nmt $(REPLAYS) $(EXAMPLES) $(H)/tests/http_tool $(if $(PY_TESTS),libnmt.so) $(SHIPPED_MODELS) $(CAPTION_SHIPPED)
	@$(if $(A64_TESTS)$(filter aarch64,$(ARCH)),,echo "note: aarch64 cross compiler, qemu-aarch64-static or arm64 cmocka missing: NEON kernel tests skipped";)
	@$(if $(PY_TESTS_HERE),$(if $(HAVE_PYTEST),,echo "note: python3-pytest missing: the Python binding's tests skipped";))
	@$(if $(SANITIZE),,$(MAKE) --no-print-directory install-check)
	@$(if $(filter aarch64,$(ARCH)),,$(MAKE) --no-print-directory wasm-if-available)
	@$(E2E_ENV) E2E_SANITIZED_BUILD="$(E2E_SANITIZED_BUILD)" NMT_PROFILE="$(RUNNER) $(HP)/nmt" REPLAY=$(H)/tests/fuzz EXAMPLES=$(H)/examples RUNNER="$(RUNNER)" \
		HTTP_TOOL="$(RUNNER) $(H)/tests/http_tool" SHIPPED="$(SHIPPED_MODELS)" CAPTIONS="$(CAPTION_SHIPPED)" \
		PYTEST="$(if $(PY_TESTS),env NMT_LIBRARY=$(abspath libnmt.so) $(PYTEST_CMD))" sh tests/run.sh $(TESTS) $(A64_TESTS)

# The trainer's tests: not part of `make test`, which needs no PyTorch.
test-train:
	$(PYTHON) -m pytest -q -p no:cacheprovider train/tests

# valgrind memcheck on end-to-end runs (tests/memcheck.sh), on the host
# builds: valgrind cannot follow the static binaries' own malloc.
memcheck: build/host/nmt build/host/model-pack build/tiny_vmap_small.nmt $(EMBED_MODEL)
	sh tests/memcheck.sh build/host/nmt build/host/model-pack $(EMBED_MODEL)

# libFuzzer (clang, libclang-rt-14-dev) with ASan and UBSan: each harness
# runs FUZZ_SECONDS on a working corpus in build/fuzz/corpus/ seeded from
# tests/fuzz/NAME/; a failing input lands in build/fuzz/artifacts/NAME/ and
# belongs in tests/fuzz/NAME/ once fixed, where make test replays it.
FUZZ_SECONDS ?= 60
F = build/fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LIB_FUZZ = $(patsubst %.c,$(F)/%.o,$(LIB_SRC) $(PACK_SRC) $(CLI_SRC)) $(CLI_ASM:%=$(F)/%.o) $(F)/cli/embedded.o $(F)/cli/langid_profile.o

$(eval $(call variant,$(F),clang,-g -fsanitize=fuzzer-no-link $(FUZZ_SAN) -UNDEBUG))

$(F)/fuzz_%: $(F)/tests/fuzz/fuzz_%.o $(LIB_FUZZ)
	clang -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(LDLIBS) -lpthread

fuzz: $(foreach n,$(FUZZ_NAMES),$(F)/fuzz_$(n)) build/tiny_vmap_small.nmt
	@status=0; for n in $(FUZZ_NAMES); do \
		mkdir -p $(F)/corpus/$$n $(F)/artifacts/$$n; \
		echo "== fuzz_$$n: $(FUZZ_SECONDS) s"; \
		$(F)/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -timeout=20 -rss_limit_mb=2048 \
			-artifact_prefix=$(F)/artifacts/$$n/ $(F)/corpus/$$n tests/fuzz/$$n 2>$(F)/fuzz_$$n.log || \
			{ tail -n 40 $(F)/fuzz_$$n.log; status=1; }; \
		grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' $(F)/fuzz_$$n.log; \
	done; exit $$status

# Kernel throughput per format and ISA at the default model's shapes, next to
# the measured peak (bench/kernels.c); figures go into docs/RESULTS.md.
$(H)/bench/kernels: $(H)/bench/kernels.o $(LIB_HOST)
	$(HOST_CC) $(SAN) -o $@ $^ $(LDLIBS)

bench-kernels: $(H)/bench/kernels
	$(H)/bench/kernels

# Objects and binaries made only on the way to another target: kept, but a
# missing one is remade (a bare .SECONDARY: would make every target
# intermediate, and a deleted or renamed prerequisite would go unnoticed).
.SECONDARY: $(TESTS:=.o) $(H)/tests/spm_tool.o $(H)/tests/split_tool.o $(H)/tests/protect_tool.o $(H)/tests/langid_tool.o $(H)/tests/http_tool.o $(H)/bench/kernels.o build/a64/test_quant \
	$(foreach n,$(FUZZ_NAMES),$(H)/tests/fuzz/fuzz_$(n).o $(F)/tests/fuzz/fuzz_$(n).o) $(H)/tests/fuzz/replay.o $(LIB_FUZZ) \
	$(EXAMPLES:=.o)

# Tokenizer parity with SentencePiece's spm_encode/spm_decode (Debian package
# sentencepiece) on the fixtures and, when $(MULTI30K) exists (DATA wins), Multi30k.
spm-parity: $(H)/tests/spm_tool
	DATA="$${DATA:-$(MULTI30K)}" sh tests/spm_parity.sh --tool $(H)/tests/spm_tool

check-clang:
	@for f in main.c pack/main.c bench/kernels.c $(wildcard examples/*.c) $(CLI_SRC) $(LIB_SRC) $(PACK_SRC) $(TEST_SRC) $(wildcard tests/fuzz/*.c); do \
		clang $(CFLAGS_COMMON) -I. -fsyntax-only $$f || exit 1; done
	@for f in $$(grep -l ENGINE_PROF main.c $(CLI_SRC) $(LIB_SRC)); do \
		clang $(CFLAGS_COMMON) -DENGINE_PROFILE -I. -fsyntax-only $$f || exit 1; done
	@$(if $(HAVE_SLEEF),clang $(CFLAGS_COMMON) -DNMT_WITH_SLEEF -fsyntax-only quant/vecmath_sleef.c quant/vecmath.c &&) \
		echo "clang: no warnings"

clean:
	rm -rf build nmt nmt-sleef nmt-cuda model-pack libnmt.a

-include $(shell find build -name '*.d' 2>/dev/null)
