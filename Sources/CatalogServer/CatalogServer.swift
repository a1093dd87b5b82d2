import Catalog
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// `catalog serve`: the catalog's HTTP API and its page, on Hummingbird. Build it, then `run()`;
/// SIGINT/SIGTERM stop it gracefully (requests in flight finish, event streams close, a running
/// job is cancelled with its finished entries kept), and `run()` returns.
public struct CatalogServer: Sendable {
    public let configuration: ServerConfiguration
    let api: CatalogAPI
    let port: ServingPort

    public init(repository: any CatalogStore, configuration: ServerConfiguration) {
        self.configuration = configuration
        let hub = ProgressHub()
        api = CatalogAPI(repository: repository, configuration: configuration, hub: hub, jobs: JobRunner(hub: hub), previews: CutoutPreviewer())
        port = ServingPort(configuration.port == 0 ? nil : configuration.port)
    }

    /// The routes and the request guard, for running or for tests.
    public func router() -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestGuard(
            policy: AccessPolicy(host: configuration.host, token: configuration.token, port: port),
            assets: AssetServer(token: configuration.token)
        ))
        api.register(on: router)
        return router
    }

    /// The application: the router on the configured address, with the services that close the event
    /// streams and stop the job on shutdown. `onRunning` gets the URL once the port is bound.
    public func application(onRunning: @escaping @Sendable (URL) async -> Void = { _ in }) -> some ApplicationProtocol {
        let port = self.port
        let host = configuration.host
        var logger = Logger(label: "catalog-serve")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: nil),
            services: [ShutdownCoordinator(hub: api.hub, jobs: api.jobs)],
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                port.set(bound)
                let shownHost = host.contains(":") ? "[\(host)]" : host
                await onRunning(URL(string: "http://\(shownHost):\(bound)/")!)
            },
            logger: logger
        )
    }

    /// Serves until SIGINT or SIGTERM, then stops gracefully.
    public func run(onRunning: @escaping @Sendable (URL) async -> Void) async throws {
        try await application(onRunning: onRunning).runService()
    }

    /// Events published so far go to open `/api/events` streams (tests, diagnostics).
    var hub: ProgressHub { api.hub }

    /// Waits for the running import or reprocess job, if any (tests).
    public func waitForJobs() async {
        await api.jobs.wait()
    }
}

/// On graceful shutdown: closes the event streams (which would otherwise hold the server open) and
/// cancels the running job, waiting for what it finished to commit.
struct ShutdownCoordinator: Service {
    let hub: ProgressHub
    let jobs: JobRunner

    func run() async throws {
        // Events keep flowing as comments while idle, so proxies and browsers keep the stream open.
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    try? await Task.sleep(for: .seconds(15))
                    hub.publish(ServerEvent(name: "ping", json: [String: String]()))
                }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        hub.close()
        await jobs.stop()
    }
}
