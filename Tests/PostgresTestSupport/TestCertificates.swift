import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Throwaway certificates for a TLS test server, made with `openssl` into a folder of the test's: a
/// certificate authority, a server certificate it signs for the name `localhost` only (subjectAltName
/// DNS:localhost, so connecting by 127.0.0.1 does not match it), and a second, unrelated authority (the
/// wrong one to trust). EC P-256 keys: quick to make on a loaded machine.
public struct TestCertificates: Sendable {
    /// The authority that signed the server's certificate (PEM), what a client should trust.
    public let authority: String
    /// An authority that signed nothing the server has (PEM): trusting only it must fail.
    public let otherAuthority: String
    /// The server's certificate (PEM), for `ssl_cert_file`.
    public let serverCertificate: String
    /// The server's private key (PEM, mode 0600, owned by the server's user), for `ssl_key_file`.
    public let serverKey: String
    /// The one name the server's certificate is valid for.
    public static let serverName = "localhost"

    /// Whether `openssl` is installed (`make test` installs it with PostgreSQL).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: openssl) }

    static let openssl = "/usr/bin/openssl"

    /// Makes the certificates in `folder`; the server's key is given to `keyOwner` (the server's user), as
    /// PostgreSQL refuses a key that others may read or that its user does not own.
    init(in folder: String, keyOwner: (name: String, uid: uid_t, gid: gid_t)?) throws {
        authority = folder + "/ca.crt"
        otherAuthority = folder + "/other-ca.crt"
        serverCertificate = folder + "/server.crt"
        serverKey = folder + "/server.key"
        try Self.makeAuthority(certificate: authority, key: folder + "/ca.key", name: "sticker-catalog test CA")
        try Self.makeAuthority(certificate: otherAuthority, key: folder + "/other-ca.key", name: "unrelated test CA")
        let request = folder + "/server.csr", extensions = folder + "/server.ext"
        try run(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                 "-keyout", serverKey, "-out", request, "-subj", "/CN=\(Self.serverName)"])
        try """
            subjectAltName = DNS:\(Self.serverName)
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth

            """.write(toFile: extensions, atomically: true, encoding: .utf8)
        try run(["x509", "-req", "-in", request, "-CA", authority, "-CAkey", folder + "/ca.key", "-set_serial", "2",
                 "-days", "30", "-extfile", extensions, "-out", serverCertificate])
        chmod(serverKey, 0o600)
        if let keyOwner { chown(serverKey, keyOwner.uid, keyOwner.gid) }
        for readable in [authority, otherAuthority, serverCertificate] { chmod(readable, 0o644) }
    }

    private static func makeAuthority(certificate: String, key: String, name: String) throws {
        try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                 "-keyout", key, "-out", certificate, "-days", "30", "-subj", "/CN=\(name)",
                 "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    }
}

private func run(_ arguments: [String]) throws {
    _ = try PostgresTools.run(executable: TestCertificates.openssl, arguments)
}
