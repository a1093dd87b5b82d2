/* 3x3 convolution, dilation 1, by Winograd F(4x4, 3x3) with pre-transformed weights; see
 * include/segmentation_kernels.h (sk_winograd4_*).
 *
 * Each 4x4 block of outputs ("tile") comes from a 6x6 block of inputs (interpolation points
 * 0, +-1, +-2, infinity; Lavin & Gray 2016): 36 multiplies per (output, input) channel pair
 * instead of 144, 4x fewer than direct. Per block of up to SK_W4_TILES tiles of one tile row:
 *   V[p][c][t] = (B^T d B)[p]          input transform, vectorised over 8 tiles
 *   M[p][t][o] = sum_c V[p][c][t] U[p][c][o]   36 matrix products, 6 tiles x 16 outputs of
 *                                      accumulators in registers (12 of the 16 ymm)
 *   out        = A^T M A + bias (ReLU)  output transform, vectorised over 8 output channels
 * The AVX-512 path (winograd4_avx512.c) keeps M as [p][o][t] instead, vectorised over 16 tiles in
 * its products and output transform, in blocks of up to 48 tiles.
 * U = G g G^T is computed once, at model load (sk_winograd4_pack), laid out [p][c][o] with
 * the outputs padded to a multiple of 16 (zero weights), the micro-kernel's panel width. */
#include "kernels_avx512.h"
#include "segmentation_kernels.h"
#include "winograd4_internal.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define SK_W4_X86 1
#include <immintrin.h>
#else
#define SK_W4_X86 0
#endif

/* Tiles per block: a multiple of 8 (the input transform writes 8 tiles at a time) and of the
 * micro-kernel's 6. V and M of a block are 144 * (inC + outC) bytes per tile (27 KB at
 * 128 -> 64, so 24 tiles keep them in the 512 KB L2); 48 and 72 measured within noise. */
enum { SK_W4_TILES = 24 };
_Static_assert(SK_W4_TILES % 24 == 0, "whole groups of 8 and of 6 tiles");
/* The AVX-512 path's blocks are wider (SK_W4_TILES_AVX512, two vectors of 16 tiles); the
 * workspace is sized for the wider. */
enum { SK_W4_TILES_MAX = SK_W4_TILES_AVX512 > SK_W4_TILES ? SK_W4_TILES_AVX512 : SK_W4_TILES };
/* Floats per transformed row: 4 per tile + 2 overlap, padded for 8-wide loads past the end (and
 * for 16-wide ones: 9 vectors of 16 are 144 floats). */
enum { SK_W4_ROW = 4 * SK_W4_TILES_MAX + 16 };
_Static_assert(SK_W4_ROWS_SCRATCH == 16 * SK_W4_ROW, "winograd4_internal.h's row scratch");

static int w4_outpad(int outC) { return (outC + 15) & ~15; }

/* Floats between the 36 matrices of V and of M. Their natural sizes (C * 24 or 24 * outpad
 * floats: 6 KB at 64 channels) are multiples of 2 KB, which put all 36 rows one transform
 * touches into 2 of L1's 64 sets (thrashing its 8 ways); one extra cache line staggers them. */
static size_t w4_vstride(int C, int tiles) { return (size_t)C * tiles + 16; }
static size_t w4_mstride(int op, int tiles) { return (size_t)tiles * op + 16; }

size_t sk_winograd4_packed_count(int inC, int outC) {
    if (inC <= 0 || outC <= 0 || (long long)inC * outC > INT_MAX / 64) return 0;
    return (size_t)36 * inC * w4_outpad(outC);
}

size_t sk_winograd4_workspace(int inC, int outC) {
    if (inC <= 0 || outC <= 0 || (long long)inC * outC > INT_MAX / 64) return 0;
    return (size_t)36 * w4_vstride(inC, SK_W4_TILES_MAX) + (size_t)36 * w4_mstride(w4_outpad(outC), SK_W4_TILES_MAX)
           + (size_t)16 * SK_W4_ROW + 64;
}

/* G for points 0, 1, -1, 2, -2 and infinity. */
static const double w4_G[6][3] = {
    {1.0 / 4, 0, 0},
    {-1.0 / 6, -1.0 / 6, -1.0 / 6},
    {-1.0 / 6, 1.0 / 6, -1.0 / 6},
    {1.0 / 24, 1.0 / 12, 1.0 / 6},
    {1.0 / 24, -1.0 / 12, 1.0 / 6},
    {0, 0, 1},
};

/* G g G^T of one 3x3 kernel g into the 36 matrices (stride pstride) at dst, in double: correctly
 * rounded floats of the exact transform. */
