-- Live Photos, as Migrations/0012_live_photo.sql for SQLite: one row a pair of a still entry and its
-- clip entry, gone with either of them.
CREATE TABLE live_photo (
    still_id BIGINT PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
    clip_id  BIGINT NOT NULL UNIQUE REFERENCES photo(id) ON DELETE CASCADE,
    CHECK (still_id <> clip_id)
);
