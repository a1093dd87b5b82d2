#ifndef STICKER_CATALOG_MASK_ROWS_H
#define STICKER_CATALOG_MASK_ROWS_H

/*
 * Row loops of the mask and edge work kept in C so they vectorise, each giving the same values
 * as the Swift it replaced:
 * - resampling a mask to bytes row by row (PlaneResampler.Rows): one output row as the blend of
 *   two source rows already interpolated across (Swift checks every Float-to-integer conversion;
 *   a bit trick around the check ran at less than half this speed);
 * - the per-pixel step of Blur-Fusion decontamination (EdgeDecontamination), one channel of one
 *   row: the foreground and background estimates from the box means (Swift's SIMD selects ran
 *   lane by lane).
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[x] = clamp(top[x] + (bottom[x] - top[x]) * weight + 0.5, 0, 255), truncated, for x < count:
 * the same arithmetic, in the same order and without fused multiply-adds, as
 * PlaneResampler.bilinear's byte rounding, so both give the same bytes. */
void sk_blend_rows_to_bytes(const float *top, const float *bottom, float weight, int count, uint8_t *out);

/* For x < count, with a = alpha[x], m = blurred_alpha[x], s = seen[x]:
 *   F^ = m > 1e-5 ? weighted_fg[x] / m : s;   B^ = 1 - m > 1e-5 ? weighted_bg[x] / (1 - m) : s;
 *   r = s - a F^ - (1 - a) B^;
 *   fg[x] = min(1, max(0, F^ + a r));   bg[x] = min(1, max(0, B^ + (1 - a) r)) unless bg is NULL,
 * with min and max as Swift's standard library defines them and no fused multiply-adds, so the
 * floats are the same, bit for bit, as the Swift scalar expressions. */
void sk_edge_estimates(int count, const float *alpha, const float *blurred_alpha, const float *weighted_fg,
                       const float *weighted_bg, const float *seen, float *fg, float *bg);

#ifdef __cplusplus
}
#endif

#endif
