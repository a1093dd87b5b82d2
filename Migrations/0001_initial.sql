-- Schema v1 of the sticker catalog. Released migrations are never edited:
-- later changes come as new files (0002_..., 0003_...).

-- One row per imported file, identified by the SHA-256 of its bytes.
-- A file whose bytes could not be read at all (status 'failed', code 'unreadable')
-- has no hash; it is then identified by its path.
-- Ids are shown to users and kept by scripts (`show ID`, `search --ids`), so AUTOINCREMENT:
-- the id of a deleted entry is never given to another photo.
CREATE TABLE photo (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    sha256          TEXT UNIQUE CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')),
    path            TEXT NOT NULL,
    file_size       INTEGER NOT NULL CHECK (file_size >= 0),
    file_mtime      REAL NOT NULL,                -- seconds since 1970, as read at import
    format          TEXT,                         -- 'jpeg', 'png', ... from the bytes; NULL when unknown
    width           INTEGER CHECK (width IS NULL OR width > 0),   -- oriented, full resolution
    height          INTEGER CHECK (height IS NULL OR height > 0),
    status          TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    failure_code    TEXT,
    failure_message TEXT,
    imported_at     TEXT NOT NULL,                -- ISO 8601 UTC
    updated_at      TEXT NOT NULL,
    CHECK ((status = 'ok') = (failure_code IS NULL)),
    CHECK (sha256 IS NOT NULL OR status = 'failed')
);
CREATE UNIQUE INDEX photo_unhashed_path ON photo(path) WHERE sha256 IS NULL;
CREATE INDEX photo_path ON photo(path);
CREATE INDEX photo_status ON photo(status);

-- EXIF of a photo: the searchable fields as columns, every tag as JSON.
CREATE TABLE exif (
    photo_id        INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
    make            TEXT,
    model           TEXT,
    lens_model      TEXT,
    taken_at        TEXT,     -- ISO 8601 as in the file: with its offset when the file has one
    taken_at_utc    TEXT,     -- ISO 8601 UTC when the offset is known, else taken_at without offset; for ordering and filters
    exposure_time   REAL,     -- seconds
    f_number        REAL,
    iso             INTEGER,
    focal_length    REAL,     -- millimetres
    orientation     INTEGER CHECK (orientation IS NULL OR orientation BETWEEN 1 AND 8),
    gps_latitude    REAL CHECK (gps_latitude IS NULL OR gps_latitude BETWEEN -90 AND 90),
    gps_longitude   REAL CHECK (gps_longitude IS NULL OR gps_longitude BETWEEN -180 AND 180),
    gps_altitude    REAL,     -- metres, negative below sea level
    tags_json       TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX exif_model ON exif(make, model);
CREATE INDEX exif_taken_at_utc ON exif(taken_at_utc);

-- The sticker made from a photo: its metadata ...
CREATE TABLE sticker (
    photo_id         INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
    width            INTEGER NOT NULL CHECK (width > 0),
    height           INTEGER NOT NULL CHECK (height > 0),
    bytes            INTEGER NOT NULL CHECK (bytes > 0),
    pipeline_version INTEGER NOT NULL CHECK (pipeline_version >= 0),
    settings_json    TEXT NOT NULL,
    created_at       TEXT NOT NULL
);
CREATE INDEX sticker_pipeline_version ON sticker(pipeline_version);

-- ... and its PNG, in a table of its own so scans of the metadata stay small.
CREATE TABLE sticker_png (
    photo_id INTEGER PRIMARY KEY REFERENCES sticker(photo_id) ON DELETE CASCADE,
    png      BLOB NOT NULL CHECK (length(png) > 0)
);

-- Dominant colours of a sticker's subject, ordered by share (rank 0 = largest).
-- Coordinates are Oklab (l in 0...1, a and b about -0.5...0.5).
CREATE TABLE palette_color (
    id       INTEGER PRIMARY KEY,
    photo_id INTEGER NOT NULL REFERENCES sticker(photo_id) ON DELETE CASCADE,
    rank     INTEGER NOT NULL CHECK (rank >= 0),
    hex      TEXT NOT NULL CHECK (length(hex) = 7 AND hex GLOB '#*'),
    l        REAL NOT NULL,
    a        REAL NOT NULL,
    b        REAL NOT NULL,
    share    REAL NOT NULL CHECK (share > 0 AND share <= 1),
    UNIQUE (photo_id, rank)
);

-- Named packs of stickers, in order, each with an emoji.
CREATE TABLE pack (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    title      TEXT NOT NULL,
    author     TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE TABLE pack_item (
    pack_id  INTEGER NOT NULL REFERENCES pack(id) ON DELETE CASCADE,
    photo_id INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    emoji    TEXT NOT NULL,
    PRIMARY KEY (pack_id, photo_id),
    UNIQUE (pack_id, position)
);
CREATE INDEX pack_item_photo ON pack_item(photo_id);

-- Catalog-wide settings (palette size, sticker size, outline, ...), as text values.
CREATE TABLE setting (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
