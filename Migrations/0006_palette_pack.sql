-- Colour search with several colours, packed: the rows of `palette_cell` again, grouped by cell and by a
-- band of share (64 bands: band = share × 64 truncated, clamped to 0...63), each group in one BLOB of
-- fixed 48-byte records (share, l, a, b as IEEE doubles, id, photo_id as 64-bit integers, little-endian).
-- A search reads a cell's bands from the largest shares down: one B-tree row a band instead of one a
-- palette colour (see PalettePack and PalettePackReader; change the band formula in both together).
-- The key is cell × 64 + band, a rowid: SQLite finds a row by comparing integers and reads a BLOB of up
-- to ~4 KB from the leaf page in place (in a WITHOUT ROWID table, BLOBs over ~1 KB spill to overflow
-- pages, and every key comparison on such a row copies the whole record first).
CREATE TABLE palette_pack (
    cell_band INTEGER PRIMARY KEY,
    rows      BLOB NOT NULL
);

-- The bands whose packed rows no longer match `palette_cell` (same keys). SQL cannot write the records,
-- so the triggers only note the band here, whoever writes (import, reprocess, cascading deletes, the
-- sqlite3 shell); the catalog's writer packs the noted bands again before each of its transactions
-- commits. While any band is noted, searches read `palette_cell` itself, so a stale pack is never used.
CREATE TABLE palette_pack_dirty (
    cell_band INTEGER PRIMARY KEY
);

CREATE TRIGGER palette_pack_insert AFTER INSERT ON palette_cell BEGIN
    INSERT OR IGNORE INTO palette_pack_dirty (cell_band)
    VALUES (new.cell * 64 + max(0, min(63, CAST(new.share * 64 AS INTEGER))));
END;

CREATE TRIGGER palette_pack_delete AFTER DELETE ON palette_cell BEGIN
    INSERT OR IGNORE INTO palette_pack_dirty (cell_band)
    VALUES (old.cell * 64 + max(0, min(63, CAST(old.share * 64 AS INTEGER))));
END;

CREATE TRIGGER palette_pack_update AFTER UPDATE ON palette_cell BEGIN
    INSERT OR IGNORE INTO palette_pack_dirty (cell_band)
    VALUES (old.cell * 64 + max(0, min(63, CAST(old.share * 64 AS INTEGER))));
    INSERT OR IGNORE INTO palette_pack_dirty (cell_band)
    VALUES (new.cell * 64 + max(0, min(63, CAST(new.share * 64 AS INTEGER))));
END;

-- Every existing band is noted: the migration's writer packs them all before it commits.
INSERT INTO palette_pack_dirty (cell_band)
    SELECT DISTINCT cell * 64 + max(0, min(63, CAST(share * 64 AS INTEGER))) FROM palette_cell;
