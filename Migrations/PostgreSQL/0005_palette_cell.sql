-- Schema v5. SQLite (Migrations/0005_palette_cell.sql) adds a palette index that groups colours by
-- Oklab cell and share, so that a search need not read low-share colours near the query. PostgreSQL
-- gets the same effect from the cube extension: a 4-D point per palette colour, its Oklab l, a, b and
-- its share scaled by 0.12 (ΔE 12, the default --within, in Oklab units). A KNN scan ordered by the
-- Chebyshev distance (`<=>`) to (l, a, b, 0.12) then hands out colours that are both near and large
-- first, and the distance reached bounds the score of every colour not handed out yet.
-- The 3-D index of 0002 is no longer read by the search; its column stays, checked by verify.
ALTER TABLE palette_color
    ADD COLUMN oklab_share cube GENERATED ALWAYS AS (cube(ARRAY[l, a, b, share * 0.12])) STORED;

CREATE INDEX palette_color_oklab_share ON palette_color USING gist (oklab_share);

DROP INDEX palette_color_oklab;
