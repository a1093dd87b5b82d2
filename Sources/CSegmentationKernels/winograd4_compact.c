/* Winograd F(4x4, 3x3) from compact weights: the kernels kept as half-precision floats and
 * transformed at every call, for convolutions on small planes (u2net's 40 x 40 and smaller, 256 to
 * 1024 channels); see include/segmentation_kernels.h (sk_winograd4c_*).
 *
 * Why: packed at load (sk_winograd4_pack), a kernel's 9 weights become 36 floats, 16x their size
 * in half precision. On a plane of few tiles those packed weights cost more than they save: at
 * 20 x 20 (25 tiles) a 512 -> 512 layer streams 37.7 MB of them for 236 M multiply-adds, once per
 * tile row. u2net's layers of 40 x 40 and below hold 29 M of its 44 M parameters: 464 MB packed,
 * 58 MB here. Transforming 32 outputs' kernels takes ~1/30 of the products they feed at 25 tiles.
 *
 * Per call: the input transform of the whole plane once (sk_winograd4c_input_with, every tile in
 * one block, so each weight is read once a call); then per panel of 32 outputs
 * (sk_winograd4c_output_with; panels may run on two threads): the panel's kernels transformed
 * into U (in float: within ~1 ulp of sk_winograd4_pack's), the 36
 * products accumulated into M (each sum from zero, one fused multiply-add per input channel in
 * channel order, as the packed path sums), then the output transform. The AVX2 and AVX-512 paths
 * give the same floats (KernelPathTests). */
#include "segmentation_kernels.h"
#include "winograd4_internal.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SK_W4C_X86 1
#else
#define SK_W4C_X86 0
#endif

/* Outputs a panel. The panel's U (36 x inC x 32 floats, 4.7 MB at 1024 channels) is transformed
 * whole, then each of the 36 products runs over every input channel with its sums in registers:
 * U's and V's slices for one p (128 and 458 KB at 1024 channels, 40 x 40) fit in L2 together.
 * Transforming and accumulating a chunk of 32 channels at a time instead kept M and U of every p
 * live at once, over L2's 1 MB at 40 x 40: 1024 -> 256 ran at 78 equivalent GMAC/s, 512 -> 512
 * at 20 x 20 at 87. */
enum { W4C_PANEL = 32 };
/* The widest plane: the input transform's row scratch (48 tiles). */
enum { W4C_MAX_TILES_WIDE = 48 };

static int w4c_tiles_wide(int W) { return (W + 3) / 4; }
static int w4c_tiles_high(int H) { return (H + 3) / 4; }
static int w4c_outpad(int outC) { return (outC + W4C_PANEL - 1) / W4C_PANEL * W4C_PANEL; }

/* V's row length: every tile, and room for the last tile row's transform to spill (whole 8s). */
static int w4c_vrow(int H, int W) {
    int tw = w4c_tiles_wide(W), th = w4c_tiles_high(H);
    int spill = (th - 1) * tw + ((tw + 7) & ~7);
    int all = th * tw;
    int n = spill > all ? spill : all;
    return (n + 7) & ~7;
}

static int w4c_sizes_ok(int inC, int outC, int H, int W) {
    return inC > 0 && outC > 0 && H > 0 && W > 0 && w4c_tiles_wide(W) <= W4C_MAX_TILES_WIDE
           && (long long)inC * w4c_outpad(outC) * 36 <= INT_MAX && (long long)inC * H * W <= INT_MAX
           && (long long)outC * H * W <= INT_MAX && (long long)inC * w4c_vrow(H, W) * 36 <= INT_MAX;
}

size_t sk_winograd4c_weight_count(int inC, int outC) {
    if (inC <= 0 || outC <= 0 || (long long)inC * w4c_outpad(outC) * 36 > INT_MAX) return 0;
    return (size_t)inC * 9 * w4c_outpad(outC);
}

size_t sk_winograd4c_input_count(int inC, int H, int W) {
    if (!w4c_sizes_ok(inC, 1, H, W)) return 0;
    return 36 * sk_w4_vstride(inC, w4c_vrow(H, W));
}

