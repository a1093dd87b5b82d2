#include "resample_rows.h"

#include <string.h>

/* The two passes of Pillow's 8-bit resample (Resample.c, ImagingResample{Horizontal,Vertical}_8bpc)
 * in Pillow's own integer arithmetic: an int32 sum starting at 1 << 21 (a half), plus each 8-bit
 * sample times its 22-bit fixed-point weight, then clip8 (the sum shifted right by 22, clamped to
 * 0..255). Pillow's weights keep the sum of |weight| times 255, plus the half, below 2^31, so no
 * true sum overflows; the vector paths add in wrapping 32-bit lanes in another order, which gives
 * the same integer. Every path therefore writes the same bytes. */

enum { PRECISION_BITS = 22, HALF = 1 << (PRECISION_BITS - 1) };

static inline uint8_t clip8(int32_t sum) {
    int32_t value = sum >> PRECISION_BITS;
    return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value;
}

/* ---- Portable paths ------------------------------------------------------------------------ */

static void lanczos_across_portable(const uint8_t *source, size_t width, const int32_t *starts, const int32_t *counts,
                                    const int32_t *weights, size_t weight_stride, uint8_t *target) {
    for (size_t x = 0; x < width; x++) {
        const uint8_t *pixel = source + 4 * (size_t)starts[x];
        const int32_t *weight = weights + x * weight_stride;
        int32_t sum[4] = {HALF, HALF, HALF, HALF};
        for (int32_t tap = 0; tap < counts[x]; tap++)
            for (int lane = 0; lane < 4; lane++) sum[lane] += (int32_t)pixel[4 * tap + lane] * weight[tap];
        for (int lane = 0; lane < 4; lane++) target[4 * x + lane] = clip8(sum[lane]);
    }
}

/* Bytes [first, 4 * width) of the vertical pass; every fourth byte (alpha) comes out 255. */
static void lanczos_down_portable(const uint8_t *const *rows, size_t taps, const int32_t *weights, size_t first, size_t width,
                                  uint8_t *target) {
    for (size_t index = first; index < 4 * width; index++) {
        if (index % 4 == 3) {
            target[index] = 255;
            continue;
        }
        int32_t sum = HALF;
        for (size_t tap = 0; tap < taps; tap++) sum += (int32_t)rows[tap][index] * weights[tap];
        target[index] = clip8(sum);
    }
}

/* ---- x86-64 vector paths ------------------------------------------------------------------- */

#if defined(__x86_64__)
#include <immintrin.h>

/* AVX2, horizontal: two taps of one output pixel a 256-bit register (a pixel's four samples as
 * 32-bit lanes, times its weight spread over them), two accumulators; the last one to three taps
 * one pixel at a time in a 128-bit register. */
__attribute__((target("avx2"))) static void lanczos_across_avx2(const uint8_t *source, size_t width, const int32_t *starts,
                                                                const int32_t *counts, const int32_t *weights, size_t weight_stride,
                                                                uint8_t *target) {
    const __m256i first_pair = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i second_pair = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    for (size_t x = 0; x < width; x++) {
        const uint8_t *pixel = source + 4 * (size_t)starts[x];
        const int32_t *weight = weights + x * weight_stride;
        int32_t taps = counts[x], tap = 0;
        __m256i sum0 = _mm256_setzero_si256(), sum1 = _mm256_setzero_si256();
        for (; tap + 4 <= taps; tap += 4) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)(pixel + 4 * tap));
            __m256i four = _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(weight + tap)));
            __m256i low = _mm256_cvtepu8_epi32(bytes), high = _mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8));
            sum0 = _mm256_add_epi32(sum0, _mm256_mullo_epi32(low, _mm256_permutevar8x32_epi32(four, first_pair)));
            sum1 = _mm256_add_epi32(sum1, _mm256_mullo_epi32(high, _mm256_permutevar8x32_epi32(four, second_pair)));
        }
        __m256i both = _mm256_add_epi32(sum0, sum1);
        __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(both), _mm256_extracti128_si256(both, 1));
        sum = _mm_add_epi32(sum, _mm_set1_epi32(HALF));
        for (; tap < taps; tap++) {
            int32_t one;
            memcpy(&one, pixel + 4 * tap, 4);
            sum = _mm_add_epi32(sum, _mm_mullo_epi32(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(one)), _mm_set1_epi32(weight[tap])));
        }
        __m128i packed = _mm_srai_epi32(sum, PRECISION_BITS);
        packed = _mm_packus_epi16(_mm_packs_epi32(packed, packed), packed);
        int32_t bytes = _mm_cvtsi128_si32(packed);
        memcpy(target + 4 * x, &bytes, 4);
    }
}

/* AVX2, vertical: 32 bytes of the row a step in four accumulators of eight 32-bit lanes, every
 * tap's row added in; the packing interleaves 32-bit groups, which one permutation puts back. */
