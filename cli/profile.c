/* The profile build's table at exit (profile.h); nothing in other builds. */
#include "profile.h"

#ifdef ENGINE_PROFILE
#include <ctype.h>
#include <string.h>

#include "../api/api.h"

static const char *const LABELS[] = {
#define CLI_PROFILE_LABEL(id, label) label,
	ENGINE_PROFILE_STAGES(CLI_PROFILE_LABEL)
#undef CLI_PROFILE_LABEL
};

static const char *const IDS[] = {
#define CLI_PROFILE_ID(id, label) #id,
	ENGINE_PROFILE_STAGES(CLI_PROFILE_ID)
#undef CLI_PROFILE_ID
};

static double share(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* One row: the id in small letters, so that a script can pick it out. */
static void row(FILE *out, const char *id, double sec, double total_sec, double macs, double total_macs,
		const char *label)
{
	char name[32];
	size_t i = 0;
	for (; id[i] && i + 1 < sizeof name; i++)
		name[i] = (char)tolower((unsigned char)id[i]);
	name[i] = '\0';
	fprintf(out, "%-14s %10.4f %6.1f%% %16.0f %6.1f%% ", name, sec, share(sec, total_sec), macs,
		share(macs, total_macs));
	if (macs > 0)
		fprintf(out, "%8.1f", sec * 1e12 / macs);
	else
		fprintf(out, "%8s", "-");
	fprintf(out, "  %s\n", label);
}

void cli_profile_print(nmt_session *const *sessions, int n, FILE *out)
{
	engine_profile sum, p;
	memset(&sum, 0, sizeof sum);
	for (int k = 0; k < n; k++) {
		api_session_profile(sessions[k], &p);
		if (k == 0) {
			sum.tick0 = p.tick0;
			sum.ns0 = p.ns0;
		}
		for (int i = 0; i < ENGINE_STAGE_COUNT; i++) {
			sum.ticks[i] += p.ticks[i];
			sum.macs[i] += p.macs[i];
		}
	}
	double tick = engine_profile_tick_seconds(&sum), total_sec = 0, total_macs = 0;
	for (int i = 0; i < ENGINE_STAGE_COUNT; i++) {
		total_sec += (double)sum.ticks[i] * tick;
		total_macs += (double)sum.macs[i];
	}
	fprintf(out, "nmt profile: time and multiply-adds per stage, all threads\n");
	fprintf(out, "%-14s %10s %7s %16s %7s %8s  %s\n", "stage", "seconds", "time", "MACs", "MACs", "ps/MAC",
		"what");
	for (int i = 0; i < ENGINE_STAGE_COUNT; i++)
		row(out, IDS[i], (double)sum.ticks[i] * tick, total_sec, (double)sum.macs[i], total_macs, LABELS[i]);
	row(out, "total", total_sec, total_sec, total_macs, total_macs, "the translators' whole time");
}
#endif