/* M's 36 matrices, a cache line of stagger between them (as winograd4.c's). */
static size_t w4c_mstride(int H, int W) { return (size_t)w4c_vrow(H, W) * W4C_PANEL + 16; }

size_t sk_winograd4c_scratch_count(int inC, int H, int W) {
    if (!w4c_sizes_ok(inC, 1, H, W)) return 0;
    return (size_t)SK_W4_ROWS_SCRATCH + (size_t)36 * inC * W4C_PANEL + 36 * w4c_mstride(H, W) + 32;
}

int sk_winograd4c_panels(int outC) { return outC > 0 ? w4c_outpad(outC) / W4C_PANEL : 0; }

int sk_winograd4c_supported(int kernels) {
#if SK_W4C_X86
    return (kernels == SK_KERNELS_AVX2 || kernels == SK_KERNELS_AVX512) && sk_kernels_supported(kernels)
           && __builtin_cpu_supports("f16c");
#else
    (void)kernels;
    return 0;
#endif
}

/* Round to nearest even, as vcvtps2ph does; infinities and NaNs kept (a NaN quietened). */
static uint16_t w4c_half(float value) {
    uint32_t x;
    memcpy(&x, &value, 4);
    uint32_t sign = (x >> 16) & 0x8000u, abs = x & 0x7FFFFFFFu;
    if (abs >= 0x7F800000u) return (uint16_t)(sign | 0x7C00u | (abs > 0x7F800000u ? 0x200u : 0));
    if (abs >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);  /* rounds past 65504 */
    if (abs < 0x38800000u) {                                      /* below 2^-14: subnormal or zero */
        if (abs < 0x33000000u) return (uint16_t)sign;             /* below half the smallest subnormal */
        uint32_t mant = (abs & 0x7FFFFFu) | 0x800000u;
        int shift = 126 - (int)(abs >> 23);                       /* 14 .. 24 */
        uint32_t half = mant >> shift, rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1))) half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((abs >> 13) - (112u << 10));
    uint32_t rest = abs & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1))) half++;
    return (uint16_t)(sign | half);
}

