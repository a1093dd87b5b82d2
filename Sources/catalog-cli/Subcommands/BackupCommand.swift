import ArgumentParser
import Catalog
import Foundation

extension CatalogCommand {
    /// `catalog backup DEST`: a consistent copy of the catalog, while others may write to it.
    struct BackupCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Write a consistent copy of the catalog to a file, even while other processes import.",
            discussion: """
                The copy is one SQLite snapshot (VACUUM INTO), written to a temporary file beside DEST, synced to disk, then renamed to DEST: DEST is either the complete copy or as it was. An existing DEST is replaced only with --force. The copy is a catalog like any other (`catalog --catalog DEST verify`).

                Exit: 0 written, 65 not a catalog this version reads, 74 the catalog cannot be read or DEST cannot be written (exists, full disk, ...), 75 busy, 130/143 interrupted (no temporary file is left).
                """
        )

        @OptionGroup var catalog: CatalogOptions

        @Argument(help: ArgumentHelp("The backup file to write.", valueName: "dest"))
        var destination: String

        @Flag(help: "Replace DEST if it exists.")
        var force = false

        func validate() throws {
            if destination.isEmpty { throw ValidationError("an empty DEST names no file (an unset variable?); name the backup file") }
        }

        func run() async throws {
            let repository = try await catalog.open(.readOnly)
            let target = URL(fileURLWithPath: destination).standardizedFileURL
            if let problem = Self.refusal(target, catalog: catalog.address.fileURL?.standardizedFileURL, force: force) {
                Diagnostics.report("error: \(target.path): \(problem); nothing was written")
                throw ExitCode(.ioError)
            }
            let trap = SignalTrap { repository.interrupt() }
            do {
                try await repository.backup(to: target, replacing: force)
            } catch {
                if trap.signalNumber != nil {
                    Diagnostics.report("interrupted by \(trap.signalName): no backup written")
                    throw ExitCode(trap.exitCode)
                }
                throw Diagnostics.exit(for: error)
            }
            if trap.signalNumber != nil {
                // The copy completed before the signal was seen: it is whole, keep it.
                Diagnostics.report("interrupted by \(trap.signalName) after the backup was written")
                throw ExitCode(trap.exitCode)
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int64) ?? 0
            Terminal.standardOutput.write("Backed up \(catalog.displayName) to \(target.path) (\(Format.bytes(size))).\n")
        }
    
        /// Why DEST cannot be written, checked before the copy starts (the repository checks again).
        static func refusal(_ target: URL, catalog: URL?, force: Bool) -> String? {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory)
            if let catalog, ["", "-wal", "-shm"].contains(where: { catalog.path + $0 == target.path }) {
                return "it is the catalog itself; choose another destination"
            }
            if exists && isDirectory.boolValue { return "it is a folder; name the backup file" }
            if exists && !force { return "it exists; use --force to replace it" }
            var folderIsDirectory: ObjCBool = false
            let folder = target.deletingLastPathComponent().path
            if !FileManager.default.fileExists(atPath: folder, isDirectory: &folderIsDirectory) || !folderIsDirectory.boolValue {
                return "its folder \(folder) does not exist"
            }
            return nil
        }
    }
}
