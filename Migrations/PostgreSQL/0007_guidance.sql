-- An entry's cut-out guidance (`catalog recut`), as Migrations/0007_guidance.sql for SQLite: the same
-- sorted-keys JSON text (not jsonb, which would reorder and respace it: both back ends give back the
-- text as stored, so a copy keeps it byte for byte); NULL when the entry has none.
ALTER TABLE photo ADD COLUMN guidance_json TEXT CHECK (guidance_json IS NULL OR guidance_json::json IS NOT NULL);
