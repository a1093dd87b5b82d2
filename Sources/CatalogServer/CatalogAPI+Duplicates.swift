import Catalog
import Hummingbird
import Processing

extension CatalogAPI {
    /// `POST /api/duplicates/keep` body.
    struct KeepChoice: Decodable {
        let id: Int64
        let within: Int?
    }

    /// `POST /api/duplicates/distinct` body.
    struct DistinctChoice: Decodable {
        let ids: [Int64]
        let within: Int?
    }

    /// The most ids one "not duplicates" decision takes: every pair of them is stored, so the count is bounded.
    static let maxDistinctIds = 200

    func registerDuplicates(on router: RecordingRouter) {
        // The groups of near-duplicates: `catalog duplicates --json`.
        router.get("/api/duplicates") { request, _ in
            let within = try request.integer("within", in: 0...SimilaritySignature.maximumWithin, default: SimilaritySignature.defaultWithin)
            return JSONBody.response(try await duplicatesReport(within: within))
        }

        // `catalog duplicates --keep ID`: the entry becomes its group's best; answers with the groups as they now are.
        router.post("/api/duplicates/keep") { request, context in
            let body = try await JSONBody.decode(KeepChoice.self, from: request, context: context)
            guard body.id > 0 else { throw APIError.badRequest("bad-id", "an entry id is a positive number, not \(body.id)") }
            let within = try Self.within(body.within)
            let groups = try await duplicateGroups(within: within)
            guard let group = groups.first(where: { $0.members.contains { $0.id == body.id } }) else {
                throw APIError(.notFound, "not-in-group", "entry \(body.id) is in no group of near-duplicates within \(within)")
            }
            try await writing { () async throws(CatalogError) in try await repository.keep(body.id, of: group.members.map(\.id)) }
            return JSONBody.response(try await duplicatesReport(within: within))
        }

        // `catalog duplicates --not-duplicates ID,ID,...`: never grouped together again; answers with the groups.
        router.post("/api/duplicates/distinct") { request, context in
            let body = try await JSONBody.decode(DistinctChoice.self, from: request, context: context)
            try Self.checkDistinct(body.ids)
            let within = try Self.within(body.within)
            try await writing { () async throws(CatalogError) in try await repository.markDistinct(body.ids) }
            return JSONBody.response(try await duplicatesReport(within: within))
        }
    }

    /// A body's `within`: the default when absent or null, else 0 ... maximum (400 outside).
    static func within(_ given: Int?) throws(APIError) -> Int {
        let within = given ?? SimilaritySignature.defaultWithin
        guard (0...SimilaritySignature.maximumWithin).contains(within) else {
            throw APIError.badRequest("bad-json", "within must be a whole number from 0 to \(SimilaritySignature.maximumWithin), not \(within)")
        }
        return within
    }

    /// 400 unless `ids` are 2 to ``maxDistinctIds`` different positive ids.
    static func checkDistinct(_ ids: [Int64]) throws(APIError) {
        guard (2...maxDistinctIds).contains(ids.count) else {
            throw APIError.badRequest("bad-json", "ids takes 2 to \(maxDistinctIds) entry ids, not \(ids.count)")
        }
        if let bad = ids.first(where: { $0 <= 0 }) {
            throw APIError.badRequest("bad-id", "an entry id is a positive number, not \(bad)")
        }
        guard Set(ids).count == ids.count else {
            throw APIError.badRequest("bad-json", "ids names an entry more than once")
        }
    }

    /// The groups within `within`, as `catalog duplicates` finds them.
    func duplicateGroups(within: Int) async throws(APIError) -> [DuplicateGroup] {
        try await catalog { () async throws(CatalogError) in try await DuplicateFinder(store: repository).groups(within: within) }
    }

    /// `{"within", "groups"}`: the document every duplicates route answers with.
    func duplicatesReport(within: Int) async throws(APIError) -> DuplicatesReport {
        DuplicatesReport(within: within, groups: try await duplicateGroups(within: within))
    }
}

