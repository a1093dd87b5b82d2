-- Schema v12: Live Photos. An iPhone Live Photo is a still (HEIC or JPEG) and a MOV of the same base
-- name in the same folder; import makes the still a still entry and the clip an animated entry, and this
-- row says the two belong together. One row a pair, with the roles in its columns (a still has at most
-- one clip and a clip one still). It links entries, not stickers: reprocessing either keeps it, and
-- removing either entry removes the link and leaves the other entry as it is.
CREATE TABLE live_photo (
    still_id INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
    clip_id  INTEGER NOT NULL UNIQUE REFERENCES photo(id) ON DELETE CASCADE,
    CHECK (still_id <> clip_id)
);
