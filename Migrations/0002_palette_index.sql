-- Colour search: an R*Tree over the palette colours, in Oklab, with the share as a fourth dimension
-- (so a search can take the large shares first and stop early) and the photo id as an auxiliary column
-- (so the hot path reads no other table). Rows are points: min = max in every dimension.
-- The R*Tree stores 32-bit floats (rounded outwards); exact distances come from palette_color.
CREATE VIRTUAL TABLE palette_index USING rtree(
    id,                      -- palette_color.id
    l_min, l_max,
    a_min, a_max,
    b_min, b_max,
    share_min, share_max,
    +photo_id INTEGER
);

INSERT INTO palette_index (id, l_min, l_max, a_min, a_max, b_min, b_max, share_min, share_max, photo_id)
    SELECT id, l, l, a, a, b, b, share, share, photo_id FROM palette_color;

-- Kept current by triggers, whoever writes palette_color (import, reprocess, cascading deletes).
CREATE TRIGGER palette_index_insert AFTER INSERT ON palette_color BEGIN
    INSERT INTO palette_index (id, l_min, l_max, a_min, a_max, b_min, b_max, share_min, share_max, photo_id)
        VALUES (new.id, new.l, new.l, new.a, new.a, new.b, new.b, new.share, new.share, new.photo_id);
END;

CREATE TRIGGER palette_index_delete AFTER DELETE ON palette_color BEGIN
    DELETE FROM palette_index WHERE id = old.id;
END;

CREATE TRIGGER palette_index_update AFTER UPDATE ON palette_color BEGIN
    DELETE FROM palette_index WHERE id = old.id;
    INSERT INTO palette_index (id, l_min, l_max, a_min, a_max, b_min, b_max, share_min, share_max, photo_id)
        VALUES (new.id, new.l, new.l, new.a, new.a, new.b, new.b, new.share, new.share, new.photo_id);
END;
