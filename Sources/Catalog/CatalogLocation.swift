import Foundation
import Processing

/// Where the catalog is: `--catalog PATH|URL`, else `$CATALOG_PATH`,
/// else `$XDG_DATA_HOME/sticker-catalog/catalog.sqlite`, else `~/.local/share/sticker-catalog/catalog.sqlite`.
/// A `postgres://` or `postgresql://` URL names a PostgreSQL catalog; anything else a SQLite file.
public enum CatalogLocation {
    /// The catalog for these arguments and environment. Empty values count as unset;
    /// a relative `XDG_DATA_HOME` is ignored, as the XDG Base Directory specification says.
    public static func resolve(explicitPath: String?, environment: [String: String]) -> CatalogAddress {
        let home = DataHome.home(environment: environment)
        if let path = nonEmpty(explicitPath) ?? nonEmpty(environment["CATALOG_PATH"]) {
            if CatalogAddress.isPostgresURL(path) { return .postgres(path) }
            return .sqlite(fileURL(expandingTilde(in: path, home: home)))
        }
        return .sqlite(DataHome.url("catalog.sqlite", environment: environment).standardizedFileURL)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// `~/x` (as written in `--catalog=~/x`, where the shell does not expand it) is `$HOME/x`.
    private static func expandingTilde(in path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return (home as NSString).appendingPathComponent(String(path.dropFirst(2))) }
        return path
    }

    private static func fileURL(_ path: String) -> URL {
        URL(fileURLWithPath: path, isDirectory: false).standardizedFileURL
    }
}
