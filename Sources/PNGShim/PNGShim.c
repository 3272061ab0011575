#include "PNGShim.h"
#include <png.h>
int pf_png_shim_placeholder(void) { return PNG_LIBPNG_VER; }
