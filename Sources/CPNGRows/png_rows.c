#include "png_rows.h"
#include "png_rows_wavefront.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint8_t paeth_predictor(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

/* The portable filters, byte by byte: any pixel size, and the reference for the vector ones. */
static void unfilter_bytes(uint8_t *row, const uint8_t *prior, size_t length, size_t bpp, unsigned filter) {
    size_t lead = bpp < length ? bpp : length;
    switch (filter) {
    case 1:
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        break;
    case 2:
        if (prior) for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + prior[i]);
        break;
    case 3:
        if (prior) {
            for (size_t i = 0; i < lead; i++) row[i] = (uint8_t)(row[i] + (prior[i] >> 1));
            for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + ((row[i - bpp] + prior[i]) >> 1));
        } else {
            for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + (row[i - bpp] >> 1));
        }
        break;
    case 4:
        if (prior) {
            for (size_t i = 0; i < lead; i++) row[i] = (uint8_t)(row[i] + prior[i]);
            for (size_t i = bpp; i < length; i++)
                row[i] = (uint8_t)(row[i] + paeth_predictor(row[i - bpp], prior[i], prior[i - bpp]));
        } else {
            /* With no row above, Paeth always predicts the left neighbour: Sub. */
            for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        }
        break;
    }
}

#if defined(__SSE2__)
/* One pixel of 3 or 4 bytes in the low lanes of a register; a 3-byte pixel is never read or
 * written as 4 bytes, because the fourth belongs to the next pixel (or lies past the row). */
static inline __attribute__((always_inline)) __m128i load_pixel(const uint8_t *p, size_t bpp) {
    uint32_t value;
    if (bpp == 4) {
        memcpy(&value, p, 4);
    } else {
        /* Assembled in a register: a 3-byte copy into a 4-byte variable goes through memory and
         * stalls the load that reads it back. */
        value = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    }
    return _mm_cvtsi32_si128((int)value);
}

static inline __attribute__((always_inline)) void store_pixel(uint8_t *p, __m128i pixel, size_t bpp) {
    uint32_t value = (uint32_t)_mm_cvtsi128_si32(pixel);
    if (bpp == 4) {
        memcpy(p, &value, 4);
    } else {
        p[0] = (uint8_t)value;
        p[1] = (uint8_t)(value >> 8);
        p[2] = (uint8_t)(value >> 16);
    }
}

static inline __m128i abs_epi16(__m128i v) {
    return _mm_max_epi16(v, _mm_sub_epi16(_mm_setzero_si128(), v));
}

static inline __m128i select_si128(__m128i mask, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
}

/* Paeth with the predictor's arithmetic in 16-bit lanes, one pixel a step. */
static inline __attribute__((always_inline)) void paeth_sse2(uint8_t *row, const uint8_t *prior, size_t length, size_t bpp) {
    const __m128i zero = _mm_setzero_si128();
    __m128i a = zero, c = zero;
    for (size_t i = 0; i + bpp <= length; i += bpp) {
        __m128i b = _mm_unpacklo_epi8(load_pixel(prior + i, bpp), zero);
        __m128i x = _mm_unpacklo_epi8(load_pixel(row + i, bpp), zero);
        __m128i pa = _mm_sub_epi16(b, c);   /* p - a, where p = a + b - c */
        __m128i pb = _mm_sub_epi16(a, c);   /* p - b */
        __m128i pc = _mm_add_epi16(pa, pb); /* p - c */
        pa = abs_epi16(pa);
        pb = abs_epi16(pb);
        pc = abs_epi16(pc);
        __m128i smallest = _mm_min_epi16(_mm_min_epi16(pa, pb), pc);
        __m128i predicted = select_si128(_mm_cmpeq_epi16(smallest, pa), a,
                                         select_si128(_mm_cmpeq_epi16(smallest, pb), b, c));
        a = _mm_and_si128(_mm_add_epi16(x, predicted), _mm_set1_epi16(0xFF));
        store_pixel(row + i, _mm_packus_epi16(a, a), bpp);
        c = b;
    }
}

/* Average: floor((left + up) / 2) is pavgb's rounded-up mean minus the bit it rounded. */
static inline __attribute__((always_inline)) void average_sse2(uint8_t *row, const uint8_t *prior, size_t length, size_t bpp) {
    const __m128i one = _mm_set1_epi8(1);
    __m128i a = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= length; i += bpp) {
        __m128i b = load_pixel(prior + i, bpp);
        __m128i mean = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
        a = _mm_add_epi8(load_pixel(row + i, bpp), mean);
        store_pixel(row + i, a, bpp);
    }
}

static inline __attribute__((always_inline)) void sub_sse2(uint8_t *row, size_t length, size_t bpp) {
    __m128i a = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= length; i += bpp) {
        a = _mm_add_epi8(load_pixel(row + i, bpp), a);
        store_pixel(row + i, a, bpp);
    }
}

/* One pixel of any filter, every operand in 16-bit lanes: the left (a), upper (b) and
 * upper-left (c) neighbours already unfiltered, x as filtered. */
