#include "dealgen.h"
int dealgen_version(void) { return 0; }
