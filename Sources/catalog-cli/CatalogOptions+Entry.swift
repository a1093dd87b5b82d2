import Catalog

extension CatalogOptions {
    /// Entry `id` of the catalog, opened read-only; an unknown id is reported (exit 65).
    func requiredEntry(_ id: Int64) throws -> EntryDetail {
        let repository = try open(.readOnly)
        let found: EntryDetail?
        do {
            found = try repository.entry(id: id)
        } catch {
            throw Diagnostics.exit(for: error)
        }
        guard let entry = found else {
            Diagnostics.report("error: no entry with id \(id) in \(location.path) (see `catalog list`)")
            throw ExitStatus.dataError
        }
        return entry
    }
}