static inline __attribute__((always_inline)) __m128i unfiltered_pixel(unsigned filter, __m128i a, __m128i b, __m128i c, __m128i x) {
    const __m128i low_byte = _mm_set1_epi16(0xFF);
    switch (filter) {
    case 1: return _mm_and_si128(_mm_add_epi16(x, a), low_byte);
    case 2: return _mm_and_si128(_mm_add_epi16(x, b), low_byte);
    case 3: return _mm_and_si128(_mm_add_epi16(x, _mm_srli_epi16(_mm_add_epi16(a, b), 1)), low_byte);
    case 4: {
        __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
        __m128i pc = abs_epi16(_mm_add_epi16(pa, pb));
        pa = abs_epi16(pa);
        pb = abs_epi16(pb);
        __m128i smallest = _mm_min_epi16(_mm_min_epi16(pa, pb), pc);
        __m128i predicted = select_si128(_mm_cmpeq_epi16(smallest, pa), a,
                                         select_si128(_mm_cmpeq_epi16(smallest, pb), b, c));
        return _mm_and_si128(_mm_add_epi16(x, predicted), low_byte);
    }
    default: return x;
    }
}

/* Two rows at once, the second one pixel behind the first: each row's pixels form a chain
 * (every pixel needs its left neighbour), and two independent chains keep the core twice as
 * busy as one. The second row's upper neighbours are the first row's pixels just made, taken
 * from registers rather than read back from memory. */
static inline __attribute__((always_inline)) void unfilter_pair_sse2(
    uint8_t *first, uint8_t *second, const uint8_t *prior, size_t length, size_t bpp,
    unsigned first_filter, unsigned second_filter) {
    const __m128i zero = _mm_setzero_si128();
    __m128i a0 = zero, c0 = zero, a1 = zero, c1 = zero;
    size_t i = 0;
    for (; i + bpp <= length; i += bpp) {
        __m128i b0 = _mm_unpacklo_epi8(load_pixel(prior + i, bpp), zero);
        __m128i made = unfiltered_pixel(first_filter, a0, b0, c0, _mm_unpacklo_epi8(load_pixel(first + i, bpp), zero));
        store_pixel(first + i, _mm_packus_epi16(made, made), bpp);
        c0 = b0;
        if (i > 0) {
            /* The second row's pixel i - bpp, below the first row's previous pixel (a0). */
            __m128i x1 = _mm_unpacklo_epi8(load_pixel(second + i - bpp, bpp), zero);
            a1 = unfiltered_pixel(second_filter, a1, a0, c1, x1);
            store_pixel(second + i - bpp, _mm_packus_epi16(a1, a1), bpp);
            c1 = a0;
        }
        a0 = made;
    }
    if (i > 0) {
        __m128i x1 = _mm_unpacklo_epi8(load_pixel(second + i - bpp, bpp), zero);
        a1 = unfiltered_pixel(second_filter, a1, a0, c1, x1);
        store_pixel(second + i - bpp, _mm_packus_epi16(a1, a1), bpp);
    }
}

/* The pair loop compiled once for every pair of filters and pixel size, so no filter is tested
 * per pixel. */
static void unfilter_pair_dispatch(uint8_t *first, uint8_t *second, const uint8_t *prior, size_t length, size_t bpp,
                                   unsigned first_filter, unsigned second_filter) {
#define PAIR(F0, F1) \
    case (F0) * 5 + (F1): \
        if (bpp == 3) unfilter_pair_sse2(first, second, prior, length, 3, F0, F1); \
        else unfilter_pair_sse2(first, second, prior, length, 4, F0, F1); \
        return;
#define PAIRS_WITH(F0) PAIR(F0, 0) PAIR(F0, 1) PAIR(F0, 2) PAIR(F0, 3) PAIR(F0, 4)
    switch (first_filter * 5 + second_filter) {
        PAIRS_WITH(0) PAIRS_WITH(1) PAIRS_WITH(2) PAIRS_WITH(3) PAIRS_WITH(4)
    }
#undef PAIRS_WITH
#undef PAIR
}
#endif

int png_rows_unfilter(uint8_t *row, const uint8_t *prior, size_t length, unsigned bytes_per_pixel, unsigned filter) {
    if (filter > 4) return -1;
    if (filter == 0 || length == 0 || bytes_per_pixel == 0) return 0;
    size_t bpp = bytes_per_pixel;
#if defined(__SSE2__)
    if (filter == 2) {
        /* Up has no chain: 16 bytes a step (the compiler leaves the byte loop scalar, as row and
         * prior might overlap; they never do). */
        if (!prior) return 0;
        size_t i = 0;
        for (; i + 16 <= length; i += 16) {
            __m128i sum = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(row + i)), _mm_loadu_si128((const __m128i *)(prior + i)));
            _mm_storeu_si128((__m128i *)(row + i), sum);
        }
        for (; i < length; i++) row[i] = (uint8_t)(row[i] + prior[i]);
        return 0;
    }
    /* Rows of whole 3- or 4-byte pixels; the pixel size is a constant in each call below, so
     * the loads and stores compile to single moves. Anything else takes the portable loop. */
    if ((bpp == 3 || bpp == 4) && length % bpp == 0 && filter != 2) {
        if (filter == 1 || (filter == 4 && !prior)) {
            if (bpp == 3) sub_sse2(row, length, 3); else sub_sse2(row, length, 4);
        } else if (filter == 3 && prior) {
            if (bpp == 3) average_sse2(row, prior, length, 3); else average_sse2(row, prior, length, 4);
        } else if (filter == 4) {
            if (bpp == 3) paeth_sse2(row, prior, length, 3); else paeth_sse2(row, prior, length, 4);
        } else {
            unfilter_bytes(row, prior, length, bpp, filter);
        }
        return 0;
    }
