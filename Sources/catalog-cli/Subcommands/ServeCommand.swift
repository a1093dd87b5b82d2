import ArgumentParser
import Catalog
import CatalogServer
import Foundation
import Processing

extension CatalogCommand {
    /// `catalog serve`: the catalog in a browser, and its HTTP API.
    struct ServeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the catalog to a browser: see, search, arrange and export stickers.",
            discussion: """
                Prints `Serving PATH at http://HOST:PORT/` (with --json, one JSON object with url, catalog, host, port and token), then serves until Ctrl-C or SIGTERM. The page and the JSON API (/api/..., described at /api/openapi.yaml) are on that address.

                Stopping: on the first Ctrl-C or SIGTERM the server takes no new connections and answers changes with 503 (`stopping`); requests in flight get --shutdown-grace seconds to finish, then what is left is closed; a running import or reprocess keeps what it finished (the page is told it was interrupted); exit 0. A second Ctrl-C or SIGTERM exits at once (130 / 143).

                Limits: a connection that takes longer than --header-timeout to send its request's head, pauses a body for longer than --body-timeout, or waits idle between requests for longer than --idle-timeout is closed. A JSON body is at most 1 MB and an upload's photo at most --max-upload; a request that declares more (Content-Length) is refused with 413 before its body is read. An upload is kept whole or not at all; pieces an interrupted run left in the uploads folder are removed at the next start, and uploads it accepted for this catalog but had not imported are imported then.

                Security: it listens on loopback (127.0.0.1) unless --host names another address, and warns then: anyone who can reach that address can read the catalog. Every change needs the per-run token the page carries (header X-Catalog-Token); requests from other sites' pages (a foreign Origin) and requests naming another Host (DNS rebinding) are refused. Uploaded photos are kept in $XDG_DATA_HOME/sticker-catalog/uploads, named by their SHA-256.
                """
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var model: ModelOptions

        @Option(help: ArgumentHelp("The address to listen on. Anything but loopback is reachable by other machines.", valueName: "address"))
        var host = "127.0.0.1"

        @Option(help: ArgumentHelp("The port (0 picks a free one).", valueName: "n"))
        var port = 8080

        @Flag(help: "Open the page in the default browser.")
        var open = false

        @OptionGroup var output: OutputOptions

        @Option(name: .customLong("max-upload"), help: ArgumentHelp("The largest photo an upload may hold, in MB.", valueName: "MB"))
        var maxUploadMB = ServerConfiguration.defaultMaxUploadBytes / (1024 * 1024)

        @Option(help: "Photos processed at once by an import or reprocess started from the page (default: the number of cores).")
        var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

        @Option(help: ArgumentHelp("Seconds a new connection may take to send its first request's head.", valueName: "s"))
        var headerTimeout = 30

        @Option(help: ArgumentHelp("Seconds a request's body may pause before the connection is closed.", valueName: "s"))
        var bodyTimeout = 30

        @Option(help: ArgumentHelp("Seconds a kept-alive connection may wait for its next request.", valueName: "s"))
        var idleTimeout = 60

        @Option(help: ArgumentHelp("Seconds requests in flight get to finish after Ctrl-C or SIGTERM.", valueName: "s"))
        var shutdownGrace = 10

        func validate() throws {
            if !(0...65_535).contains(port) { throw ValidationError("--port must be between 0 and 65535, not \(port)") }
            if host.isEmpty { throw ValidationError("--host needs an address, such as 127.0.0.1") }
            if !(1...100_000).contains(maxUploadMB) { throw ValidationError("--max-upload must be between 1 and 100000 MB, not \(maxUploadMB)") }
            if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
            for (name, value) in [("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout), ("--idle-timeout", idleTimeout)]
            where !(1...3600).contains(value) {
                throw ValidationError("\(name) must be between 1 and 3600 seconds, not \(value)")
            }
            if !(0...600).contains(shutdownGrace) { throw ValidationError("--shutdown-grace must be between 0 and 600 seconds, not \(shutdownGrace)") }
        }

        func run() async throws {
            let repository = try await catalog.open(.readWrite)
            if !ServerConfiguration.isLoopback(host) {
                Diagnostics.report("warning: serving on \(host), not loopback: anyone who can reach this address and port can see the catalog (changes still need the page's token)")
            }
            let environment = CatalogEnvironment.current
            let predictors = LoadedModels(environment: environment)
            var configuration = ServerConfiguration(
                host: host, port: port, maxUploadBytes: maxUploadMB * 1024 * 1024, uploadsDirectory: environment.uploadsFolder,
                jobs: jobs, model: try model.chosen ?? environment.modelOption(), precision: model.chosenPrecision,
                makePredictor: { try predictors.predictor($0, precision: $1) }
            )
            configuration.logLevel = environment.logLevel
            configuration.timeouts = ConnectionTimeouts(header: .seconds(headerTimeout), body: .seconds(bodyTimeout), idle: .seconds(idleTimeout))
            configuration.shutdownGrace = .seconds(shutdownGrace)
            configuration.catalogIdentity = catalog.displayName
            let server = CatalogServer(repository: repository, configuration: configuration)
            let recovered = await server.recoverUploads()
            if !recovered.removed.isEmpty {
                Diagnostics.report("note: removed \(Counted(recovered.removed.count, "part")) of uploads cut off in an earlier run: \(recovered.removed.joined(separator: ", "))")
            }
            if !recovered.importing.isEmpty {
                Diagnostics.report("note: importing \(Counted(recovered.importing.count, "uploaded photo")) an earlier run accepted and had not imported: \(recovered.importing.joined(separator: ", "))")
            }
            if let problem = recovered.problem { Diagnostics.report("warning: " + problem) }
            let location = catalog.displayName
            let (json, open, token) = (output.json, self.open, configuration.token)
            do {
                try await server.run { url in
                    if json {
                        Terminal.standardOutput.write(JSONOutput.line(Address(
                            url: url.absoluteString, catalog: location, host: url.host ?? "", port: url.port ?? 0, token: token
                        )))
                    } else {
                        Terminal.standardOutput.write("Serving \(location) at \(url.absoluteString)\n")
                    }
                    if open { Self.openBrowser(url) }
                }
            } catch {
                Diagnostics.report("error: cannot serve on \(host):\(port): \(error)")
                throw ExitCode(.ioError)
            }
        }

        /// The first line of `--json`.
        struct Address: Encodable {
            let url: String
            let catalog: String
            let host: String
            let port: Int
            let token: String
        }

        /// Starts the desktop's browser on `url` (xdg-open); says so when there is none.
        static func openBrowser(_ url: URL) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", url.absoluteString]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                Diagnostics.report("note: could not open a browser (\(error.localizedDescription)); open \(url.absoluteString) yourself")
            }
        }
    }
}
