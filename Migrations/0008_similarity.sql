-- Schema v8: what near-duplicates are found by (`catalog duplicates`, the import's near-duplicate
-- notes, `--distinct`). One row per sticker made by pipeline version 4 or later: three 64-bit
-- perceptual hashes, of the whole photo, of the photo around the subject and of the cut-out subject
-- (SimilaritySignature), stored as the signed integers with the same bits, the photo's sharpness and
-- the subject's mean colour.
-- It goes with its sticker: a reprocess deletes and rewrites it with the sticker. Stickers made
-- before have none; they are stale (reason 'pipeline') and get one when reprocessed.
CREATE TABLE similarity (
    photo_id          INTEGER PRIMARY KEY REFERENCES sticker(photo_id) ON DELETE CASCADE,
    photo_hash        INTEGER NOT NULL,
    surroundings_hash INTEGER NOT NULL,
    subject_hash      INTEGER NOT NULL,
    sharpness         REAL NOT NULL CHECK (sharpness >= 0),
    color_l           REAL NOT NULL,  -- the subject's mean colour, Oklab
    color_a           REAL NOT NULL,
    color_b           REAL NOT NULL
);
-- Multi-index hashing: each hash's four 16-bit quarters are indexed apart. Two hashes within d bits
-- agree on some quarter up to floor(d / 4) bits, so a lookup reads the quarters that close to the
-- query's, never the whole table. The expressions are the ones SimilarityBands writes in queries.
CREATE INDEX similarity_photo_0 ON similarity(photo_hash & 65535);
CREATE INDEX similarity_photo_1 ON similarity((photo_hash >> 16) & 65535);
CREATE INDEX similarity_photo_2 ON similarity((photo_hash >> 32) & 65535);
CREATE INDEX similarity_photo_3 ON similarity((photo_hash >> 48) & 65535);
CREATE INDEX similarity_surroundings_0 ON similarity(surroundings_hash & 65535);
CREATE INDEX similarity_surroundings_1 ON similarity((surroundings_hash >> 16) & 65535);
CREATE INDEX similarity_surroundings_2 ON similarity((surroundings_hash >> 32) & 65535);
CREATE INDEX similarity_surroundings_3 ON similarity((surroundings_hash >> 48) & 65535);
CREATE INDEX similarity_subject_0 ON similarity(subject_hash & 65535);
CREATE INDEX similarity_subject_1 ON similarity((subject_hash >> 16) & 65535);
CREATE INDEX similarity_subject_2 ON similarity((subject_hash >> 32) & 65535);
CREATE INDEX similarity_subject_3 ON similarity((subject_hash >> 48) & 65535);

-- What the user decided about near-duplicates, kept across reprocessing (it belongs to the entries,
-- not to their stickers): 'distinct' pairs are never grouped again (a group marked "not
-- duplicates" stores each of its pairs), and a 'keep' row names the entry the user keeps of its group,
-- taken as the group's best over the automatic rule. Pairs are stored with the smaller id first.
CREATE TABLE duplicate_decision (
    first_id  INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
    second_id INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
    kind      TEXT NOT NULL CHECK (kind IN ('distinct', 'keep')),
    decided_at TEXT NOT NULL,
    PRIMARY KEY (first_id, second_id, kind),
    CHECK ((kind = 'distinct' AND first_id < second_id) OR (kind = 'keep' AND first_id = second_id))
);
