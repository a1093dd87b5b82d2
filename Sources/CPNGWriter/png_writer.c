#include "png_writer.h"

#include <png.h>
#include <zlib.h>

#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PNG_SETJMP_SUPPORTED
#error "png_writer needs libpng built with setjmp support (libpng reports errors by longjmp)"
#endif

_Static_assert(PNG_WRITER_FILTER_NONE == PNG_FILTER_NONE, "filter flags match libpng");
_Static_assert(PNG_WRITER_FILTER_SUB == PNG_FILTER_SUB, "filter flags match libpng");
_Static_assert(PNG_WRITER_FILTER_UP == PNG_FILTER_UP, "filter flags match libpng");
_Static_assert(PNG_WRITER_FILTER_AVG == PNG_FILTER_AVG, "filter flags match libpng");
_Static_assert(PNG_WRITER_FILTER_PAETH == PNG_FILTER_PAETH, "filter flags match libpng");
_Static_assert(PNG_WRITER_FILTER_ALL == PNG_ALL_FILTERS, "filter flags match libpng");
_Static_assert(PNG_WRITER_STRATEGY_DEFAULT == Z_DEFAULT_STRATEGY, "strategies match zlib");
_Static_assert(PNG_WRITER_STRATEGY_FILTERED == Z_FILTERED, "strategies match zlib");
_Static_assert(PNG_WRITER_STRATEGY_HUFFMAN_ONLY == Z_HUFFMAN_ONLY, "strategies match zlib");
_Static_assert(PNG_WRITER_STRATEGY_RLE == Z_RLE, "strategies match zlib");
_Static_assert(PNG_WRITER_STRATEGY_FIXED == Z_FIXED, "strategies match zlib");

/* Everything the callbacks touch. It lives on the heap, not in png_writer_encode_rgba's frame:
 * the callbacks change it between setjmp and longjmp, and a changed non-volatile local would be
 * indeterminate after the longjmp (C11 7.13.2.1). */
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    uint8_t *row;
    char *error;
    size_t error_size;
    /* The first warning libpng gave, which often explains the error that follows it
     * ("Image width exceeds user limit in IHDR" before "Invalid IHDR data"). */
    char warning[160];
} writer_state;

static void set_error(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    snprintf(error, error_size, "%s", message);
}

/* libpng's error callback: records the message and jumps back to the setjmp in
 * png_writer_encode_rgba. libpng only calls it from inside that function's libpng calls, so the
 * jump crosses libpng's C frames and this file's callbacks, never the caller's. */
