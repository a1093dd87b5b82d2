#include "resample_rows.h"

#include <string.h>

/* Straight 8-bit samples to premultiplied float RGBA, then the column filter: each output pixel
 * is the left-to-right sum of its taps' weighted pixels, every product and sum rounded to float
 * as ImageResizer's former Swift loop rounded them (separate multiplies and adds, never fused:
 * contraction is off, and no path below uses an FMA instruction). First the whole row is converted once (each
 * source pixel is read by one to three output pixels), then filtered. */
#pragma STDC FP_CONTRACT OFF

/* One pixel, portable: (c * a, a) for colour c and alpha a (255 when the row has none). */
static inline void premultiply_portable(const uint8_t *p, unsigned channels, float *out) {
    float r, g, b, a;
    switch (channels) {
    case 1: r = g = b = p[0]; a = 255; break;
    case 2: r = g = b = p[0]; a = p[1]; break;
    case 3: r = p[0]; g = p[1]; b = p[2]; a = 255; break;
    default: r = p[0]; g = p[1]; b = p[2]; a = p[3]; break;
    }
    out[0] = r * a; out[1] = g * a; out[2] = b * a; out[3] = a;
}

static void premultiply_row_portable(const uint8_t *source, unsigned channels, size_t first, size_t count, float *out) {
    for (size_t x = first; x < count; x++) premultiply_portable(source + x * channels, channels, out + 4 * x);
}

#if defined(__x86_64__)
#include <immintrin.h>

/* RGB and RGBA rows four pixels a step with AVX2: the bytes widened to 32-bit lanes two pixels
 * at a time, converted and multiplied by (a, a, a, 1) (255 for RGB). Grey rows, and the last
 * pixels of a row (a 16-byte load must not pass its end), go through the portable loop. */
__attribute__((target("avx2"))) static void premultiply_row_avx2(const uint8_t *source, unsigned channels, size_t count, float *out) {
    size_t x = 0;
    if (channels == 3) {
        const __m128i spread = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
        const __m128i opaque = _mm_set1_epi32((int)0xFF000000u);
        const __m256 scale = _mm256_setr_ps(255, 255, 255, 1, 255, 255, 255, 1);
        /* 16 bytes read for 12 used: stop while 4 spare bytes remain in the row. */
        for (; x + 6 <= count; x += 4) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)(source + 3 * x));
            __m128i rgba = _mm_or_si128(_mm_shuffle_epi8(bytes, spread), opaque);
            __m256 low = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(rgba));
            __m256 high = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(rgba, 8)));
            _mm256_storeu_ps(out + 4 * x, _mm256_mul_ps(low, scale));
            _mm256_storeu_ps(out + 4 * x + 8, _mm256_mul_ps(high, scale));
        }
    } else if (channels == 4) {
        const __m256 one = _mm256_set1_ps(1.0f);
        for (; x + 4 <= count; x += 4) {
            __m128i rgba = _mm_loadu_si128((const __m128i *)(source + 4 * x));
            __m256 low = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(rgba));
            __m256 high = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(rgba, 8)));
            __m256 low_alpha = _mm256_blend_ps(_mm256_shuffle_ps(low, low, 0xFF), one, 0x88);
            __m256 high_alpha = _mm256_blend_ps(_mm256_shuffle_ps(high, high, 0xFF), one, 0x88);
            _mm256_storeu_ps(out + 4 * x, _mm256_mul_ps(low, low_alpha));
            _mm256_storeu_ps(out + 4 * x + 8, _mm256_mul_ps(high, high_alpha));
        }
    }
    premultiply_row_portable(source, channels, x, count, out);
}

/* The filter one output pixel per 128-bit register (SSE, always there on x86-64). */
static void filter_row_sse(const float *row, size_t width, const intptr_t *starts, const intptr_t *counts,
                           const intptr_t *offsets, const float *weights, float *target) {
    for (size_t x = 0; x < width; x++) {
        const float *pixel = row + 4 * starts[x], *weight = weights + offsets[x];
        intptr_t taps = counts[x];
        __m128 sum = _mm_mul_ps(_mm_set1_ps(weight[0]), _mm_loadu_ps(pixel));
        for (intptr_t tap = 1; tap < taps; tap++)
            sum = _mm_add_ps(sum, _mm_mul_ps(_mm_set1_ps(weight[tap]), _mm_loadu_ps(pixel + 4 * tap)));
        _mm_storeu_ps(target + 4 * x, sum);
    }
}
#endif

#if !defined(__x86_64__)
static void filter_row_portable(const float *row, size_t width, const intptr_t *starts, const intptr_t *counts,
                                const intptr_t *offsets, const float *weights, float *target) {
    for (size_t x = 0; x < width; x++) {
        const float *pixel = row + 4 * starts[x], *weight = weights + offsets[x];
        float sum[4];
        for (int lane = 0; lane < 4; lane++) sum[lane] = weight[0] * pixel[lane];
        for (intptr_t tap = 1; tap < counts[x]; tap++)
            for (int lane = 0; lane < 4; lane++) sum[lane] = sum[lane] + weight[tap] * pixel[4 * tap + lane];
        memcpy(target + 4 * x, sum, sizeof sum);
    }
}
#endif

void resample_row_premultiplied(const uint8_t *source, unsigned channels, size_t source_width, float *scratch,
                                size_t width, const intptr_t *starts, const intptr_t *counts, const intptr_t *offsets,
                                const float *weights, float *target) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) premultiply_row_avx2(source, channels, source_width, scratch);
    else premultiply_row_portable(source, channels, 0, source_width, scratch);
    filter_row_sse(scratch, width, starts, counts, offsets, weights, target);
#else
    premultiply_row_portable(source, channels, 0, source_width, scratch);
    filter_row_portable(scratch, width, starts, counts, offsets, weights, target);
#endif
}
