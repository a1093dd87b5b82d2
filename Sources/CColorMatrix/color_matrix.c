#include "color_matrix.h"

static inline uint8_t encoded(const uint8_t *encode, int32_t linear) {
    int32_t index = (linear + (1 << (STICKER_COLOR_MATRIX_FRACTION_BITS - 1))) >> STICKER_COLOR_MATRIX_FRACTION_BITS;
    index = index < 0 ? 0 : index;
    index = index > 65535 ? 65535 : index;
    return encode[index];
}

void sticker_color_matrix_apply(const int32_t *columns, const uint8_t *encode, uint8_t *rgba, size_t pixel_count) {
    const int32_t *red = columns, *green = columns + 256 * 4, *blue = columns + 512 * 4;
    for (size_t i = 0; i < pixel_count; i++) {
        uint8_t *pixel = rgba + i * 4;
        const int32_t *r = red + pixel[0] * 4, *g = green + pixel[1] * 4, *b = blue + pixel[2] * 4;
        const int32_t x = r[0] + g[0] + b[0], y = r[1] + g[1] + b[1], z = r[2] + g[2] + b[2];
        pixel[0] = encoded(encode, x);
        pixel[1] = encoded(encode, y);
        pixel[2] = encoded(encode, z);
    }
}
