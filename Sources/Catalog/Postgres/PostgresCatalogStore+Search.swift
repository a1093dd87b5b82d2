import Foundation
import PostgresNIO
import Processing

extension PostgresCatalogStore {
    /// The stickers with every colour of `query`, best first: the same entries, order and scores as the
    /// SQLite catalog's search.
    ///
    /// Range queries on the `cube` GiST index of `oklab_share` (l, a, b and the share): for a falling score
    /// floor, every palette colour that can score the floor is read, until `limit` stickers reach it
    /// (``PostgresColorSearch``). Stickers are scored exactly in Swift with the SQLite search's arithmetic
    /// (ΔE from the stored doubles, the lowest colour id among equal scores).
    public func search(_ query: ColorQuery) async throws(CatalogError) -> [ColorSearchResult] {
        guard !query.colors.isEmpty, query.limit > 0 else { return [] }
        return try await readTransaction { connection in
            try await PostgresColorSearch(query: query, connection: connection).indexed()
        }
    }

    /// The same search scoring every sticker that has the first colour within reach (no index): the reference.
    public func searchByFullScan(_ query: ColorQuery) async throws(CatalogError) -> [ColorSearchResult] {
        guard !query.colors.isEmpty, query.limit > 0 else { return [] }
        return try await readTransaction { connection in
            try await PostgresColorSearch(query: query, connection: connection).fullScan()
        }
    }
}
