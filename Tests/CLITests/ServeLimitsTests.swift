import Crypto
import Foundation
import TestProcessSupport
import SampleImages
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A client that speaks raw HTTP over a socket, so it can do what browsers never do: stall, declare
/// lengths it does not send, go away mid-body.
struct RawClient {
    let descriptor: Int32

    init(port: Int, receiveTimeout: Int = 20) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            sent += count
        }
    }

    /// Everything until the server closes the connection (or the receive timeout).
    func readToClose() -> (text: String, closed: Bool) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (String(decoding: data, as: UTF8.self), true) }
            if count < 0 { return (String(decoding: data, as: UTF8.self), false) }
            data.append(contentsOf: buffer[..<count])
        }
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}

/// `catalog serve` against stalled, lying and vanishing clients, over real sockets: bounded reads,
/// timeouts, a stop that always works, and uploads kept whole or not at all.
@Suite("catalog serve: limits, timeouts and stopping", .serialized, .timeLimit(.minutes(15)))
struct ServeLimitsTests {
    struct Server {
        let process: WatchedProcess
        let port: Int
        let token: String
        let catalog: String
        let folder: TemporaryFolder
        let stderr: URL

        var host: String { "127.0.0.1:\(port)" }
        var uploads: URL { folder.url.appendingPathComponent(".local/share/sticker-catalog/uploads") }
        var errors: String { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }

        /// The server's peak resident memory so far, in MB.
        var peakMegabytes: Int {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
        }

        func request(_ method: String, _ path: String, headers: [String] = [], body: String = "") -> String {
            "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nX-Catalog-Token: \(token)\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n" + body
        }

        /// Sends `signal` (none: 0), then waits at most `limit` for the exit; the status and the time it took.
        func stop(_ signal: Int32 = SIGINT, within limit: Duration = .seconds(30)) async throws -> (status: Int32, took: Duration) {
            let clock = ContinuousClock()
            let start = clock.now
            if signal != 0 { kill(process.processIdentifier, signal) }
            if await !process.exited(within: limit) {
                process.terminate()
                Issue.record("the server was still running \(limit) after the signal")
            }
            await process.exited()
            return (process.terminationStatus, clock.now - start)
        }
    }

