#ifndef STICKER_CATALOG_COLOR_MATRIX_H
#define STICKER_CATALOG_COLOR_MATRIX_H

/*
 * The per-pixel loop of converting a matrix-shaper profile's 8-bit RGB to 8-bit sRGB, from
 * tables lcms2 computed (ColorConverter.swift builds them): each input channel's level gives a
 * column of linear sRGB (its curve and its column of the matrix together), the three columns
 * are added, and the sum is encoded with the sRGB curve through a 65536-entry table.
 * lcms2's cmsDoTransform unpacks every pixel to 16 bits and goes through its generic pipeline
 * (about 15 ns a pixel on RGBA); this loop is table look-ups and integer adds.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fixed-point linear light in the column tables: 1.0 is 65535 << STICKER_COLOR_MATRIX_FRACTION_BITS. */
#define STICKER_COLOR_MATRIX_FRACTION_BITS 4

/* Converts `pixel_count` RGBA pixels in place; alpha is left as it is.
 * `columns` holds 3 x 256 entries of 4 int32 (linear sRGB R, G, B, unused): entry
 * [channel * 256 + level] is what `level` of that input channel adds (the first channel's
 * entries also carry the black offset). `encode` holds 65536 sRGB levels, entry i for linear
 * light i / 65535; sums outside 0...1 are clipped, as lcms2 clips. */
void sticker_color_matrix_apply(const int32_t *columns, const uint8_t *encode, uint8_t *rgba, size_t pixel_count);

#ifdef __cplusplus
}
#endif

#endif
