/* Winograd F(4x4, 3x3) on AVX-512 (winograd4.c runs the blocks and the row loads): the input
 * transform, the 36 matrix products and the output transform, vectorised over 16 tiles.
 * The products keep M as [output][tile] (tiles contiguous): a micro-kernel holds 2 vectors of 16
 * tiles x 8 outputs of accumulators (16 zmm; 3 x 8 for rows of 33-48 tiles, 1 x 16 for up to 16):
 * per input channel 2 vector loads of V and 8 broadcasts of U feed 16 fused multiply-adds. The
 * output transform then reads 16 tiles of one channel per vector and writes a row of them, 64
 * pixels, as four 64-byte stores, where the AVX2 one (8 channels per vector, M as [tile][output])
 * writes each 4-pixel tile row into each output plane as a 16-byte piece. Every value goes through
 * the AVX2 path's operations in the same order (the sums from zero, channel by channel; the same
 * transforms; the same 2x upsampling arithmetic, which here runs 16 columns a vector inside the
 * input transform), so both paths give the same floats. The packed weights are the AVX2 path's.
 * Before (M as [tile][output], 8 tiles x 32 outputs; the AVX2 output transform): 128 -> 64 at
 * 320 x 320 ran at 0.76 of AVX2's time, 32 -> 64 at 0.77, 64 -> 16 at 0.85; see
 * Benchmarks/README.md for the layers now. */
#include "kernels_avx512.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* The first `count` (0 ..< 16) lanes. */
static inline __mmask16 first(int count) {
    return (__mmask16)(count >= 16 ? 0xFFFFu : count <= 0 ? 0u : (1u << count) - 1);
}

/* M[o0 + k][tiles 0 ..< 16 NV] = sum_c V[c][tiles] U[c][o0 + k] for k < NO: NV vectors of 16 tiles
 * times NO outputs of accumulators, each output's weight broadcast. Tiles past n are read as
 * zeros (the input transform leaves stale values there). Every sum is the AVX2 kernel's: from
 * zero, one fused multiply-add per input channel, in channel order. */
__attribute__((target("avx512f"), always_inline))
static inline void product_tile(const float *U, int C, int op, const float *V, int vrow, float *M, int o0, int n,
                                const int NV, const int NO) {
    __m512 acc[16][3];
    __mmask16 mask[3] = {first(n), first(n - 16), first(n - 32)};
    for (int k = 0; k < NO; k++)
        for (int j = 0; j < NV; j++) acc[k][j] = _mm512_setzero_ps();
    const float *u = U + o0;
    const float *v = V;
    for (int c = 0; c < C; c++, u += op, v += vrow) {
        __m512 x[3];
        for (int j = 0; j < NV; j++) x[j] = _mm512_maskz_loadu_ps(mask[j], v + 16 * j);
        for (int k = 0; k < NO; k++) {
            __m512 w = _mm512_set1_ps(u[k]);
            for (int j = 0; j < NV; j++) acc[k][j] = _mm512_fmadd_ps(x[j], w, acc[k][j]);
        }
    }
    for (int k = 0; k < NO; k++)
        for (int j = 0; j < NV; j++) _mm512_storeu_ps(M + (size_t)(o0 + k) * vrow + 16 * j, acc[k][j]);
}

__attribute__((target("avx512f")))
void sk_w4_product_avx512(const float *U, int C, int op, const float *V, int vrow, float *M, int n) {
    if (n > 32)  /* three tile vectors x 8 outputs: 24 accumulators */
        for (int o0 = 0; o0 < op; o0 += 8) product_tile(U, C, op, V, vrow, M, o0, n, 3, 8);
    else if (n > 16)  /* two tile vectors x 8 outputs: 16 accumulators */
        for (int o0 = 0; o0 < op; o0 += 8) product_tile(U, C, op, V, vrow, M, o0, n, 2, 8);
    else  /* one tile vector x 16 outputs */
        for (int o0 = 0; o0 < op; o0 += 16) product_tile(U, C, op, V, vrow, M, o0, n, 1, 16);
}

/* A^T m for six vectors, as w4_at in winograd4.c (the same operations in the same order). */
__attribute__((target("avx512f"), always_inline))
static inline void at6(const __m512 m[6], __m512 r[4]) {
    __m512 a = _mm512_add_ps(m[1], m[2]), b = _mm512_sub_ps(m[1], m[2]);
    __m512 c = _mm512_add_ps(m[3], m[4]), d = _mm512_sub_ps(m[3], m[4]);
    r[0] = _mm512_add_ps(_mm512_add_ps(m[0], a), c);
    r[1] = _mm512_fmadd_ps(_mm512_set1_ps(2.0f), d, b);
    r[2] = _mm512_fmadd_ps(_mm512_set1_ps(4.0f), c, a);
    r[3] = _mm512_add_ps(_mm512_fmadd_ps(_mm512_set1_ps(8.0f), d, b), m[5]);
}

