import Foundation

/// The copy of an existing catalog kept beside it (`catalog.sqlite.pre-0001`) before migrations changed
/// its schema, so an upgrade that goes wrong, or a wish to go back to the older binary, loses nothing.
public struct PreMigrationCopy: Sendable, Equatable {
    /// Where the copy is.
    public var url: URL
    /// The schema version the catalog had (the number of its last migration).
    public var fromVersion: String
    /// The migrations applied after the copy was made.
    public var appliedMigrations: [String]
}
