import Foundation
import TestProcessSupport
import PostgresTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `catalog serve` as a user runs it: a process beside `catalog import` and `catalog reprocess`
/// processes on the same catalog, a SQLite file or a PostgreSQL database.
@Suite("catalog serve", .serialized, .timeLimit(.minutes(15)))
struct ServeCommandTests {
    /// The server's first stdout line, once it is written. The file is read once more after the deadline:
    /// on two cores the test pool's threads can all be held by other suites' blocking waits for minutes, and
    /// a poller resumed only after its deadline must still see a line written long before.
    static func firstLine(at url: URL, timeout: Duration = .seconds(300)) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first, text.contains("\n") { return String(line) }
            if clock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let stderr = (try? String(contentsOf: url.deletingLastPathComponent().appendingPathComponent("serve.err"), encoding: .utf8)) ?? ""
        Issue.record("no first line from the server in \(timeout); its stderr: \(stderr)")
        throw CocoaError(.fileReadUnknown)
    }

    static func get(_ url: URL) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    static func total(_ base: URL) async throws -> Int {
        let (status, data) = try await get(base.appendingPathComponent("api/entries"))
        #expect(status == 200)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["total"] as? Int ?? -1
    }

    /// The back ends `serve` is tried on: a SQLite file, and a PostgreSQL database when a test server can run.
    static var backEnds: [String] {
        TestPostgresServer.isAvailable ? ["sqlite", "postgres"] : ["sqlite"]
    }

    @Test(arguments: backEnds)
    func servesWhileCLIProcessesImportAndReprocessAndStopsCleanly(backEnd: String) async throws {
        let folder = try TemporaryFolder()
        let catalog = backEnd == "postgres"
            ? try TestPostgresServer.server.address(database: try await TestPostgresServer.server.makeDatabase())
            : "c.sqlite"
        // Ten different photos: six imported before the server starts, four while it serves.
        let photos = try folder.writeNumberedCopies(10, width: 320, height: 240)
        let more = folder.url.appendingPathComponent("more")
        try FileManager.default.createDirectory(at: more, withIntermediateDirectories: true)
        for number in 6..<10 {
            try FileManager.default.moveItem(atPath: "\(photos)/copy-\(number).jpg", toPath: more.appendingPathComponent("copy-\(number).jpg").path)
        }
        let env = ["STICKER_TEST_PREDICTOR": "centre"]
        #expect(try await CLI.run(["import", "--catalog", catalog, photos], in: folder, environment: env).status == 0)

        let out = folder.url.appendingPathComponent("serve.out"), err = folder.url.appendingPathComponent("serve.err")
        let server = try CLI.start(["serve", "--catalog", catalog, "--port", "0", "--json"], in: folder, stdout: out, stderr: err, environment: env)
        defer { if server.isRunning { server.terminate() } }
        let line = try await Self.firstLine(at: out)
        let address = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let urlText = try #require(address["url"] as? String)
        let base = try #require(URL(string: urlText))
        #expect(address["host"] as? String == "127.0.0.1")
        #expect((address["port"] as? Int ?? 0) > 0)
        #expect((address["token"] as? String)?.count == 64)
        #expect((address["catalog"] as? String)?.hasSuffix(backEnd == "postgres" ? "" : "/c.sqlite") == true)
        #expect((address["catalog"] as? String)?.hasPrefix("postgres://") == (backEnd == "postgres"))
        #expect(try await Self.total(base) == 6)

        // An import in another process, while the page is read: the server sees the new entries.
        let importer = try CLI.start(
            ["import", "--catalog", catalog, more.path], in: folder,
            stdout: folder.url.appendingPathComponent("import.out"), stderr: folder.url.appendingPathComponent("import.err"), environment: env
        )
        while importer.isRunning {
            #expect(try await Self.total(base) >= 6)
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(importer.terminationStatus == 0)
        #expect(try await Self.total(base) == 10)

        // Settings changed and a reprocess run by the CLI: the server's stale listing follows.
        #expect(try await CLI.run(["config", "set", "--catalog", catalog, "palette.colors", "3"], in: folder).status == 0)
        let (_, staleData) = try await Self.get(base.appendingPathComponent("api/entries").appending(queryItems: [URLQueryItem(name: "stale", value: "1")]))
        #expect((try JSONSerialization.jsonObject(with: staleData) as? [String: Any])?["total"] as? Int == 10)
        let reprocess = try await CLI.run(["reprocess", "--catalog", catalog], in: folder, environment: env)
        #expect(reprocess.status == 0, "\(reprocess.stderr)")
        let (_, freshData) = try await Self.get(base.appendingPathComponent("api/entries").appending(queryItems: [URLQueryItem(name: "stale", value: "1")]))
        #expect((try JSONSerialization.jsonObject(with: freshData) as? [String: Any])?["total"] as? Int == 0)
        let (detailStatus, detail) = try await Self.get(base.appendingPathComponent("api/entries/1"))
        #expect(detailStatus == 200)
        #expect(((try JSONSerialization.jsonObject(with: detail) as? [String: Any])?["palette"] as? [Any])?.count ?? 99 <= 3)

        // SIGTERM: a clean stop, exit 0.
        server.terminate()
        await server.exited()
        #expect(server.terminationReason == .exit)
        #expect(server.terminationStatus == 0, "\((try? String(contentsOf: err, encoding: .utf8)) ?? "")")
    }

    @Test func printsTheAddressLineAndWarnsOffLoopback() async throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("serve.out"), err = folder.url.appendingPathComponent("serve.err")
        let server = try CLI.start(["serve", "--catalog", "c.sqlite", "--port", "0", "--host", "0.0.0.0"], in: folder, stdout: out, stderr: err)
        defer { if server.isRunning { server.terminate() } }
        let line = try await Self.firstLine(at: out)
        #expect(line.hasPrefix("Serving \(folder.url.standardizedFileURL.path)/c.sqlite at http://0.0.0.0:"))
        #expect(line.hasSuffix("/"))
        let stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        #expect(stderr.contains("warning: serving on 0.0.0.0, not loopback"))
        kill(server.processIdentifier, SIGINT)
        await server.exited()
        #expect(server.terminationStatus == 0)
    }

    /// The page is inside the binary: a copy of it alone, in an empty folder, serves it.
    @Test func aCopiedBinaryServesThePageAndStopsWithAnOpenEventStream() async throws {
        let folder = try TemporaryFolder()
        let copy = folder.url.appendingPathComponent("bin/catalog")
        try await CLI.copyBinary(to: copy)
        let out = folder.url.appendingPathComponent("serve.out"), err = folder.url.appendingPathComponent("serve.err")
        let server = WatchedProcess()
        server.executableURL = copy
        server.arguments = ["serve", "--catalog", "c.sqlite", "--port", "0"]
        server.currentDirectoryURL = folder.url
        server.environment = CLI.environment(in: folder)
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        server.standardOutput = try FileHandle(forWritingTo: out)
        server.standardError = try FileHandle(forWritingTo: err)
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        let line = try await Self.firstLine(at: out)
        let base = try #require(line.split(separator: " ").last.flatMap { URL(string: String($0)) })
        let (status, page) = try await Self.get(base)
        #expect(status == 200)
        #expect(String(decoding: page, as: UTF8.self).contains("<meta name=\"catalog-token\""))
        let (yamlStatus, yaml) = try await Self.get(base.appendingPathComponent("api/openapi.yaml"))
        #expect(yamlStatus == 200)
        #expect(String(decoding: yaml, as: UTF8.self).hasPrefix("openapi: 3.0.3"))

        // An event stream left open does not hold the stop up.
        let stream = URLSession.shared.dataTask(with: base.appendingPathComponent("api/events"))
        stream.resume()
        try await Task.sleep(for: .milliseconds(300))
        let clock = ContinuousClock()
        let start = clock.now
        server.terminate()
        await server.exited()
        stream.cancel()
        #expect(server.terminationStatus == 0, "\((try? String(contentsOf: err, encoding: .utf8)) ?? "")")
        #expect(clock.now - start < .seconds(10))
    }

    @Test func refusesABadPort() async throws {
        let folder = try TemporaryFolder()
        let result = try await CLI.run(["serve", "--catalog", "c.sqlite", "--port", "70000"], in: folder)
        #expect(result.status == 64)
    }
}
