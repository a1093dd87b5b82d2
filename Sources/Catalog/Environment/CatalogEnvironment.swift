import Foundation
import Processing

/// The one home of the environment variables `catalog` and `catalog serve` read: the XDG data folder,
/// the catalog's address and lock wait, the segmentation models, and the switches handed to Processing.
/// Made once from the process's environment (or a test's dictionary); everything else takes what it
/// needs from here as parameters. Empty values count as unset.
public struct CatalogEnvironment: Sendable {
    /// The variables, as given.
    public let variables: [String: String]

    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
        self.variables = variables
    }

    /// The variable's value; nil when it is unset or empty.
    public subscript(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// A variable that is set to the empty string (an unset script variable, usually a mistake).
    public func isSetButEmpty(_ name: String) -> Bool { variables[name] == "" }

    // MARK: The XDG Base Directory rule

    /// `$HOME`, else the user's home folder from the system.
    public var home: String { self["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path }

    /// `$XDG_DATA_HOME`, or `$HOME/.local/share`; a relative `$XDG_DATA_HOME` is ignored, as the specification says.
    public var dataFolder: URL {
        if let xdg = variables["XDG_DATA_HOME"], xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg, isDirectory: true) }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
    }

    /// `$XDG_DATA_HOME/sticker-catalog/<name>` (or under `~/.local/share`): where the default catalog,
    /// the models and uploads live.
    public func dataURL(_ name: String) -> URL {
        dataFolder.appendingPathComponent("sticker-catalog").appendingPathComponent(name)
    }

    /// Where `catalog serve` keeps uploaded photos: `$XDG_DATA_HOME/sticker-catalog/uploads`.
    public var uploadsFolder: URL { dataURL("uploads") }

    // MARK: Logging and the terminal

    /// `$LOG_LEVEL`: how much the server's HTTP layer logs (trace ... critical); nil: its default.
    public var logLevel: String? { self["LOG_LEVEL"] }

    /// `$NO_COLOR` set to anything (https://no-color.org): no colour in output.
    public var forbidsColor: Bool { self["NO_COLOR"] != nil }

    /// `TERM=dumb`: a terminal that understands no escapes (no colour, no progress bar).
    public var isDumbTerminal: Bool { variables["TERM"] == "dumb" }
}

/// A variable whose value cannot be used; the message names it and says what it should hold.
public struct EnvironmentError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
}
