-- Schema v11: the part of a clip an entry's animated sticker is cut from, when a person chose one
-- (`catalog import`/`recut --clip START,DURATION --max-frames N`). Like guidance (0007) it belongs to the
-- entry, not to its sticker: every later cut-out of the entry (reprocess, work, an edit in place) takes
-- the same part, so it lives on the entry's row and a copy carries it. NULL is the default part (the
-- first 3 seconds, at most 90 frames), never a JSON copy of it. The JSON is ClipWindow's, as sorted-keys
-- text: `{"durationSeconds":3,"maxFrames":90,"startSeconds":2.5}`.
ALTER TABLE photo ADD COLUMN clip_json TEXT CHECK (clip_json IS NULL OR json_valid(clip_json));
