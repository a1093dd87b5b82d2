/* The int8 3x3 convolution: argument checks, the CPU check, weight packing, input quantization and
 * the scalar reference path; see include/int8_conv.h. The vector paths (int8_conv_avx2.c,
 * int8_conv_avx512.c) compute the same integers, so every path's floats are these. */
#include "int8_conv.h"
#include "int8_conv_internal.h"
#include "segmentation_kernels.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Channels beyond this would let a sum of 9 C products of 255 x 127 leave int32. */
enum { SK_Q8_MAX_CHANNELS = 8192 };

static int valid_sizes(int C, int H, int W, int d) {
    if (C <= 0 || H <= 0 || W <= 0 || d <= 0 || C > SK_Q8_MAX_CHANNELS) return 0;
    long long planes = ((long long)C + 3) / 4;
    long long plane = ((long long)H + 2 * d) * (W + 2 * d) + SK_Q8_SLACK;
    return planes * plane * 4 <= INT_MAX && (long long)C * H * W <= INT_MAX;
}

int sk_q8_supported(int path) {
#if defined(__x86_64__) || defined(__i386__)
    switch (path) {
    case SK_Q8_SCALAR: return 1;
    case SK_Q8_AVX2: return __builtin_cpu_supports("avx2");
    case SK_Q8_AVXVNNI: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avxvnni");
    case SK_Q8_AVX512VNNI:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
               && __builtin_cpu_supports("avx512vnni");
    default: return 0;
    }
#else
    return path == SK_Q8_SCALAR;
#endif
}

int sk_q8_path_for_kernels(int kernels) {
    int widest;
    switch (kernels) {
    case SK_KERNELS_SCALAR: return SK_Q8_SCALAR;
    case SK_KERNELS_AVX2: widest = SK_Q8_AVXVNNI; break;
    case SK_KERNELS_AVX512: widest = SK_Q8_AVX512VNNI; break;
    default: return -1;
    }
    while (!sk_q8_supported(widest)) widest--;
    return widest;
}

size_t sk_q8_packed_bytes(int C, int O) {
    if (C <= 0 || O <= 0 || C > SK_Q8_MAX_CHANNELS || (long long)C * O > INT_MAX / 16) return 0;
    return (size_t)((O + 7) / 8) * 9 * ((C + 3) / 4) * 32;
}

int sk_q8_pack(const float *weight, int C, int O, int8_t *packed, float *wscale) {
    size_t bytes = sk_q8_packed_bytes(C, O);
    if (!weight || !packed || !wscale || bytes == 0) return -1;
    memset(packed, 0, bytes);
    int quads = (C + 3) / 4;
    for (int o = 0; o < O; o++) {
        const float *w = weight + (size_t)o * C * 9;
        float largest = 0;
        for (int i = 0; i < C * 9; i++) largest = fmaxf(largest, fabsf(w[i]));
        if (!isfinite(largest)) return -1;
        float scale = largest > 0 ? largest / 127.0f : 1.0f;
        wscale[o] = scale;
        for (int c = 0; c < C; c++)
            for (int t = 0; t < 9; t++) {
                float q = nearbyintf(w[c * 9 + t] / scale);
                q = q > 127.0f ? 127.0f : q < -127.0f ? -127.0f : q;
                size_t at = ((((size_t)(o / 8) * 9 + t) * quads + c / 4) * 8 + o % 8) * 4 + c % 4;
                packed[at] = (int8_t)q;
            }
    }
    return 0;
}

size_t sk_q8_input_bytes(int C, int H, int W, int d) {
    if (!valid_sizes(C, H, W, d)) return 0;
    return (size_t)((C + 3) / 4) * sk_q8_plane(H, W, d) * 4;
}

/* Source row and weight of output row or column i of a 2x bilinear resize of n source ones, as
 * sk_resize_bilinear_halfpixel computes them: src = i / 2 - 1/4, clamped at 0. */
