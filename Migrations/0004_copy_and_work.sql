-- Schema v4: copies between catalogs (`catalog copy`) and work shared by many workers (`catalog work`).
-- The PostgreSQL schema has a migration of the same number with the same tables.

-- `catalog copy --to`: which catalog this one is a copy of, and how far the copy got. At most one row.
-- While completed_at is NULL the catalog is an incomplete copy: only a copy from the same source may
-- write to it (it resumes after last_id); every other copy into it is refused.
CREATE TABLE copy_marker (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    source       TEXT NOT NULL,      -- the source catalog as messages name it (a path, or a URL without password)
    last_id      INTEGER,            -- the highest entry id copied so far; NULL before the first batch
    started_at   TEXT NOT NULL,
    completed_at TEXT
);

-- `catalog import --enqueue` and `catalog work`: files waiting to be imported (kind 'import', entry_id 0)
-- and entries waiting to be reprocessed (kind 'reprocess', entry_id the entry), each claimed by one worker
-- at a time under a lease. `fence` grows by one at every claim: a worker's result commits only while the
-- row still carries the fence it claimed with (a fencing token), so a worker whose lease ran out and was
-- taken over cannot commit over the newer claim.
CREATE TABLE work_item (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT NOT NULL CHECK (kind IN ('import', 'reprocess')),
    entry_id    INTEGER NOT NULL DEFAULT 0,
    path        TEXT NOT NULL,
    file_size   INTEGER NOT NULL CHECK (file_size >= 0),
    file_mtime  REAL NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('pending', 'claimed', 'done', 'failed')),
    holder      TEXT,                -- 'host:pid' of the worker holding the claim
    lease_until REAL,                -- seconds since 1970; the claim may be taken over after that
    fence       INTEGER NOT NULL DEFAULT 0 CHECK (fence >= 0),
    result_id   INTEGER,             -- the entry the work made or updated
    message     TEXT,                -- why it failed (with the worker's host name)
    enqueued_at TEXT NOT NULL,
    finished_at TEXT,
    UNIQUE (kind, entry_id, path),
    CHECK ((state = 'claimed') = (holder IS NOT NULL AND lease_until IS NOT NULL))
);
CREATE INDEX work_item_state ON work_item(state, lease_until);
