extension CatalogStoreOptions {
    /// Options whose writes wait `lockWait` for another process's lock.
    public init(lockWait: Duration) {
        self.init(sqlite: SQLiteStoreOptions(busyTimeout: lockWait))
    }

    /// How long a write waits for another process's lock before `.busy`, whatever the back end (a
    /// SQLite file's busy timeout; a PostgreSQL server keeps its own lock waits).
    public var lockWait: Duration {
        get { sqlite.busyTimeout }
        set { sqlite.busyTimeout = newValue }
    }
}
