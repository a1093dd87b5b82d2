/* The int8 3x3 convolution on AVX2, with or without AVX-VNNI (int8_conv.c has the contract and the
 * reference). A micro-kernel holds 3 vectors of 8 output positions x 4 output channels of int32
 * sums. With AVX-VNNI each tap and quad is one vpdpbusd an output and vector; without it the
 * quad's even and odd bytes are widened to 16 bits and multiplied in pairs by vpmaddwd (exact:
 * vpmaddubsw's 16-bit pair sums would saturate at 2 x 255 x 127), the same integers. Outputs leave
 * through a row of 8 floats, lane by lane, keeping the pixels' lanes. */
#include "int8_conv_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

enum { NV = 3, NO = 4, BLOCK = 8 * NV };

/* acc + the dot products of each lane's 4 unsigned bytes of x with the 4 signed bytes of w. */
__attribute__((target("avx2"), always_inline))
static inline __m256i dot_madd(__m256i acc, __m256i xEven, __m256i xOdd, __m256i w) {
    __m256i wEven = _mm256_srai_epi16(_mm256_slli_epi16(w, 8), 8), wOdd = _mm256_srai_epi16(w, 8);
    __m256i sum = _mm256_add_epi32(_mm256_madd_epi16(xEven, wEven), _mm256_madd_epi16(xOdd, wOdd));
    return _mm256_add_epi32(acc, sum);
}

/* Sums over quads g0 ..< g1 for outputs NO * half ..< + NO. Each way is a function of its own whose
 * target names only the instructions it may use: under an "avxvnni" target the compiler turns the
 * pair products' vpmaddwd + vpaddd into AVX-VNNI's vpdpwssd, which a CPU without AVX-VNNI faults on. */
#define SK_Q8_FOR_EACH_TAP_AND_QUAD(...)                                                                               \
    for (int k = 0; k < NO; k++)                                                                                       \
        for (int j = 0; j < NV; j++) acc[k][j] = _mm256_setzero_si256();                                               \
    for (int t = 0; t < 9; t++) {                                                                                      \
        const uint8_t *a = quads + ((size_t)g0 * plane + (size_t)p0 + taps[t]) * 4;                                    \
        const int32_t *wt = (const int32_t *)(w + ((size_t)t * quadsC + g0) * 32) + NO * half;                        \
        for (int g = g0; g < g1; g++, a += plane * 4, wt += 8) {                                                       \
            __m256i x[NV];                                                                                             \
            for (int j = 0; j < NV; j++) x[j] = _mm256_loadu_si256((const __m256i *)(a + 32 * j));                    \
            __VA_ARGS__                                                                                                \
        }                                                                                                              \
    }

__attribute__((target("avx2,avxvnni")))
static void part_sums_vnni(const uint8_t *quads, size_t plane, int quadsC, const int *taps, const int8_t *w, int p0, int half,
                           int g0, int g1, __m256i acc[NO][NV]) {
    SK_Q8_FOR_EACH_TAP_AND_QUAD(
        for (int k = 0; k < NO; k++) {
            __m256i wk = _mm256_set1_epi32(wt[k]);
            for (int j = 0; j < NV; j++) acc[k][j] = _mm256_dpbusd_avx_epi32(acc[k][j], x[j], wk);
        })
}

__attribute__((target("avx2")))
static void part_sums_madd(const uint8_t *quads, size_t plane, int quadsC, const int *taps, const int8_t *w, int p0, int half,
                           int g0, int g1, __m256i acc[NO][NV]) {
    const __m256i low = _mm256_set1_epi16(0x00FF);
    SK_Q8_FOR_EACH_TAP_AND_QUAD(
        __m256i even[NV], odd[NV];
        for (int j = 0; j < NV; j++) even[j] = _mm256_and_si256(x[j], low), odd[j] = _mm256_srli_epi16(x[j], 8);
        for (int k = 0; k < NO; k++) {
            __m256i wk = _mm256_set1_epi32(wt[k]);
            for (int j = 0; j < NV; j++) acc[k][j] = dot_madd(acc[k][j], even[j], odd[j], wk);
        })
}
#undef SK_Q8_FOR_EACH_TAP_AND_QUAD

