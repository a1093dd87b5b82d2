import Foundation
import PostgresNIO
import Processing

/// Packs on PostgreSQL: the reads and writes of ``PackStore``, each write one transaction (the commands and
/// their rules are `Packs/PackStore+Commands.swift`'s).
extension PostgresCatalogStore {
    public func insertPack(name: String, title: String, author: String, createdAt: String) async throws(PackError) -> PackSummary {
        try await packWrite { connection in
            if try await Self.packRow(named: name, connection) != nil { return .failure(.alreadyExists(name: name)) }
            try await connection.run(
                "INSERT INTO pack (name, title, author, created_at) VALUES ($1, $2, $3, $4)", binds(name, title, author, createdAt))
            return .success(PackSummary(name: name, title: title, author: author, count: 0, createdAt: createdAt))
        }
    }

    public func editPack<T: Sendable>(
        _ name: String, creatingIfMissing: Bool, lookingUp ids: [Int64],
        _ edit: @Sendable (inout PackContents) -> Result<T, PackError>
    ) async throws(PackError) -> T {
        try await packWrite { connection in
            var packId = try await Self.packRow(named: name, connection)?.id
            if packId == nil, creatingIfMissing {
                packId = try await connection.row(
                    "INSERT INTO pack (name, title, author, created_at) VALUES ($1, $1, '', $2) RETURNING id", binds(name, Timestamp.now())
                )?.value("id")
            }
            guard let packId else { return .failure(.notFound(name: name)) }
            var stickers: [Int64: Bool] = [:]
            for row in ids.isEmpty ? [] : try await connection.rows("""
                SELECT photo.id, sticker.photo_id IS NOT NULL AND photo.status = 'ok' AS usable
                FROM photo LEFT JOIN sticker ON sticker.photo_id = photo.id WHERE photo.id = ANY($1)
                """, binds(ids)) {
                stickers[try row.value("id")] = try row.value("usable")
            }
            var contents = PackContents(members: try await Self.members(packId: packId, connection), stickers: stickers)
            let result = edit(&contents)
            if case .success = result { try await Self.replaceMembers(packId: packId, with: contents.members, connection) }
            return result
        }
    }

    public func updatePack(_ name: String, newName: String?, title: String?, author: String?) async throws(PackError) -> PackSummary {
        try await packWrite { connection in
            guard let pack = try await Self.packRow(named: name, connection) else { return .failure(.notFound(name: name)) }
            if let newName, newName != name, try await Self.packRow(named: newName, connection) != nil {
                return .failure(.alreadyExists(name: newName))
            }
            try await connection.run(
                "UPDATE pack SET name = coalesce($2, name), title = coalesce($3, title), author = coalesce($4, author) WHERE id = $1",
                binds(pack.id, newName, title, author))
            return .success(try await Self.summary(packId: pack.id, connection))
        }
    }

    public func deletePack(_ name: String) async throws(PackError) {
        try await packWrite { connection -> Result<Void, PackError> in
            guard let packId = try await Self.packRow(named: name, connection)?.id else { return .failure(.notFound(name: name)) }
            try await connection.run("DELETE FROM pack WHERE id = $1", binds(packId))
            return .success(())
        }
    }

    public func packs() async throws(PackError) -> [PackSummary] {
        try await packRead { connection in
            .success(try await connection.rows("""
                SELECT pack.name, pack.title, pack.author, pack.created_at, count(pack_item.photo_id) AS n
                FROM pack LEFT JOIN pack_item ON pack_item.pack_id = pack.id
                GROUP BY pack.id ORDER BY pack.name COLLATE "C"
                """).map { row in
                PackSummary(name: try row.value("name"), title: try row.value("title"), author: try row.value("author"),
                            count: try row.value("n"), createdAt: try row.value("created_at"))
            })
        }
    }

    public func pack(named name: String) async throws(PackError) -> PackDetail {
        try await packRead { connection in
            guard let pack = try await Self.packRow(named: name, connection) else { return .failure(.notFound(name: name)) }
            let rows = try await connection.rows("""
                SELECT pack_item.photo_id, pack_item.emoji, photo.path, sticker.width, sticker.height, sticker.bytes,
                       animation.photo_id IS NOT NULL AS animated
                FROM pack_item JOIN photo ON photo.id = pack_item.photo_id
                LEFT JOIN sticker ON sticker.photo_id = pack_item.photo_id
                LEFT JOIN animation ON animation.photo_id = pack_item.photo_id
                WHERE pack_item.pack_id = $1 ORDER BY pack_item.position
                """, binds(pack.id))
            let items = try rows.enumerated().map { index, row in
                PackItem(
                    position: index + 1, id: try row.value("photo_id"), emoji: StickerEmoji.split(try row.value("emoji")),
                    path: try row.value("path"), width: try row.value("width", as: Int?.self) ?? 0,
                    height: try row.value("height", as: Int?.self) ?? 0, bytes: try row.value("bytes", as: Int?.self) ?? 0,
                    animated: try row.value("animated"))
            }
            return .success(PackDetail(name: pack.name, title: pack.title, author: pack.author, createdAt: pack.createdAt, items: items))
        }
    }