static void upsample_tap(int i, int n, int *lo, int *hi, float *f) {
    int k = i >> 1;
    if (i & 1) *lo = k, *hi = k + 1 < n ? k + 1 : n - 1, *f = 0.25f;
    else if (k == 0) *lo = 0, *hi = n > 1 ? 1 : 0, *f = 0.0f;
    else *lo = k - 1, *hi = k, *f = 0.75f;
}

/* The largest value of `count` floats, at least 0, NaN ignored. Any order of comparisons gives
 * the same value, so the vector version is the scalar one's. */
static float largest_scalar(const float *x, size_t count) {
    float m = 0;
    for (size_t i = 0; i < count; i++) m = x[i] > m ? x[i] : m;
    return m;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("avx2")))
static float largest_avx2(const float *x, size_t count) {
    __m256 m[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    size_t i = 0;
    /* max(x, m) is m when x is NaN, as the scalar comparison is. */
    for (; i + 32 <= count; i += 32)
        for (int k = 0; k < 4; k++) m[k] = _mm256_max_ps(_mm256_loadu_ps(x + i + 8 * k), m[k]);
    float lanes[8];
    _mm256_storeu_ps(lanes, _mm256_max_ps(_mm256_max_ps(m[0], m[1]), _mm256_max_ps(m[2], m[3])));
    float rest = largest_scalar(x + i, count - i);
    for (int k = 0; k < 8; k++) rest = lanes[k] > rest ? lanes[k] : rest;
    return rest;
}
#endif

static float largest_of(const float *x, size_t count) {
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx2")) return largest_avx2(x, count);
#endif
    return largest_scalar(x, count);
}

/* x / scale rounded to nearest, in 0 ..< 256 (NaN and negatives 0). */
static inline uint8_t quantized(float x, float inverse) {
    float q = nearbyintf(x * inverse);
    return q >= 255.0f ? 255 : q > 0.0f ? (uint8_t)q : 0;
}

#pragma clang fp contract(off)
/* Source row r (ws floats) blended across to 2 ws columns, as sk_resize_bilinear_halfpixel does:
 * column 2k + 1 is r[k] 0.75 + r[k + 1] 0.25 (the last clamped), column 2k is r[k - 1] 0.25 +
 * r[k] 0.75, column 0 is r[0] 1 + r[1] 0. Plain loops the compiler vectorises: the same
 * operations per value on every machine (no fused multiply-adds). */
static void blend_across(const float *r, int ws, float *out) {
    if (ws == 1) {
        out[0] = r[0] * 1.0f + r[0] * 0.0f;
        out[1] = r[0] * 0.75f + r[0] * 0.25f;
        return;
    }
    out[0] = r[0] * 1.0f + r[1] * 0.0f;
    out[1] = r[0] * 0.75f + r[1] * 0.25f;
    for (int k = 1; k < ws - 1; k++) {
        out[2 * k] = r[k - 1] * 0.25f + r[k] * 0.75f;
        out[2 * k + 1] = r[k] * 0.75f + r[k + 1] * 0.25f;
    }
    out[2 * ws - 2] = r[ws - 2] * 0.25f + r[ws - 1] * 0.75f;
    out[2 * ws - 1] = r[ws - 1] * 0.75f + r[ws - 1] * 0.25f;
}

/* Row y of a plane resized 2x from `src` (H/2 x W/2) into `row`: the two blended source rows
 * (kept in `cache`, 2 rows of W floats, with their indices in `cached`) blended down. */
static void upsampled_row(const float *src, int H, int W, int y, float *cache, int cached[2], float *row) {
    int hs = H / 2, ws = W / 2, y0, y1;
    float fy;
    upsample_tap(y, hs, &y0, &y1, &fy);
    const float *rows[2];
    int want[2] = {y0, y1};
    for (int i = 0; i < 2; i++) {
        int slot = cached[0] == want[i] ? 0 : cached[1] == want[i] ? 1 : -1;
        if (slot < 0) {
            /* Replace the row the other tap does not need. */
            slot = cached[0] == want[1 - i] ? 1 : 0;
            blend_across(src + (size_t)want[i] * ws, ws, cache + (size_t)slot * W);
            cached[slot] = want[i];
        }
        rows[i] = cache + (size_t)slot * W;
    }
    const float *top = rows[0], *bottom = rows[1];
    float gy = 1.0f - fy;
    for (int x = 0; x < W; x++) row[x] = top[x] * gy + bottom[x] * fy;
}
#pragma clang fp contract(on)

/* Quads of row y: 4 channel rows (NULL for channels past C) quantized and interleaved. */
static void quad_row_scalar(const float *rows[4], int W, float inverse, uint8_t *q) {
    for (int x = 0; x < W; x++)
        for (int k = 0; k < 4; k++) q[4 * x + k] = rows[k] ? quantized(rows[k][x], inverse) : 0;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* The same 8 pixels a vector: the same rounding (to nearest even), the same clamps. */
__attribute__((target("avx2")))
static void quad_row_avx2(const float *rows[4], int W, float inverse, uint8_t *q) {
    const __m256 scale = _mm256_set1_ps(inverse), top = _mm256_set1_ps(255.0f), zero = _mm256_setzero_ps();
    int x = 0;
    for (; x + 8 <= W; x += 8) {
        __m256i word = _mm256_setzero_si256();
        for (int k = 0; k < 4; k++) {
            if (!rows[k]) continue;
            __m256 v = _mm256_round_ps(_mm256_mul_ps(_mm256_loadu_ps(rows[k] + x), scale),
                                       _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
            /* max(v, 0) with v second: a NaN gives 0, as the scalar path does. */
            v = _mm256_min_ps(_mm256_max_ps(v, zero), top);
            word = _mm256_or_si256(word, _mm256_slli_epi32(_mm256_cvtps_epi32(v), 8 * k));
        }
        _mm256_storeu_si256((__m256i *)(q + 4 * x), word);
    }
    const float *rest[4];
    for (int k = 0; k < 4; k++) rest[k] = rows[k] ? rows[k] + x : NULL;
    quad_row_scalar(rest, W - x, inverse, q + 4 * x);
}
#endif

/* Where to clip a tensor whose largest value is m: the level below which all but SK_Q8_CLIPPED of
 * every 1 in SK_Q8_SAMPLE positive values fall (a histogram of 4096 bins up to m; m itself below
 * 10,000 samples), so that a few outliers do not leave every other value a handful of levels. Integer counts over fixed samples: the
 * same level on every machine. */
enum { SK_Q8_SAMPLE = 7, SK_Q8_BINS = 4096 };
static float clip_level(const float *a, size_t countA, const float *b, size_t countB, float m) {
    static const double kept = 0.9999;
    unsigned *bins = calloc(SK_Q8_BINS, sizeof(unsigned));
    if (!bins) return m;
    size_t total = 0;
    float toBin = (float)SK_Q8_BINS / m;
    for (int part = 0; part < 2; part++) {
        const float *x = part ? b : a;
        size_t count = part ? countB : countA;
        if (!x) continue;
        for (size_t i = 0; i < count; i += SK_Q8_SAMPLE) {
            float v = x[i];
            if (!(v > 0)) continue;
            int bin = (int)(v * toBin);
            bins[bin >= SK_Q8_BINS ? SK_Q8_BINS - 1 : bin]++;
            total++;
        }
    }
    /* Too few samples to tell outliers: the largest value. */
    if (total < 10000) {
        free(bins);
        return m;
    }
    size_t limit = (size_t)ceil((double)total * kept), sum = 0;
    int bin = 0;
    while (bin < SK_Q8_BINS - 1 && sum + bins[bin] < limit) sum += bins[bin++];
    free(bins);
    return (float)(bin + 1) * (m / (float)SK_Q8_BINS);
}

int sk_q8_split(int inC, int in2C) {
    return in2C > 0 && inC % 4 == 0 ? inC : inC + (in2C > 0 ? in2C : 0);
}

/* The scale of `count` floats: their clip level / 255, 1 when all are zero. The largest value of a
 * resize is that of its source (a blend of two weights summing to 1), so sources are read as they are. */
static float scale_of(const float *a, size_t countA, const float *b, size_t countB) {
    float m = largest_of(a, countA);
    if (b) m = fmaxf(m, largest_of(b, countB));
    if (m > 0 && isfinite(m)) m = clip_level(a, countA, b, countB, m);
    return m > 0 && isfinite(m) ? m / 255.0f : 1.0f;
}

int sk_q8_input(const float *in, int inC, int inUp, const float *in2, int in2C, int in2Up, int H, int W, int d,
                float scales[2], uint8_t *quads) {
    int C = inC + (in2C > 0 ? in2C : 0);
    if (!in || inC <= 0 || in2C < 0 || (in2C > 0 && !in2) || !scales || !quads || !valid_sizes(C, H, W, d)) return -1;
    if ((inUp || (in2C > 0 && in2Up)) && (H % 2 || W % 2)) return -1;
    if (!(scales[0] >= 0) || !isfinite(scales[0]) || !(scales[1] >= 0) || !isfinite(scales[1])) return -1;
    size_t planeA = inUp ? (size_t)(H / 2) * (W / 2) : (size_t)H * W;
    size_t planeB = in2Up ? (size_t)(H / 2) * (W / 2) : (size_t)H * W;
    int split = sk_q8_split(inC, in2C);
    if (scales[0] == 0) {
        if (split < C) {
            scales[0] = scale_of(in, planeA * inC, NULL, 0);
            scales[1] = scale_of(in2, planeB * in2C, NULL, 0);
        } else {
            scales[0] = scales[1] = scale_of(in, planeA * inC, in2C > 0 ? in2 : NULL, planeB * in2C);
        }
    } else if (split == C || scales[1] == 0) {
        scales[1] = scales[0];
    }
    float inverses[2] = {1.0f / scales[0], 1.0f / scales[1]};
    size_t plane = sk_q8_plane(H, W, d);
    int Wp = W + 2 * d;
#if defined(__x86_64__) || defined(__i386__)
    void (*quad_row)(const float *[4], int, float, uint8_t *) = __builtin_cpu_supports("avx2") ? quad_row_avx2 : quad_row_scalar;
#else
    void (*quad_row)(const float *[4], int, float, uint8_t *) = quad_row_scalar;
#endif
    /* Per channel of a quad: its resized row, and two source rows blended across. */
    float *scratch = NULL;
    if (inUp || (in2C > 0 && in2Up)) {
        scratch = malloc(sizeof(float) * 12 * (size_t)W);
        if (!scratch) return -1;
    }
    for (int g = 0; g < (C + 3) / 4; g++) {
        int cached[4][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
        uint8_t *q = quads + (size_t)g * plane * 4;
        /* The padding: d rows above and below, d columns each side, the slack. */
        memset(q, 0, (size_t)d * Wp * 4 + (size_t)d * 4);
        for (int y = 0; y < H; y++) {
            const float *rows[4];
            for (int k = 0; k < 4; k++) {
                int c = 4 * g + k;
                rows[k] = NULL;
                if (c >= C) continue;
                int second = c >= inC;
                const float *src = second ? in2 + (size_t)(c - inC) * planeB : in + (size_t)c * planeA;
                if (second ? in2Up : inUp) {
                    float *row = scratch + (size_t)k * 3 * W;
                    upsampled_row(src, H, W, y, row + W, cached[k], row);
                    rows[k] = row;
                } else {
                    rows[k] = src + (size_t)y * W;
                }
            }
            uint8_t *row = q + ((size_t)(y + d) * Wp + d) * 4;
            quad_row(rows, W, inverses[4 * g >= split], row);
            /* This row's right padding and the next row's left one. */
            memset(row + (size_t)W * 4, 0, (size_t)2 * d * 4);
        }
        memset(q + ((size_t)(H + d) * Wp + d) * 4, 0, (plane - (size_t)(H + d) * Wp - d) * 4);
    }
    free(scratch);
    return 0;
}

void sk_q8_store(float sum, float scale, int second, float sum2, float scale2, float bias, int relu, const float *residual,
                 float *out) {
    float v = fmaf(sum, scale, bias);
    if (second) v = fmaf(sum2, scale2, v);
    if (relu) v = v > 0.0f ? v : 0.0f;
    if (residual) v = v + *residual;
    *out = v;
}

/* The reference: each output's sum over quads, taps and the 4 channels of a quad, in integers. */
static void conv_scalar(const uint8_t *quads, int C, int split, int H, int W, int d, const float scales[2], const int8_t *packed,
                        const float *wscale, const float *bias, int O, int relu, const float *residual, int y0, int y1,
                        float *out) {
    int quadsC = (C + 3) / 4, Wp = W + 2 * d, splitQuads = split / 4;
    size_t plane = sk_q8_plane(H, W, d);
    for (int o = 0; o < O; o++) {
        const int8_t *wo = packed + (size_t)(o / 8) * 9 * quadsC * 32 + (o % 8) * 4;
        float combined = scales[0] * wscale[o], combined2 = scales[1] * wscale[o];
        float b = bias ? bias[o] : 0.0f;
        for (int y = y0; y < y1; y++)
            for (int x = 0; x < W; x++) {
                int32_t sums[2] = {0, 0};
                for (int t = 0; t < 9; t++) {
                    size_t at = (size_t)(y + (t / 3) * d) * Wp + x + (t % 3) * d;
                    for (int g = 0; g < quadsC; g++) {
                        const uint8_t *a = quads + ((size_t)g * plane + at) * 4;
                        const int8_t *w = wo + ((size_t)t * quadsC + g) * 32;
                        sums[g >= splitQuads] += a[0] * w[0] + a[1] * w[1] + a[2] * w[2] + a[3] * w[3];
                    }
                }
                size_t i = (size_t)o * H * W + (size_t)y * W + x;
                sk_q8_store((float)sums[0], combined, splitQuads < quadsC, (float)sums[1], combined2, b, relu,
                            residual ? residual + i : NULL, out + i);
            }
    }
}

int sk_q8_conv_rows(int path, const uint8_t *quads, int C, int split, int H, int W, int d, const float scales[2],
                    const int8_t *packed, const float *wscale, const float *bias, int O, int relu, const float *residual, int y0,
                    int y1, float *out) {
    if (!quads || !packed || !wscale || !out || !scales || !valid_sizes(C, H, W, d) || sk_q8_packed_bytes(C, O) == 0) return -1;
    if ((long long)O * H * W > INT_MAX || y0 < 0 || y1 > H || y0 > y1) return -1;
    if (split <= 0 || split > C || (split < C && split % 4)) return -1;
    for (int i = 0; i < 2; i++)
        if (!(scales[i] > 0) || !isfinite(scales[i])) return -1;
    if (!sk_q8_supported(path)) return -1;
    if (y0 == y1) return 0;
    switch (path) {
#if defined(__x86_64__) || defined(__i386__)
    case SK_Q8_AVX2:
    case SK_Q8_AVXVNNI:
        sk_q8_conv_avx2(path == SK_Q8_AVXVNNI, quads, C, split, H, W, d, scales, packed, wscale, bias, O, relu, residual, y0,
                        y1, out);
        return 0;
    case SK_Q8_AVX512VNNI:
        sk_q8_conv_avx512(quads, C, split, H, W, d, scales, packed, wscale, bias, O, relu, residual, y0, y1, out);
        return 0;
#endif
    default:
        conv_scalar(quads, C, split, H, W, d, scales, packed, wscale, bias, O, relu, residual, y0, y1, out);
        return 0;
    }
}
