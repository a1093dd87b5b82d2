import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a PostgreSQL catalog's password comes from, as for `psql`: the URL, else `PGPASSWORD`, else the
/// first matching line of the password file (`$PGPASSFILE`, else `~/.pgpass`).
///
/// The password is handed to the connection and to nothing else: it is never printed, logged or stored.
enum PostgresPassword {
    /// What the lookup found: the password (if any) and a warning for the user (a password file ignored
    /// because others can read it, as libpq warns).
    struct Lookup: Sendable {
        var password: String?
        var warning: String?
    }

    static func lookup(for address: PostgresAddress, environment: [String: String]) -> Lookup {
        if let password = address.urlPassword { return Lookup(password: password) }
        if let password = environment["PGPASSWORD"], !password.isEmpty { return Lookup(password: password) }
        let file: String
        if let explicit = environment["PGPASSFILE"], !explicit.isEmpty {
            file = explicit
        } else if let home = environment["HOME"], !home.isEmpty {
            file = (home as NSString).appendingPathComponent(".pgpass")
        } else {
            return Lookup()
        }
        return PasswordFile.lookup(
            path: file, host: address.passwordFileHost, port: String(address.port),
            database: address.database, user: address.user)
    }
}

/// libpq's password file: lines `hostname:port:database:username:password`, `*` matching anything in the
/// first four fields, `\:` and `\\` escapes, `#` comments, the first matching line wins. A file that is
/// not a plain file, or that the group or others may read or write, is ignored with a warning.
enum PasswordFile {
    static func lookup(path: String, host: String, port: String, database: String, user: String) -> PostgresPassword.Lookup {
        var status = stat()
        guard stat(path, &status) == 0 else { return .init() }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return .init(warning: "password file \(path) is not a plain file; it was ignored")
        }
        if status.st_mode & (S_IRWXG | S_IRWXO) != 0 {
            return .init(warning: "password file \(path) has group or world access; permissions should be u=rw (0600) "
                + "or less; it was ignored")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return .init() }
        return .init(password: password(in: text, host: host, port: port, database: database, user: user))
    }

    /// The password of the first line of `text` matching the four keys, or nil.
    static func password(in text: String, host: String, port: String, database: String, user: String) -> String? {
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = Substring(rawLine)
            if line.hasPrefix("#") { continue }
            var rest = line
            var matched = true
            for key in [host, port, database, user] {
                guard let after = matchField(rest, key: key) else { matched = false; break }
                rest = after
            }
            guard matched else { continue }
            return unescapedField(rest)
        }
        return nil
    }

    /// Matches the field at the start of `text` (up to an unescaped `:`) against `key` and returns what
    /// follows the `:`, or nil when it does not match or no `:` ends it.
    private static func matchField(_ text: Substring, key: String) -> Substring? {
        if text.hasPrefix("*:") { return text.dropFirst(2) }
        var keyIndex = key.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            var character = text[index]
            if character == ":" {
                return keyIndex == key.endIndex ? text[text.index(after: index)...] : nil
            }
            if character == "\\" {
                let next = text.index(after: index)
                if next < text.endIndex { index = next; character = text[index] }
            }
            guard keyIndex < key.endIndex, key[keyIndex] == character else { return nil }
            keyIndex = key.index(after: keyIndex)
            index = text.index(after: index)
        }
        return nil
    }

    /// The password field: up to an unescaped `:` or the end, with `\` escapes removed.
    private static func unescapedField(_ text: Substring) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex, text[index] != ":" {
            if text[index] == "\\", text.index(after: index) < text.endIndex { index = text.index(after: index) }
            result.append(text[index])
            index = text.index(after: index)
        }
        return result
    }
}