static void w4_pack_one(const float *g, float *dst, size_t pstride) {
    double t[6][3];  /* G g */
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 3; k++) t[i][k] = w4_G[i][0] * g[k] + w4_G[i][1] * g[3 + k] + w4_G[i][2] * g[6 + k];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            dst[(size_t)(i * 6 + j) * pstride] = (float)(t[i][0] * w4_G[j][0] + t[i][1] * w4_G[j][1] + t[i][2] * w4_G[j][2]);
}

#if SK_W4_X86
/* The same for outputs o0 ..< o0 + 8 of input channel c, 4 at a time in double (loading u2netp
 * packs 116 000 kernels: 12-20 ms of scalar double arithmetic, a few ms this way). */
__attribute__((target("avx2,fma")))
static void w4_pack_8(const float *weight, int inC, int c, int o0, float *dst, size_t pstride) {
    for (int half = 0; half < 2; half++) {
        __m256d g[9];
        for (int k = 0; k < 9; k++) {
            const float *base = weight + ((size_t)(o0 + 4 * half) * inC + c) * 9 + k;
            size_t step = (size_t)inC * 9;
            g[k] = _mm256_setr_pd(base[0], base[step], base[2 * step], base[3 * step]);
        }
        __m256d t[6][3];
        for (int i = 0; i < 6; i++)
            for (int k = 0; k < 3; k++)
                t[i][k] = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(w4_G[i][0]), g[k]),
                                                      _mm256_mul_pd(_mm256_set1_pd(w4_G[i][1]), g[3 + k])),
                                        _mm256_mul_pd(_mm256_set1_pd(w4_G[i][2]), g[6 + k]));
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) {
                __m256d u = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(t[i][0], _mm256_set1_pd(w4_G[j][0])),
                                                        _mm256_mul_pd(t[i][1], _mm256_set1_pd(w4_G[j][1]))),
                                          _mm256_mul_pd(t[i][2], _mm256_set1_pd(w4_G[j][2])));
                _mm_storeu_ps(dst + (size_t)(i * 6 + j) * pstride + 4 * half, _mm256_cvtpd_ps(u));
            }
    }
}
#endif

int sk_winograd4_pack(const float *weight, int inC, int outC, float *packed) {
    if (!weight || !packed || sk_winograd4_packed_count(inC, outC) == 0) return -1;
    int op = w4_outpad(outC);
    size_t pstride = (size_t)inC * op;
#if SK_W4_X86
    int vector = sk_uses_avx2();
#endif
    /* Input channel outermost, outputs innermost: each of the 36 matrices is written along its rows. */
    for (int c = 0; c < inC; c++) {
        float *dst = packed + (size_t)c * op;
        int o = 0;
#if SK_W4_X86
        if (vector)
            for (; o + 8 <= outC; o += 8) w4_pack_8(weight, inC, c, o, dst + o, pstride);
#endif
        for (; o < outC; o++) w4_pack_one(weight + ((size_t)o * inC + c) * 9, dst + o, pstride);
        for (int p = 0; p < 36; p++)  /* the panel's padding outputs: zero weights */
            for (int pad = outC; pad < op; pad++) dst[(size_t)p * pstride + pad] = 0.0f;
    }
    return 0;
}

#if SK_W4_X86
/* B^T d for six vectors (rows or columns of the 6x6 input blocks). */
__attribute__((target("avx2,fma"), always_inline))
static inline void w4_bt(const __m256 d[6], __m256 r[6]) {
    const __m256 four = _mm256_set1_ps(4.0f), five = _mm256_set1_ps(5.0f), two = _mm256_set1_ps(2.0f);
    /* r0 = 4 d0 - 5 d2 + d4            r3 = -2 d1 - d2 + 2 d3 + d4
     * r1 = -4 (d1 + d2) + d3 + d4      r4 = 2 d1 - d2 - 2 d3 + d4
     * r2 = 4 (d1 - d2) - d3 + d4       r5 = 4 d1 - 5 d3 + d5 */
    __m256 s34 = _mm256_sub_ps(d[4], d[2]);                 /* d4 - d2 */
    __m256 d31 = _mm256_mul_ps(two, _mm256_sub_ps(d[3], d[1]));
    r[0] = _mm256_fmadd_ps(four, d[0], _mm256_fnmadd_ps(five, d[2], d[4]));
    __m256 a = _mm256_add_ps(d[3], d[4]), b = _mm256_add_ps(d[1], d[2]);
    r[1] = _mm256_fnmadd_ps(four, b, a);
    __m256 c = _mm256_sub_ps(d[4], d[3]), e = _mm256_sub_ps(d[1], d[2]);
    r[2] = _mm256_fmadd_ps(four, e, c);
    r[3] = _mm256_add_ps(s34, d31);
    r[4] = _mm256_sub_ps(s34, d31);
    r[5] = _mm256_fmadd_ps(four, d[1], _mm256_fnmadd_ps(five, d[3], d[5]));
}

