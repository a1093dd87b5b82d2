/* The int8 3x3 convolution on AVX-512 VNNI (int8_conv.c has the contract and the reference).
 * A micro-kernel holds 3 vectors of 16 output positions x 8 output channels of int32 sums (24
 * zmm): per tap and quad of input channels, 3 loads of 16 positions' quads and 8 broadcasts of
 * an output's 4 weights feed 24 vpdpbusd, 64 multiply-adds each. Outputs leave through the lanes
 * of real pixels, compressed together (the padding columns between rows are dropped). */
#include "int8_conv_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

enum { NV = 3, NO = 8, BLOCK = 16 * NV };

/* The first `count` lanes. */
static inline __mmask16 first(int count) {
    return (__mmask16)(count >= 16 ? 0xFFFFu : count <= 0 ? 0u : (1u << count) - 1);
}

/* Lanes of positions p ..< p + 16 that are pixels (x < W, before `end`), and the output index of
 * the first of them. */
__attribute__((target("avx512f")))
static inline __mmask16 pixel_lanes(int p, int end, int W, int Wp, int *start) {
    int y = p / Wp, x0 = p % Wp;
    __m512i x = _mm512_add_epi32(_mm512_set1_epi32(x0), _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    __m512i wrap = _mm512_set1_epi32(Wp);
    for (int spans = (x0 + 15) / Wp; spans > 0; spans--)
        x = _mm512_mask_sub_epi32(x, _mm512_cmpge_epi32_mask(x, wrap), x, wrap);
    __mmask16 lanes = _mm512_cmplt_epi32_mask(x, _mm512_set1_epi32(W)) & first(end - p);
    *start = x0 < W ? y * W + x0 : (y + 1) * W;
    return lanes;
}

/* The sums over quads g0 ..< g1 of every tap. */
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline))
static inline void sums(const uint8_t *quads, size_t plane, int quadsC, const int *taps, const int8_t *w, int p0, int g0, int g1,
                        __m512i acc[NO][NV]) {
    for (int k = 0; k < NO; k++)
        for (int j = 0; j < NV; j++) acc[k][j] = _mm512_setzero_si512();
    for (int t = 0; t < 9; t++) {
        const uint8_t *a = quads + ((size_t)g0 * plane + (size_t)p0 + taps[t]) * 4;
        const int32_t *wt = (const int32_t *)(w + ((size_t)t * quadsC + g0) * 32);
        for (int g = g0; g < g1; g++, a += plane * 4, wt += NO) {
            __m512i x[NV];
            for (int j = 0; j < NV; j++) x[j] = _mm512_loadu_si512((const void *)(a + 64 * j));
            for (int k = 0; k < NO; k++) {
                __m512i wk = _mm512_set1_epi32(wt[k]);
                for (int j = 0; j < NV; j++) acc[k][j] = _mm512_dpbusd_epi32(acc[k][j], x[j], wk);
            }
        }
    }
}

__attribute__((target("avx512f,avx512bw,avx512vnni")))
static void block(const uint8_t *quads, size_t plane, int quadsC, int split, const int *taps, const int8_t *w, int p0, int end,
                  int W, int Wp, const float *combined, const float *combined2, const float *bias, int o0, int O, int relu,
                  const float *residual, size_t outPlane, float *out) {
    __m512i acc[NO][NV];
    __m512 partial[NO][NV];
    sums(quads, plane, quadsC, taps, w, p0, 0, split, acc);
    for (int k = 0; k < NO; k++) {
        __m512 s = _mm512_set1_ps(combined[k]), b = _mm512_set1_ps(bias && o0 + k < O ? bias[o0 + k] : 0.0f);
        for (int j = 0; j < NV; j++) partial[k][j] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[k][j]), s, b);
    }
    if (split < quadsC) {
        /* The second part of a concatenation, at its own scale. */
        sums(quads, plane, quadsC, taps, w, p0, split, quadsC, acc);
        for (int k = 0; k < NO; k++) {
            __m512 s = _mm512_set1_ps(combined2[k]);
            for (int j = 0; j < NV; j++) partial[k][j] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[k][j]), s, partial[k][j]);
        }
    }
    __mmask16 lanes[NV];
    int start[NV], count[NV];
    for (int j = 0; j < NV; j++) {
        lanes[j] = pixel_lanes(p0 + 16 * j, end, W, Wp, &start[j]);
        count[j] = __builtin_popcount(lanes[j]);
    }
    const __m512 zero = _mm512_setzero_ps();
    for (int k = 0; k < NO && o0 + k < O; k++) {
        int o = o0 + k;
        for (int j = 0; j < NV; j++) {
            if (!count[j]) continue;
            __m512 v = partial[k][j];
            if (relu) v = _mm512_max_ps(v, zero);
            v = _mm512_maskz_compress_ps(lanes[j], v);
            size_t at = (size_t)o * outPlane + start[j];
            __mmask16 keep = first(count[j]);
            if (residual) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(keep, residual + at));
            _mm512_mask_storeu_ps(out + at, keep, v);
        }
    }
}

__attribute__((target("avx512f,avx512bw,avx512vnni")))
void sk_q8_conv_avx512(const uint8_t *quads, int C, int split, int H, int W, int d, const float scales[2], const int8_t *packed,
                       const float *wscale, const float *bias, int O, int relu, const float *residual, int y0, int y1,
                       float *out) {
    int quadsC = (C + 3) / 4, Wp = W + 2 * d;
    size_t plane = sk_q8_plane(H, W, d), outPlane = (size_t)H * W;
    int taps[9];
    for (int t = 0; t < 9; t++) taps[t] = (t / 3) * d * Wp + (t % 3) * d;
    int begin = y0 * Wp, end = (y1 - 1) * Wp + W;
    int chunk = sk_q8_chunk(C, Wp, d, BLOCK);
    for (int c0 = begin; c0 < end; c0 += chunk) {
        int c1 = c0 + chunk < end ? c0 + chunk : end;
        for (int o0 = 0; o0 < O; o0 += NO) {
            const int8_t *w = packed + (size_t)(o0 / NO) * 9 * quadsC * 32;
            float combined[NO], combined2[NO];
            for (int k = 0; k < NO; k++) {
                combined[k] = o0 + k < O ? scales[0] * wscale[o0 + k] : 0.0f;
                combined2[k] = o0 + k < O ? scales[1] * wscale[o0 + k] : 0.0f;
            }
            for (int p = c0; p < c1; p += BLOCK)
                block(quads, plane, quadsC, split / 4, taps, w, p, c1, W, Wp, combined, combined2, bias, o0, O, relu, residual,
                      outPlane, out);
        }
    }
}
#endif
