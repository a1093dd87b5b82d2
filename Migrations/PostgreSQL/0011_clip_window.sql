-- An entry's chosen part of a clip (`--clip`, `--max-frames`), as Migrations/0011_clip_window.sql for
-- SQLite: the same sorted-keys JSON text (not jsonb, so a copy keeps it byte for byte); NULL for the
-- default part.
ALTER TABLE photo ADD COLUMN clip_json TEXT CHECK (clip_json IS NULL OR clip_json::json IS NOT NULL);
