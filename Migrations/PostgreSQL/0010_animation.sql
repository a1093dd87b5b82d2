-- Animated stickers, as Migrations/0010_animation.sql for SQLite: the moving sticker of an entry
-- made from a clip, beside its first frame in sticker_png.
CREATE TABLE animation (
    photo_id    BIGINT PRIMARY KEY REFERENCES sticker(photo_id) ON DELETE CASCADE,
    webp        BYTEA NOT NULL,
    frame_count INTEGER NOT NULL CHECK (frame_count >= 1),
    duration_ms INTEGER NOT NULL CHECK (duration_ms >= 1)
);
