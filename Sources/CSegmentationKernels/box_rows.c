/* The row steps of BoxFilter.means (see mask_rows.h): window sums across a row, the column sums'
 * update and the means, each a copy of one body compiled for AVX-512, AVX2 and the baseline, so
 * every path does the same IEEE operations in the same order and gives the same floats. */
#include "mask_rows.h"
#include "segmentation_kernels.h"

/* Same operations as the Swift they replaced: no fused multiply-adds. */
#pragma STDC FP_CONTRACT OFF

#define AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))
#define AVX2 __attribute__((target("avx2,fma")))
#define INLINE static inline __attribute__((always_inline))

/* The running sums of `LANES` side by side, one chain a lane, exactly as BoxFilter's former Swift
 * `runningSums` ran them: the first r + 1 columns added to a zero sum, then per column x the
 * sum stored, the column x + r + 1 added and the column x - r subtracted (each while it exists).
 * ROWS (1 or 2) rows run through the same loop: each step is a chain of two dependent additions
 * a lane, and a second row's independent chains fill the wait. Each row's lanes see the same
 * operations in the same order either way. */
#define ACROSS_BODY(LANES, ROWS)                                                                    \
    do {                                                                                            \
        double sum[ROWS][LANES];                                                                    \
        for (int r = 0; r < ROWS; r++)                                                              \
            for (int l = 0; l < LANES; l++) sum[r][l] = 0;                                          \
        int head = radius < width - 1 ? radius : width - 1;                                         \
        for (int x = 0; x <= head; x++)                                                             \
            for (int r = 0; r < ROWS; r++)                                                          \
                for (int l = 0; l < LANES; l++) sum[r][l] += (double)in[r][(long)x * LANES + l];    \
        int entering = width - radius - 1 > 0 ? width - radius - 1 : 0;                             \
        int first = entering < radius ? entering : radius;                                          \
        first = first < width ? first : width;                                                      \
        int second = entering > radius ? entering : radius;                                         \
        second = second < width ? second : width;                                                   \
        int x = 0;                                                                                  \
        for (; x < first; x++)                                                                      \
            for (int r = 0; r < ROWS; r++) {                                                        \
                for (int l = 0; l < LANES; l++) out[r][(long)x * LANES + l] = (float)sum[r][l];     \
                for (int l = 0; l < LANES; l++) sum[r][l] += (double)in[r][(long)(x + radius + 1) * LANES + l]; \
            }                                                                                       \
        if (entering <= radius) {                                                                   \
            for (; x < second; x++)                                                                 \
                for (int r = 0; r < ROWS; r++)                                                      \
                    for (int l = 0; l < LANES; l++) out[r][(long)x * LANES + l] = (float)sum[r][l]; \
        } else {                                                                                    \
            for (; x < second; x++)                                                                 \
                for (int r = 0; r < ROWS; r++) {                                                    \
                    for (int l = 0; l < LANES; l++) out[r][(long)x * LANES + l] = (float)sum[r][l]; \
                    for (int l = 0; l < LANES; l++) sum[r][l] += (double)in[r][(long)(x + radius + 1) * LANES + l]; \
                    for (int l = 0; l < LANES; l++) sum[r][l] -= (double)in[r][(long)(x - radius) * LANES + l]; \
                }                                                                                   \
        }                                                                                           \
        for (; x < width; x++)                                                                      \
            for (int r = 0; r < ROWS; r++) {                                                        \
                for (int l = 0; l < LANES; l++) out[r][(long)x * LANES + l] = (float)sum[r][l];     \
                for (int l = 0; l < LANES; l++) sum[r][l] -= (double)in[r][(long)(x - radius) * LANES + l]; \
            }                                                                                       \
    } while (0)

INLINE void interleave(const float *planar, int planes, int lanes, int width, float *in) {
    for (int p = 0; p < planes; p++) {
        const float *plane = planar + (long)p * width;
        for (int x = 0; x < width; x++) in[(long)x * lanes + p] = plane[x];
    }
}

