-- Which set of image formats the binary that last examined a photo could decode
-- (PhotoDecoder.decoderVersion: 1 = JPEG and PNG; 2 = also WebP, HEIF/HEIC and AVIF).
-- Format support is a property of the binary, not of the bytes: an entry that failed as
-- 'unsupported-format' under an older set is stale (reason 'decoder') for a binary with a newer one.
-- NULL: recorded before this column existed, by a binary with set 1.
ALTER TABLE photo ADD COLUMN decoder_version INTEGER CHECK (decoder_version IS NULL OR decoder_version >= 1);
