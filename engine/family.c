/* The model families this build knows (family.h). */
#include "family.h"

#include <string.h>

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
