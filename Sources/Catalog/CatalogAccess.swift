/// How a command opens the catalog.
public enum CatalogAccess: Sendable {
    /// Create, upgrade and write: `import`, `reprocess`, `pack ...`.
    case readWrite
    /// Read only, never creating or changing anything: `list`, `show`, `search`, `stats`, `export`.
    case readOnly
}
