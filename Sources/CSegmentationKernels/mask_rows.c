#include "mask_rows.h"

/* Bit-for-bit agreement with the Swift path needs separate multiply and add. */
#pragma STDC FP_CONTRACT OFF

void sk_blend_rows_to_bytes(const float *top, const float *bottom, float weight, int count, uint8_t *out) {
    for (int x = 0; x < count; x++) {
        float value = top[x] + (bottom[x] - top[x]) * weight + 0.5f;
        value = value < 0.0f ? 0.0f : value;
        value = value > 255.0f ? 255.0f : value;
        out[x] = (uint8_t)value;
    }
}
