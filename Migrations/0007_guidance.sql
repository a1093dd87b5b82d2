-- Schema v7: what a person told the cut-out about an entry's subject (`catalog recut`): a box around it,
-- points on parts to keep and on parts to take out, in the upright photo's pixels. It belongs to the
-- entry (the photo), not to its sticker: every later cut-out of the entry applies it (reprocess, work, an
-- edit in place), so it lives on the entry's row and goes with it. A column, not a table: there is at most
-- one guidance an entry, read with the row by every re-make, and most entries have none (NULL).
-- The JSON is CutoutGuidance's, as sorted-keys text (`{"box":{"height","width","x","y"},"exclude":[{"x","y"}],
-- "include":[...]}`); an empty guidance is stored as NULL, never as '{}'.
ALTER TABLE photo ADD COLUMN guidance_json TEXT CHECK (guidance_json IS NULL OR json_valid(guidance_json));