/* `rows` (1 or 2) rows' window sums: planar[r] interleaved into interleaved[r], sums to sums[r]. */
INLINE void across(const float *const *planar, int rows, int planes, int lanes, int width, int radius,
                   float *const *interleaved, float *const *sums) {
    for (int r = 0; r < rows; r++) interleave(planar[r], planes, lanes, width, interleaved[r]);
    float *const *in = interleaved;
    float *const *out = sums;
    if (rows == 2) {
        if (lanes == 8) ACROSS_BODY(8, 2); else ACROSS_BODY(4, 2);
    } else {
        if (lanes == 8) ACROSS_BODY(8, 1); else ACROSS_BODY(4, 1);
    }
}

INLINE void column_update(double *sums, const float *entering, const float *leaving, long count) {
    if (entering && leaving) {
        for (long i = 0; i < count; i++) sums[i] = (sums[i] + (double)entering[i]) - (double)leaving[i];
    } else if (entering) {
        for (long i = 0; i < count; i++) sums[i] += (double)entering[i];
    } else if (leaving) {
        for (long i = 0; i < count; i++) sums[i] -= (double)leaving[i];
    }
}

/* PLANES is a constant in each copy, so a pixel's means go from registers straight to their
 * planes' rows (with the count known only at run time they went through the stack). */
#define MEANS_BODY(LANES, PLANES)                                                                   \
    for (int x = x0; x < x1; x++) {                                                                 \
        double area = rows_in * columns_in[x];                                                      \
        float mean[LANES];                                                                          \
        for (int l = 0; l < LANES; l++) mean[l] = (float)(sums[(long)x * LANES + l] / area);        \
        for (int p = 0; p < PLANES; p++) out[(long)p * width + x] = mean[p];                        \
    }

#define MEANS_OF_PLANES(LANES)                                                                      \
    switch (planes) {                                                                               \
    case 1: { MEANS_BODY(LANES, 1) } break;                                                         \
    case 2: { MEANS_BODY(LANES, 2) } break;                                                         \
    case 3: { MEANS_BODY(LANES, 3) } break;                                                         \
    case 4: { MEANS_BODY(LANES, 4) } break;                                                         \
    case 5: { MEANS_BODY(LANES, 5) } break;                                                         \
    case 6: { MEANS_BODY(LANES, 6) } break;                                                         \
    case 7: { MEANS_BODY(LANES, 7) } break;                                                         \
    default: { MEANS_BODY(LANES, 8) } break;                                                        \
    }

INLINE void means(const double *sums, int planes, int lanes, int width, int x0, int x1, double rows_in,
                  const double *columns_in, float *out) {
    if (lanes == 8) {
        MEANS_OF_PLANES(8)
    } else {
        switch (planes) {
        case 1: { MEANS_BODY(4, 1) } break;
        case 2: { MEANS_BODY(4, 2) } break;
        case 3: { MEANS_BODY(4, 3) } break;
        default: { MEANS_BODY(4, 4) } break;
        }
    }
}

static void across_scalar(const float *const *p, int k, int n, int l, int w, int r, float *const *in, float *const *out) { across(p, k, n, l, w, r, in, out); }
AVX2 static void across_avx2(const float *const *p, int k, int n, int l, int w, int r, float *const *in, float *const *out) { across(p, k, n, l, w, r, in, out); }
AVX512 static void across_avx512(const float *const *p, int k, int n, int l, int w, int r, float *const *in, float *const *out) { across(p, k, n, l, w, r, in, out); }

static void across_rows_with(int kernels, const float *const *planar, int rows, int planes, int lanes, int width, int radius,
                             float *const *interleaved, float *const *sums) {
    if (!sk_kernels_supported(kernels)) kernels = SK_KERNELS_SCALAR;
    switch (kernels) {
    case SK_KERNELS_AVX512: across_avx512(planar, rows, planes, lanes, width, radius, interleaved, sums); break;
    case SK_KERNELS_AVX2: across_avx2(planar, rows, planes, lanes, width, radius, interleaved, sums); break;
    default: across_scalar(planar, rows, planes, lanes, width, radius, interleaved, sums); break;
    }
}

