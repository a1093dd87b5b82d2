/*
 * Colour conversion check for Display P3 / Adobe RGB / BT.2020 / any RGB ICC file to sRGB:
 * lcms2's cmsDoTransform (formats and flags as the product used them, and variants with ALL=1)
 * against the table loop of Sources/CColorMatrix, fed with tables made the way ColorConverter.swift
 * makes them. Prints the transform's creation time, the CPU a 1500 x 1125 RGBA image (the working
 * size of a 12 MP JPEG) costs, and the error over all 2^24 colours against lcms2's exact
 * evaluation (unoptimised, 16 bits, rounded to 8): mean and largest in 8-bit levels, and dE76.
 *
 *   gcc -O2 -ISources/CColorMatrix/include Benchmarks/color-conversion.c \
 *       Sources/CColorMatrix/color_matrix.c -llcms2 -lm -o /tmp/color-conversion
 *   /tmp/color-conversion p3      # or adobe, bt2020, /usr/share/color/icc/colord/AdobeRGB1998.icc
 */
#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include "color_matrix.h"

static double now(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

static cmsHPROFILE make(const char *name) {
    cmsCIExyY d65 = {0.3127, 0.3290, 1};
    if (!strcmp(name, "p3") || !strcmp(name, "bt2020")) {
        double p[5] = {2.4, 1/1.055, 0.055/1.055, 1/12.92, 0.04045};
        double q[5] = {1/0.45, 1/1.099, 0.099/1.099, 1/4.5, 0.081};
        int p3 = !strcmp(name, "p3");
        cmsToneCurve *t = cmsBuildParametricToneCurve(NULL, 4, p3 ? p : q);
        cmsCIExyYTRIPLE c = p3 ? (cmsCIExyYTRIPLE){{0.68,0.32,1},{0.265,0.69,1},{0.15,0.06,1}}
                               : (cmsCIExyYTRIPLE){{0.708,0.292,1},{0.17,0.797,1},{0.131,0.046,1}};
        cmsToneCurve *ts[3] = {t, t, t};
        return cmsCreateRGBProfile(&d65, &c, ts);
    }
    if (!strcmp(name, "adobe")) {
        double g = 563.0/256; cmsToneCurve *t = cmsBuildParametricToneCurve(NULL, 1, &g);
        cmsCIExyYTRIPLE c = {{0.64,0.33,1},{0.21,0.71,1},{0.15,0.06,1}};
        cmsToneCurve *ts[3] = {t, t, t};
        return cmsCreateRGBProfile(&d65, &c, ts);
    }
    return cmsOpenProfileFromFile(name, "r");
}

static void lab(const uint8_t *s, double *L) {
    double c[3];
    for (int i = 0; i < 3; i++) { double v = s[i] / 255.0; c[i] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4); }
    double X = (0.4124*c[0] + 0.3576*c[1] + 0.1805*c[2]) / 0.95047, Y = 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2], Z = (0.0193*c[0] + 0.1192*c[1] + 0.9505*c[2]) / 1.08883;
    double f[3]; double xyz[3] = {X, Y, Z};
    for (int i = 0; i < 3; i++) f[i] = xyz[i] > 216.0/24389 ? cbrt(xyz[i]) : (24389.0/27 * xyz[i] + 16) / 116;
    L[0] = 116*f[1] - 16; L[1] = 500*(f[0]-f[1]); L[2] = 200*(f[1]-f[2]);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s p3|adobe|bt2020|FILE.icc\n", argv[0]); return 2; }
    const char *name = argv[1];
    int W = 1500, H = 1125; size_t n = (size_t)W * H;
    uint8_t *img = malloc(n * 4), *work = malloc(n * 4);
    srand(1); for (size_t i = 0; i < n * 4; i++) img[i] = rand() & 255;
    cmsHPROFILE src = make(name), srgb = cmsCreate_sRGBProfile();
    if (!src) { printf("no profile\n"); return 1; }
    printf("== %s (class %x, matrix-shaper %d)\n", name, cmsGetDeviceClass(src), cmsIsMatrixShaper(src));
    struct { const char *label; cmsUInt32Number in, out, flags; int ch; } v[] = {
        {"RGBA_8 NOCACHE|COPY_ALPHA (now)", TYPE_RGBA_8, TYPE_RGBA_8, cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA, 4},
        {"RGBA_8 NOCACHE", TYPE_RGBA_8, TYPE_RGBA_8, cmsFLAGS_NOCACHE, 4},
        {"RGBA_8 (cache)", TYPE_RGBA_8, TYPE_RGBA_8, 0, 4},
        {"RGB_8 NOCACHE", TYPE_RGB_8, TYPE_RGB_8, cmsFLAGS_NOCACHE, 3},
        {"RGBA_8 NOCACHE|HIGHRES", TYPE_RGBA_8, TYPE_RGBA_8, cmsFLAGS_NOCACHE | cmsFLAGS_HIGHRESPRECALC, 4},
        {"RGBA_8 NOCACHE|LOWRES", TYPE_RGBA_8, TYPE_RGBA_8, cmsFLAGS_NOCACHE | cmsFLAGS_LOWRESPRECALC, 4},
    };
    for (unsigned k = 0; k < (getenv("ALL") ? sizeof v / sizeof v[0] : 1); k++) {
        double t0 = now();
        cmsHTRANSFORM x = NULL;
        for (int r = 0; r < 10; r++) { if (x) cmsDeleteTransform(x); x = cmsCreateTransform(src, v[k].in, srgb, v[k].out, INTENT_PERCEPTUAL, v[k].flags); }
        double t1 = now();
        uint8_t *buf = malloc(n * v[k].ch);
        for (size_t i = 0; i < n; i++) memcpy(buf + i * v[k].ch, img + i * 4, v[k].ch);
        double t2 = now();
        for (int r = 0; r < 5; r++) cmsDoTransform(x, buf, buf, n);
        double t3 = now();
        printf("%-36s create %.2f ms  apply %.2f ms/photo (%.1f ns/px)\n", v[k].label, (t1 - t0) * 100, (t3 - t2) * 200, (t3 - t2) / 5 / n * 1e9);
        cmsDeleteTransform(x); free(buf);
    }
    /* Reference: lcms2 unoptimised 16-bit. All 2^24 colours. */
    size_t all = 1 << 24;
    uint16_t *in16 = malloc(all * 6), *ref16 = malloc(all * 6);
    for (size_t c = 0; c < all; c++) { in16[c*3] = ((c >> 16) & 255) * 257; in16[c*3+1] = ((c >> 8) & 255) * 257; in16[c*3+2] = (c & 255) * 257; }
    cmsHTRANSFORM exact = cmsCreateTransform(src, TYPE_RGB_16, srgb, TYPE_RGB_16, INTENT_PERCEPTUAL, cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE);
    cmsDoTransform(exact, in16, ref16, all);
    uint8_t *ref = malloc(all * 4), *old = malloc(all * 4), *ours = malloc(all * 4);
    for (size_t c = 0; c < all; c++) { for (int i = 0; i < 3; i++) ref[c*4+i] = (ref16[c*3+i] * 255 + 32767) / 65535; ref[c*4+3] = 255;
        old[c*4] = (c >> 16) & 255; old[c*4+1] = (c >> 8) & 255; old[c*4+2] = c & 255; old[c*4+3] = 255; }
    memcpy(ours, old, all * 4);
    cmsHTRANSFORM now_x = cmsCreateTransform(src, TYPE_RGBA_8, srgb, TYPE_RGBA_8, INTENT_PERCEPTUAL, cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA);
    cmsDoTransform(now_x, old, old, all);
    uint8_t *orig = malloc(all * 4); memcpy(orig, ours, all * 4);

    /* Matrix-shaper tables from lcms2: src -> linear sRGB in float, columns, sRGB encode table. */
    double t0 = now();
    cmsCIExyY d65 = {0.3127, 0.3290, 1}; cmsCIExyYTRIPLE rec709 = {{0.64,0.33,1},{0.30,0.60,1},{0.15,0.06,1}};
    cmsToneCurve *one = cmsBuildGamma(NULL, 1.0); cmsToneCurve *ones[3] = {one, one, one};
    cmsHPROFILE linear = cmsCreateRGBProfile(&d65, &rec709, ones);
    cmsHTRANSFORM fx = cmsCreateTransform(src, TYPE_RGB_FLT, linear, TYPE_RGB_FLT, INTENT_PERCEPTUAL, cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE);
    float probe[769 * 3], lin[769 * 3];
    for (int c = 0; c < 3; c++) for (int l = 0; l < 256; l++) { float *p = probe + (c * 256 + l) * 3; p[0] = p[1] = p[2] = 0; p[c] = l / 255.0f; }
    probe[768*3] = probe[768*3+1] = probe[768*3+2] = 0;
    cmsDoTransform(fx, probe, lin, 769);
    static int32_t columns[768 * 4]; static uint8_t encode[65536];
    double scale = 65535.0 * 16;
    for (int c = 0; c < 3; c++) for (int l = 0; l < 256; l++) for (int k = 0; k < 3; k++) {
        double v = lin[(c * 256 + l) * 3 + k] - (c ? lin[768 * 3 + k] : 0); columns[(c * 256 + l) * 4 + k] = (int32_t)lrint(v * scale); }
    cmsToneCurve *rev = cmsReverseToneCurve((cmsToneCurve *)cmsReadTag(srgb, cmsSigRedTRCTag));
    for (int i = 0; i < 65536; i++) { double v = cmsEvalToneCurveFloat(rev, i / 65535.0f) * 255; encode[i] = v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)lrint(v); }
    double t1 = now();
    /* separability: 17^3 grid */
    double worst = 0; float g3[17*17*17*3], go[17*17*17*3]; int q = 0;
    for (int r = 0; r < 17; r++) for (int g = 0; g < 17; g++) for (int b = 0; b < 17; b++) { g3[q++] = r * 15 / 255.0f; g3[q++] = g * 15 / 255.0f; g3[q++] = b * 15 / 255.0f; }
    cmsDoTransform(fx, g3, go, 17*17*17); q = 0;
    for (int r = 0; r < 17; r++) for (int g = 0; g < 17; g++) for (int b = 0; b < 17; b++, q++) for (int k = 0; k < 3; k++) {
        double sum = (columns[(r*15)*4+k] + columns[(256+g*15)*4+k] + columns[(512+b*15)*4+k]) / scale; double d = fabs(sum - go[q*3+k]); if (d > worst) worst = d; }
    printf("matrix tables %.2f ms; separability worst %.2e\n", (t1 - t0) * 1000, worst);
    memcpy(ours, orig, all * 4);
    sticker_color_matrix_apply(columns, encode, ours, all);
    memcpy(work, img, n * 4);
    double t2 = now();
    for (int r = 0; r < 5; r++) sticker_color_matrix_apply(columns, encode, work, n);
    double t3 = now();
    printf("matrix kernel apply %.2f ms/photo (%.2f ns/px)\n", (t3 - t2) * 200, (t3 - t2) / 5 / n * 1e9);
    for (int s = 0; s < 2; s++) {
        uint8_t *cmp = s ? ours : old;
        double sum = 0, dsum = 0, dmax = 0; int mx = 0; size_t over1 = 0;
        for (size_t c = 0; c < all; c++) { for (int i = 0; i < 3; i++) { int d = abs(cmp[c*4+i] - ref[c*4+i]); sum += d; if (d > mx) mx = d; if (d > 1) over1++; }
            if ((c & 7) == 0) { double a[3], b[3]; lab(cmp + c*4, a); lab(ref + c*4, b); double e = sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2])); dsum += e; if (e > dmax) dmax = e; } }
        printf("   %s vs exact: mean %.4f levels, max %d, dE76 mean %.4f max %.2f\n", s ? "matrix kernel" : "lcms2 8-bit (now)", sum / all / 3, mx, dsum / (all / 8), dmax);
    }
    { double sum2 = 0; int mx2 = 0; size_t diff = 0; for (size_t c = 0; c < all * 4; c++) { int d = abs(ours[c] - old[c]); sum2 += d; if (d > mx2) mx2 = d; if (d) diff++; }
      printf("   matrix kernel vs lcms2 8-bit (now): mean %.4f, max %d, %.3f%% of channels differ\n", sum2 / all / 3, mx2, 100.0 * diff / all / 3); }
    return 0;
}
