import Catalog
import Hummingbird
import Processing

extension CatalogAPI {
    func registerCutout(on router: RecordingRouter) {
        // "Fix the cut-out": the sticker this guidance would make, not saved. A change (it runs the
        // network), so it takes the token like every other POST.
        router.post("/api/entries/{id}/cutout") { request, context in
            let id = try context.entryId()
            let guidance = try await JSONBody.decode(CutoutGuidance.self, from: request, context: context)
            guard let entry = try await catalog({ () async throws(CatalogError) in try await repository.entry(id: id) }) else {
                throw APIError.notFound("no entry with id \(id)")
            }
            let settings = try await workingSettings()
            let predictor = try loadPredictor(settings)
            let sticker: StickerImage
            do throws(RecutError) {
                sticker = try await previews.sticker(for: entry, guidance: guidance, settings: settings, predictor: predictor)
            } catch {
                throw APIError(error)
            }
            return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"], body: Self.streamed(sticker.png))
        }

        // "Fix the cut-out" opened: the photo is read and decoded while the person draws, so the first
        // preview runs only the cut-out.
        router.post("/api/entries/{id}/cutout/prepare") { _, context in
            let id = try context.entryId()
            guard let entry = try await catalog({ () async throws(CatalogError) in try await repository.entry(id: id) }) else {
                throw APIError.notFound("no entry with id \(id)")
            }
            let settings = try await workingSettings()
            do throws(RecutError) {
                try await previews.prepare(entry, settings: settings)
            } catch {
                throw APIError(error)
            }
            return Response(status: .noContent)
        }
    }
}
