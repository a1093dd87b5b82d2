import Catalog

extension CatalogEnvironment {
    /// The environment of this run of `catalog`, read once: every command and `serve` take what they
    /// need from it (and hand Processing its switches at start, `configureProcessing()`).
    static let current = CatalogEnvironment()
}
