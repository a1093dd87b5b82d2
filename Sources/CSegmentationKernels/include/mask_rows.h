#ifndef STICKER_CATALOG_MASK_ROWS_H
#define STICKER_CATALOG_MASK_ROWS_H

/*
 * The inner loop of resampling a mask to bytes row by row (PlaneResampler.Rows in Swift): one
 * output row as the blend of two source rows already interpolated across. Kept in C so it
 * vectorises: Swift checks every Float-to-integer conversion (a bit trick around the check ran
 * at less than half this speed).
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[x] = clamp(top[x] + (bottom[x] - top[x]) * weight + 0.5, 0, 255), truncated, for x < count:
 * the same arithmetic, in the same order and without fused multiply-adds, as
 * PlaneResampler.bilinear's byte rounding, so both give the same bytes. */
void sk_blend_rows_to_bytes(const float *top, const float *bottom, float weight, int count, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif
