import ArgumentParser
import Catalog
import Foundation
import Processing

/// The exit codes scripts rely on, defined once: the commands exit with them, and `catalog --help`, the
/// man pages (generated from the help) and docs/exit-codes.md list them from here.
enum ExitStatus: CaseIterable, Sendable {
    case success, someFailed, usage, dataError, unavailable, ioError, busy, accessDenied, interrupted, closedPipe

    /// The code the process exits with (SIGINT's for `interrupted`; SIGTERM's is ``interruptedBySIGTERM``).
    var code: Int32 {
        switch self {
        case .success: 0
        case .someFailed: 1
        case .usage: 64
        case .dataError: 65
        case .unavailable: 69
        case .ioError: 74
        case .busy: 75
        case .accessDenied: 77
        case .interrupted: 128 + SIGINT
        case .closedPipe: 128 + SIGPIPE
        }
    }

    /// 143: `interrupted` by SIGTERM rather than SIGINT.
    static let interruptedBySIGTERM: Int32 = 128 + SIGTERM

    /// The code (or codes) as the tables show them.
    var codeText: String { self == .interrupted ? "\(code) / \(Self.interruptedBySIGTERM)" : "\(code)" }

    /// A short name for the code, as sysexits.h names most of them.
    var name: String {
        switch self {
        case .success: "success"
        case .someFailed: "some-failed"
        case .usage: "usage"
        case .dataError: "data-error"
        case .unavailable: "unavailable"
        case .ioError: "io-error"
        case .busy: "busy"
        case .accessDenied: "access-denied"
        case .interrupted: "interrupted"
        case .closedPipe: "closed-pipe"
        }
    }

    /// What the code means, for people and scripts.
    var meaning: String {
        switch self {
        case .success: "all done"
        case .someFailed: "finished, but some items failed (each is named on stderr / in JSON; the rest was done)"
        case .usage:
            "usage error: a bad option or argument, an empty path, `help UNKNOWN`, a malformed `$CATALOG_BUSY_TIMEOUT` or `postgres://` address (nothing was touched; checked before the catalog is opened)"
        case .dataError:
            "bad input data: nothing usable (every file failed), an unknown id or pack, a pack too small/empty for the format or a sticker that cannot fit its limit, a file that is not a catalog, or a catalog made by a newer version (left untouched)"
        case .unavailable:
            "the segmentation model the run needs is not installed, or is damaged (nothing was written; the message names every place it looked); or the PostgreSQL server of a `postgres://` catalog cannot be reached, or goes away while a command runs"
        case .ioError:
            "I/O error: the catalog (or output) cannot be created, read or written; an export or preview that exists (without `--force`); a `postgres://` catalog whose database does not exist; a `catalog copy` target that is not new"
        case .busy: "the catalog is busy: another process held its lock past the timeout; retry later"
        case .accessDenied:
            "the PostgreSQL server refused the credentials of a `postgres://` catalog (give the password in `PGPASSWORD` or `~/.pgpass`), or its `pg_hba.conf` does not let the connection in"
        case .interrupted: "interrupted by SIGINT / SIGTERM; finished work is kept, a re-run continues"
        case .closedPipe: "stdout was a closed pipe (as if SIGPIPE had ended the command); finished work is kept"
        }
    }

    /// The exit that ArgumentParser performs when this is thrown.
    var exit: ExitCode { ExitCode(code) }
}

extension ExitCode {
    /// The exit of `status`: `throw ExitCode(.dataError)`.
    init(_ status: ExitStatus) { self.init(status.code) }
}