/* Input row r of channel plane `plane`, columns 4 t0 - 1 ..< 4 t0 - 1 + count, zero outside. */
static void w4_load_row(const float *plane, int H, int W, int r, int t0, int count, float *dst) {
    if (r < 0 || r >= H) {
        memset(dst, 0, sizeof(float) * (size_t)count);
        return;
    }
    const float *row = plane + (size_t)r * W;
    int x0 = 4 * t0 - 1;
    int i = 0;
    if (x0 < 0) dst[i++] = 0.0f;
    int end = x0 + count < W ? x0 + count : W;  /* one past the last column inside the row */
    if (end > x0 + i) {
        memcpy(dst + i, row + x0 + i, sizeof(float) * (size_t)(end - x0 - i));
        i = end - x0;
    }
    if (i < count) memset(dst + i, 0, sizeof(float) * (size_t)(count - i));
}

/* Position p (0 ..< 2 n) of an axis of n values resized to 2 n with half-pixel centres, as
 * sk_resize_bilinear_halfpixel computes it: the two source positions and the second's weight. */
static inline void w4_tap2x(int p, int n, int *lo, int *hi, float *f) {
    int i = p >> 1;
    if (p & 1) {
        *lo = i, *hi = i + 1 < n ? i + 1 : n - 1, *f = 0.25f;
    } else if (i == 0) {
        *lo = 0, *hi = n > 1 ? 1 : 0, *f = 0.0f;
    } else {
        *lo = i - 1, *hi = i, *f = 0.75f;
    }
}

/* Columns xs ..< xs + count (zero outside 0 ..< 2 Ws) of a source row of Ws values resized to
 * 2 Ws by sk_resize_bilinear_halfpixel's x blend, with its coefficients (for a factor of 2:
 * 0.25 / 0.75, the first column the source's first) and its rounding (no fused multiply-adds). */
#pragma clang fp contract(off)
__attribute__((target("avx2,fma")))
static void w4_upsample_x(const float *row, int Ws, int xs, int count, float *dst) {
    int W = 2 * Ws;
    const __m256 quarter = _mm256_set1_ps(0.25f), three = _mm256_set1_ps(0.75f);
    int j = 0;
    while (j < count) {
        int x = xs + j;
        int i = x >> 1;
        if (x >= 0 && !(x & 1) && i >= 1 && i + 8 <= Ws - 1 && j + 16 <= count) {
            __m256 a = _mm256_loadu_ps(row + i - 1), b = _mm256_loadu_ps(row + i), c = _mm256_loadu_ps(row + i + 1);
            __m256 even = _mm256_add_ps(_mm256_mul_ps(a, quarter), _mm256_mul_ps(b, three));
            __m256 odd = _mm256_add_ps(_mm256_mul_ps(b, three), _mm256_mul_ps(c, quarter));
            __m256 lo = _mm256_unpacklo_ps(even, odd), hi = _mm256_unpackhi_ps(even, odd);
            _mm256_storeu_ps(dst + j, _mm256_permute2f128_ps(lo, hi, 0x20));
            _mm256_storeu_ps(dst + j + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
            j += 16;
            continue;
        }
        float v = 0.0f;
        if (x >= 0 && x < W) {
            int lo, hi;
            float f;
            w4_tap2x(x, Ws, &lo, &hi, &f);
            v = row[lo] * (1.0f - f) + row[hi] * f;
        }
        dst[j++] = v;
    }
}

/* dst = top (1 - fy) + bot fy, sk_resize_bilinear_halfpixel's y blend (no fused multiply-adds). */
__attribute__((target("avx2,fma")))
static void w4_blend_rows_y(const float *top, const float *bot, float fy, int count, float *dst) {
    __m256 wt = _mm256_set1_ps(1.0f - fy), wb = _mm256_set1_ps(fy);
    int j = 0;
    for (; j + 8 <= count; j += 8)
        _mm256_storeu_ps(dst + j, _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(top + j), wt),
                                                _mm256_mul_ps(_mm256_loadu_ps(bot + j), wb)));
    for (; j < count; j++) dst[j] = top[j] * (1.0f - fy) + bot[j] * fy;
}

/* The six input rows 4 ty - 1 + k (k < 6, of 2 Hs) of tile row ty from a plane of Hs x Ws resized
 * to twice its size, columns 4 t0 - 1 ..< + count, zero outside, SK_W4_ROW floats apart at dst:
 * the x blends of source rows 2 ty - 1 ... 2 ty + 2 (each once, into the four rows at tmp; every
 * output row blends two of them), then sk_resize_bilinear_halfpixel's y blend. */
