#include "scale2x.h"

#include <stddef.h>
#include <stdlib.h>

/* Bit-for-bit agreement with the general kernel needs separate multiply and add. */
#pragma STDC FP_CONTRACT OFF

/* Row r (W values) widened to 2W: positions 2i and 2i+1 sit at i - 1/4 and i + 1/4, clamped at
 * the ends (where both neighbours are the edge value, as the general kernel's clamped pair is). */
static void widen(const float *r, int W, float *o) {
    o[0] = r[0] * 1.0f + r[0] * 0.0f;
    for (int i = 0; i + 1 < W; i++) {
        o[2 * i + 1] = r[i] * 0.75f + r[i + 1] * 0.25f;
        o[2 * i + 2] = r[i] * 0.25f + r[i + 1] * 0.75f;
    }
    o[2 * W - 1] = r[W - 1] * 0.75f + r[W - 1] * 0.25f;
}

static void blend(const float *top, const float *bottom, float wt, float wb, int n, float *o) {
    for (int x = 0; x < n; x++) o[x] = top[x] * wt + bottom[x] * wb;
}

int sk_resize_bilinear_2x(const float *in, int C, int H, int W, float *out) {
    if (!in || !out || C <= 0 || H <= 0 || W <= 0 || H > (1 << 15) || W > (1 << 15)) return -1;
    const int outW = 2 * W, outH = 2 * H;
    float *rows = malloc(sizeof(float) * 2 * (size_t)outW);
    if (!rows) return -1;
    for (int c = 0; c < C; c++) {
        const float *ip = in + (size_t)c * H * W;
        float *op = out + (size_t)c * outH * outW;
        /* widened[j % 2] holds source row j widened. */
        float *widened[2] = {rows, rows + outW};
        widen(ip, W, widened[0]);
        /* y = 0: source position -1/4, clamped to row 0 (weight 0 on its clamped neighbour). */
        blend(widened[0], widened[0], 1.0f, 0.0f, outW, op);
        for (int j = 0; j + 1 < H; j++) {
            widen(ip + (size_t)(j + 1) * W, W, widened[(j + 1) % 2]);
            const float *a = widened[j % 2], *b = widened[(j + 1) % 2];
            blend(a, b, 0.75f, 0.25f, outW, op + (size_t)(2 * j + 1) * outW);
            blend(a, b, 0.25f, 0.75f, outW, op + (size_t)(2 * j + 2) * outW);
        }
        const float *last = widened[(H - 1) % 2];
        blend(last, last, 0.75f, 0.25f, outW, op + (size_t)(outH - 1) * outW);
    }
    free(rows);
    return 0;
}

int sk_maxpool2x2_even(const float *in, int C, int H, int W, float *out) {
    if (!in || !out || C <= 0 || H <= 0 || W <= 0 || H % 2 || W % 2) return -1;
    const int Ho = H / 2, Wo = W / 2;
    for (int c = 0; c < C; c++) {
        const float *ip = in + (size_t)c * H * W;
        float *op = out + (size_t)c * Ho * Wo;
        for (int y = 0; y < Ho; y++) {
            const float *r0 = ip + (size_t)(2 * y) * W, *r1 = r0 + W;
            float *o = op + (size_t)y * Wo;
            for (int x = 0; x < Wo; x++) {
                /* The general kernel's order of comparisons: the first of equal values wins. */
                float m = r0[2 * x];
                m = r0[2 * x + 1] > m ? r0[2 * x + 1] : m;
                m = r1[2 * x] > m ? r1[2 * x] : m;
                m = r1[2 * x + 1] > m ? r1[2 * x + 1] : m;
                o[x] = m;
            }
        }
    }
    return 0;
}