/* 16 tiles of one output channel per step: each value goes through w4_output's operations
 * (A^T down the columns, A along the rows, + bias, ReLU, + residual), and a row of the 16 tiles,
 * 64 pixels, is interleaved in registers and written as four 64-byte stores (the AVX2 transform
 * writes 16 bytes per tile row and channel). */
__attribute__((target("avx512f,prfchw")))
void sk_w4_output_avx512(const float *M, size_t mstride, int mrow, const float *bias, int O, int op, int H, int W, int ty,
                         int t0, int n, int relu, const float *residual, float *out) {
    (void)op;
    size_t plane = (size_t)H * W;
    int y0 = 4 * ty;
    int rows = H - y0 < 4 ? H - y0 : 4;
    const __m512 zero = _mm512_setzero_ps();
    for (int o = 0; o < O; o++) {
        __m512 b = bias ? _mm512_set1_ps(bias[o]) : zero;
        for (int g = 0; g < n; g += 16) {
            __mmask16 tiles = first(n - g);
            const float *mo = M + (size_t)o * mrow + g;
            __m512 s[4][6];
            for (int j = 0; j < 6; j++) {  /* A^T M: down the columns */
                __m512 m[6], r[4];
                for (int i = 0; i < 6; i++) m[i] = _mm512_maskz_loadu_ps(tiles, mo + (size_t)(i * 6 + j) * mstride);
                at6(m, r);
                for (int i = 0; i < 4; i++) s[i][j] = r[i];
            }
            int x = 4 * (t0 + g);
            int valid = W - x < 4 * (n - g) ? W - x : 4 * (n - g);  /* pixels of a row these tiles hold */
            /* The next channel's lines of these rows, fetched for writing while this one is
             * computed: a new plane each channel, which the hardware prefetcher cannot guess
             * (3-7% of a 320 x 320 layer; PREFETCHW, which every AVX-512 CPU has). */
            if (o + 1 < O)
                for (int i = 0; i < rows; i++)
                    for (int k = 0; k < valid; k += 16)
                        __builtin_prefetch(out + (size_t)(o + 1) * plane + (size_t)(y0 + i) * W + x + k, 1, 3);
            for (int i = 0; i < rows; i++) {  /* (A^T M) A: along the rows */
                __m512 y[4];
                at6(s[i], y);
                for (int k = 0; k < 4; k++) {
                    y[k] = _mm512_add_ps(y[k], b);
                    if (relu) y[k] = _mm512_max_ps(y[k], zero);
                }
                /* Lane l of y[k] is column k of tile l: interleave to 4 l + k. Within 128-bit lanes
                 * first (tiles 4 L + 0 ..< 4 in lane L of q[0 ..< 4]), then across them. */
                __m512 lo01 = _mm512_unpacklo_ps(y[0], y[1]), hi01 = _mm512_unpackhi_ps(y[0], y[1]);
                __m512 lo23 = _mm512_unpacklo_ps(y[2], y[3]), hi23 = _mm512_unpackhi_ps(y[2], y[3]);
                __m512 q0 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(lo01), _mm512_castps_pd(lo23)));
                __m512 q1 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(lo01), _mm512_castps_pd(lo23)));
                __m512 q2 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(hi01), _mm512_castps_pd(hi23)));
                __m512 q3 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(hi01), _mm512_castps_pd(hi23)));
                __m512 e0 = _mm512_shuffle_f32x4(q0, q1, 0x44), e1 = _mm512_shuffle_f32x4(q0, q1, 0xEE);
                __m512 e2 = _mm512_shuffle_f32x4(q2, q3, 0x44), e3 = _mm512_shuffle_f32x4(q2, q3, 0xEE);
                __m512 row[4] = {
                    _mm512_shuffle_f32x4(e0, e2, 0x88), _mm512_shuffle_f32x4(e0, e2, 0xDD),
                    _mm512_shuffle_f32x4(e1, e3, 0x88), _mm512_shuffle_f32x4(e1, e3, 0xDD),
                };
                size_t at = (size_t)o * plane + (size_t)(y0 + i) * W + x;
                for (int k = 0; k < 4 && 16 * k < valid; k++) {
                    __mmask16 keep = first(valid - 16 * k);
                    __m512 v = row[k];
                    if (residual) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(keep, residual + at + 16 * k));
                    _mm512_mask_storeu_ps(out + at + 16 * k, keep, v);
                }
            }
        }
    }
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