__attribute__((target("avx2,fma")))
static void w4_load_rows_upsampled(const float *plane, int Hs, int Ws, int ty, int t0, int count, float *tmp,
                                   float *dst) {
    int first = 2 * ty - 1;  /* the source row in tmp's first slot */
    unsigned blended = 0;    /* the slots computed */
    for (int k = 0; k < 6; k++) {
        int r = 4 * ty - 1 + k;
        if (r < 0 || r >= 2 * Hs) {
            memset(dst + k * SK_W4_ROW, 0, sizeof(float) * (size_t)count);
            continue;
        }
        int y[2];
        float fy;
        w4_tap2x(r, Hs, &y[0], &y[1], &fy);
        for (int e = 0; e < 2; e++) {
            int slot = y[e] - first;
            if (!(blended & (1u << slot))) {
                w4_upsample_x(plane + (size_t)y[e] * Ws, Ws, 4 * t0 - 1, count, tmp + slot * SK_W4_ROW);
                blended |= 1u << slot;
            }
        }
        w4_blend_rows_y(tmp + (y[0] - first) * SK_W4_ROW, tmp + (y[1] - first) * SK_W4_ROW, fy, count,
                        dst + k * SK_W4_ROW);
    }
}
#pragma clang fp contract(on)

/* V[p][m] (p = 6 i + j, `pstride` floats apart) = (B^T d B)[p] for the tiles m < n8 (a multiple
 * of 8) of one channel: d holds its six input rows (SK_W4_ROW floats apart; vecs vectors of 8
 * cover them), e is scratch for as many. */
__attribute__((target("avx2,fma")))
static void w4_transform_avx2(const float *d, float *e, int vecs, int n8, float *vc, size_t pstride) {
    _Static_assert(SK_W4_ROW == SK_W4_ROW_FLOATS, "kernels_avx512.h's row stride");
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i rotate = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 0);
    /* B^T along the columns: element-wise over the six rows. */
    for (int v = 0; v < vecs; v++) {
        __m256 x[6], r[6];
        for (int k = 0; k < 6; k++) x[k] = _mm256_loadu_ps(d + k * SK_W4_ROW + 8 * v);
        w4_bt(x, r);
        for (int i = 0; i < 6; i++) _mm256_storeu_ps(e + i * SK_W4_ROW + 8 * v, r[i]);
    }
    /* B along the rows: split each row into the six columns of 8 tiles, transform, store. */
    for (int i = 0; i < 6; i++) {
        const float *row = e + i * SK_W4_ROW;
        for (int m = 0; m < n8; m += 8) {
            const float *s = row + 4 * m;
            __m256 a = _mm256_loadu_ps(s), b = _mm256_loadu_ps(s + 8);
            __m256 cc = _mm256_loadu_ps(s + 16), dd = _mm256_loadu_ps(s + 24);
            /* 4x4 transposes within 128-bit lanes: lane 0 holds tiles 0, 2, 4, 6, lane 1
             * tiles 1, 3, 5, 7; then restore the tile order. */
            __m256 t0v = _mm256_unpacklo_ps(a, b), t1v = _mm256_unpackhi_ps(a, b);
            __m256 t2v = _mm256_unpacklo_ps(cc, dd), t3v = _mm256_unpackhi_ps(cc, dd);
            __m256 x[6], r[6];
            x[0] = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t0v, t2v, 0x44), order);
            x[1] = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t0v, t2v, 0xEE), order);
            x[2] = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t1v, t3v, 0x44), order);
            x[3] = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t1v, t3v, 0xEE), order);
            /* Columns 4 and 5 are the next tile's 0 and 1. */
            x[4] = _mm256_blend_ps(_mm256_permutevar8x32_ps(x[0], rotate), _mm256_broadcast_ss(s + 32), 0x80);
            x[5] = _mm256_blend_ps(_mm256_permutevar8x32_ps(x[1], rotate), _mm256_broadcast_ss(s + 33), 0x80);
            w4_bt(x, r);
            for (int j = 0; j < 6; j++) _mm256_storeu_ps(vc + (size_t)(i * 6 + j) * pstride + m, r[j]);
        }
    }
}

/* V[p][c][m] for the tiles t0 + m (m < n8, a multiple of 8) of tile row ty, every channel;
 * channels below cA are planes of inA, the others of inB (a concatenation read in place). A
 * source whose `up` flag is set holds planes of H/2 x W/2, resized to H x W on the fly. */
typedef void (*w4_transform_fn)(const float *d, float *e, int vecs, int n8, float *vc, size_t pstride);

/* The steps that differ between the AVX2 and AVX-512 paths; each path's product and output
 * transform agree on M's layout (AVX2: [p][tile][output], AVX-512: [p][output][tile]). */