#if SK_W4C_X86
/* Outputs o0 ..< o0 + 8 of every (channel, tap): 8 rows of weight read in step, one 16-byte store. */
__attribute__((target("avx2,f16c")))
static void w4c_pack_8(const float *weight, int inC, int o0, int op, unsigned short *compact) {
    size_t row = (size_t)inC * 9;
    const float *w = weight + (size_t)o0 * row;
    for (size_t j = 0; j < row; j++) {
        __m256 x = _mm256_setr_ps(w[j], w[row + j], w[2 * row + j], w[3 * row + j], w[4 * row + j], w[5 * row + j],
                                  w[6 * row + j], w[7 * row + j]);
        _mm_storeu_si128((__m128i *)(compact + j * op + o0), _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
}
#endif

int sk_winograd4c_pack(const float *weight, int inC, int outC, unsigned short *compact) {
    if (!weight || !compact || sk_winograd4c_weight_count(inC, outC) == 0) return -1;
    int op = w4c_outpad(outC);
    int o = 0;
#if SK_W4C_X86
    if (__builtin_cpu_supports("f16c"))
        for (; o + 8 <= outC; o += 8) w4c_pack_8(weight, inC, o, op, compact);
#endif
    for (size_t j = 0; j < (size_t)inC * 9; j++) {
        uint16_t *dst = compact + j * op;
        for (int q = o; q < outC; q++) dst[q] = w4c_half(weight[(size_t)q * inC * 9 + j]);
        for (int q = outC; q < op; q++) dst[q] = 0;
    }
    return 0;
}

#if SK_W4C_X86
/* G applied to one column (or row) of three: G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6;
 * 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1] (points 0, 1, -1, 2, -2, infinity), factored: 11
 * operations instead of 15 multiplies and 10 adds. */
__attribute__((target("avx2,fma"), always_inline))
static inline void w4c_g(__m256 g0, __m256 g1, __m256 g2, __m256 r[6]) {
    const __m256 quarter = _mm256_set1_ps(0.25f), sixth = _mm256_set1_ps(-1.0f / 6), twelfth = _mm256_set1_ps(1.0f / 12);
    const __m256 e24 = _mm256_set1_ps(1.0f / 24), e6 = _mm256_set1_ps(1.0f / 6);
    __m256 s = _mm256_add_ps(g0, g2);
    __m256 a = _mm256_fmadd_ps(g2, e6, _mm256_mul_ps(g0, e24)), b = _mm256_mul_ps(g1, twelfth);
    r[0] = _mm256_mul_ps(g0, quarter);
    r[1] = _mm256_mul_ps(_mm256_add_ps(s, g1), sixth);
    r[2] = _mm256_mul_ps(_mm256_sub_ps(s, g1), sixth);
    r[3] = _mm256_add_ps(a, b);
    r[4] = _mm256_sub_ps(a, b);
    r[5] = g2;
}

/* U[p][c][0 ..< 32] = (G g G^T)[p] of the panel's kernels of channels 0 ..< C, 8 outputs a
 * vector, in float (within ~1 ulp of
 * sk_winograd4_pack's correctly rounded ones, which take 10x as long in double: the transform
 * was two thirds of a 512 -> 512 layer at 20 x 20 that way). */
__attribute__((target("avx2,fma,f16c")))
static void w4c_transform_weights(const uint16_t *compact, int op, int o0, int C, float *U) {
    size_t pstride = (size_t)C * W4C_PANEL;
    for (int c = 0; c < C; c++)
        for (int q = 0; q < W4C_PANEL; q += 8) {
            __m256 g[9];
            for (int k = 0; k < 9; k++)
                g[k] = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(compact + ((size_t)c * 9 + k) * op + o0 + q)));
            __m256 t[3][6];  /* G g, column by column: t[k][i] is row i of column k */
            for (int k = 0; k < 3; k++) w4c_g(g[k], g[3 + k], g[6 + k], t[k]);
            float *dst = U + (size_t)c * W4C_PANEL + q;
            for (int i = 0; i < 6; i++) {
                __m256 u[6];
                w4c_g(t[0][i], t[1][i], t[2][i], u);
                for (int j = 0; j < 6; j++) _mm256_storeu_ps(dst + (size_t)(i * 6 + j) * pstride, u[j]);
            }
        }
}

/* The same on AVX-512, 16 outputs a vector: the same operations on each value, so the same
 * floats; half the instructions (the transform was as long as the products at 20 x 20). */
__attribute__((target("avx512f"), always_inline))
static inline void w4c_g16(__m512 g0, __m512 g1, __m512 g2, __m512 r[6]) {
    const __m512 quarter = _mm512_set1_ps(0.25f), sixth = _mm512_set1_ps(-1.0f / 6), twelfth = _mm512_set1_ps(1.0f / 12);
    const __m512 e24 = _mm512_set1_ps(1.0f / 24), e6 = _mm512_set1_ps(1.0f / 6);
    __m512 s = _mm512_add_ps(g0, g2);
    __m512 a = _mm512_fmadd_ps(g2, e6, _mm512_mul_ps(g0, e24)), b = _mm512_mul_ps(g1, twelfth);
    r[0] = _mm512_mul_ps(g0, quarter);
    r[1] = _mm512_mul_ps(_mm512_add_ps(s, g1), sixth);
    r[2] = _mm512_mul_ps(_mm512_sub_ps(s, g1), sixth);
    r[3] = _mm512_add_ps(a, b);
    r[4] = _mm512_sub_ps(a, b);
    r[5] = g2;
}

__attribute__((target("avx512f")))
static void w4c_transform_weights_avx512(const uint16_t *compact, int op, int o0, int C, float *U) {
    size_t pstride = (size_t)C * W4C_PANEL;
    for (int c = 0; c < C; c++)
        for (int q = 0; q < W4C_PANEL; q += 16) {
            __m512 g[9];
            for (int k = 0; k < 9; k++)
                g[k] = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(compact + ((size_t)c * 9 + k) * op + o0 + q)));
            __m512 t[3][6];
            for (int k = 0; k < 3; k++) w4c_g16(g[k], g[3 + k], g[6 + k], t[k]);
            float *dst = U + (size_t)c * W4C_PANEL + q;
            for (int i = 0; i < 6; i++) {
                __m512 u[6];
                w4c_g16(t[0][i], t[1][i], t[2][i], u);
                for (int j = 0; j < 6; j++) _mm512_storeu_ps(dst + (size_t)(i * 6 + j) * pstride, u[j]);
            }
        }
}