static void on_error(png_structp png, png_const_charp message) {
    writer_state *state = png_get_error_ptr(png);
    if (state != NULL && state->error != NULL && state->error_size > 0) {
        const char *text = message != NULL ? message : "libpng error";
        if (state->warning[0] != '\0') {
            snprintf(state->error, state->error_size, "%s (%s)", text, state->warning);
        } else {
            snprintf(state->error, state->error_size, "%s", text);
        }
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    writer_state *state = png_get_error_ptr(png);
    if (state != NULL && state->warning[0] == '\0' && message != NULL) {
        snprintf(state->warning, sizeof state->warning, "%s", message);
    }
}

static void on_write(png_structp png, png_bytep data, size_t length) {
    writer_state *state = png_get_io_ptr(png);
    if (length == 0) return;
    if (length > SIZE_MAX - state->size) png_error(png, "PNG output size overflows");
    size_t needed = state->size + length;
    if (needed > state->capacity) {
        size_t capacity = state->capacity > 0 ? state->capacity : 4096;
        while (capacity < needed) {
            capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
        }
        uint8_t *grown = realloc(state->data, capacity);
        if (grown == NULL) png_error(png, "out of memory for the PNG output");
        state->data = grown;
        state->capacity = capacity;
    }
    memcpy(state->data + state->size, data, length);
    state->size = needed;
}

static void on_flush(png_structp png) {
    (void)png;
}

int png_writer_encode_rgba(const uint8_t *rgba, size_t rgba_size, uint32_t width, uint32_t height,
                           int compression_level, int filters, int strategy,
                           uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    return png_writer_encode(rgba, rgba_size, width, height, 4, compression_level, filters, strategy,
                             out, out_size, error, error_size);
}

static int encode(const uint8_t *pixels, size_t pixels_size, png_writer_row_source source, void *context,
                  uint32_t width, uint32_t height, int channels,
                  int compression_level, int filters, int strategy,
                  uint8_t **out, size_t *out_size, char *error, size_t error_size);

int png_writer_encode(const uint8_t *rgba, size_t rgba_size, uint32_t width, uint32_t height, int channels,
                      int compression_level, int filters, int strategy,
                      uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    return encode(rgba, rgba_size, NULL, NULL, width, height, channels, compression_level, filters, strategy,
                  out, out_size, error, error_size);
}

int png_writer_encode_rows(png_writer_row_source source, void *context, uint32_t width, uint32_t height, int channels,
                           int compression_level, int filters, int strategy,
                           uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    return encode(NULL, 0, source, context, width, height, channels, compression_level, filters, strategy,
                  out, out_size, error, error_size);
}

/* Either `pixels` (the whole image, `pixels_size` bytes) or `source` (rows on demand) is given. */
static int encode(const uint8_t *rgba, size_t rgba_size, png_writer_row_source source, void *context,
                  uint32_t width, uint32_t height, int channels,
                  int compression_level, int filters, int strategy,
                  uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    if (error != NULL && error_size > 0) error[0] = '\0';
    if (out == NULL || out_size == NULL) {
        set_error(error, error_size, "no place for the output");
        return 1;
    }
    *out = NULL;
    *out_size = 0;

    if (rgba == NULL && source == NULL) {
        set_error(error, error_size, "no pixels");
        return 1;
    }
    if (channels != 1 && channels != 4) {
        set_error(error, error_size, "channels must be 1 (grey) or 4 (RGBA)");
        return 1;
    }
    if (width == 0 || height == 0 || width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX) {
        char message[96];
        snprintf(message, sizeof message, "%" PRIu32 "x%" PRIu32 " is not a PNG size", width, height);
        set_error(error, error_size, message);
        return 1;
    }
    /* width * height * channels <= SIZE_MAX, so every offset below fits (width >= 1 here). */
    if ((size_t)height > SIZE_MAX / (size_t)channels / width) {
        set_error(error, error_size, "the image is too large to address");
        return 1;
    }
    const size_t row_bytes = (size_t)width * (size_t)channels;
    if (source == NULL && row_bytes * height != rgba_size) {
        char message[128];
        snprintf(message, sizeof message, "%" PRIu32 "x%" PRIu32 " %s needs %zu bytes, got %zu",
                 width, height, channels == 1 ? "grey" : "RGBA", row_bytes * height, rgba_size);
        set_error(error, error_size, message);
        return 1;
    }
    if (compression_level < 0 || compression_level > 9) {
        set_error(error, error_size, "compression level must be 0-9");
        return 1;
    }
    if (filters == 0 || (filters & ~PNG_ALL_FILTERS) != 0) {
        set_error(error, error_size, "filters must be a nonzero combination of PNG_WRITER_FILTER_*");
        return 1;
    }
    if (strategy < Z_DEFAULT_STRATEGY || strategy > Z_FIXED) {
        set_error(error, error_size, "unknown zlib strategy");
        return 1;
    }

    writer_state *state = calloc(1, sizeof *state);
    if (state == NULL) {
        set_error(error, error_size, "out of memory");
        return 1;
    }
    state->error = error;
    state->error_size = error_size;
    /* A first guess at the output (photo-like stickers compress to about a quarter of their
     * pixels); the buffer doubles when the guess is short. */
    state->capacity = row_bytes * height / 4 + 4096;
    state->data = malloc(state->capacity);
    /* The row a source fills (a whole buffer's rows go to libpng as they are). */
    state->row = source != NULL ? malloc(row_bytes) : NULL;
    if (state->data == NULL || (source != NULL && state->row == NULL)) {
        free(state->data);
        free(state->row);
        free(state);
        set_error(error, error_size, "out of memory");
        return 1;
    }

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, state, on_error, on_warning);
    if (png == NULL) {
        free(state->data);
        free(state);
        set_error(error, error_size, "libpng could not create a write struct");
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(state->data);
        free(state->row);
        free(state);
        set_error(error, error_size, "libpng could not create an info struct");
        return 1;
    }

    /* libpng errors land here, from on_error. No local read after the jump (png, info, state,
     * rgba, row_bytes, height) is changed after setjmp, so none needs to be volatile; what the
     * callbacks change is in *state, on the heap. */
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(state->data);
        free(state->row);
        free(state);
        if (error != NULL && error_size > 0 && error[0] == '\0') {
            set_error(error, error_size, "libpng could not write the PNG");
        }
        return 1;
    }

    png_set_write_fn(png, state, on_write, on_flush);
    png_set_IHDR(png, info, width, height, 8, channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* As the simplified API tags 8-bit output: the pixels are sRGB. */
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_set_compression_level(png, compression_level);
    png_set_compression_strategy(png, strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        if (source == NULL) {
            png_write_row(png, rgba + (size_t)y * row_bytes);
        } else if (source(context, y, state->row) == 0) {
            png_write_row(png, state->row);
        } else {
            png_error(png, "the row source stopped");
        }
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);

    *out = state->data;
    *out_size = state->size;
    free(state->row);
    free(state);
    return 0;
}

void png_writer_free(uint8_t *buffer) {
    free(buffer);
}
