import Catalog
import Foundation
import Hummingbird

/// What every route works with: the catalog, the run's configuration, the event hub, the job runner
/// and the photos kept decoded for cut-out previews.
/// Reads and writes go through the catalog store, as the CLI's do, so the server and CLI processes
/// share the catalog (for SQLite: WAL, busy timeout).
struct CatalogAPI: Sendable {
    let repository: any CatalogStore
    let configuration: ServerConfiguration
    let hub: ProgressHub
    let jobs: JobRunner
    let previews: CutoutPreviewer
    let stopping: StoppingFlag

    /// Runs a catalog read or write, answering its failure as JSON.
    func catalog<T>(_ body: () async throws(CatalogError) -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch {
            throw APIError(error)
        }
    }

    /// Runs a catalog write (on the repository's actor), answering its failure as JSON.
    func writing<T>(_ body: () async throws(CatalogError) -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch {
            throw APIError(error)
        }
    }

    /// Runs a pack read or write, answering its failure as JSON.
    func packs<T>(_ body: () async throws(PackError) -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch {
            throw APIError(error)
        }
    }

    /// Adds every route under `/api`.
    func register(on router: RecordingRouter) {
        registerEntries(on: router)
        registerMedia(on: router)
        registerCutout(on: router)
        registerGuidance(on: router)
        registerDuplicates(on: router)
        registerPacks(on: router)
        registerExport(on: router)
        registerSettings(on: router)
        registerJobs(on: router)
        router.get("/api/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: APIDocument.yaml))
            )
        }
    }
}
