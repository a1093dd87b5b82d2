import Foundation

/// The one rule for where sticker-catalog keeps its data (the catalog, the models, uploads), after the
/// XDG Base Directory specification: `$XDG_DATA_HOME` when it is an absolute path, else
/// `$HOME/.local/share`. Empty values count as unset.
public enum DataHome {
    /// `$XDG_DATA_HOME/sticker-catalog/<name>` (or under `~/.local/share`).
    public static func url(_ name: String, environment: [String: String]) -> URL {
        folder(environment: environment).appendingPathComponent("sticker-catalog").appendingPathComponent(name)
    }

    /// `$XDG_DATA_HOME`, or `$HOME/.local/share`; a relative `$XDG_DATA_HOME` is ignored, as the specification says.
    public static func folder(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg, isDirectory: true) }
        return URL(fileURLWithPath: home(environment: environment), isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
    }

    /// `$HOME`, else the user's home folder from the system.
    public static func home(environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return FileManager.default.homeDirectoryForCurrentUser.path
    }
}
