#ifndef STICKER_CATALOG_EDGE_ESTIMATES_H
#define STICKER_CATALOG_EDGE_ESTIMATES_H

/*
 * The per-pixel step of Blur-Fusion decontamination (EdgeDecontamination in Swift), one channel
 * of one row: the foreground and background estimates from the box means. Kept in C so the
 * selects and clamps vectorise (Swift's SIMD selects ran lane by lane).
 */

#ifdef __cplusplus
extern "C" {
#endif

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
