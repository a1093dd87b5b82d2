import Catalog
import Hummingbird

extension CatalogAPI {
    /// `POST /api/packs` body.
    struct NewPack: Decodable {
        let name: String
        let title: String?
        let author: String?
    }

    /// `PATCH /api/packs/{name}` body: each key given is changed.
    struct PackChange: Decodable {
        let name: String?
        let title: String?
        let author: String?
    }

    /// `POST /api/packs/{name}/items` and `DELETE` bodies.
    struct ItemIds: Decodable {
        let ids: [Int64]
        let emoji: String?
    }

    /// `PUT /api/packs/{name}/order` body.
    struct Order: Decodable {
        let ids: [Int64]
    }

    /// `PUT /api/packs/{name}/items/{id}` body.
    struct ItemChange: Decodable {
        let emoji: String?
        let position: Int?
    }

    func registerPacks(on router: RecordingRouter) {
        router.get("/api/packs") { _, _ in
            JSONBody.response(try await packs { () async throws(PackError) in try await repository.packs() })
        }
        router.post("/api/packs") { request, context in
            let body = try await JSONBody.decode(NewPack.self, from: request, context: context)
            let pack = try await packs { () async throws(PackError) in
                try await repository.createPack(name: body.name, title: body.title, author: body.author ?? "")
            }
            return JSONBody.response(pack, status: .created)
        }
        router.get("/api/packs/{name}") { _, context in
            let name = try context.text("name")
            return JSONBody.response(try await packs { () async throws(PackError) in try await repository.pack(named: name) })
        }
        router.patch("/api/packs/{name}") { request, context in
            let name = try context.text("name")
            let body = try await JSONBody.decode(PackChange.self, from: request, context: context)
            // One change: a bad title leaves the name as it was too.
            let changed = try await packs { () async throws(PackError) in
                try await repository.changePack(name, newName: body.name, title: body.title, author: body.author)
            }
            return JSONBody.response(try await packs { () async throws(PackError) in try await repository.pack(named: changed.name) })
        }
        router.delete("/api/packs/{name}") { _, context in
            let name = try context.text("name")
            try await packs { () async throws(PackError) in try await repository.deletePack(name) }
            return Response(status: .noContent)
        }
        router.post("/api/packs/{name}/items") { request, context in
            let name = try context.text("name")
            let body = try await JSONBody.decode(ItemIds.self, from: request, context: context)
            let result = try await packs { () async throws(PackError) in
                try await repository.addToPack(name, ids: body.ids, emoji: body.emoji)
            }
            return JSONBody.response(result)
        }
        router.delete("/api/packs/{name}/items") { request, context in
            let name = try context.text("name")
            let body = try await JSONBody.decode(ItemIds.self, from: request, context: context)
            _ = try await packs { () async throws(PackError) in try await repository.removeFromPack(name, ids: body.ids) }
            return JSONBody.response(try await packs { () async throws(PackError) in try await repository.pack(named: name) })
        }
        router.delete("/api/packs/{name}/items/{id}") { _, context in
            let name = try context.text("name")
            let id = try context.entryId()
            _ = try await packs { () async throws(PackError) in try await repository.removeFromPack(name, ids: [id]) }
            return JSONBody.response(try await packs { () async throws(PackError) in try await repository.pack(named: name) })
        }
        router.put("/api/packs/{name}/order") { request, context in
            let name = try context.text("name")
            let body = try await JSONBody.decode(Order.self, from: request, context: context)
            try await packs { () async throws(PackError) in try await repository.reorderPack(name, ids: body.ids) }
            return JSONBody.response(try await packs { () async throws(PackError) in try await repository.pack(named: name) })
        }
        router.patch("/api/packs/{name}/items/{id}") { request, context in
            let name = try context.text("name")
            let id = try context.entryId()
            let body = try await JSONBody.decode(ItemChange.self, from: request, context: context)
            if body.emoji == nil && body.position == nil {
                throw APIError.badRequest("bad-json", "give emoji and/or position")
            }
            // One change: a bad position leaves the emoji as it was too.
            try await packs { () async throws(PackError) in
                try await repository.changePackItem(name, id: id, emoji: body.emoji, position: body.position)
            }
            return JSONBody.response(try await packs { () async throws(PackError) in try await repository.pack(named: name) })
        }
    }
}
