import Foundation
import PostgresNIO
import Processing

extension PostgresCatalogStore: CatalogStore {
    /// PostgreSQL's migrations run in one transaction: a failure leaves the old schema, so no copy is kept.
    public var preMigrationCopy: PreMigrationCopy? { nil }

    public func recordProcessed(batch entries: [ProcessedEntry]) async throws(CatalogError) -> [ImportOutcome] {
        let now = Timestamp.now()
        return try await write { connection in
            var outcomes: [ImportOutcome] = []
            for entry in entries {
                outcomes.append(try await Self.insertProcessed(entry.photo, sha256: entry.sha256, source: entry.source, now: now, connection))
            }
            return outcomes
        }
    }

    /// Checks the catalog in one snapshot, as the SQLite store does (entries complete, sticker sizes that
    /// agree with their PNGs, palettes in order), plus the colour index: every palette colour's `oklab`
    /// point at its (l, a, b). PostgreSQL checks its own pages; `amcheck` is not required here.
    public func verify() async throws(CatalogError) -> VerifyReport {
        var (report, sources) = try await readTransaction { connection in
            var problems: [VerifyReport.Problem] = []
            for row in try await connection.rows("""
                SELECT p.id, s.photo_id IS NOT NULL AS has_sticker, g.photo_id IS NOT NULL AS has_png,
                       s.width, s.height, s.bytes, octet_length(g.png)::bigint AS png_bytes, substring(g.png from 1 for 24) AS head
                FROM photo p LEFT JOIN sticker s ON s.photo_id = p.id LEFT JOIN sticker_png g ON g.photo_id = p.id
                WHERE p.status = 'ok' OR s.photo_id IS NOT NULL ORDER BY p.id
                """) {
                problems += VerifyRules.problems(VerifyRules.StickerRow(
                    id: try row.value("id"), hasSticker: try row.value("has_sticker"), hasPNG: try row.value("has_png"),
                    width: try row.value("width", as: Int?.self) ?? 0, height: try row.value("height", as: Int?.self) ?? 0,
                    bytes: try row.value("bytes", as: Int64?.self) ?? 0, pngBytes: try row.value("png_bytes", as: Int64?.self) ?? 0,
                    head: [UInt8](try row.value("head", as: Data?.self) ?? Data())))
            }
            for row in try await connection.rows("""
                SELECT photo_id, count(*) AS n, min(rank) AS low, max(rank) AS high, sum(share) AS total
                FROM palette_color GROUP BY photo_id ORDER BY photo_id
                """) {
                problems += VerifyRules.problems(VerifyRules.PaletteRow(
                    id: try row.value("photo_id"), count: try row.value("n"), lowRank: try row.value("low"), highRank: try row.value("high"),
                    shareSum: try row.value("total")))
            }
            for row in try await connection.rows("""
                SELECT DISTINCT a.photo_id FROM palette_color a JOIN palette_color b ON b.photo_id = a.photo_id AND b.rank = a.rank + 1
                WHERE b.share > a.share + 1e-9 ORDER BY a.photo_id
                """) {
                problems.append(VerifyRules.unorderedShares(id: try row.value("photo_id")))
            }
            for row in try await connection.rows("""
                SELECT id, photo_id FROM palette_color
                WHERE oklab IS DISTINCT FROM cube(ARRAY[l, a, b]) OR oklab_share IS DISTINCT FROM cube(ARRAY[l, a, b, share * 0.12])
                ORDER BY id
                """) {
                let id: Int64 = try row.value("photo_id"), color: Int64 = try row.value("id")
                problems.append(.init(check: "palette-index", id: id, message: "entry \(id): palette colour \(color) is indexed at other coordinates"))
            }
            let counts = try await connection.row("SELECT (SELECT count(*) FROM photo) AS entries, (SELECT count(*) FROM palette_color) AS colors")
            let sources = try await connection.rows("SELECT id, path FROM photo ORDER BY id").map {
                VerifyReport.MissingSource(id: try $0.value("id"), path: try $0.value("path"))
            }
            return (
                VerifyReport(entries: try counts?.value("entries") ?? 0, paletteColors: try counts?.value("colors") ?? 0,
                             paletteIndexChecked: true, problems: problems, missingSources: []),
                sources)
        }
        report.missingSources = sources.filter { !EscapedPath.exists($0.path) }
        return report
    }

    /// Writes the catalog to `destination` with `pg_dump` (custom format: `pg_restore` reads it), through a
    /// temporary file renamed into place. Without pg_dump: `.unavailable` (exit 69) saying how to back up.
    public func backup(to destination: URL, replacing: Bool) async throws(CatalogError) {
        let target = destination.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw .io(path: target, reason: "it is a folder; name the backup file") }
            if !replacing { throw .io(path: target, reason: "it exists; use --force to replace it") }
        }
        guard let pgDump = Self.findPgDump() else {
            throw .unavailable(
                catalog: displayName,
                reason: "backing up a PostgreSQL catalog needs pg_dump, which is not installed. Install it "
                    + "(apt-get install postgresql-client) and retry, or back up the database \(address.database) "
                    + "with your server's own tools (pg_dump -Fc, or its backups)")
        }
        let temporary = target + ".partial-\(getpid())"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pgDump)
        process.arguments = ["--format=custom", "--no-owner", "--file=\(temporary)"]
        process.environment = connector.toolEnvironment(base: ProcessInfo.processInfo.environment)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .unavailable(catalog: displayName, reason: "pg_dump could not be started: \(error)")
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            unlink(temporary)
            throw .io(path: target, reason: "pg_dump failed: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(path: target, reason: reason)
        }
    }

    /// pg_dump on the PATH, or in the newest /usr/lib/postgresql/N/bin.
    static func findPgDump() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/pg_dump") {
            return "\(folder)/pg_dump"
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.compactMap(Int.init).sorted(by: >) {
            let candidate = "/usr/lib/postgresql/\(version)/bin/pg_dump"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Statements cannot be interrupted from a signal handler here; a command interrupted mid-write rolls
    /// back when its connection closes, so nothing is left half-written.
    public func interrupt() {}
}