/* M[t + i][0 ..< 32] = sum over the C channels of V[c][t + i] U[c][0 ..< 32], i < NT, from zero, in
 * channel order. AVX-512: 2 vectors of 16 outputs x NT (<= 8) tiles of accumulators. */
__attribute__((target("avx512f"), always_inline))
static inline void w4c_tile_avx512(const float *U, int C, const float *V, int vrow, float *M, int t, const int NT) {
    __m512 acc[8][2];
    for (int i = 0; i < NT; i++)
        for (int k = 0; k < 2; k++)
            acc[i][k] = _mm512_setzero_ps();
    const float *v = V + t;
    for (int c = 0; c < C; c++, U += W4C_PANEL, v += vrow) {
        __m512 w0 = _mm512_loadu_ps(U), w1 = _mm512_loadu_ps(U + 16);
        for (int i = 0; i < NT; i++) {
            __m512 x = _mm512_set1_ps(v[i]);
            acc[i][0] = _mm512_fmadd_ps(x, w0, acc[i][0]);
            acc[i][1] = _mm512_fmadd_ps(x, w1, acc[i][1]);
        }
    }
    for (int i = 0; i < NT; i++)
        for (int k = 0; k < 2; k++) _mm512_storeu_ps(M + (size_t)(t + i) * W4C_PANEL + 16 * k, acc[i][k]);
}

__attribute__((target("avx512f")))
static void w4c_product_avx512(const float *U, int C, const float *V, int vrow, float *M, int n) {
    int t = 0;
    for (; t + 8 <= n; t += 8) w4c_tile_avx512(U, C, V, vrow, M, t, 8);
    switch (n - t) {
    case 7: w4c_tile_avx512(U, C, V, vrow, M, t, 7); break;
    case 6: w4c_tile_avx512(U, C, V, vrow, M, t, 6); break;
    case 5: w4c_tile_avx512(U, C, V, vrow, M, t, 5); break;
    case 4: w4c_tile_avx512(U, C, V, vrow, M, t, 4); break;
    case 3: w4c_tile_avx512(U, C, V, vrow, M, t, 3); break;
    case 2: w4c_tile_avx512(U, C, V, vrow, M, t, 2); break;
    case 1: w4c_tile_avx512(U, C, V, vrow, M, t, 1); break;
    default: break;
    }
}

/* The same on AVX2: 2 vectors of 8 outputs x NT (<= 6) tiles, for each half of the panel. */
__attribute__((target("avx2,fma"), always_inline))
static inline void w4c_tile_avx2(const float *U, int C, const float *V, int vrow, float *M, int t, int half, const int NT) {
    __m256 acc[6][2];
    float *m = M + 16 * half;
    for (int i = 0; i < NT; i++)
        for (int k = 0; k < 2; k++)
            acc[i][k] = _mm256_setzero_ps();
    const float *u = U + 16 * half, *v = V + t;
    for (int c = 0; c < C; c++, u += W4C_PANEL, v += vrow) {
        __m256 w0 = _mm256_loadu_ps(u), w1 = _mm256_loadu_ps(u + 8);
        for (int i = 0; i < NT; i++) {
            __m256 x = _mm256_broadcast_ss(v + i);
            acc[i][0] = _mm256_fmadd_ps(x, w0, acc[i][0]);
            acc[i][1] = _mm256_fmadd_ps(x, w1, acc[i][1]);
        }
    }
    for (int i = 0; i < NT; i++)
        for (int k = 0; k < 2; k++) _mm256_storeu_ps(m + (size_t)(t + i) * W4C_PANEL + 8 * k, acc[i][k]);
}