typedef struct {
    w4_transform_fn transform;
    void (*product)(const float *U, int C, int op, const float *V, int vrow, float *M, int n);
    void (*output)(const float *M, size_t mstride, int mrow, const float *bias, int O, int op, int H, int W, int ty, int t0,
                   int n, int relu, const float *residual, float *out);
    int (*tiles)(int tilesWide);  /* tiles per block */
    /* The input transform reading a channel in place (NULL: copy its rows first). */
    void (*transformPlane)(const float *plane, int H, int W, int r0, int x0, int count, float *e, int n8, float *vc,
                           size_t pstride);
    /* The input transform resizing a half-size channel 2x as it reads it (NULL: through row copies). */
    void (*transformUpsampled)(const float *src, int Hs, int Ws, int r0, int x0, int count, float *e, int n8, float *vc,
                               size_t pstride);
} w4_steps;

__attribute__((target("avx2,fma")))
static void w4_input(const w4_steps *path, int tiles, const float *inA, int cA, int upA, const float *inB, int upB, int C,
                     int H, int W, int ty, int t0, int n8, float *rows, float *V) {
    size_t plane = (size_t)H * W;
    size_t planeA = upA ? plane / 4 : plane, planeB = upB ? plane / 4 : plane;
    size_t pstride = w4_vstride(C, tiles);
    int count = 4 * n8 + 2;
    int vecs = (count + 7) / 8;
    float *d = rows, *e = rows + 6 * SK_W4_ROW;
    int x0 = 4 * t0 - 1 < 0 ? 0 : 4 * t0 - 1;
    int x1 = 4 * t0 - 1 + count < W ? 4 * t0 - 1 + count : W;
    for (int c = 0; c < C; c++) {
        /* The six short row pieces of a channel lie on six pages, too short for the hardware
         * prefetcher: fetch those of the channel after next while this one is transformed
         * (the loads were a third of the time at 64 -> 16 channels, 320 x 320). */
        if (c + 2 < C && !(c + 2 < cA ? upA : upB))
            for (int k = 0; k < 6; k++) {
                int r = 4 * ty - 1 + k;
                if (r < 0 || r >= H) continue;
                const float *next = c + 2 < cA ? inA + (size_t)(c + 2) * planeA : inB + (size_t)(c + 2 - cA) * planeB;
                const char *p = (const char *)(next + (size_t)r * W + x0);
                const char *end = (const char *)(next + (size_t)r * W + x1);
                for (; p < end; p += 64) _mm_prefetch(p, _MM_HINT_T0);
                _mm_prefetch(end - 1, _MM_HINT_T0);
            }
        else if (c + 2 < C && path->transformUpsampled) {
            /* The same for a half-size channel: the four source rows a tile row blends. */
            int Hs = H / 2, Ws = W / 2;
            int s0 = x0 / 2 - 1 > 0 ? x0 / 2 - 1 : 0, s1 = x1 / 2 + 1 < Ws ? x1 / 2 + 1 : Ws;
            const float *next = c + 2 < cA ? inA + (size_t)(c + 2) * planeA : inB + (size_t)(c + 2 - cA) * planeB;
            for (int r = 2 * ty - 1; r <= 2 * ty + 2; r++) {
                if (r < 0 || r >= Hs) continue;
                const char *p = (const char *)(next + (size_t)r * Ws + s0);
                const char *end = (const char *)(next + (size_t)r * Ws + s1);
                for (; p < end; p += 64) _mm_prefetch(p, _MM_HINT_T0);
                _mm_prefetch(end - 1, _MM_HINT_T0);
            }
        }
        const float *src = c < cA ? inA + (size_t)c * planeA : inB + (size_t)(c - cA) * planeB;
        if ((c < cA ? upA : upB) && path->transformUpsampled) {
            path->transformUpsampled(src, H / 2, W / 2, 4 * ty - 1, 4 * t0 - 1, count, e, n8, V + (size_t)c * tiles, pstride);
            continue;
        } else if (c < cA ? upA : upB) {
            w4_load_rows_upsampled(src, H / 2, W / 2, ty, t0, count, rows + 12 * SK_W4_ROW, d);
        } else if (path->transformPlane) {
            path->transformPlane(src, H, W, 4 * ty - 1, 4 * t0 - 1, count, e, n8, V + (size_t)c * tiles, pstride);
            continue;
        } else {
            for (int k = 0; k < 6; k++) w4_load_row(src, H, W, 4 * ty - 1 + k, t0, count, d + k * SK_W4_ROW);
        }
        path->transform(d, e, vecs, n8, V + (size_t)c * tiles, pstride);
    }
}