    public func entries(inPack name: String) async throws(PackError) -> [EntrySummary] {
        try await packRead { connection in
            guard let pack = try await Self.packRow(named: name, connection) else { return .failure(.notFound(name: name)) }
            return .success(try await connection.rows("""
                SELECT photo.id, photo.sha256, photo.path, photo.status, photo.failure_code, photo.failure_message
                FROM photo JOIN pack_item ON pack_item.photo_id = photo.id
                WHERE pack_item.pack_id = $1 ORDER BY pack_item.position
                """, binds(pack.id)).map { row in
                EntrySummary(
                    id: try row.value("id"), sha256: try row.value("sha256"), path: try row.value("path"),
                    status: EntryStatus(storedValue: try row.value("status")),
                    failureCode: try row.value("failure_code"), failureMessage: try row.value("failure_message"))
            })
        }
    }

    public func packSource(named name: String) async throws(PackError) -> PackSource {
        try await packRead { connection in
            guard let pack = try await Self.packRow(named: name, connection) else { return .failure(.notFound(name: name)) }
            let rows = try await connection.rows("""
                SELECT pack_item.photo_id, pack_item.emoji, photo.sha256, photo.format, photo.width AS photo_width,
                       photo.height AS photo_height, sticker.width, sticker.height, sticker.settings_json, sticker_png.png,
                       animation.webp, animation.frame_count, animation.duration_ms
                FROM pack_item JOIN photo ON photo.id = pack_item.photo_id
                LEFT JOIN sticker ON sticker.photo_id = pack_item.photo_id
                LEFT JOIN sticker_png ON sticker_png.photo_id = pack_item.photo_id
                LEFT JOIN animation ON animation.photo_id = pack_item.photo_id
                WHERE pack_item.pack_id = $1 ORDER BY pack_item.position
                """, binds(pack.id))
            var items: [PackSourceRow] = []
            for row in rows {
                let id: Int64 = try row.value("photo_id")
                let colors = try await connection.rows(
                    "SELECT hex, l, a, b, share FROM palette_color WHERE photo_id = $1 ORDER BY rank", binds(id))
                items.append(PackSourceRow(
                    id: id, emoji: try row.value("emoji"), png: try row.value("png"), width: try row.value("width"),
                    height: try row.value("height"), settingsJSON: try row.value("settings_json"),
                    palette: Palette(colors: try colors.map {
                        PaletteColor(hex: try $0.value("hex"), l: try $0.value("l"), a: try $0.value("a"), b: try $0.value("b"),
                                     share: try $0.value("share"))
                    }),
                    source: SourceSummary(
                        sha256: try row.value("sha256"), format: try row.value("format"), width: try row.value("photo_width"),
                        height: try row.value("photo_height")),
                    exif: try await connection.row("SELECT * FROM exif WHERE photo_id = $1", binds(id)).map(Self.exifRecord),
                    animation: try Self.animation(row)))
            }
            return try PackSource.assembled(name: pack.name, title: pack.title, author: pack.author, rows: items)
        }
    }

    // MARK: - Internals

    struct PackRow {
        var id: Int64
        var name: String
        var title: String
        var author: String
        var createdAt: String
    }

    /// Runs `body` in one write transaction; a `.failure` is returned before anything was written.
    func packWrite<T>(_ body: (PostgresConnection) async throws -> Result<T, PackError>) async throws(PackError) -> T {
        try await packTransaction(writing: true, body)
    }

    /// Runs `body` in one read-only snapshot.
    func packRead<T>(_ body: (PostgresConnection) async throws -> Result<T, PackError>) async throws(PackError) -> T {
        try await packTransaction(writing: false, body)
    }

    private func packTransaction<T>(
        writing: Bool, _ body: (PostgresConnection) async throws -> Result<T, PackError>
    ) async throws(PackError) -> T {
        let result: Result<T, PackError>
        do {
            result = writing ? try await write(body) : try await readTransaction(body)
        } catch {
            throw .catalog(error)
        }
        return try result.get()
    }

    static func packRow(named name: String, _ connection: PostgresConnection) async throws -> PackRow? {
        try await connection.row("SELECT id, name, title, author, created_at FROM pack WHERE name = $1", binds(name)).map { row in
            PackRow(id: try row.value("id"), name: try row.value("name"), title: try row.value("title"),
                    author: try row.value("author"), createdAt: try row.value("created_at"))
        }
    }

    static func members(packId: Int64, _ connection: PostgresConnection) async throws -> [PackMember] {
        try await connection.rows("SELECT photo_id, emoji FROM pack_item WHERE pack_id = $1 ORDER BY position", binds(packId)).map { row in
            PackMember(id: try row.value("photo_id"), emoji: try row.value("emoji"))
        }
    }

    /// Rewrites the pack's items with positions 0..<count in the given order.
    static func replaceMembers(packId: Int64, with members: [PackMember], _ connection: PostgresConnection) async throws {
        try await connection.run("DELETE FROM pack_item WHERE pack_id = $1", binds(packId))
        for (position, member) in members.enumerated() {
            try await connection.run(
                "INSERT INTO pack_item (pack_id, photo_id, position, emoji) VALUES ($1, $2, $3, $4)",
                binds(packId, member.id, position, member.emoji))
        }
    }

    static func summary(packId: Int64, _ connection: PostgresConnection) async throws -> PackSummary {
        guard let row = try await connection.row("""
            SELECT pack.name, pack.title, pack.author, pack.created_at,
                   (SELECT count(*) FROM pack_item WHERE pack_id = pack.id) AS n
            FROM pack WHERE id = $1
            """, binds(packId)) else { throw CatalogError.database(path: "pack", message: "pack \(packId) vanished") }
        return PackSummary(name: try row.value("name"), title: try row.value("title"), author: try row.value("author"),
                           count: try row.value("n"), createdAt: try row.value("created_at"))
    }
}
