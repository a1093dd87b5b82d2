#include "mask_rows.h"
#include "segmentation_kernels.h"

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

/* One copy per path; the selects and divisions are exact IEEE operations, so all give the same floats. */
#define ROW_COPY(NAME, TARGET)                                                                                   \
    TARGET static void NAME(int count, const float *alpha, const float *blurred_alpha, const float *weighted_fg, \
                            const float *weighted_bg, const float *seen, float *fg, float *bg) {                 \
        if (bg) estimates(count, alpha, blurred_alpha, weighted_fg, weighted_bg, seen, fg, bg, 1);               \
        else estimates(count, alpha, blurred_alpha, weighted_fg, weighted_bg, seen, fg, bg, 0);                  \
    }
ROW_COPY(estimates_scalar, )
ROW_COPY(estimates_avx2, __attribute__((target("avx2,fma"))))
ROW_COPY(estimates_avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))

void sk_edge_estimates_with(int kernels, int count, const float *alpha, const float *blurred_alpha, const float *weighted_fg,
                            const float *weighted_bg, const float *seen, float *fg, float *bg) {
    if (!sk_kernels_supported(kernels)) kernels = SK_KERNELS_SCALAR;
    switch (kernels) {
    case SK_KERNELS_AVX512: estimates_avx512(count, alpha, blurred_alpha, weighted_fg, weighted_bg, seen, fg, bg); break;
    case SK_KERNELS_AVX2: estimates_avx2(count, alpha, blurred_alpha, weighted_fg, weighted_bg, seen, fg, bg); break;
    default: estimates_scalar(count, alpha, blurred_alpha, weighted_fg, weighted_bg, seen, fg, bg); break;
    }
}

void sk_edge_estimates(int count, const float *alpha, const float *blurred_alpha, const float *weighted_fg,
                       const float *weighted_bg, const float *seen, float *fg, float *bg) {
    sk_edge_estimates_with(sk_kernels_default(), count, alpha, blurred_alpha, weighted_fg, weighted_bg, seen, fg, bg);
}

/* The rows Blur-Fusion filters: alpha, the alpha-weighted foreground and (1 - alpha)-weighted
 * background channels. */
static inline __attribute__((always_inline)) void weighted(
    int count, const float *alpha, const float *foreground, long foreground_stride, const float *background,
    long background_stride, float *rows) {
    for (int x = 0; x < count; x++) rows[x] = alpha[x];
    for (int channel = 0; channel < 3; channel++) {
        const float *source = foreground + channel * foreground_stride;
        float *target = rows + (long)(channel + 1) * count;
        for (int x = 0; x < count; x++) target[x] = source[x] * alpha[x];
    }
    for (int channel = 0; channel < 3; channel++) {
        const float *source = background + channel * background_stride;
        float *target = rows + (long)(channel + 4) * count;
        for (int x = 0; x < count; x++) target[x] = source[x] * (1.0f - alpha[x]);
    }
}

static inline __attribute__((always_inline)) void unit_planes(const uint8_t *rgba, int count, float *planes) {
    for (int channel = 0; channel < 3; channel++) {
        float *plane = planes + (long)channel * count;
        for (int x = 0; x < count; x++) plane[x] = (float)rgba[4 * x + channel] / 255.0f;
    }
}

#define WEIGHTED_COPY(NAME, TARGET)                                                                       \
    TARGET static void NAME(int count, const float *alpha, const float *foreground, long foreground_stride, \
                            const float *background, long background_stride, float *rows) {              \
        weighted(count, alpha, foreground, foreground_stride, background, background_stride, rows);      \
    }
WEIGHTED_COPY(weighted_scalar, )
WEIGHTED_COPY(weighted_avx2, __attribute__((target("avx2,fma"))))
WEIGHTED_COPY(weighted_avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))

#define UNIT_COPY(NAME, TARGET) \
    TARGET static void NAME(const uint8_t *rgba, int count, float *planes) { unit_planes(rgba, count, planes); }
UNIT_COPY(unit_scalar, )
UNIT_COPY(unit_avx2, __attribute__((target("avx2,fma"))))
UNIT_COPY(unit_avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))

void sk_edge_weighted_rows_with(int kernels, int count, const float *alpha, const float *foreground, long foreground_stride,
                                const float *background, long background_stride, float *rows) {
    if (!sk_kernels_supported(kernels)) kernels = SK_KERNELS_SCALAR;
    switch (kernels) {
    case SK_KERNELS_AVX512: weighted_avx512(count, alpha, foreground, foreground_stride, background, background_stride, rows); break;
    case SK_KERNELS_AVX2: weighted_avx2(count, alpha, foreground, foreground_stride, background, background_stride, rows); break;
    default: weighted_scalar(count, alpha, foreground, foreground_stride, background, background_stride, rows); break;
    }
}

void sk_edge_weighted_rows(int count, const float *alpha, const float *foreground, long foreground_stride,
                           const float *background, long background_stride, float *rows) {
    sk_edge_weighted_rows_with(sk_kernels_default(), count, alpha, foreground, foreground_stride, background, background_stride, rows);
}

void sk_rgb_unit_planes_with(int kernels, const uint8_t *rgba, int count, float *planes) {
    if (!sk_kernels_supported(kernels)) kernels = SK_KERNELS_SCALAR;
    switch (kernels) {
    case SK_KERNELS_AVX512: unit_avx512(rgba, count, planes); break;
    case SK_KERNELS_AVX2: unit_avx2(rgba, count, planes); break;
    default: unit_scalar(rgba, count, planes); break;
    }
}

void sk_rgb_unit_planes(const uint8_t *rgba, int count, float *planes) {
    sk_rgb_unit_planes_with(sk_kernels_default(), rgba, count, planes);
}
