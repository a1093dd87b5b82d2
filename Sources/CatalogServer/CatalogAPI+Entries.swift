import Catalog
import Hummingbird
import Processing

extension CatalogAPI {
    func registerEntries(on router: RecordingRouter) {
        // Entries, newest first, a page at a time, with the total.
        router.get("/api/entries") { request, _ in
            let limit = try request.integer("limit", in: 1...EntryPageQuery.maxLimit, default: 100)
            let offset = try request.integer("offset", in: 0...Int(Int32.max), default: 0)
            var status: EntryStatus?
            if let text = request.given("status") {
                guard let value = EntryStatus(rawValue: text) else {
                    throw APIError.badRequest("bad-parameter", "status must be ok or failed, not \(text)")
                }
                status = value
            }
            let stale = try request.flag("stale")
            let query = EntryPageQuery(limit: limit, offset: offset, status: status, staleOnly: stale)
            let settings = try await workingSettings()
            // The grid's "collapse duplicates": only the best of each group of near-duplicates.
            if try request.flag("distinct") {
                return JSONBody.response(try await collapsedPage(query, settings: settings))
            }
            let page = try await catalog { () async throws(CatalogError) in
                try await repository.entryPage(query, settings: settings)
            }
            return JSONBody.response(page)
        }

        // One entry in full: `catalog show ID --json`.
        router.get("/api/entries/{id}") { _, context in
            let id = try context.entryId()
            guard let entry = try await catalog({ () async throws(CatalogError) in try await repository.entry(id: id) }) else {
                throw APIError.notFound("no entry with id \(id)")
            }
            return JSONBody.response(entry)
        }

        // Colour search: `catalog search --json`.
        router.get("/api/search") { request, _ in
            let query = try Self.colorQuery(request)
            let results = try await catalog { () async throws(CatalogError) in try await repository.search(query) }
            return JSONBody.response(results.map(ColorSearchHit.init))
        }

        router.get("/api/stats") { _, _ in
            JSONBody.response(try await catalog { () async throws(CatalogError) in try await repository.stats() })
        }
    }

    /// The search's parameters, checked as `catalog search` checks its options.
    static func colorQuery(_ request: Request) throws(APIError) -> ColorQuery {
        let names = request.queryAll("color")
        if names.isEmpty { throw APIError.badRequest("bad-color", "name a colour: color=C, where C is \(ColorName.accepted)") }
        var colors: [OklabColor] = []
        for name in names {
            guard let color = ColorName.parse(name) else {
                throw APIError.badRequest("bad-color", "'\(name)' is not a colour: use \(ColorName.accepted)")
            }
            colors.append(color.oklab)
        }
        var within = ColorQuery.defaultWithin
        if let text = request.given("within") {
            guard let value = Double(text), value > 0, value <= 100 else {
                throw APIError.badRequest("bad-parameter", "within must be a ΔE above 0 and at most 100, not \(text)")
            }
            within = value
        }
        let limit = try request.integer("limit", in: 1...100_000, default: ColorQuery.defaultLimit)
        var bounds: [String: String] = [:]
        for name in ["taken-after", "taken-before"] {
            guard let text = request.given(name) else { continue }
            guard let bound = ColorQuery.timeBound(text) else {
                throw APIError.badRequest("bad-parameter", "\(name) '\(text)' is not a date: use \(ColorQuery.acceptedDates)")
            }
            bounds[name] = bound
        }
        return ColorQuery(
            colors: colors, within: within, limit: limit, camera: request.query("camera"),
            takenAfter: bounds["taken-after"], takenBefore: bounds["taken-before"]
        )
    }
}