/* M[t + i][o0 ..< o0 + 16] = sum_c V[c][t + i] U[c][o0 ..< o0 + 16] for i < NT, one p. */
__attribute__((target("avx2,fma"), always_inline))
static inline void w4_product(const float *U, int C, int op, const float *V, float *M, int o0, int t, const int NT) {
    __m256 acc[6][2];
    for (int i = 0; i < NT; i++) acc[i][0] = acc[i][1] = _mm256_setzero_ps();
    const float *u = U + o0;
    const float *v = V + t;
    for (int c = 0; c < C; c++, u += op, v += SK_W4_TILES) {
        __m256 u0 = _mm256_loadu_ps(u), u1 = _mm256_loadu_ps(u + 8);
        for (int i = 0; i < NT; i++) {
            __m256 x = _mm256_broadcast_ss(v + i);
            acc[i][0] = _mm256_fmadd_ps(x, u0, acc[i][0]);
            acc[i][1] = _mm256_fmadd_ps(x, u1, acc[i][1]);
        }
    }
    for (int i = 0; i < NT; i++) {
        _mm256_storeu_ps(M + (size_t)(t + i) * op + o0, acc[i][0]);
        _mm256_storeu_ps(M + (size_t)(t + i) * op + o0 + 8, acc[i][1]);
    }
}

/* A^T m for six vectors: r0 = m0 + m1 + m2 + m3 + m4, r1 = (m1 - m2) + 2 (m3 - m4),
 * r2 = (m1 + m2) + 4 (m3 + m4), r3 = (m1 - m2) + 8 (m3 - m4) + m5. */
__attribute__((target("avx2,fma"), always_inline))
static inline void w4_at(const __m256 m[6], __m256 r[4]) {
    __m256 a = _mm256_add_ps(m[1], m[2]), b = _mm256_sub_ps(m[1], m[2]);
    __m256 c = _mm256_add_ps(m[3], m[4]), d = _mm256_sub_ps(m[3], m[4]);
    r[0] = _mm256_add_ps(_mm256_add_ps(m[0], a), c);
    r[1] = _mm256_fmadd_ps(_mm256_set1_ps(2.0f), d, b);
    r[2] = _mm256_fmadd_ps(_mm256_set1_ps(4.0f), c, a);
    r[3] = _mm256_add_ps(_mm256_fmadd_ps(_mm256_set1_ps(8.0f), d, b), m[5]);
}

/* out = A^T M A + bias (then ReLU, then + residual) for the n tiles t0 ..< t0 + n of tile row
 * ty, every output channel. */
__attribute__((target("avx2,fma")))
static void w4_output(const float *M, size_t pstride, int mrow, const float *bias, int O, int op, int H, int W, int ty, int t0,
                      int n, int relu, const float *residual, float *out) {
    (void)mrow;  /* M is [tile][output] here, op floats a tile */
    size_t plane = (size_t)H * W;
    int y0 = 4 * ty;
    int rows = H - y0 < 4 ? H - y0 : 4;
    const __m256 zero = _mm256_setzero_ps();
    for (int o8 = 0; o8 < O; o8 += 8) {
        int channels = O - o8 < 8 ? O - o8 : 8;
        __m256 b;
        if (!bias) b = zero;
        else if (channels == 8) b = _mm256_loadu_ps(bias + o8);
        else {
            float tmp[8] = {0};
            memcpy(tmp, bias + o8, sizeof(float) * (size_t)channels);
            b = _mm256_loadu_ps(tmp);
        }
        for (int q = 0; q < n; q++) {
            const float *mq = M + (size_t)q * op + o8;
            __m256 s[4][6];
            for (int j = 0; j < 6; j++) {  /* A^T M: down the columns */
                __m256 m[6];
                for (int i = 0; i < 6; i++) m[i] = _mm256_loadu_ps(mq + (size_t)(i * 6 + j) * pstride);
                __m256 r[4];
                w4_at(m, r);
                for (int i = 0; i < 4; i++) s[i][j] = r[i];
            }
            int x = 4 * (t0 + q);
            int cols = W - x < 4 ? W - x : 4;
            for (int i = 0; i < rows; i++) {  /* (A^T M) A: along the rows */
                __m256 y[4];
                w4_at(s[i], y);
                for (int k = 0; k < 4; k++) {
                    y[k] = _mm256_add_ps(y[k], b);
                    if (relu) y[k] = _mm256_max_ps(y[k], zero);
                }
                /* 8 channels x 4 columns -> per channel 4 columns: lane 0 channels 0-3, lane 1 4-7. */
                __m256 u0 = _mm256_unpacklo_ps(y[0], y[1]), u1 = _mm256_unpackhi_ps(y[0], y[1]);
                __m256 u2 = _mm256_unpacklo_ps(y[2], y[3]), u3 = _mm256_unpackhi_ps(y[2], y[3]);
                __m256 ch[4] = {
                    _mm256_shuffle_ps(u0, u2, 0x44), _mm256_shuffle_ps(u0, u2, 0xEE),
                    _mm256_shuffle_ps(u1, u3, 0x44), _mm256_shuffle_ps(u1, u3, 0xEE),
                };
                size_t at = (size_t)o8 * plane + (size_t)(y0 + i) * W + x;
                float *dst = out + at;
                if (channels == 8 && cols == 4) {
                    for (int k = 0; k < 4; k++) {
                        __m128 lo = _mm256_castps256_ps128(ch[k]), hi = _mm256_extractf128_ps(ch[k], 1);
                        if (residual) {
                            lo = _mm_add_ps(lo, _mm_loadu_ps(residual + at + (size_t)k * plane));
                            hi = _mm_add_ps(hi, _mm_loadu_ps(residual + at + (size_t)(k + 4) * plane));
                        }
                        _mm_storeu_ps(dst + (size_t)k * plane, lo);
                        _mm_storeu_ps(dst + (size_t)(k + 4) * plane, hi);
                    }
                } else {
                    float tmp[8][4];
                    for (int k = 0; k < 4; k++) {
                        _mm_storeu_ps(tmp[k], _mm256_castps256_ps128(ch[k]));
                        _mm_storeu_ps(tmp[k + 4], _mm256_extractf128_ps(ch[k], 1));
                    }
                    for (int k = 0; k < channels; k++)
                        for (int j = 0; j < cols; j++)
                            dst[(size_t)k * plane + j] = residual ? tmp[k][j] + residual[at + (size_t)k * plane + j] : tmp[k][j];
                }
            }
        }
    }
}

