#ifndef STICKER_CATALOG_RESAMPLE_ROWS_H
#define STICKER_CATALOG_RESAMPLE_ROWS_H

/*
 * The horizontal pass of ImageResizer, in C so that the widening of 8-bit rows and their
 * conversion to premultiplied float run four pixels a step (AVX2, chosen at run time).
 * No state, no allocation: thread-safe.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The horizontal half of ImageResizer's area-averaging/bilinear resample: converts a row of
 * `source_width` 8-bit pixels of `channels` samples (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA) to
 * premultiplied float RGBA (colour times alpha, alpha) in `scratch` (4 * source_width floats),
 * then writes `width` float RGBA pixels to `target`, pixel x being the sum over t < counts[x]
 * (at least 1), in order, of weights[offsets[x] + t] times pixel starts[x] + t. Every product and
 * sum is rounded to float separately (no fused multiply-add), so the results are those of the
 * same steps in Swift, to the bit.
 */
void resample_row_premultiplied(const uint8_t *source, unsigned channels, size_t source_width, float *scratch,
                                size_t width, const intptr_t *starts, const intptr_t *counts, const intptr_t *offsets, const float *weights,
                                float *target);

#ifdef __cplusplus
}
#endif

#endif