    static func start(_ extra: [String] = [], in folder: TemporaryFolder) async throws -> Server {
        let out = folder.url.appendingPathComponent("serve.out"), err = folder.url.appendingPathComponent("serve.err")
        let process = try CLI.start(["serve", "--catalog", "c.sqlite", "--port", "0", "--json"] + extra, in: folder, stdout: out, stderr: err)
        let line = try await ServeCommandTests.firstLine(at: out)
        let address = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return Server(
            process: process, port: try #require(address["port"] as? Int), token: try #require(address["token"] as? String),
            catalog: try #require(address["catalog"] as? String), folder: folder, stderr: err)
    }

    /// A multipart body of photos, and its boundary.
    static func multipart(_ files: [(name: String, bytes: [UInt8])]) -> (boundary: String, parts: [[UInt8]], end: [UInt8]) {
        let boundary = "catalog-test-boundary"
        let parts = files.map { file in
            Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photos\"; filename=\"\(file.name)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
                + file.bytes + Array("\r\n".utf8)
        }
        return (boundary, parts, Array("--\(boundary)--\r\n".utf8))
    }

    static func photos() throws -> [(name: String, bytes: [UInt8])] {
        try SamplePhotos.demoStills(width: 320, height: 240).filter { $0.name.hasSuffix(".png") }.prefix(2).map { ($0.name, $0.bytes) }
    }

    static func uploadedFiles(_ server: Server) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: server.uploads.path)) ?? []).sorted()
    }

    /// A source replaced by a 3 GB sparse file: the preview says what is wrong at once, without reading it.
    @Test(.needsModel) func aPreviewOfAHugeSourceReadsNothingBig() async throws {
        let folder = try TemporaryFolder()
        let photo = try folder.write(try #require(try SamplePhotos.demoStills(width: 320, height: 240).first { $0.name.hasSuffix(".jpg") }).bytes, to: "p/a.jpg")
        try #require(try await CLI.run(["--catalog", "c.sqlite", "import", folder.path("p")], in: folder).status == 0)
        let server = try await Self.start(in: folder)
        defer { if server.process.isRunning { server.process.terminate() } }
        let before = server.peakMegabytes
        for size: UInt64 in [3 << 30, 900 << 20] {
            // Zeros: no image's first bytes. The larger is also over the import's 1 GiB limit.
            try Data().write(to: URL(fileURLWithPath: photo))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: photo))
            try handle.truncate(atOffset: size)
            try handle.close()
            let clock = ContinuousClock()
            let start = clock.now
            let client = try RawClient(port: server.port)
            client.send("GET /api/photos/1/preview.jpg HTTP/1.1\r\nHost: \(server.host)\r\nConnection: close\r\n\r\n")
            let answer = client.readToClose().text
            client.close()
            #expect(answer.hasPrefix("HTTP/1.1 404"), "\(answer.prefix(300))")
            #expect(answer.contains(size > 1 << 30 ? "more than the 1073741824-byte limit" : "not an image"), "\(answer)")
            #expect(clock.now - start < .seconds(20), "\(size) bytes: \(clock.now - start)")
        }
        #expect(server.peakMegabytes < before + 100, "peak \(server.peakMegabytes) MB, \(before) MB before the previews")
        #expect(try await server.stop().status == 0)
    }

    /// A body that declares 10 GB is refused before a byte of it is read, and the connection closed.
    @Test func aDeclaredLengthOverTheLimitIsRefusedAtOnce() async throws {
        let server = try await Self.start(in: try TemporaryFolder())
        defer { if server.process.isRunning { server.process.terminate() } }
        for (path, type) in [("/api/packs", "application/json"), ("/api/import", "multipart/form-data; boundary=x")] {
            let client = try RawClient(port: server.port)
            client.send(server.request("POST", path, headers: ["Content-Type: \(type)", "Content-Length: 10000000000000"], body: "{\"name\":"))
            let (answer, closed) = client.readToClose()
            client.close()
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(path): \(answer.prefix(200))")
            #expect(answer.contains("\"too-large\"") && closed, "\(path): \(answer)")
        }
        #expect(try await server.stop().status == 0)
    }

    /// A head that never ends and a body that stops coming: the connection is closed after the timeout.
    @Test func stalledHeadsAndBodiesAreCutOff() async throws {
        let server = try await Self.start(["--header-timeout", "1", "--body-timeout", "1"], in: try TemporaryFolder())
        defer { if server.process.isRunning { server.process.terminate() } }
        let head = try RawClient(port: server.port)
        head.send("GET /api/stats HTTP/1.1\r\nHo")
        #expect(head.readToClose().closed)
        head.close()
        let body = try RawClient(port: server.port)
        body.send(server.request("POST", "/api/packs", headers: ["Content-Type: application/json", "Content-Length: 100"], body: "{\"name\":"))
        #expect(body.readToClose().closed)
        body.close()
        #expect(try await server.stop().status == 0)
    }

    /// Ctrl-C while a body is stalled: the server still stops, within its grace period; a second Ctrl-C at once.
    /// With two signals the grace is long (60 s), so that the second one ends the run however late a loaded
    /// machine delivers it, and only the second signal can make it end within 20 s.
    @Test func aStalledBodyDoesNotHoldTheStop() async throws {
        for twice in [false, true] {
            let grace = twice ? "60" : "2"
            let server = try await Self.start(["--body-timeout", "600", "--shutdown-grace", grace], in: try TemporaryFolder())
            defer { if server.process.isRunning { server.process.terminate() } }
            let client = try RawClient(port: server.port)
            client.send(server.request("POST", "/api/packs", headers: ["Content-Type: application/json", "Content-Length: 100"], body: "0123456789"))
            try await Task.sleep(for: .milliseconds(300))
            if twice {
                kill(server.process.processIdentifier, SIGINT)
                try await Task.sleep(for: .milliseconds(200))
            }
            let (status, took) = try await server.stop(SIGINT)
            client.close()
            #expect(status == (twice ? 130 : 0), "\(server.errors)")
            #expect(took < .seconds(twice ? 20 : 60), "\(took)")
        }
    }

    /// An upload that completes after SIGTERM gets 503, never a 202 that would not be honoured, and leaves nothing.
    @Test func anUploadFinishedDuringTheStopIsRefusedAndLeavesNothing() async throws {
        let server = try await Self.start(["--shutdown-grace", "20"], in: try TemporaryFolder())
        defer { if server.process.isRunning { server.process.terminate() } }
        let (boundary, parts, end) = Self.multipart(try Self.photos())
        let length = parts.reduce(0) { $0 + $1.count } + end.count
        let client = try RawClient(port: server.port)
        client.send(server.request("POST", "/api/import", headers: ["Content-Type: multipart/form-data; boundary=\(boundary)", "Content-Length: \(length)"]))
        client.send(parts[0])
        // The signal must come once the server is reading this request: a connection whose head it has
        // not read yet is simply closed by the stop, as it should be, and that is not what this checks.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while !Self.uploadedFiles(server).contains(where: { $0.hasPrefix(".incoming-") }) && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(!Self.uploadedFiles(server).isEmpty, "the server never began saving the upload")
        kill(server.process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(500))
        for part in parts.dropFirst() { client.send(part) }
        client.send(end)
        let answer = client.readToClose().text
        client.close()
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(300))")
        #expect(answer.contains("\"stopping\""), "\(answer)")
        let (status, _) = try await server.stop(0)  // stopping already
        #expect(status == 0, "\(server.errors)")
        #expect(Self.uploadedFiles(server).isEmpty, "\(Self.uploadedFiles(server))")
    }

    /// An upload cut off after its first photo keeps nothing; what a killed server left is put right at the next start.
    @Test(.needsModel) func uploadsAreKeptWholeOrNotAtAll() async throws {
        let folder = try TemporaryFolder()
        var server = try await Self.start(in: folder)
        defer { if server.process.isRunning { server.process.terminate() } }
        let photos = try Self.photos()
        let (boundary, parts, _) = Self.multipart(photos)
        let client = try RawClient(port: server.port)
        client.send(server.request("POST", "/api/import", headers: ["Content-Type: multipart/form-data; boundary=\(boundary)", "Content-Length: 10000000"]))
        client.send(parts[0])
        client.send(Array(parts[1].prefix(200)))
        try await Task.sleep(for: .milliseconds(500))
        client.close()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while !Self.uploadedFiles(server).isEmpty && clock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(Self.uploadedFiles(server).isEmpty, "\(Self.uploadedFiles(server))")
        #expect(try await server.stop().status == 0)

        // As a crash would leave them: a part that never arrived whole, and an upload accepted (its manifest
        // written) but never imported. Beside them, another catalog's upload, which is not this one's to import.
        try FileManager.default.createDirectory(at: server.uploads, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: server.uploads.appendingPathComponent(".incoming-crashed"))
        let digest = SHA256.hash(data: photos[0].bytes).map { String(format: "%02x", $0) }.joined()
        let accepted = server.uploads.appendingPathComponent(digest + ".png")
        try Data(photos[0].bytes).write(to: accepted)
        try Data("\(server.catalog)\n\(accepted.path)".utf8).write(to: server.uploads.appendingPathComponent(".import-crashed"))
        let otherDigest = SHA256.hash(data: photos[1].bytes).map { String(format: "%02x", $0) }.joined()
        try Data(photos[1].bytes).write(to: server.uploads.appendingPathComponent(otherDigest + ".png"))
        try Data("/elsewhere/other.sqlite\n\(server.uploads.path)/\(otherDigest).png".utf8).write(to: server.uploads.appendingPathComponent(".import-other"))
        server = try await Self.start(in: folder)
        let deadline2 = clock.now + .seconds(60)
        var listed = ""
        while clock.now < deadline2 {
            listed = try await CLI.run(["--catalog", "c.sqlite", "list"], in: folder).stdout
            if listed.contains(digest) { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(listed.contains(digest + ".png"), "\(listed)\n\(server.errors)")
        #expect(server.errors.contains("removed 1 part of uploads cut off") && server.errors.contains("importing 1 uploaded photo "), "\(server.errors)")
        #expect(!listed.contains(otherDigest), "another catalog's upload is left alone")
        let manifestGone = clock.now + .seconds(30)
        while Self.uploadedFiles(server).contains(".import-crashed") && clock.now < manifestGone { try await Task.sleep(for: .milliseconds(100)) }
        #expect(Self.uploadedFiles(server) == [".import-other", digest + ".png", otherDigest + ".png"].sorted(), "\(Self.uploadedFiles(server))")
        #expect(try await server.stop().status == 0)
    }

    /// Ctrl-C during a reprocess started from the page: the job keeps what it finished, the open event
    /// stream is told how it ended and then closed, and the server exits 0 without waiting out its grace.
    @Test(.needsModel) func aJobRunningAtTheStopIsReportedAndTheStreamsClose() async throws {
        let folder = try TemporaryFolder()
        let photos = try folder.writeNumberedCopies(40, width: 640, height: 480)
        try #require(try await CLI.run(["--catalog", "c.sqlite", "import", photos], in: folder).status == 0)
        let server = try await Self.start(["--shutdown-grace", "30"], in: folder)
        defer { if server.process.isRunning { server.process.terminate() } }
        let events = try RawClient(port: server.port, receiveTimeout: 60)
        events.send("GET /api/events HTTP/1.1\r\nHost: \(server.host)\r\n\r\n")
        let start = try RawClient(port: server.port)
        start.send(server.request("POST", "/api/reprocess", headers: ["Content-Type: application/json", "Content-Length: 12", "Connection: close"], body: "{\"all\":true}"))
        let started = start.readToClose().text
        start.close()
        #expect(started.hasPrefix("HTTP/1.1 202"), "\(started.prefix(300))")
        try await Task.sleep(for: .milliseconds(800))
        let (status, took) = try await server.stop(SIGINT)
        let stream = events.readToClose()
        events.close()
        #expect(status == 0, "\(server.errors)")
        #expect(took < .seconds(60), "\(took)")
        #expect(stream.closed)
        #expect(stream.text.contains("\"state\":\"interrupted\"") || stream.text.contains("\"state\":\"finished\""), "\(stream.text.suffix(600))")
    }
}