/* One of the 36 products for the n tiles of a block, every output panel: 6 tiles x 16 outputs
 * at a time, then the remainder. */
__attribute__((target("avx2,fma")))
static void w4_product_avx2(const float *U, int C, int op, const float *V, int vrow, float *M, int n) {
    (void)vrow;  /* always SK_W4_TILES here; w4_product reads it as a constant */
    for (int o0 = 0; o0 < op; o0 += 16) {
        int t = 0;
        for (; t + 6 <= n; t += 6) w4_product(U, C, op, V, M, o0, t, 6);
        switch (n - t) {
        case 5: w4_product(U, C, op, V, M, o0, t, 5); break;
        case 4: w4_product(U, C, op, V, M, o0, t, 4); break;
        case 3: w4_product(U, C, op, V, M, o0, t, 3); break;
        case 2: w4_product(U, C, op, V, M, o0, t, 2); break;
        case 1: w4_product(U, C, op, V, M, o0, t, 1); break;
        default: break;
        }
    }
}

static int w4_tiles_avx2(int tilesWide) {
    (void)tilesWide;
    return SK_W4_TILES;
}

/* Input transform, the 36 products, output transform, block by block (`path`: the AVX2 or
 * AVX-512 input transform and products). */
__attribute__((target("avx2,fma")))
static void conv3x3_w4(const w4_steps *path, const float *inA, int cA, int upA, const float *inB, int upB, int C, int H,
                       int W, const float *U, const float *bias, int O, int relu, const float *residual, int ty0, int ty1,
                       float *work, float *out) {
    int op = w4_outpad(O);
    float *V = work;
    int tilesWide = (W + 3) / 4, tilesHigh = (H + 3) / 4;
    int tiles = path->tiles(tilesWide);
    float *M = V + 36 * w4_vstride(C, tiles);
    float *rows = M + 36 * w4_mstride(op, tiles);
    size_t uStride = (size_t)C * op, vStride = w4_vstride(C, tiles), mStride = w4_mstride(op, tiles);
    for (int ty = ty0; ty < ty1 && ty < tilesHigh; ty++) {
        for (int t0 = 0; t0 < tilesWide; t0 += tiles) {
            int n = tilesWide - t0 < tiles ? tilesWide - t0 : tiles;
            int n8 = (n + 7) & ~7;
            w4_input(path, tiles, inA, cA, upA, inB, upB, C, H, W, ty, t0, n8, rows, V);
            for (int p = 0; p < 36; p++) path->product(U + p * uStride, C, op, V + p * vStride, tiles, M + p * mStride, n);
            path->output(M, mStride, tiles, bias, O, op, H, W, ty, t0, n, relu, residual, out);
        }
    }
}

/* The steps of path `kernels` (SK_KERNELS_AVX2 or SK_KERNELS_AVX512) for planes W pixels wide. */
static const w4_steps *w4_path(int kernels, int W) {
    static const w4_steps avx2 = {w4_transform_avx2, w4_product_avx2, w4_output, w4_tiles_avx2, NULL, NULL},
                          avx512 = {sk_w4_transform_avx512, sk_w4_product_avx512, sk_w4_output_avx512, sk_w4_tiles_avx512,
                                    sk_w4_transform_plane_avx512, sk_w4_transform_upsampled_avx512},
                          avx512Narrow = {sk_w4_transform_avx512, sk_w4_product_avx512_channels, w4_output, w4_tiles_avx2,
                                          sk_w4_transform_plane_avx512, sk_w4_transform_upsampled_avx512};
    if (kernels != SK_KERNELS_AVX512) return &avx2;
    /* On narrow planes the vectors of 16 tiles would run part empty (20 tiles at 80 pixels): there
     * the products vectorise over outputs instead (0.77 of AVX2's time at 128 -> 64, 80 x 80,
     * against 0.91 over tiles). */
    return (W + 3) / 4 <= SK_W4_NARROW_TILES ? &avx512Narrow : &avx512;
}

