import Foundation

/// Why an export did not happen, with a message that names the sticker, the size and the rule;
/// nothing was written when one of these is thrown.
public enum ExportError: Error, LocalizedError, Sendable, Equatable {
    /// The pack could not be read (unknown pack, catalog failure).
    case pack(PackError)
    /// The pack has no stickers.
    case emptyPack(name: String)
    /// The pack has fewer stickers than the platform accepts.
    case tooFewStickers(format: ExportFormat, count: Int, minimum: Int, source: String)
    /// A platform whose sets are either still or moving would get a set, of a mixed pack, with
    /// fewer stickers than it accepts.
    case tooFewInSet(format: ExportFormat, animated: Bool, count: Int, minimum: Int)
    /// The title is longer than the platform accepts.
    case titleTooLong(format: ExportFormat, length: Int, limit: Int)
    /// Stickers (or the icon) that no encoding brought under the limit.
    case doesNotFit([FitFailure])
    /// A stored sticker that cannot be decoded.
    case unreadableSticker(id: Int64, reason: String)
    /// The output exists and --force was not given.
    case outputExists(path: String)
    /// A name that would place a file outside the output folder (never expected: names are sanitised).
    case unsafePath(String)
    /// Writing the output failed.
    case io(path: String, reason: String)
    /// The task was cancelled (Ctrl-C) before the output was renamed into place; nothing was written.
    case cancelled

    /// One file that does not fit its limit.
    public struct FitFailure: Sendable, Equatable {
        /// The sticker's id, or nil for the icon.
        public var id: Int64?
        public var file: String
        public var smallestBytes: Int
        public var limit: Int
        public var format: ExportFormat
    }


    public var errorDescription: String? {
        switch self {
        case .pack(let error):
            error.errorDescription
        case .emptyPack(let name):
            "the pack \(PackError.quoted(name)) is empty; add stickers with `catalog pack add \(name) ID...`"
        case .tooFewStickers(let format, let count, let minimum, let source):
            "a \(format.rawValue) pack needs at least \(minimum) stickers, this one has \(count) (\(source)); add \(minimum - count) more"
        case .tooFewInSet(let format, let animated, let count, let minimum):
            "a \(format.rawValue) pack holds either still or animated stickers, so this pack is exported as two; "
                + "its \(animated ? "animated" : "still") set would have \(count) and needs at least \(minimum): "
                + "add \(minimum - count) more \(animated ? "animated" : "still") sticker\(minimum - count == 1 ? "" : "s"), or use --stills to export the animated ones as stills"
        case .titleTooLong(let format, let length, let limit):
            "the pack's title is \(length) characters long, \(format.rawValue) allows \(limit); shorten it with `catalog pack create` on a new pack"
        case .doesNotFit(let failures):
            failures.map { failure in
                let what = failure.id.map { "sticker \($0)" } ?? "the icon"
                return "\(what) (\(failure.file)) is \(Self.bytes(failure.smallestBytes)) at its smallest, "
                    + "over the \(failure.format.rawValue) limit of \(Self.bytes(failure.limit))"
            }.joined(separator: "; ") + "; nothing was written"
        case .unreadableSticker(let id, let reason):
            "the stored sticker of entry \(id) cannot be read (\(reason)); `catalog reprocess` makes it again"
        case .outputExists(let path):
            "\(path) exists; use --force to replace it"
        case .unsafePath(let path):
            "refusing to write \(PackError.quoted(path)): it would fall outside the output folder"
        case .io(let path, let reason):
            "cannot write \(path): \(reason)"
        case .cancelled:
            "interrupted; nothing was written"
        }
    }

    /// `512,000 bytes`: grouped by thousands whatever the locale, as scripts and people read it.
    static func bytes(_ count: Int) -> String {
        var digits = Array(String(count))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits) + " bytes"
    }
}
