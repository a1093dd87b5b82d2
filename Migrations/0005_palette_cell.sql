-- Colour search with several colours: the palette colours again, clustered by a cell of Oklab space
-- (a cube of 0.025 = 2.5 ΔE a side) and, inside a cell, by share. A search reads each cell near a
-- query colour from its largest shares down, a few rows at a time, for every query colour together:
-- sequential reads of one B-tree instead of the R*Tree's per-row work (see PaletteCellStream).
-- The exact doubles are kept here, so scoring a row needs no other table.
-- cell = (li * 128 + ai) * 128 + bi, each index (x + 1) × 40 truncated and clamped to 0...127
-- (palette colours come from sRGB, so L is in 0...1 and a, b in −0.5...0.5: far from the clamps).
-- PaletteCellStream computes the same indexes; change both together.
CREATE TABLE palette_cell (
    cell     INTEGER NOT NULL,
    share    REAL NOT NULL,
    id       INTEGER NOT NULL,   -- palette_color.id
    photo_id INTEGER NOT NULL,
    l        REAL NOT NULL,
    a        REAL NOT NULL,
    b        REAL NOT NULL,
    PRIMARY KEY (cell, share, id)
) WITHOUT ROWID;

INSERT INTO palette_cell (cell, share, id, photo_id, l, a, b)
    SELECT (max(0, min(127, CAST((l + 1) * 40 AS INTEGER))) * 128
            + max(0, min(127, CAST((a + 1) * 40 AS INTEGER)))) * 128
            + max(0, min(127, CAST((b + 1) * 40 AS INTEGER))) AS cell,
           share, id, photo_id, l, a, b
    FROM palette_color ORDER BY cell, share, id;

-- Kept current by triggers, whoever writes palette_color (import, reprocess, cascading deletes).
CREATE TRIGGER palette_cell_insert AFTER INSERT ON palette_color BEGIN
    INSERT INTO palette_cell (cell, share, id, photo_id, l, a, b) VALUES (
        (max(0, min(127, CAST((new.l + 1) * 40 AS INTEGER))) * 128
         + max(0, min(127, CAST((new.a + 1) * 40 AS INTEGER)))) * 128
         + max(0, min(127, CAST((new.b + 1) * 40 AS INTEGER))),
        new.share, new.id, new.photo_id, new.l, new.a, new.b);
END;

CREATE TRIGGER palette_cell_delete AFTER DELETE ON palette_color BEGIN
    DELETE FROM palette_cell
    WHERE cell = (max(0, min(127, CAST((old.l + 1) * 40 AS INTEGER))) * 128
                  + max(0, min(127, CAST((old.a + 1) * 40 AS INTEGER)))) * 128
                  + max(0, min(127, CAST((old.b + 1) * 40 AS INTEGER)))
      AND share = old.share AND id = old.id;
END;

CREATE TRIGGER palette_cell_update AFTER UPDATE ON palette_color BEGIN
    DELETE FROM palette_cell
    WHERE cell = (max(0, min(127, CAST((old.l + 1) * 40 AS INTEGER))) * 128
                  + max(0, min(127, CAST((old.a + 1) * 40 AS INTEGER)))) * 128
                  + max(0, min(127, CAST((old.b + 1) * 40 AS INTEGER)))
      AND share = old.share AND id = old.id;
    INSERT INTO palette_cell (cell, share, id, photo_id, l, a, b) VALUES (
        (max(0, min(127, CAST((new.l + 1) * 40 AS INTEGER))) * 128
         + max(0, min(127, CAST((new.a + 1) * 40 AS INTEGER)))) * 128
         + max(0, min(127, CAST((new.b + 1) * 40 AS INTEGER))),
        new.share, new.id, new.photo_id, new.l, new.a, new.b);
END;
