import Catalog
import Hummingbird
import Processing

extension CatalogAPI {
    func registerCutout(on router: Router<ServerRequestContext>) {
        // "Fix the cut-out": the sticker this guidance would make, not saved. A change (it runs the
        // network), so it takes the token like every other POST.
        router.post("/api/entries/{id}/cutout") { request, context in
            let id = try context.entryId()
            let guidance = try await JSONBody.decode(CutoutGuidance.self, from: request, context: context)
            guard let entry = try await catalog({ () async throws(CatalogError) in try await repository.entry(id: id) }) else {
                throw APIError.notFound("no entry with id \(id)")
            }
            let settings = try await workingSettings()
            let predictor = try loadPredictor(settings.model)
            let sticker: StickerImage
            do throws(CutoutPreviewer.Failure) {
                sticker = try await previews.sticker(for: entry, guidance: guidance, settings: settings, predictor: predictor)
            } catch {
                throw APIError(error)
            }
            return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"], body: Self.streamed(sticker.png))
        }
    }
}

extension APIError {
    /// A preview that cannot be made: bad guidance → 400; the entry's photo or source in the way → 409
    /// (the entry exists, its file does not allow it); a missing model → 500.
    init(_ failure: CutoutPreviewer.Failure) {
        let message = failure.description
        switch failure {
        case .invalidGuidance: self.init(.badRequest, "invalid-guidance", message)
        case .noPhoto: self.init(.conflict, "no-photo", message)
        case .sourceMissing: self.init(.conflict, "source-missing", message)
        case .sourceUnreadable: self.init(.conflict, "source-unreadable", message)
        case .sourceChanged: self.init(.conflict, "source-changed", message)
        case .processingFailed(_, .segmentationUnavailable), .processingFailed(_, .invalidModel):
            self.init(.internalServerError, "model-unavailable", message)
        case .processingFailed(_, .invalidGuidance): self.init(.badRequest, "invalid-guidance", message)
        case .processingFailed(_, let error): self.init(.conflict, error.code, message)
        }
    }
}
