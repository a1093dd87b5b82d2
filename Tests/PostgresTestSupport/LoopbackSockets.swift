import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port that nothing listens on (bound, then released; good enough for a refused connection).
public func unusedLoopbackPort() throws -> Int {
    let listener = try SilentListener()
    let port = listener.port
    listener.close()
    return port
}

/// A TCP listener on 127.0.0.1 that accepts connections (the kernel completes the handshake) and never
/// answers: a server that hangs, which only a connect deadline can get a client away from.
public final class SilentListener: Sendable {
    /// The port it listens on.
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketDescriptor, 16) == 0 else {
            let code = errno
            Glibc.close(socketDescriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        descriptor = socketDescriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops listening (connections in its backlog are reset).
    public func close() {
        Glibc.close(descriptor)
    }
}
