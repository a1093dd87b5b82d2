import Foundation

/// Opens the catalog an address names, with the back end the address calls for.
public enum CatalogStores {
    /// Opens the catalog at `address` for `access`; see ``SQLiteCatalogStore/init(url:access:busyTimeout:)``
    /// for the rules every back end keeps (missing catalog, newer schema refused, migrations on a write open).
    public static func open(
        _ address: CatalogAddress, access: CatalogAccess, options: CatalogStoreOptions = CatalogStoreOptions()
    ) async throws(CatalogError) -> any CatalogStore {
        switch address {
        case .sqlite(let url):
            return try SQLiteCatalogStore(url: url, access: access, busyTimeout: options.sqlite.busyTimeout)
        case .postgres(let text):
            return try await PostgresCatalogStore.open(address: PostgresAddress(parsing: text), access: access)
        }
    }
}