static void update_scalar(double *s, const float *e, const float *l, long c) { column_update(s, e, l, c); }
AVX2 static void update_avx2(double *s, const float *e, const float *l, long c) { column_update(s, e, l, c); }
AVX512 static void update_avx512(double *s, const float *e, const float *l, long c) { column_update(s, e, l, c); }

static void means_scalar(const double *s, int n, int l, int w, int x0, int x1, double r, const double *c, float *o) { means(s, n, l, w, x0, x1, r, c, o); }
AVX2 static void means_avx2(const double *s, int n, int l, int w, int x0, int x1, double r, const double *c, float *o) { means(s, n, l, w, x0, x1, r, c, o); }
AVX512 static void means_avx512(const double *s, int n, int l, int w, int x0, int x1, double r, const double *c, float *o) { means(s, n, l, w, x0, x1, r, c, o); }

void sk_box_sums_across_with(int kernels, const float *planar, int planes, int lanes, int width, int radius,
                             float *interleaved, float *sums) {
    across_rows_with(kernels, &planar, 1, planes, lanes, width, radius, &interleaved, &sums);
}

void sk_box_sums_across_pair_with(int kernels, const float *planar_a, const float *planar_b, int planes, int lanes, int width,
                                  int radius, float *interleaved_a, float *interleaved_b, float *sums_a, float *sums_b) {
    const float *planar[2] = {planar_a, planar_b};
    float *interleaved[2] = {interleaved_a, interleaved_b};
    float *sums[2] = {sums_a, sums_b};
    across_rows_with(kernels, planar, 2, planes, lanes, width, radius, interleaved, sums);
}

void sk_box_column_update_with(int kernels, double *sums, const float *entering, const float *leaving, long count) {
    if (!sk_kernels_supported(kernels)) kernels = SK_KERNELS_SCALAR;
    switch (kernels) {
    case SK_KERNELS_AVX512: update_avx512(sums, entering, leaving, count); break;
    case SK_KERNELS_AVX2: update_avx2(sums, entering, leaving, count); break;
    default: update_scalar(sums, entering, leaving, count); break;
    }
}

void sk_box_means_with(int kernels, const double *sums, int planes, int lanes, int width, int x0, int x1,
                       double rows_in, const double *columns_in, float *out) {
    if (!sk_kernels_supported(kernels)) kernels = SK_KERNELS_SCALAR;
    switch (kernels) {
    case SK_KERNELS_AVX512: means_avx512(sums, planes, lanes, width, x0, x1, rows_in, columns_in, out); break;
    case SK_KERNELS_AVX2: means_avx2(sums, planes, lanes, width, x0, x1, rows_in, columns_in, out); break;
    default: means_scalar(sums, planes, lanes, width, x0, x1, rows_in, columns_in, out); break;
    }
}

void sk_box_sums_across(const float *planar, int planes, int lanes, int width, int radius, float *interleaved, float *sums) {
    sk_box_sums_across_with(sk_kernels_default(), planar, planes, lanes, width, radius, interleaved, sums);
}

void sk_box_sums_across_pair(const float *planar_a, const float *planar_b, int planes, int lanes, int width, int radius,
                             float *interleaved_a, float *interleaved_b, float *sums_a, float *sums_b) {
    sk_box_sums_across_pair_with(sk_kernels_default(), planar_a, planar_b, planes, lanes, width, radius, interleaved_a,
                                 interleaved_b, sums_a, sums_b);
}

void sk_box_column_update(double *sums, const float *entering, const float *leaving, long count) {
    sk_box_column_update_with(sk_kernels_default(), sums, entering, leaving, count);
}

void sk_box_means(const double *sums, int planes, int lanes, int width, int x0, int x1, double rows_in,
                  const double *columns_in, float *out) {
    sk_box_means_with(sk_kernels_default(), sums, planes, lanes, width, x0, x1, rows_in, columns_in, out);
}
