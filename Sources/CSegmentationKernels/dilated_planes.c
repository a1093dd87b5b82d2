/* A 3x3 convolution of dilation d as an ordinary one (dilation 1) on d x d subplanes, so that
 * Winograd F(4x4, 3x3) can run it; see include/segmentation_kernels.h (sk_dilated_*).
 *
 * The pixels (a + d i, b + d j) of a plane form subplane (a, b), and a dilated kernel reads, for
 * each of them, only pixels of the same subplane, its neighbours there: on each subplane the
 * convolution is an ordinary 3x3 one with zero padding (a neighbour outside the subplane lies
 * outside the plane). The d x d subplanes are stacked into one tall plane, each in a block of
 * S = roundup4(ceil(H / d) + 1) rows: its rows below ceil(H / d) (and its columns, when W is not
 * a multiple of d, from the subplane's own width on) are zeros, so the row just above each block
 * is zero, and a tile row never mixes two subplanes in an output that is kept (outputs in the
 * zero rows are thrown away when scattered back). u2net's dilated layers at 20 x 20: dilation 2
 * gives 4 blocks of 10 x 10 in 12 rows (36 tiles against 400 pixels x 9 taps directly), 4 gives
 * 16 blocks of 5 x 5 in 8 rows (64 tiles). */
#include "segmentation_kernels.h"

#include <limits.h>
#include <string.h>

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

int sk_dilated_tall_size(int H, int W, int d, int *tallH, int *tallW) {
    if (H <= 0 || W <= 0 || d <= 0 || !tallH || !tallW) return -1;
    long long block = ((ceil_div(H, d) + 1 + 3) / 4) * 4;
    long long rows = block * d * d;
    if (rows * ceil_div(W, d) > INT_MAX) return -1;
    *tallH = (int)rows;
    *tallW = ceil_div(W, d);
    return 0;
}

/* Copies between the planes (C of H x W) and the tall plane: into the tall plane when `gather`,
 * back out of it otherwise. Sizes are checked by the callers. */
static void dilated_copy(float *planes, float *tall, int C, int H, int W, int d, int th, int tw, int gather) {
    int block = th / (d * d);
    size_t plane = (size_t)H * W, tallPlane = (size_t)th * tw;
    for (int c = 0; c < C; c++)
        for (int a = 0; a < d && a < H; a++)
            for (int b = 0; b < d && b < W; b++) {
                float *sub = tall + (size_t)c * tallPlane + (size_t)(a * d + b) * block * tw;
                float *whole = planes + (size_t)c * plane;
                for (int y = a, i = 0; y < H; y += d, i++)
                    for (int x = b, j = 0; x < W; x += d, j++) {
                        if (gather) sub[(size_t)i * tw + j] = whole[(size_t)y * W + x];
                        else whole[(size_t)y * W + x] = sub[(size_t)i * tw + j];
                    }
            }
}

int sk_dilated_gather(const float *in, int C, int H, int W, int d, float *tall) {
    int th, tw;
    if (!in || !tall || C <= 0 || sk_dilated_tall_size(H, W, d, &th, &tw)) return -1;
    memset(tall, 0, sizeof(float) * (size_t)th * tw * (size_t)C);
    /* Only read through `planes` when gathering. */
    dilated_copy((float *)in, tall, C, H, W, d, th, tw, 1);
    return 0;
}

int sk_dilated_scatter(const float *tall, int C, int H, int W, int d, float *out) {
    int th, tw;
    if (!tall || !out || C <= 0 || sk_dilated_tall_size(H, W, d, &th, &tw)) return -1;
    /* Only read through `tall` when scattering. */
    dilated_copy(out, (float *)tall, C, H, W, d, th, tw, 0);
    return 0;
}
