#ifndef STICKER_CATALOG_PNG_WRITER_H
#define STICKER_CATALOG_PNG_WRITER_H

/*
 * An RGBA PNG encoder over libpng's full write API, for the settings the simplified API
 * (png_image_*) cannot choose: row filters and the zlib strategy.
 *
 * libpng reports errors by longjmp. Every setjmp and every longjmp happens inside
 * png_writer_encode_rgba (libpng's error callback jumps back to the setjmp in that same
 * function), so no longjmp ever leaves it: callers, Swift included, see an ordinary return.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Row filters (bit flags, combinable; the same values as libpng's PNG_FILTER_*).
 * With more than one, libpng picks a filter per row (minimum sum of absolute differences). */
enum {
    PNG_WRITER_FILTER_NONE = 0x08,
    PNG_WRITER_FILTER_SUB = 0x10,
    PNG_WRITER_FILTER_UP = 0x20,
    PNG_WRITER_FILTER_AVG = 0x40,
    PNG_WRITER_FILTER_PAETH = 0x80,
    PNG_WRITER_FILTER_ALL = 0xF8,
};

/* zlib strategies (the same values as zlib's Z_*). */
enum {
    PNG_WRITER_STRATEGY_DEFAULT = 0,
    PNG_WRITER_STRATEGY_FILTERED = 1,
    PNG_WRITER_STRATEGY_HUFFMAN_ONLY = 2,
    PNG_WRITER_STRATEGY_RLE = 3,
    PNG_WRITER_STRATEGY_FIXED = 4,
};

/*
 * Encodes `rgba` (8-bit straight RGBA, rows top to bottom, `width * 4` bytes a row, no padding;
 * `rgba_size` must be exactly `width * height * 4`) as an 8-bit RGBA, non-interlaced PNG tagged
 * sRGB. `compression_level` is zlib's (0-9), `filters` a nonzero combination of
 * PNG_WRITER_FILTER_*, `strategy` one of PNG_WRITER_STRATEGY_*.
 *
 * Returns 0 on success, with `*out` a malloc'd buffer of `*out_size` bytes that the caller
 * releases with png_writer_free. Returns nonzero on failure, with `*out` NULL, `*out_size` 0
 * and, when `error` is not NULL and `error_size` > 0, a NUL-terminated message in `error`
 * (truncated to fit). Nothing is leaked on any path. Thread-safe: no shared state.
 */
int png_writer_encode_rgba(const uint8_t *rgba, size_t rgba_size, uint32_t width, uint32_t height,
                           int compression_level, int filters, int strategy,
                           uint8_t **out, size_t *out_size, char *error, size_t error_size);

/* The same for `channels` 1 (8-bit grey, `width` bytes a row) or 4 (RGBA, as above). */
int png_writer_encode(const uint8_t *pixels, size_t pixels_size, uint32_t width, uint32_t height, int channels,
                      int compression_level, int filters, int strategy,
                      uint8_t **out, size_t *out_size, char *error, size_t error_size);

/* Fills `row` (`width * channels` bytes) with row `y` of the image; returns 0, or nonzero to stop
 * the encoding (png_writer_encode_rows then fails with "the row source stopped"). It must not call
 * libpng or this file: it is called between libpng calls, so no libpng longjmp can cross it. */
typedef int (*png_writer_row_source)(void *context, uint32_t y, uint8_t *row);

/* The same as png_writer_encode, but the rows come one at a time from `source` (called for
 * y = 0, 1, ... height - 1, in order, with the same row buffer each time), so a large image made
 * row by row (a mask scaled up to a photo's size) never exists whole in memory. */
int png_writer_encode_rows(png_writer_row_source source, void *context, uint32_t width, uint32_t height, int channels,
                           int compression_level, int filters, int strategy,
                           uint8_t **out, size_t *out_size, char *error, size_t error_size);

/* Releases a buffer returned by png_writer_encode_rgba or png_writer_encode (NULL is allowed). */
void png_writer_free(uint8_t *buffer);

#ifdef __cplusplus
}
#endif

#endif
