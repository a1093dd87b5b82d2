-- Colour search: the cube extension's GiST index over the palette colours in Oklab, where SQLite has
-- its R*Tree (Migrations/0002_palette_index.sql). The point is a generated column, so whoever writes
-- palette_color (import, reprocess, cascading deletes) keeps it current; `oklab <-> cube(...)` is the
-- Euclidean distance, and ORDER BY it walks the index nearest first (a KNN scan).
-- cube is a trusted extension (PostgreSQL 13+): the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS cube;

ALTER TABLE palette_color
    ADD COLUMN oklab cube GENERATED ALWAYS AS (cube(ARRAY[l, a, b])) STORED;

CREATE INDEX palette_color_oklab ON palette_color USING gist (oklab);
