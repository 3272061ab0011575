#ifndef PF_PNG_SHIM_H
#define PF_PNG_SHIM_H

/* A tiny C layer over libpng for the Tiles target: libpng reports errors by longjmp, which
 * Swift cannot catch, so every libpng call happens here behind setjmp. Nothing here aborts the
 * process; failures come back as a non-zero return and a message. */

#include <stddef.h>
#include <stdint.h>

/* Colour types accepted by pf_png_encode. */
enum { PF_PNG_RGB = 0, PF_PNG_PALETTE = 1 };

/* PNG row filters (the values of libpng's PNG_FILTER_*), to be OR'ed together. */
enum {
  PF_PNG_FILTER_NONE = 0x08,
  PF_PNG_FILTER_SUB = 0x10,
  PF_PNG_FILTER_UP = 0x20,
  PF_PNG_FILTER_AVG = 0x40,
  PF_PNG_FILTER_PAETH = 0x80,
  PF_PNG_ALL_FILTERS = 0xf8
};

/* Bytes written by an encode: data is malloc'd (free it with pf_png_output_free). On failure,
 * message holds libpng's or the shim's reason. */
typedef struct {
  unsigned char *data;
  size_t size;
  size_t capacity;
  char message[160];
} pf_png_output;

/* Encodes an 8-bit image to PNG in memory. pixels holds height rows of stride bytes: 3 bytes a
 * pixel for PF_PNG_RGB, 1 (an index into palette's palette_count RGB triplets) for
 * PF_PNG_PALETTE. level is zlib's 0-9, strategy zlib's (0 default, 1 filtered, 2 Huffman only,
 * 3 RLE), filters a PF_PNG_FILTER_* mask. Returns 0, or -1 with out->message set. */
int pf_png_encode(const unsigned char *pixels, uint32_t width, uint32_t height, size_t stride,
                  int colour, const unsigned char *palette, int palette_count, int level,
                  int strategy, int filters, pf_png_output *out);

/* Frees out->data and resets out. */
void pf_png_output_free(pf_png_output *out);

/* What pf_png_decode_rgb found: size and whether the file was palette-based. */
typedef struct {
  uint32_t width;
  uint32_t height;
  int was_palette;
  char message[160];
} pf_png_info;

/* Decodes any PNG of at most 2^26 pixels to 8-bit RGB (3 bytes a pixel, no padding) in a
 * malloc'd buffer stored in *pixels (free it with pf_png_free_pixels). Returns 0, or -1 with
 * info->message set. */
int pf_png_decode_rgb(const unsigned char *data, size_t size, unsigned char **pixels,
                      pf_png_info *info);

/* Frees a buffer from pf_png_decode_rgb. */
void pf_png_free_pixels(unsigned char *pixels);

/* 1 when the including module is compiled for AVX-512F (as with -march=native on such a CPU),
 * else 0. Inline so that it reports the flags of the Swift module that imports it. */
static inline int pf_compiled_for_avx512(void) {
#ifdef __AVX512F__
  return 1;
#else
  return 0;
#endif
}

#endif
