import ArgumentParser
import Catalog
import Foundation
import Processing

extension CatalogCommand {
    /// `catalog recut ID`: steers one entry's cut-out with a box and points, and re-makes its sticker at once.
    struct RecutCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recut",
            abstract: "Steer an entry's cut-out with a box and points, and re-make its sticker and palette.",
            discussion: """
                Coordinates are whole pixels of the upright photo (as `catalog show` gives its size, after the EXIF orientation), origin at the top left, x to the right, y down. The guidance is stored with the entry and applied to every later cut-out of it (reprocess, work, an edit of the file in place, a copy of the catalog).

                Combining: the options change the stored guidance. A new --box replaces the stored box; --include and --exclude points are added to the stored ones (a point given again moves to its new list); --reset clears everything first, so `recut ID --reset` alone goes back to the automatic cut-out and `recut ID --reset --box ...` starts over. With no option the cut-out is re-made with the guidance as stored.

                Clips and animations: --clip START,DURATION (seconds, e.g. 2.5,3) and --max-frames N choose the part that becomes the animated sticker, stored with the entry like guidance; `--clip default` goes back to the first 3 seconds (and 90 frames unless --max-frames is given). A part that starts after the clip ends fails with no-frames and changes nothing. An entry made from a still refuses both options.

                The source file is read and must still hold the entry's bytes; it is cut out with the catalog's settings (and the model --model or $STICKER_MODEL names, in the precision --precision names), and the guidance, sticker and palette are replaced in one transaction. Nothing is written when anything fails.

                Exit: 0 done; 64 malformed or empty box, a box or point outside the photo, a malformed --clip, --clip or --max-frames for a still; 65 unknown id, an entry never decoded, a source whose bytes changed (run `catalog reprocess` first), a cut-out that failed (no subject in the box); 69 no segmentation model; 74 the source file is missing or unreadable; 75 the catalog is busy, or the entry changed meanwhile. --json prints the entry as `catalog show --json` does.
                """
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var model: ModelOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The entry's id (see `catalog list`).")
        var id: Int64

        @Option(parsing: .unconditional, help: ArgumentHelp("The subject lies inside this box: left, top, width, height.", valueName: "X,Y,W,H"), transform: RecutCommand.box)
        var box: CutoutGuidance.Box?

        @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Keep the part of the subject under this pixel (repeatable).", valueName: "X,Y"), transform: RecutCommand.point("--include"))
        var include: [CutoutGuidance.Point] = []

        @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Take out the part under this pixel (repeatable).", valueName: "X,Y"), transform: RecutCommand.point("--exclude"))
        var exclude: [CutoutGuidance.Point] = []

        @Flag(help: "Clear the stored guidance first (alone: back to the automatic cut-out).")
        var reset = false

        @OptionGroup var clip: ClipOptions

        func validate() throws {
            if id < 1 { throw ValidationError("an id is a positive number (see `catalog list`)") }
        }

        func run() async throws {
            // Before touching the catalog: without the model no photo could be re-made.
            let cutout = try await catalog.cutout(model)
            let predictor = try cutout.required()
            // Never creates a catalog: a missing one is an error, as for `show`.
            let repository = try await catalog.open(catalog.mayExist ? .readWrite : .readOnly)
            let settings = cutout.applied(to: try await catalog.settings(of: repository))
            let change = GuidanceChange(reset: reset, box: box, include: include, exclude: exclude, clip: clip.change)
            let entry: EntryDetail
            do throws(RecutError) {
                entry = try await Recutter(repository: repository, settings: settings, predictor: predictor).recut(id: id, change: change)
            } catch {
                if case .catalog(let failure) = error { throw Diagnostics.exit(for: failure) }
                Diagnostics.report("error: " + error.description)
                throw ExitCode(.of(error))
            }
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(entry))
            } else {
                Terminal.standardOutput.write(Self.describe(entry))
            }
        }

        static func describe(_ entry: EntryDetail) -> String {
            var lines = ["Recut entry \(entry.id) (\(entry.path))", "  Guidance  \(GuidanceText.describe(entry.guidance))"]
            if entry.sticker?.animation != nil { lines.append("  Clip      \(GuidanceText.describe(clip: entry.clip))") }
            if let sticker = entry.sticker {
                lines.append("  Sticker   \(sticker.width)×\(sticker.height), \(Format.bytes(Int64(sticker.bytes)))")
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// `--box X,Y,W,H`: a usage error (64) that names the value when it is not four whole numbers or has no area.
        static let box: @Sendable (String) throws -> CutoutGuidance.Box = { text in
            do throws(GuidanceError) {
                let box = try CutoutGuidance.Box(parsing: text)
                // The size is checked here, before the catalog is opened; the photo's bounds need the entry.
                guard box.width > 0, box.height > 0 else { throw GuidanceError.emptyBox(box.text) }
                return box
            } catch {
                throw ValidationError("--box: " + error.description)
            }
        }

        /// `--include X,Y` / `--exclude X,Y`.
        static func point(_ option: String) -> @Sendable (String) throws -> CutoutGuidance.Point {
            { text in
                do throws(GuidanceError) {
                    return try CutoutGuidance.Point(parsing: text, what: "\(option) point")
                } catch {
                    throw ValidationError(error.description)
                }
            }
        }
    }
}
