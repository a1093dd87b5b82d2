-- Schema v10: animated stickers (entries made from clips, GIFs, animated WebP and APNG). The
-- sticker's `sticker_png` stays its first frame, so everything that shows or searches stills works
-- on it unchanged; this row holds the moving sticker: one animated WebP (lossy colour, lossless
-- alpha), its frame count and its running time. It goes with its sticker, as `similarity` does.
CREATE TABLE animation (
    photo_id    INTEGER PRIMARY KEY REFERENCES sticker(photo_id) ON DELETE CASCADE,
    webp        BLOB NOT NULL,
    frame_count INTEGER NOT NULL CHECK (frame_count >= 1),
    duration_ms INTEGER NOT NULL CHECK (duration_ms >= 1)
);
