#include <lcms2.h>

// Pixel formats are function-like macros, which Swift does not import: named constants instead.
static const cmsUInt32Number sticker_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number sticker_TYPE_RGB_FLT = TYPE_RGB_FLT;
static const cmsUInt32Number sticker_TYPE_RGBA_16 = TYPE_RGBA_16;
static const cmsUInt32Number sticker_TYPE_RGB_16 = TYPE_RGB_16;
static const cmsUInt32Number sticker_TYPE_Lab_16 = TYPE_Lab_16;
