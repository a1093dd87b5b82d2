#include <lcms2.h>

// Pixel formats are function-like macros, which Swift does not import: named constants instead.
static const cmsUInt32Number sticker_TYPE_RGBA_8 = TYPE_RGBA_8;
