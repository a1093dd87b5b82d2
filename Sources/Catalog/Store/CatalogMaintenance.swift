import Foundation

/// Checking, copying to a file and measuring a catalog: `catalog verify`, `catalog backup`, benchmarks.
public protocol CatalogMaintenance: CatalogHandle {
    /// Checks the catalog's integrity and consistency; counts and checksums that another back end's copy
    /// of the same catalog reports equally.
    func verify() async throws(CatalogError) -> VerifyReport
    /// Writes a consistent copy of the catalog to the file `destination` while others may write to it.
    /// Refuses an existing destination unless `replacing`. A back end that cannot copy itself to a file
    /// throws a clear error.
    func backup(to destination: URL, replacing: Bool) async throws(CatalogError)
    /// Stops the statements running on the catalog (a backup under way fails and cleans up); for signal
    /// handlers, so synchronous and safe to call from any thread.
    func interrupt()
    /// The bytes each table (and index) takes, by name; for benchmarks.
    func tableSizes() async throws(CatalogError) -> [String: Int64]
}
