-- The near-duplicate lookup's quarter indexes carry the whole hash, as Migrations/0009_similarity_covering.sql
-- for SQLite: the exact distance (bit_count of the two hashes' XOR) is checked inside the index. The
-- entry's id is included (SQLite's indexes hold the rowid anyway), so the lookup is an index-only scan
-- and reads the table for nothing.
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
CREATE INDEX similarity_photo_0 ON similarity((photo_hash & 65535), photo_hash) INCLUDE (photo_id);
CREATE INDEX similarity_photo_1 ON similarity(((photo_hash >> 16) & 65535), photo_hash) INCLUDE (photo_id);
CREATE INDEX similarity_photo_2 ON similarity(((photo_hash >> 32) & 65535), photo_hash) INCLUDE (photo_id);
CREATE INDEX similarity_photo_3 ON similarity(((photo_hash >> 48) & 65535), photo_hash) INCLUDE (photo_id);
CREATE INDEX similarity_surroundings_0 ON similarity((surroundings_hash & 65535), surroundings_hash) INCLUDE (photo_id);
CREATE INDEX similarity_surroundings_1 ON similarity(((surroundings_hash >> 16) & 65535), surroundings_hash) INCLUDE (photo_id);
CREATE INDEX similarity_surroundings_2 ON similarity(((surroundings_hash >> 32) & 65535), surroundings_hash) INCLUDE (photo_id);
CREATE INDEX similarity_surroundings_3 ON similarity(((surroundings_hash >> 48) & 65535), surroundings_hash) INCLUDE (photo_id);
CREATE INDEX similarity_subject_0 ON similarity((subject_hash & 65535), subject_hash) INCLUDE (photo_id);
CREATE INDEX similarity_subject_1 ON similarity(((subject_hash >> 16) & 65535), subject_hash) INCLUDE (photo_id);
CREATE INDEX similarity_subject_2 ON similarity(((subject_hash >> 32) & 65535), subject_hash) INCLUDE (photo_id);
CREATE INDEX similarity_subject_3 ON similarity(((subject_hash >> 48) & 65535), subject_hash) INCLUDE (photo_id);
