import Foundation

/// Which database holds a catalog: a SQLite file, or a PostgreSQL server named by URL.
public enum CatalogAddress: Sendable, Equatable {
    /// A SQLite catalog file.
    case sqlite(URL)
    /// A PostgreSQL catalog: the `postgres://` or `postgresql://` URL as the user wrote it.
    case postgres(String)

    /// `postgres://…` and `postgresql://…` (scheme in any case) name a PostgreSQL catalog.
    public static func isPostgresURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// The catalog as messages name it: the file's path, or the URL with any password removed.
    public var displayName: String {
        switch self {
        case .sqlite(let url):
            return url.path
        case .postgres(let text):
            // The address's own display form: no password, whatever form it was written in.
            if let address = try? PostgresAddress(parsing: text) { return address.description }
            guard var components = URLComponents(string: text) else { return "a PostgreSQL catalog" }
            if components.password != nil { components.password = nil }
            return components.string ?? "a PostgreSQL catalog"
        }
    }

    /// The catalog file, for a SQLite catalog; nil for a server.
    public var fileURL: URL? {
        if case .sqlite(let url) = self { return url }
        return nil
    }
}
