#include "mask_rows.h"

/* Bit-for-bit agreement with the Swift expressions needs separate multiply and add. */
#pragma STDC FP_CONTRACT OFF

/* Swift's max(0, v) is `v >= 0 ? v : 0` and min(1, v) is `v < 1 ? v : 1`. */
static inline float clamped(float value) {
    float low = value >= 0.0f ? value : 0.0f;
    return low < 1.0f ? low : 1.0f;
}

/* One row; `with_background` is a constant at each call below, so each copy of the loop is
 * compiled without a test per pixel and vectorises. */
static inline __attribute__((always_inline)) void estimates(
    int count, const float *alpha, const float *blurred_alpha, const float *weighted_fg, const float *weighted_bg,
    const float *seen, float *fg, float *bg, int with_background) {
    for (int x = 0; x < count; x++) {
        float a = alpha[x], m = blurred_alpha[x], inverse = 1.0f - m, s = seen[x];
        float f = m > 1e-5f ? weighted_fg[x] / m : s;
        float b = inverse > 1e-5f ? weighted_bg[x] / inverse : s;
        float residual = s - a * f - (1.0f - a) * b;
        fg[x] = clamped(f + a * residual);
        if (with_background) bg[x] = clamped(b + (1.0f - a) * residual);
    }
}

void sk_edge_estimates(int count, const float *alpha, const float *blurred_alpha, const float *weighted_fg,
                       const float *weighted_bg, const float *seen, float *fg, float *bg) {
    if (bg) {
        estimates(count, alpha, blurred_alpha, weighted_fg, weighted_bg, seen, fg, bg, 1);
    } else {
        estimates(count, alpha, blurred_alpha, weighted_fg, weighted_bg, seen, fg, bg, 0);
    }
}
