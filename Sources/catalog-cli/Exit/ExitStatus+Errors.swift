import Catalog
import Processing

extension ExitStatus {
    /// The one mapping from the library's failures to exit codes; anything else is an I/O error.
    static func of(_ error: any Error) -> ExitStatus {
        switch error {
        case let error as CatalogError: of(error)
        case let error as PackError: of(error)
        case let error as ExportError: of(error)
        case let error as RecutError: of(error)
        default: .ioError
        }
    }

    /// 75 busy; 69 a server that cannot be reached; 77 refused credentials; 64 a malformed address;
    /// 65 a catalog of another version or none, an unknown entry; 74 everything else (I/O).
    static func of(_ error: CatalogError) -> ExitStatus {
        switch error {
        case .busy: .busy
        case .unavailable, .serverUnreachable: .unavailable
        case .invalidAddress: .usage
        case .accessDenied: .accessDenied
        case .databaseMissing, .io, .readOnly, .diskFull, .cannotCreate, .missing, .database, .copyRefused: .ioError
        case .newerCatalog, .needsMigration, .notACatalog, .entryNotFound: .dataError
        }
    }

    /// 64 a bad argument; 65 data that is not there or not usable; the catalog's own code otherwise.
    static func of(_ error: PackError) -> ExitStatus {
        switch error {
        case .invalidName, .invalidValue, .invalidPosition: .usage
        case .notFound, .alreadyExists, .unknownEntries, .notStickers, .notInPack, .missingStickers: .dataError
        case .catalog(let error): of(error)
        }
    }

    /// 65 a pack that cannot be exported as it is; 74 an output that cannot be written; 130 interrupted.
    static func of(_ error: ExportError) -> ExitStatus {
        switch error {
        case .pack(let error): of(error)
        case .emptyPack, .tooFewStickers, .tooFewInSet, .titleTooLong, .doesNotFit, .unreadableSticker: .dataError
        case .outputExists, .unsafePath, .io: .ioError
        case .cancelled: .interrupted
        }
    }

    /// 64 bad guidance or a part of a clip asked of a still; 65 no usable photo or entry; 69 no model; 74 an unreadable source; 75 a change meanwhile.
    static func of(_ error: RecutError) -> ExitStatus {
        switch error {
        case .invalidGuidance, .notAClip: .usage
        case .entryNotFound, .noPhoto, .sourceChanged: .dataError
        case .processingFailed(_, .segmentationUnavailable), .processingFailed(_, .invalidModel): .unavailable
        case .processingFailed: .dataError
        case .sourceMissing, .sourceUnreadable: .ioError
        case .changedMeanwhile: .busy
        case .catalog(let error): of(error)
        }
    }
}
