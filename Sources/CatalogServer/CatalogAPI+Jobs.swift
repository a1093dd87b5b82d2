import Catalog
import Foundation
import Hummingbird
import Processing
import ServiceLifecycle

extension CatalogAPI {
    /// `POST /api/reprocess` body (optional): `{"all": true}` re-makes every entry, not only stale ones.
    struct ReprocessRequest: Decodable {
        let all: Bool?
    }

    /// The answer to starting a job (202): the job, and for an import the files saved.
    struct JobStarted: Encodable {
        let job: JobRunner.Job
        let files: [UploadStore.SavedFile]?
    }

    func registerJobs(on router: RecordingRouter) {
        // Photos dropped on the page: saved under the uploads folder, then imported in the background.
        router.post("/api/import") { request, _ in
            if let job = await jobs.current {
                throw APIError(.conflict, "job-running", "a \(job.kind) is running (job \(job.id)); wait for it to finish")
            }
            let settings = try await workingSettings()
            let predictor = try loadPredictor(settings)
            let files = try await UploadStore(directory: configuration.uploadsDirectory, maxFileBytes: configuration.maxUploadBytes).save(request)
            // An upload that arrives whole while the server stops is taken back: a 202 is a promise to import it.
            let job: JobRunner.Job
            var manifest: ImportManifest?
            do {
                if stopping.isSet { throw APIError.stopping }
                do {
                    manifest = try ImportManifest.write(files.map(\.path), catalog: configuration.catalogIdentity, in: configuration.uploadsDirectory)
                } catch {
                    throw APIError(.internalServerError, "uploads-folder", "cannot write into \(configuration.uploadsDirectory.path): \(error.localizedDescription)")
                }
                job = try await startImport(files.map(\.path), settings: settings, predictor: predictor, fulfilling: manifest.map { [$0] } ?? [])
            } catch {
                manifest?.fulfilled()
                UploadStore.discard(files)
                throw error
            }
            return JSONBody.response(JobStarted(job: job, files: files), status: .accepted)
        }

        // Stale entries (or all) made again in the background.
        router.post("/api/reprocess") { request, context in
            let all = try await JSONBody.decodeIfPresent(ReprocessRequest.self, from: request, context: context)?.all ?? false
            if let job = await jobs.current {
                throw APIError(.conflict, "job-running", "a \(job.kind) is running (job \(job.id)); wait for it to finish")
            }
            let settings = try await workingSettings()
            let predictor = try loadPredictor(settings)
            let reprocessor = Reprocessor(
                repository: repository,
                options: ReprocessOptions(jobs: configuration.jobs, all: all, recordsTouched: true, settings: settings, predictor: predictor)
            )
            let candidates = try await catalog { () async throws(CatalogError) in try await reprocessor.candidates() }
            let job = try await jobs.start(kind: "reprocess", total: candidates.count) { progress in
                let summary: ReprocessSummary
                do throws(CatalogError) {
                    summary = try await reprocessor.run(candidates) { progress(JSONValue($0), true) }
                } catch {
                    throw APIError(error)
                }
                return JSONValue(summary)
            }
            return JSONBody.response(JobStarted(job: job, files: nil), status: .accepted)
        }

        // Progress of the jobs, as Server-Sent Events (see ``JobMessage``); a comment every 15 s keeps
        // the connection open through idle time.
        router.get("/api/events") { _, _ in
            let (events, end) = hub.subscribe()
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 2000\n: connected\n\n"))
                // The server's graceful shutdown waits for requests in flight: an open stream ends
                // then, or it would hold the shutdown up.
                try await withGracefulShutdownHandler {
                    for await event in events {
                        try await writer.write(ByteBuffer(string: event.text))
                    }
                } onGracefulShutdown: {
                    end()
                }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
                body: body
            )
        }
    }

    /// The segmentation model of `settings`, in their precision, or a 500 that says how to install it.
    func loadPredictor(_ settings: StickerSettings) throws(APIError) -> any MaskPredictor {
        let model = settings.model
        do {
            return try configuration.makePredictor(model, settings.precision)
        } catch {
            throw APIError(
                .internalServerError, "model-unavailable",
                "the segmentation model \(model.rawValue) is not installed or is damaged (\(error)); install it with `make model` or scripts/install-model.sh and set STICKER_MODEL_DIR"
            )
        }
    }

    /// Imports `paths` as a background job (an upload, or what an earlier run accepted and did not import);
    /// the manifests are removed once the import has run to its end, not when it was interrupted.
    func startImport(
        _ paths: [String], settings: StickerSettings, predictor: (any MaskPredictor)?, fulfilling manifests: [ImportManifest]
    ) async throws(APIError) -> JobRunner.Job {
        let options = ImportOptions(jobs: configuration.jobs, settings: settings, predictor: predictor)
        let importer = Importer(repository: repository, options: options)
        return try await jobs.start(kind: "import", total: paths.count) { progress in
            let summary: ImportSummary
            do throws(CatalogError) {
                summary = try await importer.run(paths) { progress(JSONValue($0), $0.isFileOutcome) }
            } catch {
                throw APIError(error)
            }
            if !summary.interrupted { for manifest in manifests { manifest.fulfilled() } }
            return JSONValue(summary)
        }
    }

    /// The settings jobs and stale flags work with: the catalog's (`auto` resolved on this machine), with
    /// this run's model and precision when `serve` was given them.
    func workingSettings() async throws(APIError) -> StickerSettings {
        var settings = try await catalog { () async throws(CatalogError) in try await repository.settings() }
        if let model = configuration.model { settings.model = model }
        if let precision = configuration.precision { settings.precision = precision }
        return settings
    }
}
