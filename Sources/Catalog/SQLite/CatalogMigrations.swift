import GRDB

/// The catalog's schema history: the SQL files of `Migrations/`, embedded in the binary at build time.
enum CatalogMigrations {
    /// A migrator that applies every embedded migration in order, each in its own transaction.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in EmbeddedMigrations.all {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
                // Bands a migration notes (0006 notes every one) are packed in the same transaction.
                try PalettePack.flushIfPresent(db)
            }
        }
        return migrator
    }

    /// The identifiers this binary knows, in order.
    static var identifiers: [String] {
        EmbeddedMigrations.all.map(\.identifier)
    }
}