__attribute__((target("avx2"))) static void lanczos_down_avx2(const uint8_t *const *rows, size_t taps, const int32_t *weights,
                                                              size_t width, uint8_t *target) {
    const size_t length = 4 * width;
    const __m256i half = _mm256_set1_epi32(HALF);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i opaque = _mm256_set1_epi32((int32_t)0xFF000000u);
    size_t index = 0;
    for (; index + 32 <= length; index += 32) {
        __m256i sum0 = half, sum1 = half, sum2 = half, sum3 = half;
        for (size_t tap = 0; tap < taps; tap++) {
            const uint8_t *row = rows[tap] + index;
            __m256i weight = _mm256_set1_epi32(weights[tap]);
            __m256i bytes = _mm256_loadu_si256((const __m256i *)row);
            __m128i low = _mm256_castsi256_si128(bytes), high = _mm256_extracti128_si256(bytes, 1);
            sum0 = _mm256_add_epi32(sum0, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(low), weight));
            sum1 = _mm256_add_epi32(sum1, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_srli_si128(low, 8)), weight));
            sum2 = _mm256_add_epi32(sum2, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(high), weight));
            sum3 = _mm256_add_epi32(sum3, _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_srli_si128(high, 8)), weight));
        }
        __m256i words01 = _mm256_packs_epi32(_mm256_srai_epi32(sum0, PRECISION_BITS), _mm256_srai_epi32(sum1, PRECISION_BITS));
        __m256i words23 = _mm256_packs_epi32(_mm256_srai_epi32(sum2, PRECISION_BITS), _mm256_srai_epi32(sum3, PRECISION_BITS));
        __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(words01, words23), order);
        _mm256_storeu_si256((__m256i *)(target + index), _mm256_or_si256(bytes, opaque));
    }
    lanczos_down_portable(rows, taps, weights, index, width, target);
}

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx2")))

/* AVX-512, horizontal: four taps of one output pixel a 512-bit register, two accumulators; the
 * last one to three taps through masked loads (which read nothing past the row's end). */
AVX512 static void lanczos_across_avx512(const uint8_t *source, size_t width, const int32_t *starts, const int32_t *counts,
                                         const int32_t *weights, size_t weight_stride, uint8_t *target) {
    const __m512i spread = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    for (size_t x = 0; x < width; x++) {
        const uint8_t *pixel = source + 4 * (size_t)starts[x];
        const int32_t *weight = weights + x * weight_stride;
        int32_t taps = counts[x], tap = 0;
        __m512i sum0 = _mm512_setzero_si512(), sum1 = _mm512_setzero_si512();
        for (; tap + 8 <= taps; tap += 8) {
            __m512i pixels0 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(pixel + 4 * tap)));
            __m512i pixels1 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(pixel + 4 * tap + 16)));
            __m512i weights0 = _mm512_permutexvar_epi32(spread, _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(weight + tap))));
            __m512i weights1 = _mm512_permutexvar_epi32(spread, _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(weight + tap + 4))));
            sum0 = _mm512_add_epi32(sum0, _mm512_mullo_epi32(pixels0, weights0));
            sum1 = _mm512_add_epi32(sum1, _mm512_mullo_epi32(pixels1, weights1));
        }
        for (; tap < taps; tap += 4) {
            int32_t left = taps - tap < 4 ? taps - tap : 4;
            __m128i bytes = _mm_maskz_loadu_epi8((__mmask16)((1u << (4 * left)) - 1), pixel + 4 * tap);
            __m128i four = _mm_maskz_loadu_epi32((__mmask8)((1u << left) - 1), weight + tap);
            sum0 = _mm512_add_epi32(sum0, _mm512_mullo_epi32(_mm512_cvtepu8_epi32(bytes),
                                                             _mm512_permutexvar_epi32(spread, _mm512_castsi128_si512(four))));
        }
        __m512i sum = _mm512_add_epi32(sum0, sum1);
        __m256i eight = _mm256_add_epi32(_mm512_castsi512_si256(sum), _mm512_extracti64x4_epi64(sum, 1));
        __m128i four = _mm_add_epi32(_mm256_castsi256_si128(eight), _mm256_extracti128_si256(eight, 1));
        four = _mm_max_epi32(_mm_srai_epi32(_mm_add_epi32(four, _mm_set1_epi32(HALF)), PRECISION_BITS), _mm_setzero_si128());
        _mm_mask_storeu_epi8(target + 4 * x, 0xF, _mm_cvtusepi32_epi8(four));
    }
}

