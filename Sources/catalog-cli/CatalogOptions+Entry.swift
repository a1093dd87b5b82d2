import ArgumentParser
import Catalog

extension CatalogOptions {
    /// Entry `id` of the catalog, opened read-only; an unknown id is reported (exit 65).
    func requiredEntry(_ id: Int64) async throws -> EntryDetail {
        let repository = try await open(.readOnly)
        guard let entry = try await Diagnostics.reporting({ try await repository.entry(id: id) }) else {
            Diagnostics.report("error: no entry with id \(id) in \(displayName) (see `catalog list`)")
            throw ExitCode(.dataError)
        }
        return entry
    }
}