__attribute__((target("avx2,fma")))
static void w4c_product_avx2(const float *U, int C, const float *V, int vrow, float *M, int n) {
    for (int half = 0; half < 2; half++) {
        int t = 0;
        for (; t + 6 <= n; t += 6) w4c_tile_avx2(U, C, V, vrow, M, t, half, 6);
        switch (n - t) {
        case 5: w4c_tile_avx2(U, C, V, vrow, M, t, half, 5); break;
        case 4: w4c_tile_avx2(U, C, V, vrow, M, t, half, 4); break;
        case 3: w4c_tile_avx2(U, C, V, vrow, M, t, half, 3); break;
        case 2: w4c_tile_avx2(U, C, V, vrow, M, t, half, 2); break;
        case 1: w4c_tile_avx2(U, C, V, vrow, M, t, half, 1); break;
        default: break;
        }
    }
}
#endif

int sk_winograd4c_input_with(int kernels, const float *in, int inC, int inUp, const float *in2, int in2C, int in2Up, int H,
                             int W, float *scratch, float *V) {
    long long C = (long long)inC + (in2C > 0 ? in2C : 0);
    if (!in || !scratch || !V || inC <= 0 || in2C < 0 || (in2C > 0 && !in2) || C > INT_MAX
        || !w4c_sizes_ok((int)C, 1, H, W) || ((inUp || (in2C > 0 && in2Up)) && (H % 2 || W % 2))
        || !sk_winograd4c_supported(kernels))
        return -1;
#if SK_W4C_X86
    sk_w4_input_plane(kernels, in, inC, inUp != 0, in2, in2Up != 0, (int)C, H, W, w4c_vrow(H, W), scratch, V);
    return 0;
#else
    return -1;
#endif
}

int sk_winograd4c_output_with(int kernels, const float *V, int inC, int H, int W, const unsigned short *compact,
                              const float *bias, int outC, int relu, const float *residual, int panel0, int panel1,
                              float *scratch, float *out) {
    if (!V || !compact || !scratch || !out || !w4c_sizes_ok(inC, outC, H, W) || panel0 < 0 || panel0 > panel1
        || panel1 > sk_winograd4c_panels(outC) || !sk_winograd4c_supported(kernels))
        return -1;
#if SK_W4C_X86
    int op = w4c_outpad(outC), vrow = w4c_vrow(H, W), tw = w4c_tiles_wide(W), th = w4c_tiles_high(H);
    int tiles = tw * th;
    size_t plane = (size_t)H * W, vstride = sk_w4_vstride(inC, vrow), mstride = w4c_mstride(H, W);
    /* Scratch: the row buffers belong to the input transform; U, then M, each 64-byte aligned. */
    float *U = (float *)(((uintptr_t)(scratch + SK_W4_ROWS_SCRATCH) + 63) & ~(uintptr_t)63);
    float *M = U + (size_t)36 * inC * W4C_PANEL;
    for (int panel = panel0; panel < panel1; panel++) {
        int o0 = panel * W4C_PANEL;
        if (kernels == SK_KERNELS_AVX512) w4c_transform_weights_avx512(compact, op, o0, inC, U);
        else w4c_transform_weights(compact, op, o0, inC, U);
        for (int p = 0; p < 36; p++) {
            const float *v = V + p * vstride, *u = U + (size_t)p * inC * W4C_PANEL;
            if (kernels == SK_KERNELS_AVX512) w4c_product_avx512(u, inC, v, vrow, M + p * mstride, tiles);
            else w4c_product_avx2(u, inC, v, vrow, M + p * mstride, tiles);
        }
        int count = outC - o0 < W4C_PANEL ? outC - o0 : W4C_PANEL;
        for (int ty = 0; ty < th; ty++)
            sk_w4_output_tiles(M + (size_t)ty * tw * W4C_PANEL, mstride, bias ? bias + o0 : NULL, count, W4C_PANEL, H, W, ty,
                               0, tw, relu, residual ? residual + (size_t)o0 * plane : NULL, out + (size_t)o0 * plane);
    }
    return 0;
#else
    (void)relu, (void)residual, (void)bias;
    return -1;
#endif
}
