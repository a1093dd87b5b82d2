-- Which set of image formats the binary that last examined a photo could decode
-- (PhotoDecoder.decoderVersion), as Migrations/0003_decoder_version.sql for SQLite.
-- NULL: recorded before this column existed, by a binary with set 1.
ALTER TABLE photo ADD COLUMN decoder_version BIGINT CHECK (decoder_version IS NULL OR decoder_version >= 1);
