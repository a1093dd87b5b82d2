/// What every role of a store knows of the catalog it opened: how messages name it and how it was opened.
public protocol CatalogHandle: Sendable {
    /// The catalog as messages name it: a file's path, or a server's URL without its password.
    var displayName: String { get }
    /// How the catalog was opened.
    var access: CatalogAccess { get }
}