/* V for every tile of the plane (winograd4_compact.c): tile row ty's tiles at columns
 * ty * tilesWide ..< of V's rows (`vrow` floats; the 36 matrices w4_vstride(C, vrow) apart). Each
 * tile row's transform writes whole groups of 8 tiles, past its own end: the rows go in order, so
 * the next one overwrites what spilled, and vrow leaves room after the last. */
__attribute__((target("avx2,fma")))
void sk_w4_input_plane(int kernels, const float *inA, int cA, int upA, const float *inB, int upB, int C, int H, int W,
                       int vrow, float *rows, float *V) {
    int tilesWide = (W + 3) / 4, tilesHigh = (H + 3) / 4;
    int n8 = (tilesWide + 7) & ~7;
    const w4_steps *path = w4_path(kernels, W);
    for (int ty = 0; ty < tilesHigh; ty++)
        w4_input(path, vrow, inA, cA, upA, inB, upB, C, H, W, ty, 0, n8, rows, V + (size_t)ty * tilesWide);
}

/* The AVX2 output transform (M as [tile][output], `op` floats a tile), for winograd4_compact.c. */
void sk_w4_output_tiles(const float *M, size_t mstride, const float *bias, int O, int op, int H, int W, int ty, int t0, int n,
                        int relu, const float *residual, float *out) {
    w4_output(M, mstride, 0, bias, O, op, H, W, ty, t0, n, relu, residual, out);
}

size_t sk_w4_vstride(int C, int vrow) { return w4_vstride(C, vrow); }
#endif

int sk_uses_winograd4(void) { return sk_kernels_default() != SK_KERNELS_SCALAR; }

int sk_conv3x3_winograd4(const float *in, int inC, int H, int W, const float *packed, const float *bias,
                         int outC, int relu, float *workspace, float *out) {
    return sk_conv3x3_winograd4_fused(in, inC, 0, NULL, 0, 0, H, W, packed, bias, outC, relu, NULL, workspace, out);
}

int sk_conv3x3_winograd4_fused(const float *in, int inC, int inUp, const float *in2, int in2C, int in2Up, int H, int W,
                               const float *packed, const float *bias, int outC, int relu,
                               const float *residual, float *workspace, float *out) {
    return sk_conv3x3_winograd4_fused_with(sk_kernels_default(), in, inC, inUp, in2, in2C, in2Up, H, W, packed, bias, outC,
                                           relu, residual, workspace, out);
}

int sk_conv3x3_winograd4_fused_with(int kernels, const float *in, int inC, int inUp, const float *in2, int in2C, int in2Up,
                                    int H, int W, const float *packed, const float *bias, int outC, int relu,
                                    const float *residual, float *workspace, float *out) {
    return sk_conv3x3_winograd4_fused_rows_with(kernels, in, inC, inUp, in2, in2C, in2Up, H, W, packed, bias, outC, relu,
                                                residual, 0, sk_winograd4_tile_rows(H), workspace, out);
}

int sk_winograd4_tile_rows(int H) { return H > 0 ? (H + 3) / 4 : 0; }

int sk_conv3x3_winograd4_fused_rows_with(int kernels, const float *in, int inC, int inUp, const float *in2, int in2C,
                                         int in2Up, int H, int W, const float *packed, const float *bias, int outC,
                                         int relu, const float *residual, int ty0, int ty1, float *workspace,
                                         float *out) {
    long long C = (long long)inC + (in2C > 0 ? in2C : 0);
    if (!in || !packed || !workspace || !out || H <= 0 || W <= 0 || inC <= 0 || in2C < 0 || (in2C > 0 && !in2)
        || ty0 < 0 || ty0 > ty1 || ty1 > sk_winograd4_tile_rows(H)
        || C > INT_MAX || sk_winograd4_packed_count((int)C, outC) == 0
        || C * H * W > INT_MAX || (long long)outC * H * W > INT_MAX
        || ((inUp || (in2C > 0 && in2Up)) && (H % 2 || W % 2))
        || kernels == SK_KERNELS_SCALAR || !sk_kernels_supported(kernels))
        return -1;
#if SK_W4_X86
    conv3x3_w4(w4_path(kernels, W), in, inC, inUp != 0, in2, in2Up != 0, (int)C, H, W, packed, bias, outC, relu, residual, ty0, ty1, workspace, out);
    return 0;
#else
    return -1;
#endif
}
