/* The 36 matrix products of Winograd F(4x4, 3x3) on AVX-512 (winograd4.c does the rest): a
 * micro-kernel holds 8 tiles x 32 outputs of accumulators in 16 zmm registers, 2.7 times the
 * AVX2 kernel's 6 x 16 per pass: per input channel 2 vector loads of U and 8 broadcasts of V feed
 * 16 fused multiply-adds of 16 lanes. Panels of 16 outputs (u2netp's many 16-channel layers) take
 * 8 tiles x 16. The packed weights are the AVX2 path's.
 * Measured alone (64 -> 64, a block of 24 tiles, one core): AVX2 40 GMAC/s, this 78-87; 12 tiles
 * (24 accumulators) ran at 30, slower than AVX2, and 11 or 10 tiles no faster than 8, which also
 * divides a block's 24 tiles with no remainder.
 * The input transform of a channel runs here too, 16 tiles per vector. The output transform stays
 * AVX2 (winograd4.c): one of 16 channels per zmm register measured
 * 8-15% slower than the AVX2 one on whole layers (its 24 partial sums spill; the time goes to the
 * scattered 16-byte stores either way). */
#include "kernels_avx512.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

enum { W4_NT = 8 };

/* M[t + i][o0 ..< o0 + 16 NO] = sum_c V[c][t + i] U[c][o0 ..< o0 + 16 NO] for i < NT. NO and NT are
 * constants at every call site, so the accumulators live in registers. */
__attribute__((target("avx512f"), always_inline))
static inline void product_tile(const float *U, int C, int op, const float *V, int vrow, float *M, int o0, int t,
                                const int NO, const int NT) {
    __m512 acc[W4_NT][2];
    for (int i = 0; i < NT; i++)
        for (int k = 0; k < NO; k++) acc[i][k] = _mm512_setzero_ps();
    const float *u = U + o0;
    const float *v = V + t;
    for (int c = 0; c < C; c++, u += op, v += vrow) {
        __m512 w[2];
        for (int k = 0; k < NO; k++) w[k] = _mm512_loadu_ps(u + 16 * k);
        for (int i = 0; i < NT; i++) {
            __m512 x = _mm512_set1_ps(v[i]);
            for (int k = 0; k < NO; k++) acc[i][k] = _mm512_fmadd_ps(x, w[k], acc[i][k]);
        }
    }
    for (int i = 0; i < NT; i++)
        for (int k = 0; k < NO; k++) _mm512_storeu_ps(M + (size_t)(t + i) * op + o0 + 16 * k, acc[i][k]);
}

/* Tiles 0 ..< n of one panel of 16 NO outputs: 8 at a time, then the remainder. */
__attribute__((target("avx512f"), always_inline))
static inline void product_panel(const float *U, int C, int op, const float *V, int vrow, float *M, int n, int o0,
                                 const int NO) {
    int t = 0;
    for (; t + W4_NT <= n; t += W4_NT) product_tile(U, C, op, V, vrow, M, o0, t, NO, W4_NT);
    switch (n - t) {
    case 7: product_tile(U, C, op, V, vrow, M, o0, t, NO, 7); break;
    case 6: product_tile(U, C, op, V, vrow, M, o0, t, NO, 6); break;
    case 5: product_tile(U, C, op, V, vrow, M, o0, t, NO, 5); break;
    case 4: product_tile(U, C, op, V, vrow, M, o0, t, NO, 4); break;
    case 3: product_tile(U, C, op, V, vrow, M, o0, t, NO, 3); break;
    case 2: product_tile(U, C, op, V, vrow, M, o0, t, NO, 2); break;
    case 1: product_tile(U, C, op, V, vrow, M, o0, t, NO, 1); break;
    default: break;
    }
}

__attribute__((target("avx512f")))
void sk_w4_product_avx512(const float *U, int C, int op, const float *V, int vrow, float *M, int n) {
    int o0 = 0;
    for (; o0 + 32 <= op; o0 += 32) product_panel(U, C, op, V, vrow, M, n, o0, 2);
    if (o0 < op) product_panel(U, C, op, V, vrow, M, n, o0, 1);
}

