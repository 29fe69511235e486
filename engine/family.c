/* The model families this build knows (family.h). */
#include "family.h"

#include <string.h>

#include "../family/gru/gru.h"
#include "../family/ssru/ssru.h"

static const engine_family *const FAMILIES[] = { &gru_family, &ssru_family };

const engine_family *engine_family_for(const char *arch)
{
	for (size_t i = 0; i < sizeof FAMILIES / sizeof FAMILIES[0]; i++)
		if (strcmp(FAMILIES[i]->arch, arch) == 0)
			return FAMILIES[i];
	return NULL;
}
