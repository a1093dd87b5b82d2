/* The per-pixel loops of StickerRenderer (see mask_rows.h), one body compiled for AVX-512, AVX2
 * and the baseline, each the same IEEE operations as the Swift expressions they replaced. */
#include <math.h>

#include "mask_rows.h"
#include "segmentation_kernels.h"

/* No fused multiply-adds: the Swift expressions round each step. */
#pragma STDC FP_CONTRACT OFF

/* Swift's max(0, v) is `v >= 0 ? v : 0` and min(top, v) is `v < top ? v : top`. */
static inline float clamp_to(float value, float top) {
    float low = value >= 0.0f ? value : 0.0f;
    return low < top ? low : top;
}

static inline __attribute__((always_inline)) void outline(float *canvas, float *cover, const float *distances, float width, long count) {
    for (long i = 0; i < count; i++) {
        float amount = clamp_to(width + 0.5f - distances[i], 1.0f);
        float below = 1.0f - canvas[4 * i + 3];
        if (amount > 0.0f) {
            for (int c = 0; c < 3; c++) canvas[4 * i + c] += amount * below;
            canvas[4 * i + 3] += amount * below;
            cover[i] = canvas[4 * i + 3];
        }
    }
}

static inline __attribute__((always_inline)) void to_bytes(const float *canvas, long count, uint8_t *pixels) {
    for (long i = 0; i < count; i++) {
        float alpha = canvas[4 * i + 3];
        if (alpha > 0.0f) {
            /* roundf rounds halves away from zero, as Swift's rounded(). */
            for (int c = 0; c < 3; c++) pixels[4 * i + c] = (uint8_t)clamp_to(roundf(canvas[4 * i + c] / alpha * 255.0f), 255.0f);
            pixels[4 * i + 3] = (uint8_t)clamp_to(roundf(alpha * 255.0f), 255.0f);
        } else {
            for (int c = 0; c < 4; c++) pixels[4 * i + c] = 0;
        }
    }
}

static inline __attribute__((always_inline)) void premultiplied(const uint8_t *rgba, int count, float *canvas, float *alpha) {
    for (int x = 0; x < count; x++) {
        float a = (float)rgba[4 * x + 3] / 255.0f;
        alpha[x] = a;
        for (int c = 0; c < 3; c++) canvas[4 * x + c] = (float)rgba[4 * x + c] / 255.0f * a;
        canvas[4 * x + 3] = a;
    }
}

#define COPIES(NAME, TARGET)                                                                                        \
    TARGET static void outline_##NAME(float *canvas, float *cover, const float *distances, float width, long count) { \
        outline(canvas, cover, distances, width, count);                                                            \
    }                                                                                                               \
    TARGET static void bytes_##NAME(const float *canvas, long count, uint8_t *pixels) { to_bytes(canvas, count, pixels); } \
    TARGET static void premultiplied_##NAME(const uint8_t *rgba, int count, float *canvas, float *alpha) {         \
        premultiplied(rgba, count, canvas, alpha);                                                                \
    }
COPIES(scalar, )
COPIES(avx2, __attribute__((target("avx2,fma"))))
COPIES(avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))

void sk_sticker_outline_with(int kernels, float *canvas, float *cover, const float *distances, float width, long count) {
    if (!sk_kernels_supported(kernels)) kernels = SK_KERNELS_SCALAR;
    switch (kernels) {
    case SK_KERNELS_AVX512: outline_avx512(canvas, cover, distances, width, count); break;
    case SK_KERNELS_AVX2: outline_avx2(canvas, cover, distances, width, count); break;
    default: outline_scalar(canvas, cover, distances, width, count); break;
    }
}

void sk_sticker_outline(float *canvas, float *cover, const float *distances, float width, long count) {
    sk_sticker_outline_with(sk_kernels_default(), canvas, cover, distances, width, count);
}

void sk_sticker_bytes_with(int kernels, const float *canvas, long count, uint8_t *pixels) {
    if (!sk_kernels_supported(kernels)) kernels = SK_KERNELS_SCALAR;
    switch (kernels) {
    case SK_KERNELS_AVX512: bytes_avx512(canvas, count, pixels); break;
    case SK_KERNELS_AVX2: bytes_avx2(canvas, count, pixels); break;
    default: bytes_scalar(canvas, count, pixels); break;
    }
}

void sk_sticker_bytes(const float *canvas, long count, uint8_t *pixels) {
    sk_sticker_bytes_with(sk_kernels_default(), canvas, count, pixels);
}

void sk_sticker_premultiplied_with(int kernels, const uint8_t *rgba, int count, float *canvas, float *alpha) {
    if (!sk_kernels_supported(kernels)) kernels = SK_KERNELS_SCALAR;
    switch (kernels) {
    case SK_KERNELS_AVX512: premultiplied_avx512(rgba, count, canvas, alpha); break;
    case SK_KERNELS_AVX2: premultiplied_avx2(rgba, count, canvas, alpha); break;
    default: premultiplied_scalar(rgba, count, canvas, alpha); break;
    }
}

void sk_sticker_premultiplied(const uint8_t *rgba, int count, float *canvas, float *alpha) {
    sk_sticker_premultiplied_with(sk_kernels_default(), rgba, count, canvas, alpha);
}