/* B^T d for six vectors, as w4_bt in winograd4.c. */
__attribute__((target("avx512f"), always_inline))
static inline void bt6(const __m512 d[6], __m512 r[6]) {
    const __m512 four = _mm512_set1_ps(4.0f), five = _mm512_set1_ps(5.0f), two = _mm512_set1_ps(2.0f);
    __m512 s34 = _mm512_sub_ps(d[4], d[2]);
    __m512 d31 = _mm512_mul_ps(two, _mm512_sub_ps(d[3], d[1]));
    r[0] = _mm512_fmadd_ps(four, d[0], _mm512_fnmadd_ps(five, d[2], d[4]));
    r[1] = _mm512_fnmadd_ps(four, _mm512_add_ps(d[1], d[2]), _mm512_add_ps(d[3], d[4]));
    r[2] = _mm512_fmadd_ps(four, _mm512_sub_ps(d[1], d[2]), _mm512_sub_ps(d[4], d[3]));
    r[3] = _mm512_add_ps(s34, d31);
    r[4] = _mm512_sub_ps(s34, d31);
    r[5] = _mm512_fmadd_ps(four, d[1], _mm512_fnmadd_ps(five, d[3], d[5]));
}

/* The first `count` (0 ..< 16) lanes. */
static inline __mmask16 first(int count) {
    return (__mmask16)(count >= 16 ? 0xFFFFu : count <= 0 ? 0u : (1u << count) - 1);
}

/* 16 tiles per step where the AVX2 transform takes 8: the columns of 16 tiles are gathered from
 * four vectors of a row by two-source permutes (vpermt2ps), and columns 4 and 5 (the next tile's
 * 0 and 1) by shifting columns 0 and 1 one lane (valignd). */
__attribute__((target("avx512f")))
void sk_w4_transform_avx512(const float *d, float *e, int vecs, int n8, float *vc, size_t pstride) {
    /* B^T along the columns: element-wise over the six rows. */
    for (int v = 0; v < (vecs + 1) / 2; v++) {
        __m512 x[6], r[6];
        for (int k = 0; k < 6; k++) x[k] = _mm512_loadu_ps(d + k * SK_W4_ROW_FLOATS + 16 * v);
        bt6(x, r);
        for (int i = 0; i < 6; i++) _mm512_storeu_ps(e + i * SK_W4_ROW_FLOATS + 16 * v, r[i]);
    }
    /* Lane k: column j of tile k of (a, b) for k < 8, of (c, d) for k >= 8. */
    __m512i column[4];
    for (int j = 0; j < 4; j++)
        column[j] = _mm512_setr_epi32(j, 4 + j, 8 + j, 12 + j, 16 + j, 20 + j, 24 + j, 28 + j,
                                      j, 4 + j, 8 + j, 12 + j, 16 + j, 20 + j, 24 + j, 28 + j);
    /* B along the rows. */
    for (int i = 0; i < 6; i++) {
        const float *row = e + i * SK_W4_ROW_FLOATS;
        for (int m = 0; m < n8; m += 16) {
            int tiles = n8 - m >= 16 ? 16 : 8;
            int avail = 4 * tiles + 2;  /* floats these tiles read, the next tile's first two included */
            const float *s = row + 4 * m;
            __m512 q[4];
            for (int k = 0; k < 4; k++) q[k] = _mm512_maskz_loadu_ps(first(avail - 16 * k), s + 16 * k);
            __m512 x[6], r[6];
            for (int j = 0; j < 4; j++)
                x[j] = _mm512_mask_blend_ps(0xFF00, _mm512_permutex2var_ps(q[0], column[j], q[1]),
                                            _mm512_permutex2var_ps(q[2], column[j], q[3]));
            /* Tile 16's columns 0 and 1 (when there are 16 tiles) enter at lane 15. */
            __m512 next0 = tiles == 16 ? _mm512_set1_ps(s[64]) : _mm512_setzero_ps();
            __m512 next1 = tiles == 16 ? _mm512_set1_ps(s[65]) : _mm512_setzero_ps();
            x[4] = _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(next0), _mm512_castps_si512(x[0]), 1));
            x[5] = _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(next1), _mm512_castps_si512(x[1]), 1));
            bt6(x, r);
            for (int j = 0; j < 6; j++) _mm512_mask_storeu_ps(vc + (size_t)(i * 6 + j) * pstride + m, first(tiles), r[j]);
        }
    }
}
#endif
