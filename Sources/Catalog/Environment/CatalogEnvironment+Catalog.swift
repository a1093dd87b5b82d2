import Foundation

extension CatalogEnvironment {
    /// Where the catalog is: `explicitPath` (`--catalog PATH|URL`), else `$CATALOG_PATH`, else
    /// `$XDG_DATA_HOME/sticker-catalog/catalog.sqlite`, else `~/.local/share/sticker-catalog/catalog.sqlite`.
    /// A `postgres://` or `postgresql://` URL names a PostgreSQL catalog; anything else a SQLite file.
    public func catalogAddress(explicitPath: String?) -> CatalogAddress {
        if let path = chosenCatalog(explicitPath: explicitPath) {
            if CatalogAddress.isPostgresURL(path) { return .postgres(path) }
            return .sqlite(URL(fileURLWithPath: expandingTilde(in: path), isDirectory: false).standardizedFileURL)
        }
        return .sqlite(dataURL("catalog.sqlite").standardizedFileURL)
    }

    /// The catalog the user named (`explicitPath`, else `$CATALOG_PATH`); nil for the default one.
    public func chosenCatalog(explicitPath: String?) -> String? {
        if let explicitPath, !explicitPath.isEmpty { return explicitPath }
        return self["CATALOG_PATH"]
    }

    /// How the catalog is opened: a write waits `$CATALOG_BUSY_TIMEOUT` seconds for another process's
    /// lock (10 when unset); a malformed value is an error naming the variable.
    public func storeOptions() throws(EnvironmentError) -> CatalogStoreOptions {
        CatalogStoreOptions(lockWait: try busyTimeout())
    }

    /// `$CATALOG_BUSY_TIMEOUT` read strictly: unset means 10 s; anything but a number of seconds from 0
    /// to 86400 is an error naming the variable.
    public func busyTimeout() throws(EnvironmentError) -> Duration {
        guard let text = variables["CATALOG_BUSY_TIMEOUT"] else { return .seconds(10) }
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw EnvironmentError(description: "CATALOG_BUSY_TIMEOUT='\(text)' is not a number of seconds from 0 to 86400 (fix or unset the variable)")
        }
        return .milliseconds(Int(seconds * 1000))
    }

    /// `~/x` (as written in `--catalog=~/x`, where the shell does not expand it) is `$HOME/x`.
    private func expandingTilde(in path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return (home as NSString).appendingPathComponent(String(path.dropFirst(2))) }
        return path
    }
}
