import ArgumentParser
import Catalog

extension CatalogOptions {
    /// Entry `id` of the catalog, opened read-only; an unknown id is reported (exit 65).
    func requiredEntry(_ id: Int64) async throws -> EntryDetail {
        let repository = try await open(.readOnly)
        let found: EntryDetail?
        do {
            found = try await repository.entry(id: id)
        } catch {
            throw Diagnostics.exit(for: error)
        }
        guard let entry = found else {
            Diagnostics.report("error: no entry with id \(id) in \(displayName) (see `catalog list`)")
            throw ExitCode(.dataError)
        }
        return entry
    }
}