#endif
    unfilter_bytes(row, prior, length, bpp, filter);
    return 0;
}

void png_rows_to_rgba(const uint8_t *source, uint8_t *rgba, size_t width, unsigned channels) {
    switch (channels) {
    case 1:
        for (size_t x = 0; x < width; x++) {
            uint8_t grey = source[x];
            rgba[4 * x] = grey; rgba[4 * x + 1] = grey; rgba[4 * x + 2] = grey; rgba[4 * x + 3] = 255;
        }
        break;
    case 2:
        for (size_t x = 0; x < width; x++) {
            uint8_t grey = source[2 * x];
            rgba[4 * x] = grey; rgba[4 * x + 1] = grey; rgba[4 * x + 2] = grey; rgba[4 * x + 3] = source[2 * x + 1];
        }
        break;
    case 3:
        for (size_t x = 0; x < width; x++) {
            rgba[4 * x] = source[3 * x]; rgba[4 * x + 1] = source[3 * x + 1]; rgba[4 * x + 2] = source[3 * x + 2];
            rgba[4 * x + 3] = 255;
        }
        break;
    default:
        memcpy(rgba, source, width * 4);
        break;
    }
}

int png_rows_unfilter_pair(uint8_t *first, uint8_t *second, const uint8_t *prior, size_t length,
                           unsigned bytes_per_pixel, unsigned first_filter, unsigned second_filter) {
    if (first_filter > 4 || second_filter > 4) return -1;
#if defined(__SSE2__)
    size_t bpp = bytes_per_pixel;
    /* None and Up have no chain: two of them run faster as whole-row vector loops. */
    int chained = (first_filter != 0 && first_filter != 2) || (second_filter != 0 && second_filter != 2);
    if ((bpp == 3 || bpp == 4) && length % bpp == 0 && length > 0 && prior && chained) {
        unfilter_pair_dispatch(first, second, prior, length, bpp, first_filter, second_filter);
        return 0;
    }
#endif
    png_rows_unfilter(first, prior, length, bytes_per_pixel, first_filter);
    png_rows_unfilter(second, first, length, bytes_per_pixel, second_filter);
    return 0;
}

/* Whether this CPU runs the wavefront; every thread that races here computes the same value. */
static int wavefront_available(void) {
    static int available = -1;
    int known = __atomic_load_n(&available, __ATOMIC_RELAXED);
    if (known < 0) {
        known = png_rows_wavefront_supported();
        __atomic_store_n(&available, known, __ATOMIC_RELAXED);
    }
    return known;
}

int png_rows_unfilter_image_rows(uint8_t *data, size_t length, unsigned bytes_per_pixel, size_t first, size_t count,
                                 int path) {
    size_t stride = length + 1, end = first + count, bpp = bytes_per_pixel;
    for (size_t y = first; y < end; y++)
        if (data[y * stride] > 4) return -1;
    int wavefront = path != PNG_ROWS_PAIRS && wavefront_available() && (bpp == 3 || bpp == 4) && length > 0 && length % bpp == 0;
    /* Below 64 pixels a row, the wavefront's start and end (lag steps a row) outweigh it. */
    if (path == PNG_ROWS_BEST && length / bpp < 64) wavefront = 0;
    size_t y = first;
    while (y < end) {
        uint8_t *row = data + y * stride + 1;
        const uint8_t *prior = y == 0 ? NULL : row - stride;
        if (wavefront) {
            size_t group = end - y < 16 ? end - y : 16, chained = 0;
            uint8_t filters[16];
            for (size_t k = 0; k < group; k++) {
                filters[k] = row[k * stride - 1];
                chained += filters[k] == 1 || filters[k] == 3 || filters[k] == 4;
            }
            /* Rows of None and Up have no chain and run faster one at a time, a vector of bytes
             * a step; from two rows with a chain in sixteen, the wavefront is faster. */
            if (chained >= 2 || path == PNG_ROWS_WAVEFRONT) {
                png_rows_wavefront_avx512(row, stride, group, prior, length / bpp, bpp, filters);
                y += group;
                continue;
            }
        }
        if (prior && y + 1 < end) {
            png_rows_unfilter_pair(row, row + stride, prior, length, bytes_per_pixel, row[-1], row[stride - 1]);
            y += 2;
        } else {
            png_rows_unfilter(row, prior, length, bytes_per_pixel, row[-1]);
            y += 1;
        }
    }
    return 0;
}
