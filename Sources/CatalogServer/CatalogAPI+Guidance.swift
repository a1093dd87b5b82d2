import Catalog
import Hummingbird
import Processing

extension CatalogAPI {
    func registerGuidance(on router: RecordingRouter) {
        // "Fix the cut-out" saved: the guidance replaces the entry's and its sticker is made again,
        // as `catalog recut ID --reset --box … --include … --exclude …` does.
        router.put("/api/entries/{id}/guidance") { request, context in
            let id = try context.entryId()
            let guidance = try await JSONBody.decode(CutoutGuidance.self, from: request, context: context)
            let change = GuidanceChange(reset: true, box: guidance.box, include: guidance.include, exclude: guidance.exclude)
            return JSONBody.response(try await recut(id: id, change: change))
        }

        // Back to the automatic cut-out: `catalog recut ID --reset`.
        router.delete("/api/entries/{id}/guidance") { _, context in
            let id = try context.entryId()
            return JSONBody.response(try await recut(id: id, change: GuidanceChange(reset: true)))
        }
    }

    /// The entry's guidance changed and its sticker made again, by the workflow `catalog recut` runs.
    func recut(id: Int64, change: GuidanceChange) async throws(APIError) -> EntryDetail {
        let settings = try await workingSettings()
        let predictor = try loadPredictor(settings)
        do throws(RecutError) {
            return try await Recutter(repository: repository, settings: settings, predictor: predictor).recut(id: id, change: change)
        } catch {
            throw APIError(error)
        }
    }
}

extension APIError {
    /// A preview, save or reset that changed nothing: bad guidance → 400, no such entry → 404, the entry's
    /// photo or source in the way or a change meanwhile → 409 (the entry exists, its file does not allow
    /// it), a missing model → 500.
    init(_ error: RecutError) {
        let message = error.description
        switch error {
        case .entryNotFound: self.init(.notFound, "not-found", message)
        case .invalidGuidance: self.init(.badRequest, "invalid-guidance", message)
        case .noPhoto: self.init(.conflict, "no-photo", message)
        case .sourceMissing: self.init(.conflict, "source-missing", message)
        case .sourceUnreadable: self.init(.conflict, "source-unreadable", message)
        case .sourceChanged: self.init(.conflict, "source-changed", message)
        case .processingFailed(_, .segmentationUnavailable), .processingFailed(_, .invalidModel):
            self.init(.internalServerError, "model-unavailable", message)
        case .processingFailed(_, .invalidGuidance): self.init(.badRequest, "invalid-guidance", message)
        case .processingFailed(_, let error): self.init(.conflict, error.code, message)
        case .changedMeanwhile: self.init(.conflict, "changed-meanwhile", message)
        // The API's recut takes no part of a clip today; kept apart from bad guidance should it come to.
        case .notAClip: self.init(.badRequest, "not-a-clip", message)
        case .catalog(let error): self.init(error)
        }
    }
}
