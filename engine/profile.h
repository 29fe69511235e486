/* A profile build's per-stage timers (make PROFILE=1, which defines
 * ENGINE_PROFILE): each thread's engine state (engine.h's `prof`) adds the
 * time since the last stage ended to the stage that ends now, and each
 * stage's multiply-adds, counted from the dimensions and the rows it ran;
 * the command line prints the sums at exit (cli/profile.c). Laps cover the
 * translator's work without a gap, so the stages add up to its whole time.
 *
 * Without ENGINE_PROFILE every macro below is empty and its arguments are
 * never evaluated: the shipped build compiles to the same code as without
 * them (bench/ssru_profile.sh, docs/RESULTS.md). */
#ifndef ENGINE_PROFILE_H
#define ENGINE_PROFILE_H

#include "../family/ssru/ssru_profile.h"

/* The stages of each family's encoder and decoder step that it times
 * itself (its own header's list: id, label); a family without any, the
 * GRU's, counts its work to the core's "rest" stages. */
#define ENGINE_FAMILY_ENCODER_STAGES(X) SSRU_PROFILE_ENCODER_STAGES(X)
#define ENGINE_FAMILY_DECODER_STAGES(X) SSRU_PROFILE_DECODER_STAGES(X)

/* The stages, in the order they are printed: id, label. The "rest" stages
 * catch what a family's own stages do not (all of the GRU's encoder and
 * steps; for the SSRU family only the calls' overhead). */
#define ENGINE_PROFILE_STAGES(X)                                      \
	ENGINE_FAMILY_ENCODER_STAGES(X)                               \
	X(ENCODER, "encoder: rest")                                   \
	ENGINE_FAMILY_DECODER_STAGES(X)                               \
	X(DECODER, "decoder: rest")                                   \
	X(OUT_SHORTLIST, "output: shortlists built + rows gathered")  \
	X(OUT_PRODUCT, "output: logits product")                      \
	X(OUT_SOFTMAX, "output: log-softmax + best k")                \
	X(SEARCH, "search: beams, history, carry")                    \
	X(OTHER, "text: tokenize, detokenize, batches")

#ifdef ENGINE_PROFILE
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

enum {
#define ENGINE_PROFILE_ID(id, label) ENGINE_STAGE_##id,
	ENGINE_PROFILE_STAGES(ENGINE_PROFILE_ID)
#undef ENGINE_PROFILE_ID
	ENGINE_STAGE_COUNT
};

typedef struct {
	uint64_t ticks[ENGINE_STAGE_COUNT];  /* time spent in each stage */
	int64_t macs[ENGINE_STAGE_COUNT];    /* its multiply-adds */
	uint64_t last;                       /* when the last stage ended */
	uint64_t tick0;                      /* the clock when the state was made, */
	int64_t ns0;                         /* and CLOCK_MONOTONIC then: ticks to seconds */
	int decoding;                        /* the parts both sides share count to the decoder's stages */
} engine_profile;

static inline int64_t engine_profile_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The time stamp counter where there is one: a few cycles a lap, against
 * clock_gettime's tens of nanoseconds, and a handful of instructions under
 * callgrind. Elsewhere the monotonic clock itself. */
__attribute__((always_inline)) static inline uint64_t engine_profile_ticks(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	return (uint64_t)engine_profile_ns();
#endif
}

static inline void engine_profile_start(engine_profile *p)
{
	p->tick0 = p->last = engine_profile_ticks();
	p->ns0 = engine_profile_ns();
}

/* Always inlined, also where the engine is compiled for size (-Os): a lap
 * is then a few instructions in its caller, no call for callgrind to
 * charge to a function of its own. */
__attribute__((always_inline)) static inline void engine_profile_lap(engine_profile *p, int stage, int64_t macs)
{
	uint64_t now = engine_profile_ticks();
	p->ticks[stage] += now - p->last;
	p->macs[stage] += macs;
	p->last = now;
}

/* Seconds per tick, from the ticks and nanoseconds since p started (the
 * time stamp counter of a CPU with constant_tsc runs at one rate whatever
 * the core's clock). */
static inline double engine_profile_tick_seconds(const engine_profile *p)
{
	uint64_t ticks = engine_profile_ticks() - p->tick0;
	int64_t ns = engine_profile_ns() - p->ns0;
	return ticks > 0 ? (double)ns * 1e-9 / (double)ticks : 0.0;
}

/* Stage `stage` (an id above) ends now, having done n multiply-adds. */
#define ENGINE_PROF_LAP(s, stage, n) engine_profile_lap(&(s)->prof, ENGINE_STAGE_##stage, (n))
/* The same for a part both sides run (ssru_ffn): the decoder's stage while
 * a decoder step runs, else the encoder's. */
#define ENGINE_PROF_LAP_SIDE(s, enc, dec, n) \
	engine_profile_lap(&(s)->prof, (s)->prof.decoding ? ENGINE_STAGE_##dec : ENGINE_STAGE_##enc, (n))
/* Multiply-adds for a stage that has not ended yet. */
#define ENGINE_PROF_COUNT(s, stage, n) ((s)->prof.macs[ENGINE_STAGE_##stage] += (n))
/* Which side runs now (0 encoder, 1 decoder). */
#define ENGINE_PROF_SIDE(s, dec) ((s)->prof.decoding = (dec))
/* The state is made: the clock's reference for its seconds. */
#define ENGINE_PROF_START(s) engine_profile_start(&(s)->prof)
/* The translator's work begins: what came before counts nowhere. */
#define ENGINE_PROF_BEGIN(s) ((s)->prof.last = engine_profile_ticks())
/* A stage's function kept whole, so that callgrind can charge its
 * instructions to it (bench/ssru_profile.sh maps functions to stages). */
#define ENGINE_PROF_NOINLINE __attribute__((noinline))
#else
#define ENGINE_PROF_LAP(s, stage, n) ((void)0)
#define ENGINE_PROF_LAP_SIDE(s, enc, dec, n) ((void)0)
#define ENGINE_PROF_COUNT(s, stage, n) ((void)0)
#define ENGINE_PROF_SIDE(s, dec) ((void)0)
#define ENGINE_PROF_START(s) ((void)0)
#define ENGINE_PROF_BEGIN(s) ((void)0)
#define ENGINE_PROF_NOINLINE
#endif

#endif
