/* The model families this build knows (family.h). */
#include "family.h"

#include <stdio.h>
#include <string.h>

#include "engine.h"

#include "../family/gru/arch.h"
#include "../family/gru/gru.h"
#include "../family/ssru/ssru_arch.h"
#include "../family/ssru/ssru.h"

static const engine_family *const FAMILIES[] = { &gru_family, &ssru_family };
static const char FAMILY_NAMES[] = GRU_ARCH " nor " SSRU_ARCH;   /* for a message */

const engine_family *engine_family_for(const char *arch)
{
	for (size_t i = 0; i < sizeof FAMILIES / sizeof FAMILIES[0]; i++)
		if (strcmp(FAMILIES[i]->arch, arch) == 0)
			return FAMILIES[i];
	return NULL;
}

const char *engine_family_names(void)
{
	return FAMILY_NAMES;
}

int engine_device_open(const nmt_model *m, const engine_device_ops **ops, void **dev, char *err, size_t errlen)
{
	*ops = NULL;
	*dev = NULL;
	if (m->family->device_open)
		return m->family->device_open(m, ops, dev, err, errlen);
	char with[64] = "";   /* the families that have a device path, "A or B" */
	for (size_t i = 0, at = 0; i < sizeof FAMILIES / sizeof FAMILIES[0] && at < sizeof with; i++)
		if (FAMILIES[i]->device_open)
			at += (size_t)snprintf(with + at, sizeof with - at, "%s%s", at ? " or " : "", FAMILIES[i]->arch);
	snprintf(err, errlen, "the CUDA path runs %s models only, not %s", with, m->family->arch);
	return NMT_ERR_UNSUPPORTED;
}