__attribute__((target("avx2")))
static void part_sums(int vnni, const uint8_t *quads, size_t plane, int quadsC, const int *taps, const int8_t *w, int p0, int half,
                      int g0, int g1, __m256i acc[NO][NV]) {
    if (vnni) part_sums_vnni(quads, plane, quadsC, taps, w, p0, half, g0, g1, acc);
    else part_sums_madd(quads, plane, quadsC, taps, w, p0, half, g0, g1, acc);
}

__attribute__((target("avx2,fma")))
static void block(int vnni, const uint8_t *quads, size_t plane, int quadsC, int split, const int *taps, const int8_t *w, int p0,
                  int end, int W, int Wp, const float *combined, const float *combined2, const float *bias, int o0, int O,
                  int relu, const float *residual, size_t outPlane, float *out) {
    __m256i acc[NO][NV];
    __m256 partial[NO][NV];
    for (int half = 0; half < 2; half++) {
        int ob = o0 + NO * half;
        if (ob >= O) break;
        part_sums(vnni, quads, plane, quadsC, taps, w, p0, half, 0, split, acc);
        for (int k = 0; k < NO; k++) {
            __m256 s = _mm256_set1_ps(combined[NO * half + k]), b = _mm256_set1_ps(bias && ob + k < O ? bias[ob + k] : 0.0f);
            for (int j = 0; j < NV; j++) partial[k][j] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(acc[k][j]), s, b);
        }
        if (split < quadsC) {
            part_sums(vnni, quads, plane, quadsC, taps, w, p0, half, split, quadsC, acc);
            for (int k = 0; k < NO; k++) {
                __m256 s = _mm256_set1_ps(combined2[NO * half + k]);
                for (int j = 0; j < NV; j++) partial[k][j] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(acc[k][j]), s, partial[k][j]);
            }
        }
        const __m256 zero = _mm256_setzero_ps();
        for (int k = 0; k < NO && ob + k < O; k++) {
            int o = ob + k;
            for (int j = 0; j < NV; j++) {
                float row[8];
                __m256 v = partial[k][j];
                if (relu) v = _mm256_max_ps(v, zero);
                _mm256_storeu_ps(row, v);
                for (int l = 0; l < 8; l++) {
                    int p = p0 + 8 * j + l, x = p % Wp;
                    if (p >= end) break;
                    if (x >= W) continue;
                    size_t at = (size_t)o * outPlane + (size_t)(p / Wp) * W + x;
                    out[at] = residual ? row[l] + residual[at] : row[l];
                }
            }
        }
    }
}

__attribute__((target("avx2,fma")))
void sk_q8_conv_avx2(int vnni, const uint8_t *quads, int C, int split, int H, int W, int d, const float scales[2],
                     const int8_t *packed, const float *wscale, const float *bias, int O, int relu, const float *residual, int y0,
                     int y1, float *out) {
    int quadsC = (C + 3) / 4, Wp = W + 2 * d;
    size_t plane = sk_q8_plane(H, W, d), outPlane = (size_t)H * W;
    int taps[9];
    for (int t = 0; t < 9; t++) taps[t] = (t / 3) * d * Wp + (t % 3) * d;
    int begin = y0 * Wp, end = (y1 - 1) * Wp + W;
    int chunk = sk_q8_chunk(C, Wp, d, BLOCK);
    for (int c0 = begin; c0 < end; c0 += chunk) {
        int c1 = c0 + chunk < end ? c0 + chunk : end;
        for (int o0 = 0; o0 < O; o0 += 8) {
            const int8_t *w = packed + (size_t)(o0 / 8) * 9 * quadsC * 32;
            float combined[8], combined2[8];
            for (int k = 0; k < 8; k++) {
                combined[k] = o0 + k < O ? scales[0] * wscale[o0 + k] : 0.0f;
                combined2[k] = o0 + k < O ? scales[1] * wscale[o0 + k] : 0.0f;
            }
            for (int p = c0; p < c1; p += BLOCK)
                block(vnni, quads, plane, quadsC, split / 4, taps, w, p, c1, W, Wp, combined, combined2, bias, o0, O, relu,
                      residual, outPlane, out);
        }
    }
}
#endif
