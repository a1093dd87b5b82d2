import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// Opens the TCP connection to a PostgreSQL server, with the address's ``PostgresLiveness`` set on its
/// socket, for postgres-nio to run its handshake on (postgres-nio's own connect sets no socket options).
enum PostgresTCPChannel {
    static func open(host: String, port: Int, connectTimeout: Duration, liveness: PostgresLiveness) async throws -> any Channel {
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(Int64(milliseconds(connectTimeout))))
        if liveness.keepalives {
            bootstrap = bootstrap
                .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
                .channelOption(tcpOption(TCP_KEEPIDLE), value: SocketOptionValue(max(1, seconds(liveness.idle))))
                .channelOption(tcpOption(TCP_KEEPINTVL), value: SocketOptionValue(max(1, seconds(liveness.interval))))
                .channelOption(tcpOption(TCP_KEEPCNT), value: SocketOptionValue(max(1, liveness.count)))
        }
        if liveness.userTimeout > .zero {
            bootstrap = bootstrap.channelOption(tcpOption(CInt(TCP_USER_TIMEOUT)), value: SocketOptionValue(milliseconds(liveness.userTimeout)))
        }
        return try await bootstrap.connect(host: host, port: port).get()
    }

    private static func tcpOption(_ name: CInt) -> ChannelOptions.Types.SocketOption {
        ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
    }

    private static func seconds(_ duration: Duration) -> Int { Int(duration.components.seconds) }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(min(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000, Int64(Int32.max)))
    }
}
