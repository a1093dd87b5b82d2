#ifndef STICKER_CATALOG_PNG_ROWS_H
#define STICKER_CATALOG_PNG_ROWS_H

/*
 * The per-row work of decoding a PNG once its image data is inflated: undoing the row filters
 * (PNG specification, section 9) and widening 8-bit grey, grey + alpha and RGB rows to RGBA.
 * Sub, Average and Paeth depend on the pixel to the left, so each row is a chain of
 * pixels; for 3- and 4-byte pixels the chain runs one pixel per SSE2 step instead of one byte,
 * and with AVX-512 sixteen rows' chains run side by side (png_rows_unfilter_image_rows).
 * No state, no allocation: thread-safe.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Undoes filter `filter` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) on `row` in place.
 * `row` holds `length` filtered bytes (the filter-type byte already removed), `prior` the
 * previous row already unfiltered, or NULL for the first row (read as zeros), and
 * `bytes_per_pixel` is 1 to 8. Returns 0, or -1 for a filter type the format does not define
 * (the row is then left as it was).
 */
int png_rows_unfilter(uint8_t *row, const uint8_t *prior, size_t length, unsigned bytes_per_pixel, unsigned filter);

/*
 * Undoes the filters of two consecutive rows: `first` (filter `first_filter`, above it `prior`,
 * which must not be NULL here) and then `second` (filter `second_filter`, above it `first`),
 * with the same results as two png_rows_unfilter calls but faster for 3- and 4-byte pixels,
 * whose two chains of pixels then run side by side. Returns 0, or -1 for an undefined filter
 * type (both rows are then left as they were).
 */
int png_rows_unfilter_pair(uint8_t *first, uint8_t *second, const uint8_t *prior, size_t length,
                           unsigned bytes_per_pixel, unsigned first_filter, unsigned second_filter);

/* Which way png_rows_unfilter_image_rows works: */
enum {
    PNG_ROWS_BEST = 0,      /* the fastest this CPU has for the rows at hand */
    PNG_ROWS_PAIRS = 1,     /* rows two at a time (png_rows_unfilter_pair), never the wavefront */
    PNG_ROWS_WAVEFRONT = 2  /* the wavefront wherever the CPU and the pixel size allow it (tests) */
};
/*
 * Undoes the filters of rows first ..< first + count of a PNG's inflated image data `data`:
 * rows of 1 + `length` bytes, each its filter-type byte then the filtered row, the rows above
 * `first` already unfiltered. The results are png_rows_unfilter's, row by row. With AVX-512
 * (F, BW, VL) and BMI2, 3- and 4-byte pixels run up to 16 rows at a time as a wavefront, each
 * row a pixel (or a few) behind the one above, the rows' pixels side by side in one register.
 * `data` must have one byte after the last row, which may be read and is left as it was.
 * Returns 0, or -1 when a row in the range names an undefined filter type (nothing is changed).
 */
int png_rows_unfilter_image_rows(uint8_t *data, size_t length, unsigned bytes_per_pixel, size_t first, size_t count,
                                 int path);
/*
 * Writes `width` pixels of `channels` 8-bit samples (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA)
 * from `source` to `rgba` as straight RGBA: grey is copied to red, green and blue, and a
 * missing alpha is 255.
 */
void png_rows_to_rgba(const uint8_t *source, uint8_t *rgba, size_t width, unsigned channels);

#ifdef __cplusplus
}
#endif

#endif
