#ifndef PNG_SHIM_H
#define PNG_SHIM_H
int pf_png_shim_placeholder(void);
#endif