/* One 16-byte group of the vertical pass: the sums clipped to bytes, alpha set. */
AVX512 static inline __m128i lanczos_clip_opaque_avx512(__m512i sum) {
    __m512i clipped = _mm512_max_epi32(_mm512_srai_epi32(sum, PRECISION_BITS), _mm512_setzero_si512());
    return _mm_or_si128(_mm512_cvtusepi32_epi8(clipped), _mm_set1_epi32((int32_t)0xFF000000u));
}

/* AVX-512, vertical: 64 bytes of the row a step in four accumulators of sixteen 32-bit lanes,
 * then 16 bytes a step, then a masked step for the last one to three pixels. */
AVX512 static void lanczos_down_avx512(const uint8_t *const *rows, size_t taps, const int32_t *weights, size_t width,
                                       uint8_t *target) {
    const size_t length = 4 * width;
    const __m512i half = _mm512_set1_epi32(HALF);
    size_t index = 0;
    for (; index + 64 <= length; index += 64) {
        __m512i sum0 = half, sum1 = half, sum2 = half, sum3 = half;
        for (size_t tap = 0; tap < taps; tap++) {
            const __m128i *row = (const __m128i *)(rows[tap] + index);
            __m512i weight = _mm512_set1_epi32(weights[tap]);
            sum0 = _mm512_add_epi32(sum0, _mm512_mullo_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128(row)), weight));
            sum1 = _mm512_add_epi32(sum1, _mm512_mullo_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128(row + 1)), weight));
            sum2 = _mm512_add_epi32(sum2, _mm512_mullo_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128(row + 2)), weight));
            sum3 = _mm512_add_epi32(sum3, _mm512_mullo_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128(row + 3)), weight));
        }
        __m128i *out = (__m128i *)(target + index);
        _mm_storeu_si128(out, lanczos_clip_opaque_avx512(sum0));
        _mm_storeu_si128(out + 1, lanczos_clip_opaque_avx512(sum1));
        _mm_storeu_si128(out + 2, lanczos_clip_opaque_avx512(sum2));
        _mm_storeu_si128(out + 3, lanczos_clip_opaque_avx512(sum3));
    }
    for (; index < length; index += 16) {
        __mmask16 mask = length - index >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (length - index)) - 1);
        __m512i sum = half;
        for (size_t tap = 0; tap < taps; tap++) {
            __m128i bytes = _mm_maskz_loadu_epi8(mask, rows[tap] + index);
            sum = _mm512_add_epi32(sum, _mm512_mullo_epi32(_mm512_cvtepu8_epi32(bytes), _mm512_set1_epi32(weights[tap])));
        }
        _mm_mask_storeu_epi8(target + index, mask, lanczos_clip_opaque_avx512(sum));
    }
}
#endif

/* ---- Choice of path ------------------------------------------------------------------------ */

int lanczos_kernels_supported(int kernels) {
    switch (kernels) {
    case LANCZOS_KERNELS_PORTABLE: return 1;
#if defined(__x86_64__)
    case LANCZOS_KERNELS_AVX2: return __builtin_cpu_supports("avx2");
    case LANCZOS_KERNELS_AVX512:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl");
#endif
    default: return 0;
    }
}

/* The widest supported path not wider than `kernels`. */
static int usable(int kernels) {
    if (kernels > LANCZOS_KERNELS_AVX512) kernels = LANCZOS_KERNELS_AVX512;
    while (kernels > LANCZOS_KERNELS_PORTABLE && !lanczos_kernels_supported(kernels)) kernels--;
    return kernels < LANCZOS_KERNELS_PORTABLE ? LANCZOS_KERNELS_PORTABLE : kernels;
}

int lanczos_resample_across(int kernels, const uint8_t *source, size_t width, const int32_t *starts, const int32_t *counts,
                            const int32_t *weights, size_t weight_stride, uint8_t *target) {
    kernels = usable(kernels);
    switch (kernels) {
#if defined(__x86_64__)
    case LANCZOS_KERNELS_AVX512: lanczos_across_avx512(source, width, starts, counts, weights, weight_stride, target); break;
    case LANCZOS_KERNELS_AVX2: lanczos_across_avx2(source, width, starts, counts, weights, weight_stride, target); break;
#endif
    default: lanczos_across_portable(source, width, starts, counts, weights, weight_stride, target); break;
    }
    return kernels;
}

int lanczos_resample_down(int kernels, const uint8_t *const *rows, size_t taps, const int32_t *weights, size_t width,
                          uint8_t *target) {
    kernels = usable(kernels);
    switch (kernels) {
#if defined(__x86_64__)
    case LANCZOS_KERNELS_AVX512: lanczos_down_avx512(rows, taps, weights, width, target); break;
    case LANCZOS_KERNELS_AVX2: lanczos_down_avx2(rows, taps, weights, width, target); break;
#endif
    default: lanczos_down_portable(rows, taps, weights, 0, width, target); break;
    }
    return kernels;
}