/* 16 tiles per step where the AVX2 transform takes 8: the columns of 16 tiles are gathered from
 * four vectors of a row by two-source permutes (vpermt2ps), and columns 4 and 5 (the next tile's
 * 0 and 1) by shifting columns 0 and 1 one lane (valignd). */
__attribute__((target("avx512f"), always_inline))
static inline void transform_rows(const float *e, int n8, float *vc, size_t pstride);

__attribute__((target("avx512f")))
void sk_w4_transform_avx512(const float *d, float *e, int vecs, int n8, float *vc, size_t pstride) {
    /* B^T along the columns: element-wise over the six rows. */
    for (int v = 0; v < (vecs + 1) / 2; v++) {
        __m512 x[6], r[6];
        for (int k = 0; k < 6; k++) x[k] = _mm512_loadu_ps(d + k * SK_W4_ROW_FLOATS + 16 * v);
        bt6(x, r);
        for (int i = 0; i < 6; i++) _mm512_storeu_ps(e + i * SK_W4_ROW_FLOATS + 16 * v, r[i]);
    }
    transform_rows(e, n8, vc, pstride);
}

/* The same reading the six rows straight from the plane (masked loads, zeros outside it) instead
 * of from copies: the row copies were a fifth of a 64 -> 16 layer. */
__attribute__((target("avx512f")))
void sk_w4_transform_plane_avx512(const float *plane, int H, int W, int r0, int x0, int count, float *e, int n8,
                                  float *vc, size_t pstride) {
    const __m512 zero = _mm512_setzero_ps();
    for (int v = 0; v < (count + 15) / 16; v++) {
        int xs = x0 + 16 * v;  /* the plane column of lane 0; -1 only for the first block's first vector */
        int shift = xs < 0;    /* then lane l reads column l - 1, lane 0 is zero */
        int lanes = W - xs < count - 16 * v ? W - xs : count - 16 * v;  /* lanes inside the plane and the count */
        __mmask16 load = first(lanes - shift);
        __m512 x[6], r[6];
        for (int k = 0; k < 6; k++) {
            int row = r0 + k;
            if (row < 0 || row >= H || lanes - shift <= 0) {
                x[k] = zero;
                continue;
            }
            x[k] = _mm512_maskz_loadu_ps(load, plane + (size_t)row * W + xs + shift);
            if (shift)
                x[k] = _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(x[k]), _mm512_castps_si512(zero), 15));
        }
        bt6(x, r);
        for (int i = 0; i < 6; i++) _mm512_storeu_ps(e + i * SK_W4_ROW_FLOATS + 16 * v, r[i]);
    }
    transform_rows(e, n8, vc, pstride);
}

/* The same for a channel stored at half size (Hs x Ws) and resized 2x on the fly, as
 * w4_load_rows_upsampled in winograd4.c computes it (sk_resize_bilinear_halfpixel's x blend of
 * each source row, then its y blend, no fused multiply-adds), 16 columns per vector straight
 * into the column transform: the x blend of a source row picks each column's two taps from one
 * load by two permutes (vpermps), and the four source rows a tile row needs are blended once per
 * vector in registers, where the AVX2 path writes them to scratch rows 8 columns at a time. */
