import Foundation

/// The catalog as the CLI and the server see it, whatever database holds it (a SQLite file, a PostgreSQL
/// server): every role at once. A workflow asks for the narrowest role it uses (``EntryStore``,
/// ``ReprocessStore``, ``PackStore``, ``SettingsStore``, ``CopySource``, ``CopyTarget``, ``WorkQueueStore``,
/// ``CatalogMaintenance``, ``SimilarityStore``). Every back end keeps the same contract: the same records in the same order, the
/// same errors, one transaction per recorded photo. Open one with ``CatalogStores/open(_:access:options:)``.
///
/// Writes are serialised by the store (one writer at a time within a process); reads may run concurrently
/// with writes and with each other. A write that has started is not cancelled with its task, so a finished
/// entry still commits when an import is interrupted.
public protocol CatalogStore:
    EntryStore, ReprocessStore, PackStore, SettingsStore, CopySource, CopyTarget, WorkQueueStore, CatalogMaintenance,
    SimilarityStore
{
    /// The copy kept of the catalog before this open upgraded its schema; nil when nothing was migrated,
    /// the catalog was new, or the back end keeps no such copy.
    var preMigrationCopy: PreMigrationCopy? { get }
}
