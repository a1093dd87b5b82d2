#ifndef STICKER_CATALOG_PNG_ROWS_WAVEFRONT_H
#define STICKER_CATALOG_PNG_ROWS_WAVEFRONT_H
/*
 * Up to 16 rows of 3- or 4-byte pixels unfiltered at once with AVX-512 (F, BW, VL) and BMI2:
 * row k works on pixel t - k * lag at step t, so its left neighbour was made the step before
 * and its upper neighbours `lag` steps before, and one step makes a pixel of every row, each
 * row's bytes in its own four lanes (Paeth's arithmetic in bytes). The pixels are gathered from
 * and scattered back to the rows.
 *
 * `rows`: the first row's filtered bytes; row k at rows + k * stride, `filters[k]` its filter
 * type (0...4). `prior`: the row above the first, unfiltered, or NULL (zeros). `width` pixels
 * of `bpp` (3 or 4) bytes. For 3-byte pixels the byte after each row's last pixel (and after
 * prior's) is read, and written back unchanged: it must exist and belong to no row of the
 * call (in PNG's image data it is the next row's filter-type byte).
 */
#include <stddef.h>
#include <stdint.h>

int png_rows_wavefront_supported(void);
void png_rows_wavefront_avx512(uint8_t *rows, size_t stride, size_t count, const uint8_t *prior,
                               size_t width, size_t bpp, const uint8_t *filters);
#endif
