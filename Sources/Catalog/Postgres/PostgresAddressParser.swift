import Foundation

/// Splits a `postgres://` URL into its parts, as libpq's URI parser does:
/// `postgres://[user[:password]@][host][:port][/database][?name=value&…]`, every part percent-decoded,
/// an IPv6 host in brackets, a host starting with `/` (written `%2F…` or as `?host=/path`) a socket folder.
struct PostgresAddressParser {
    /// The parts found; `nil` where the URL is silent.
    struct Parts {
        var user: String?
        var password: String?
        var host: String?
        var port: Int?
        var database: String?
        var sslMode: PostgresSSLMode?
        var sslRootCertificate: String?
        var connectTimeoutSeconds: Int?
        var keepalives: Bool?
        var keepalivesIdleSeconds: Int?
        var keepalivesIntervalSeconds: Int?
        var keepalivesCount: Int?
        var tcpUserTimeoutMilliseconds: Int?
    }

    let text: String

    /// The query parameters understood; libpq rejects unknown ones too, so a typo is not silently ignored.
    static let parameterNames = [
        "host", "port", "user", "dbname", "password", "sslmode", "sslrootcert", "connect_timeout",
        "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
    ]

    func parse() throws(CatalogError) -> Parts {
        guard let schemeEnd = text.range(of: "://"),
              PostgresAddress.isPostgresAddress(text) else {
            throw invalid("it does not start with postgres:// or postgresql://")
        }
        var rest = Substring(text[schemeEnd.upperBound...])
        var parts = Parts()

        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var authority = rest
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            let path = rest[rest.index(after: slash)...]
            if !path.isEmpty { parts.database = try decode(path, what: "database name") }
        }
        // The last '@' ends the user part: a password may hold an (encoded or not) '@'.
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                parts.user = try nonEmpty(decode(userInfo[..<colon], what: "user name"))
                parts.password = try decode(userInfo[userInfo.index(after: colon)...], what: "password")
            } else {
                parts.user = try nonEmpty(decode(userInfo, what: "user name"))
            }
        }
        try parseHostAndPort(authority, into: &parts)
        try parseQuery(query, into: &parts)
        return parts
    }

    private func parseHostAndPort(_ authority: Substring, into parts: inout Parts) throws(CatalogError) {
        guard !authority.isEmpty else { return }
        if authority.contains(",") { throw invalid("it names several hosts, and a catalog is on one server") }
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("an IPv6 address lacks its closing ]") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected text after the IPv6 address") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        parts.host = try nonEmpty(decode(hostPart, what: "host"))
        if let portPart, !portPart.isEmpty { parts.port = try port(String(portPart)) }
    }

    private func parseQuery(_ query: Substring, into parts: inout Parts) throws(CatalogError) {
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else { throw invalid("the parameter \(pair) has no value") }
            let name = try decode(pair[..<equals], what: "parameter name")
            let value = try decode(pair[pair.index(after: equals)...], what: "value of \(name)")
            switch name {
            case "host": parts.host = try nonEmpty(value)
            case "port": parts.port = try port(value)
            case "user": parts.user = try nonEmpty(value)
            case "dbname": parts.database = try nonEmpty(value)
            case "password": parts.password = value
            case "sslmode":
                guard let mode = PostgresSSLMode(rawValue: value) else {
                    throw invalid("sslmode \(value) is not one of \(PostgresSSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                parts.sslMode = mode
            case "sslrootcert": parts.sslRootCertificate = try nonEmpty(value)
            case "connect_timeout":
                guard let seconds = Int(value), seconds >= 0 else { throw invalid("connect_timeout \(value) is not a number of seconds") }
                parts.connectTimeoutSeconds = seconds
            case "keepalives":
                guard value == "0" || value == "1" else { throw invalid("keepalives \(value) is not 0 or 1") }
                parts.keepalives = value == "1"
            case "keepalives_idle": parts.keepalivesIdleSeconds = try positive(value, name, unit: "seconds")
            case "keepalives_interval": parts.keepalivesIntervalSeconds = try positive(value, name, unit: "seconds")
            case "keepalives_count": parts.keepalivesCount = try positive(value, name, unit: "probes")
            case "tcp_user_timeout":
                guard let milliseconds = Int(value), milliseconds >= 0, milliseconds <= Int(Int32.max) else {
                    throw invalid("tcp_user_timeout \(value) is not a number of milliseconds")
                }
                parts.tcpUserTimeoutMilliseconds = milliseconds
            default:
                throw invalid("the parameter \(name) is not understood (known: \(Self.parameterNames.joined(separator: ", ")))")
            }
        }
    }

    /// A whole number from 1 up (a socket option's: at most 32,767).
    private func positive(_ text: String, _ name: String, unit: String) throws(CatalogError) -> Int {
        guard let number = Int(text), (1...32_767).contains(number) else { throw invalid("\(name) \(text) is not a number of \(unit) from 1 to 32767") }
        return number
    }

    private func port(_ text: String) throws(CatalogError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else { throw invalid("the port \(text) is not a number from 1 to 65535") }
        return port
    }

    private func decode(_ part: Substring, what: String) throws(CatalogError) -> String {
        guard let decoded = String(part).removingPercentEncoding else {
            throw invalid("the \(what) has a malformed %-escape")
        }
        return decoded
    }

    private func nonEmpty(_ value: String) throws(CatalogError) -> String? {
        value.isEmpty ? nil : value
    }

    /// The error for this URL, shown without any password it holds.
    private func invalid(_ reason: String) -> CatalogError {
        .invalidAddress(address: Self.redacted(text), reason: reason)
    }

    /// `text` with the password part of `user:password@` replaced by `***`, and any `password=` parameter too.
    static func redacted(_ text: String) -> String {
        var result = text
        if let schemeEnd = result.range(of: "://") {
            let afterScheme = result[schemeEnd.upperBound...]
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            let authority = result[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result.replaceSubrange(result.index(after: colon)..<at, with: "***")
            }
        }
        if let mark = result.firstIndex(of: "?") {
            let query = result[result.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
                pair.lowercased().hasPrefix("password=") ? "password=***" : String(pair)
            }
            result = String(result[...mark]) + query.joined(separator: "&")
        }
        return result
    }
}
