import Foundation

/// What can go wrong with a pack command, with a message naming the pack, the ids or the rule
/// (the CLI maps each case to an exit code).
public enum PackError: Error, LocalizedError, Sendable, Equatable {
    /// The pack name breaks the naming rule (see `PackName`).
    case invalidName(String, reason: String)
    /// A title, author or emoji that cannot be used.
    case invalidValue(field: String, reason: String)
    /// No pack has this name.
    case notFound(name: String)
    /// A pack with this name exists already.
    case alreadyExists(name: String)
    /// These ids are not entries of the catalog.
    case unknownEntries(ids: [Int64])
    /// These entries have no sticker (their processing failed), so they cannot be in a pack.
    case notStickers(ids: [Int64])
    /// These ids are not in the pack.
    case notInPack(name: String, ids: [Int64])
    /// The pack holds entries that have no sticker any more (their last processing failed).
    case missingStickers(name: String, ids: [Int64])
    /// A position outside 1...count.
    case invalidPosition(Int, count: Int)
    /// The catalog failed.
    case catalog(CatalogError)


    public var errorDescription: String? {
        switch self {
        case .invalidName(let name, let reason):
            "invalid pack name \(PackError.quoted(name)): \(reason). \(PackName.rule)"
        case .invalidValue(let field, let reason):
            "invalid \(field): \(reason)"
        case .notFound(let name):
            "there is no pack named \(PackError.quoted(name)); `catalog pack list` shows the packs, `catalog pack create` makes one"
        case .alreadyExists(let name):
            "a pack named \(PackError.quoted(name)) exists already"
        case .unknownEntries(let ids):
            "no entry with id \(PackError.list(ids)) in the catalog (see `catalog list`); nothing was added"
        case .notStickers(let ids):
            "entry \(PackError.list(ids)) has no sticker (its processing failed; see `catalog list --failed`); nothing was added"
        case .notInPack(let name, let ids):
            "entry \(PackError.list(ids)) is not in the pack \(PackError.quoted(name)); nothing was changed"
        case .missingStickers(let name, let ids):
            "the pack \(PackError.quoted(name)) holds entry \(PackError.list(ids)) without a sticker (processing failed); "
                + "`catalog reprocess` makes it again, or `catalog pack remove \(name) \(ids.map(String.init).joined(separator: " "))` drops it"
        case .invalidPosition(let position, let count):
            "position \(position) is outside the pack (1...\(count))"
        case .catalog(let error):
            error.errorDescription
        }
    }

    /// A name as messages show it: quoted, control characters escaped, cut when very long.
    static func quoted(_ text: String) -> String {
        var shown = text.unicodeScalars.map { scalar -> String in
            scalar.properties.generalCategory == .control || scalar.value == 0 ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
        if shown.count > 80 { shown = String(shown.prefix(77)) + "..." }
        return "\"\(shown)\""
    }

    static func list(_ ids: [Int64]) -> String {
        let shown = ids.prefix(20).map(String.init).joined(separator: ", ")
        return ids.count > 20 ? shown + " and \(ids.count - 20) more" : shown
    }
}
