/* Sixteen rows unfiltered as one wavefront with AVX-512 (see png_rows_wavefront.h). */
#include "png_rows_wavefront.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

enum { wave_rows = 16, made_ring = 64 };

int png_rows_wavefront_supported(void) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi2");
}

/* Rows whose pixel at step t exists: row k works on pixel t - k * lag. */
static inline unsigned rows_at_step(size_t t, size_t width, size_t lag, size_t count) {
    unsigned rows = 0;
    for (size_t k = 0; k < count; k++) {
        size_t start = k * lag;
        if (t >= start && t - start < width) rows |= 1u << k;
    }
    return rows;
}

/* How many pixels each row runs behind the one above it. One is enough for the data, but the
 * rows' current pixels then lie stride - bpp bytes apart, and for widths whose stride is near a
 * multiple of 4 KiB (RGBA at 5120 pixels: 20481 bytes) all sixteen fall in one L1 set and evict
 * one another every step. A lag that spreads them over the sets keeps them all in L1. */
static size_t spreading_lag(size_t stride, size_t bpp, size_t count) {
    size_t best = 1, fewest = wave_rows + 1;
    for (size_t lag = 1; lag < made_ring / 2 && lag * bpp < stride; lag++) {
        unsigned char in_set[64] = {0};
        size_t crowded = 0;
        for (size_t k = 0; k < count; k++) {
            size_t set = ((k * (stride - lag * bpp)) >> 6) & 63;
            if (++in_set[set] > crowded) crowded = in_set[set];
        }
        if (crowded < fewest) { fewest = crowded; best = lag; }
        if (crowded <= 1) break;
    }
    return best;
}

__attribute__((target("avx512f,avx512bw,avx512vl,bmi2")))
void png_rows_wavefront_avx512(uint8_t *rows, size_t stride, size_t count, const uint8_t *prior,
                               size_t width, size_t bpp, const uint8_t *filters) {
    /* Row k's four bytes a step in byte lanes 4k...4k+3 (a 3-byte pixel's fourth lane is the
     * next byte of the row, carried along and written back as it was). */
    __mmask64 sub = 0, up = 0, average = 0, paeth = 0;
    for (size_t k = 0; k < count; k++) {
        __mmask64 lanes = 0xFull << (4 * k);
        switch (filters[k]) {
        case 1: sub |= lanes; break;
        case 2: up |= lanes; break;
        case 3: average |= lanes; break;
        case 4: paeth |= lanes; break;
        }
    }
    size_t lag = spreading_lag(stride, bpp, count);
    const __m512i index = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                             _mm512_set1_epi32((int)(stride - lag * bpp)));
    const __mmask64 carried = bpp == 3 ? 0x8888888888888888ull : 0;
    const __m512i one = _mm512_set1_epi8(1);
    /* The last steps' results: the row above's pixel at step t was made at step t - lag. Never
     * written slots read as zeros, which is what the first pixels' upper neighbours are. */
    __m512i made_at[made_ring];
    for (int i = 0; i < made_ring; i++) made_at[i] = _mm512_setzero_si512();
    __m512i made = _mm512_setzero_si512(), above = _mm512_setzero_si512();
    size_t steps = width + (count - 1) * lag;
    /* The filtered pixels are gathered two steps ahead: their loads then never wait on the
     * scatter of the step before, which writes next to them. */
    unsigned live = rows_at_step(0, width, lag, count), live_next = rows_at_step(1, width, lag, count);
    __m512i x = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), (__mmask16)live, index, rows, 1);
    __m512i x_next = steps > 1 ? _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), (__mmask16)live_next, index, rows + bpp, 1)
                               : _mm512_setzero_si512();
    for (size_t t = 0; t < steps; t++) {
        unsigned live_after = rows_at_step(t + 2, width, lag, count);
        __m512i x_after = _mm512_setzero_si512();
        if (t + 2 < steps)
            x_after = _mm512_mask_i32gather_epi32(x_after, (__mmask16)live_after, index, rows + (t + 2) * bpp, 1);
        uint32_t top = 0;
        if (prior && t < width) memcpy(&top, prior + t * bpp, 4);
        /* a: this row's pixel to the left; b: the row above's pixel (row 0's from `prior`);
         * c: the row above's pixel to the left, which was b a step ago. */
        __m512i a = made, c = above;
        __m512i b = _mm512_alignr_epi32(made_at[(t - lag) & (made_ring - 1)], _mm512_set1_epi32((int)top), 15);
        above = b;
        /* Paeth in bytes: |p - a| = |b - c| and |p - b| = |a - c| fit; |p - c| = |(b - c) + (a - c)|
         * is their difference when the signs differ, else their sum, which is never below either,
         * so saturating it at 255 changes no comparison. */
        __m512i pa = _mm512_or_si512(_mm512_subs_epu8(b, c), _mm512_subs_epu8(c, b));
        __m512i pb = _mm512_or_si512(_mm512_subs_epu8(a, c), _mm512_subs_epu8(c, a));
        __mmask64 same_sign = _kxnor_mask64(_mm512_cmpge_epu8_mask(b, c), _mm512_cmpge_epu8_mask(a, c));
        __m512i pc = _mm512_mask_blend_epi8(same_sign, _mm512_or_si512(_mm512_subs_epu8(pa, pb), _mm512_subs_epu8(pb, pa)),
                                            _mm512_adds_epu8(pa, pb));
        __m512i b_or_c = _mm512_mask_blend_epi8(_mm512_cmple_epu8_mask(pb, pc), c, b);
        __mmask64 take_a = _mm512_mask_cmple_epu8_mask(_mm512_cmple_epu8_mask(pa, pb), pa, pc);
        /* floor((a + b) / 2): pavgb's rounded-up mean less the bit it rounded. */
        __m512i mean = _mm512_sub_epi8(_mm512_avg_epu8(a, b), _mm512_and_si512(_mm512_xor_si512(a, b), one));
        __m512i predicted = _mm512_maskz_mov_epi8(sub, a);
        predicted = _mm512_mask_mov_epi8(predicted, up, b);
        predicted = _mm512_mask_mov_epi8(predicted, average, mean);
        predicted = _mm512_mask_mov_epi8(predicted, _kandn_mask64(take_a, paeth), b_or_c);
        predicted = _mm512_mask_mov_epi8(predicted, _kand_mask64(take_a, paeth), a);
        /* Rows not yet started (or done) stay zero: a row's first pixel reads them as its left
         * and upper-left neighbours. */
        __mmask64 live_lanes = _pdep_u64(live, 0x1111111111111111ull) * 0xF;
        made = _mm512_maskz_add_epi8(live_lanes, x, predicted);
        made_at[t & (made_ring - 1)] = made;
        _mm512_mask_i32scatter_epi32(rows + t * bpp, (__mmask16)live, index, _mm512_mask_blend_epi8(carried, made, x), 1);
        x = x_next;
        x_next = x_after;
        live = live_next;
        live_next = live_after;
    }
}
#else
int png_rows_wavefront_supported(void) { return 0; }
void png_rows_wavefront_avx512(uint8_t *rows, size_t stride, size_t count, const uint8_t *prior,
                               size_t width, size_t bpp, const uint8_t *filters) {
    (void)rows; (void)stride; (void)count; (void)prior; (void)width; (void)bpp; (void)filters;
}
#endif
