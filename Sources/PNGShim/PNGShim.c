#include "PNGShim.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Error state handed to libpng: the message of the first error. */
typedef struct {
  char *message;
  size_t capacity;
} shim_errors;

static void on_error(png_structp png, png_const_charp text) {
  shim_errors *errors = png_get_error_ptr(png);
  if (errors && errors->message) snprintf(errors->message, errors->capacity, "libpng: %s", text);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

static void write_to_memory(png_structp png, png_bytep data, size_t length) {
  pf_png_output *out = png_get_io_ptr(png);
  if (length > SIZE_MAX / 2 - out->size) png_error(png, "output too large");
  if (out->size + length > out->capacity) {
    size_t capacity = out->capacity ? out->capacity : 16384;
    while (capacity < out->size + length) capacity *= 2;
    unsigned char *grown = realloc(out->data, capacity);
    if (!grown) png_error(png, "out of memory");
    out->data = grown;
    out->capacity = capacity;
  }
  memcpy(out->data + out->size, data, length);
  out->size += length;
}

static void flush_nothing(png_structp png) { (void)png; }

int pf_png_encode(const unsigned char *pixels, uint32_t width, uint32_t height, size_t stride,
                  int colour, const unsigned char *palette, int palette_count, int level,
                  int strategy, int filters, pf_png_output *out) {
  memset(out, 0, sizeof *out);
  size_t bytes_per_pixel = colour == PF_PNG_PALETTE ? 1 : 3;
  if (width == 0 || height == 0 || width > 65536 || height > 65536 || !pixels ||
      stride < width * bytes_per_pixel) {
    snprintf(out->message, sizeof out->message, "bad image size %ux%u or stride %zu", width,
             height, stride);
    return -1;
  }
  if (colour != PF_PNG_RGB && colour != PF_PNG_PALETTE) {
    snprintf(out->message, sizeof out->message, "unknown colour type %d", colour);
    return -1;
  }
  if (colour == PF_PNG_PALETTE && (!palette || palette_count < 1 || palette_count > 256)) {
    snprintf(out->message, sizeof out->message, "bad palette of %d entries", palette_count);
    return -1;
  }
  if (level < 0 || level > 9 || strategy < 0 || strategy > 4) {
    snprintf(out->message, sizeof out->message, "bad zlib level %d or strategy %d", level,
             strategy);
    return -1;
  }
  shim_errors errors = {out->message, sizeof out->message};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors, on_error, on_warning);
  if (!png) {
    snprintf(out->message, sizeof out->message, "png_create_write_struct failed");
    return -1;
  }
  png_infop info = png_create_info_struct(png);
  /* NB: locals changed after setjmp and read after a longjmp must be volatile. */
  png_bytep *volatile rows = NULL;
  if (!info || setjmp(png_jmpbuf(png))) {
    if (!info) snprintf(out->message, sizeof out->message, "png_create_info_struct failed");
    png_destroy_write_struct(&png, info ? &info : NULL);
    free(rows);
    free(out->data);
    out->data = NULL;
    out->size = out->capacity = 0;
    return -1;
  }
  rows = malloc(sizeof(png_bytep) * height);
  if (!rows) png_error(png, "out of memory");
  for (uint32_t r = 0; r < height; r++) rows[r] = (png_bytep)(pixels + (size_t)r * stride);

  png_set_write_fn(png, out, write_to_memory, flush_nothing);
  png_set_compression_level(png, level);
  png_set_compression_strategy(png, strategy);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, filters & PNG_ALL_FILTERS);
  png_set_IHDR(png, info, width, height, 8,
               colour == PF_PNG_PALETTE ? PNG_COLOR_TYPE_PALETTE : PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  if (colour == PF_PNG_PALETTE) {
    png_color entries[256];
    for (int k = 0; k < palette_count; k++) {
      entries[k].red = palette[3 * k];
      entries[k].green = palette[3 * k + 1];
      entries[k].blue = palette[3 * k + 2];
    }
    png_set_PLTE(png, info, entries, palette_count);
  }
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  free(rows);
  return 0;
}

void pf_png_output_free(pf_png_output *out) {
  free(out->data);
  out->data = NULL;
  out->size = out->capacity = 0;
}

int pf_png_decode_rgb(const unsigned char *data, size_t size, unsigned char **pixels,
                      pf_png_info *info) {
  memset(info, 0, sizeof *info);
  *pixels = NULL;
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, data, size)) {
    snprintf(info->message, sizeof info->message, "libpng: %s", image.message);
    png_image_free(&image);
    return -1;
  }
  if ((uint64_t)image.width * image.height > (1u << 26)) {
    snprintf(info->message, sizeof info->message, "image of %ux%u is too large", image.width,
             image.height);
    png_image_free(&image);
    return -1;
  }
  info->width = image.width;
  info->height = image.height;
  info->was_palette = (image.format & PNG_FORMAT_FLAG_COLORMAP) != 0;
  image.format = PNG_FORMAT_RGB;
  unsigned char *buffer = malloc(PNG_IMAGE_SIZE(image));
  if (!buffer) {
    snprintf(info->message, sizeof info->message, "out of memory");
    png_image_free(&image);
    return -1;
  }
  if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
    snprintf(info->message, sizeof info->message, "libpng: %s", image.message);
    free(buffer);
    png_image_free(&image);
    return -1;
  }
  *pixels = buffer;
  return 0;
}

void pf_png_free_pixels(unsigned char *pixels) { free(pixels); }
