#include "resample_rows.h"

#include <string.h>

/* ImageResizer's vertical pass, as its former Swift loop computed it: per pixel the left-to-right
 * sum over the taps of weight times premultiplied float RGBA (the first product alone, then each
 * next one added; separate multiplies and adds, never fused), then straight bytes: below half a
 * level of alpha the pixel is 0; else colour times the float reciprocal of alpha, alpha kept,
 * each clamped at 255 and rounded to nearest (even) by adding 1.5 * 2^23, whose low mantissa
 * byte is then the value. */
#pragma STDC FP_CONTRACT OFF

static const float ROUNDER = 12582912.0f;

static inline uint8_t low_byte(float value) {
    uint32_t bits;
    memcpy(&bits, &value, 4);
    return (uint8_t)bits;
}

static inline float clamp255(float value) { return 255.0f < value ? 255.0f : value; }

static void columns_portable(const float *const *rows, size_t taps, const float *weights, size_t first, size_t width,
                             uint8_t *target) {
    for (size_t x = first; x < width; x++) {
        float sum[4];
        for (int lane = 0; lane < 4; lane++) sum[lane] = weights[0] * rows[0][4 * x + lane];
        for (size_t tap = 1; tap < taps; tap++)
            for (int lane = 0; lane < 4; lane++) sum[lane] = sum[lane] + weights[tap] * rows[tap][4 * x + lane];
        uint8_t *pixel = target + 4 * x;
        float alpha = sum[3];
        if (!(alpha >= 0.5f)) {
            memset(pixel, 0, 4);
            continue;
        }
        float reciprocal = 1.0f / alpha;
        for (int lane = 0; lane < 3; lane++) pixel[lane] = low_byte(clamp255(sum[lane] * reciprocal) + ROUNDER);
        pixel[3] = low_byte(clamp255(alpha) + ROUNDER);
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

/* Four pixels a 512-bit register: the same operations lane by lane; each pixel's alpha spread
 * over its four lanes for the reciprocal, the test and the blend. */
__attribute__((target("avx512f"))) static size_t columns_avx512(const float *const *rows, size_t taps, const float *weights,
                                                                size_t width, uint8_t *target) {
    const __m512 half = _mm512_set1_ps(0.5f), one = _mm512_set1_ps(1.0f), limit = _mm512_set1_ps(255.0f);
    const __m512 rounder = _mm512_set1_ps(ROUNDER);
    size_t x = 0;
    for (; x + 4 <= width; x += 4) {
        __m512 sum = _mm512_mul_ps(_mm512_set1_ps(weights[0]), _mm512_loadu_ps(rows[0] + 4 * x));
        for (size_t tap = 1; tap < taps; tap++)
            sum = _mm512_add_ps(sum, _mm512_mul_ps(_mm512_set1_ps(weights[tap]), _mm512_loadu_ps(rows[tap] + 4 * x)));
        __m512 alpha = _mm512_permute_ps(sum, 0xFF);
        __mmask16 visible = _mm512_cmp_ps_mask(alpha, half, _CMP_GE_OQ);
        __m512 straight = _mm512_mask_blend_ps((__mmask16)0x8888, _mm512_mul_ps(sum, _mm512_div_ps(one, alpha)), sum);
        /* min(255, v) as the Swift min(v, 255): 255 when 255 < v, else v. */
        __m512 clamped = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(limit, straight, _CMP_LT_OQ), straight, limit);
        __m512i bits = _mm512_maskz_mov_epi32(visible, _mm512_castps_si512(_mm512_add_ps(clamped, rounder)));
        _mm_storeu_si128((__m128i *)(target + 4 * x), _mm512_cvtepi32_epi8(bits));
    }
    return x;
}
#endif

void resample_column_unpremultiplied(const float *const *rows, size_t taps, const float *weights, size_t width,
                                     uint8_t *target) {
    size_t done = 0;
    if (taps == 0) {
        memset(target, 0, 4 * width);
        return;
    }
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f")) done = columns_avx512(rows, taps, weights, width, target);
#endif
    columns_portable(rows, taps, weights, done, width, target);
}