#pragma clang fp contract(off)
__attribute__((target("avx512f")))
void sk_w4_transform_upsampled_avx512(const float *src, int Hs, int Ws, int r0, int x0, int count, float *e, int n8,
                                      float *vc, size_t pstride) {
    const int H = 2 * Hs, W = 2 * Ws;
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i unit = _mm512_set1_epi32(1), last = _mm512_set1_epi32(Ws - 1), izero = _mm512_setzero_si512();
    /* Columns 2 a + 1 + l (l < 16, a >= 1, a + 8 < Ws) from source columns a - 1 ...: lane l's first
     * tap (the second is the next), and its weights. */
    const __m512i interiorLo = _mm512_setr_epi32(1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8);
    const __m512 interiorF = _mm512_setr_ps(0.25f, 0.75f, 0.25f, 0.75f, 0.25f, 0.75f, 0.25f, 0.75f, 0.25f, 0.75f, 0.25f,
                                            0.75f, 0.25f, 0.75f, 0.25f, 0.75f);
    const __m512 interiorG = _mm512_sub_ps(one, interiorF);
    /* Each of the six rows r0 + k blends two of the source rows top ..< top + 4 (slots). */
    const int top = (r0 + 1) / 2 - 1;
    int slot[6][2], used = 0;
    float fy[6];
    for (int k = 0; k < 6; k++) {
        int r = r0 + k;
        slot[k][0] = -1;
        if (r < 0 || r >= H) continue;
        int i = r >> 1, lo, hi;
        if (r & 1) lo = i, hi = i + 1 < Hs ? i + 1 : Hs - 1, fy[k] = 0.25f;
        else if (i == 0) lo = 0, hi = Hs > 1 ? 1 : 0, fy[k] = 0.0f;
        else lo = i - 1, hi = i, fy[k] = 0.75f;
        slot[k][0] = lo - top, slot[k][1] = hi - top;
        used |= 1 << slot[k][0] | 1 << slot[k][1];
    }
    __m512 wy[6][2];  /* each row's y weights, 1 - fy and fy */
    for (int k = 0; k < 6; k++)
        if (slot[k][0] >= 0) wy[k][0] = _mm512_set1_ps(1.0f - fy[k]), wy[k][1] = _mm512_set1_ps(fy[k]);
    for (int v = 0; v < (count + 15) / 16; v++) {
        int xs = x0 + 16 * v;  /* the output column of lane 0 */
        int base = (xs >> 1) - 1;  /* the source columns base ..< base + 16 cover every tap of these columns */
        __m512i lo, hi;
        __m512 f, g;
        __mmask16 load, inside;
        if (xs & 1 && base >= 0 && (xs >> 1) + 8 <= Ws - 1) {
            /* Inside the row (every block's columns start odd): the taps' pattern is fixed. */
            lo = interiorLo, hi = _mm512_add_epi32(interiorLo, unit), f = interiorF, g = interiorG;
            load = first(Ws - base), inside = 0xFFFF;  /* the taps end at a + 8; no load past the row's end */
        } else {
            __m512i x = _mm512_add_epi32(_mm512_set1_epi32(xs), iota);
            inside = _mm512_cmpge_epi32_mask(x, izero) & _mm512_cmplt_epi32_mask(x, _mm512_set1_epi32(W));
            /* Each column's taps (w4_tap2x): odd 2 i + 1 blends i and i + 1 (clamped) by 0.75 / 0.25,
             * even 2 i blends i - 1 and i by 0.25 / 0.75, column 0 is source column 0 (weights 1 / 0). */
            __m512i i = _mm512_srai_epi32(x, 1);
            __mmask16 odd = _mm512_test_epi32_mask(x, unit);
            __mmask16 edge = ~odd & _mm512_cmpeq_epi32_mask(i, izero);
            lo = _mm512_mask_mov_epi32(_mm512_sub_epi32(i, unit), odd, i);
            hi = _mm512_mask_mov_epi32(i, odd, _mm512_add_epi32(i, unit));
            lo = _mm512_mask_mov_epi32(lo, edge, izero);
            hi = _mm512_mask_mov_epi32(hi, edge, unit);
            lo = _mm512_max_epi32(_mm512_min_epi32(lo, last), izero);
            hi = _mm512_max_epi32(_mm512_min_epi32(hi, last), izero);
            f = _mm512_mask_mov_ps(_mm512_set1_ps(0.75f), odd, _mm512_set1_ps(0.25f));
            f = _mm512_mask_mov_ps(f, edge, zero);
            g = _mm512_sub_ps(one, f);
            base = base > 0 ? base : 0;
            __m512i b = _mm512_set1_epi32(base);
            lo = _mm512_sub_epi32(lo, b), hi = _mm512_sub_epi32(hi, b);
            load = first(Ws - base);
        }
        __m512 row[4];
        for (int s = 0; s < 4; s++) {
            if (!(used & (1 << s))) continue;
            __m512 q = _mm512_maskz_loadu_ps(load, src + (size_t)(top + s) * Ws + base);
            row[s] = _mm512_add_ps(_mm512_mul_ps(_mm512_permutexvar_ps(lo, q), g),
                                   _mm512_mul_ps(_mm512_permutexvar_ps(hi, q), f));
        }
        __m512 d[6], r[6];
        for (int k = 0; k < 6; k++) {
            if (slot[k][0] < 0) {
                d[k] = zero;
                continue;
            }
            d[k] = _mm512_maskz_add_ps(inside, _mm512_mul_ps(row[slot[k][0]], wy[k][0]), _mm512_mul_ps(row[slot[k][1]], wy[k][1]));
        }
        bt6(d, r);
        for (int k = 0; k < 6; k++) _mm512_storeu_ps(e + k * SK_W4_ROW_FLOATS + 16 * v, r[k]);
    }
    transform_rows(e, n8, vc, pstride);
}
#pragma clang fp contract(on)

/* B along the rows of the column-transformed rows at e. */
__attribute__((target("avx512f"), always_inline))
static inline void transform_rows(const float *e, int n8, float *vc, size_t pstride) {
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
