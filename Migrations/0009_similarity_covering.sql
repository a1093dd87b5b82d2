-- Schema v9: the near-duplicate lookup's quarter indexes carry the whole hash beside the quarter, so
-- the exact distance is checked inside the index (the `hamming(a, b)` function the catalog registers on
-- every connection) and only the true neighbours are read from the table. With the quarter alone a
-- lookup read every row that shared a quarter, about 3,000 at a million entries, each from the table.
-- The expressions stay the ones SimilarityQuery writes in queries.
DROP INDEX similarity_photo_0;
DROP INDEX similarity_photo_1;
DROP INDEX similarity_photo_2;
DROP INDEX similarity_photo_3;
DROP INDEX similarity_surroundings_0;
DROP INDEX similarity_surroundings_1;
DROP INDEX similarity_surroundings_2;
DROP INDEX similarity_surroundings_3;
DROP INDEX similarity_subject_0;
DROP INDEX similarity_subject_1;
DROP INDEX similarity_subject_2;
DROP INDEX similarity_subject_3;
CREATE INDEX similarity_photo_0 ON similarity((photo_hash & 65535), photo_hash);
CREATE INDEX similarity_photo_1 ON similarity(((photo_hash >> 16) & 65535), photo_hash);
CREATE INDEX similarity_photo_2 ON similarity(((photo_hash >> 32) & 65535), photo_hash);
CREATE INDEX similarity_photo_3 ON similarity(((photo_hash >> 48) & 65535), photo_hash);
CREATE INDEX similarity_surroundings_0 ON similarity((surroundings_hash & 65535), surroundings_hash);
CREATE INDEX similarity_surroundings_1 ON similarity(((surroundings_hash >> 16) & 65535), surroundings_hash);
CREATE INDEX similarity_surroundings_2 ON similarity(((surroundings_hash >> 32) & 65535), surroundings_hash);
CREATE INDEX similarity_surroundings_3 ON similarity(((surroundings_hash >> 48) & 65535), surroundings_hash);
CREATE INDEX similarity_subject_0 ON similarity((subject_hash & 65535), subject_hash);
CREATE INDEX similarity_subject_1 ON similarity(((subject_hash >> 16) & 65535), subject_hash);
CREATE INDEX similarity_subject_2 ON similarity(((subject_hash >> 32) & 65535), subject_hash);
CREATE INDEX similarity_subject_3 ON similarity(((subject_hash >> 48) & 65535), subject_hash);
