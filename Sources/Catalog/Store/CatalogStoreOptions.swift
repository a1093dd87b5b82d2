/// How to open a catalog, per back end; each back end reads only its own part.
public struct CatalogStoreOptions: Sendable {
    /// Options of SQLite catalog files.
    public var sqlite: SQLiteStoreOptions

    public init(sqlite: SQLiteStoreOptions = SQLiteStoreOptions()) {
        self.sqlite = sqlite
    }
}

/// Options of SQLite catalog files.
public struct SQLiteStoreOptions: Sendable {
    /// How long a write waits for another process's lock before `.busy`.
    public var busyTimeout: Duration

    public init(busyTimeout: Duration = .seconds(10)) {
        self.busyTimeout = busyTimeout
    }
}
