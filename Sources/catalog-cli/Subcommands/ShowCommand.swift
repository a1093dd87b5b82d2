import ArgumentParser
import Catalog
import Foundation

extension CatalogCommand {
    /// `catalog show ID`: one entry in full.
    struct ShowCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one entry: source, EXIF, sticker, palette.",
            discussion: "--json prints the object described in the JSON contract, docs/json.md (every key present, null where unknown)."
        )

        @OptionGroup var catalog: CatalogOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The entry's id (see `catalog list`).")
        var id: Int64

        func validate() throws {
            if id < 1 { throw ValidationError("an id is a positive number (see `catalog list`)") }
        }

        func run() async throws {
            let entry = try await catalog.requiredEntry(id)
            if output.json {
                Terminal.standardOutput.write(JSONOutput.document(entry))
            } else {
                Terminal.standardOutput.write(Self.describe(entry, colored: Terminal.standardOutput.allowsColor))
            }
        }

        static func describe(_ entry: EntryDetail, colored: Bool) -> String {
            var rows: [(String, String)] = [
                ("Path", entry.path),
                ("SHA-256", entry.sha256 ?? "-"),
                ("Status", entry.failure.map { "failed: \($0.message) [\($0.code)]" } ?? "ok"),
            ]
            if let format = entry.format {
                let size = entry.width.flatMap { w in entry.height.map { h in " \(w)×\(h)" } } ?? ""
                rows.append(("Format", format.uppercased() + size))
            }
            rows.append(("File", "\(Format.bytes(entry.fileSize)), modified \(Date(timeIntervalSince1970: entry.modificationTime).formatted(.iso8601))"))
            if let exif = entry.exif {
                let camera = [exif.make, exif.model].compactMap { $0 }.joined(separator: " ")
                if !camera.isEmpty { rows.append(("Camera", camera)) }
                if let lens = exif.lensModel { rows.append(("Lens", lens)) }
                if let taken = exif.takenAt { rows.append(("Taken", taken)) }
                let exposure = [
                    exif.exposureTime.map(Format.exposure),
                    exif.fNumber.map { String(format: "f/%g", $0) },
                    exif.iso.map { "ISO \($0)" },
                    exif.focalLength.map { String(format: "%g mm", $0) },
                ].compactMap { $0 }
                if !exposure.isEmpty { rows.append(("Exposure", exposure.joined(separator: "  "))) }
                if let orientation = exif.orientation { rows.append(("Orientation", "\(orientation)")) }
                if let latitude = exif.gpsLatitude, let longitude = exif.gpsLongitude {
                    let altitude = exif.gpsAltitude.map { String(format: ", %g m", $0) } ?? ""
                    rows.append(("GPS", String(format: "%.6f, %.6f", latitude, longitude) + altitude))
                }
                rows.append(("EXIF tags", "\(exif.tags.count)"))
            } else if entry.status == .ok {
                rows.append(("EXIF", "none"))
            }
            if let sticker = entry.sticker {
                rows.append(("Sticker", "\(sticker.width)×\(sticker.height), \(Format.bytes(Int64(sticker.bytes))), pipeline \(sticker.pipelineVersion), model \(sticker.settings.model.rawValue), \(sticker.settings.precision.rawValue)"))
                if let animation = sticker.animation {
                    let seconds = String(format: "%.1f", Double(animation.durationMs) / 1000)
                    rows.append(("Animated", "\(animation.frames) frames, \(Format.frameRate(animation.frameRate)) fps, \(seconds) s"))
                    rows.append(("Clip", GuidanceText.describe(clip: entry.clip)))
                }
            }
            // Only a guided entry says so: the others are the automatic cut-out, as always.
            if entry.guidance != nil { rows.append(("Guidance", GuidanceText.describe(entry.guidance))) }
            // A failed clip keeps its chosen part too: it is what the next re-make takes.
            if entry.sticker?.animation == nil, entry.clip != nil { rows.append(("Clip", GuidanceText.describe(clip: entry.clip))) }
            // The other half of a Live Photo, by the id `show` takes.
            if let live = entry.livePhoto {
                rows.append(("Live Photo", live.stillId == entry.id ? "clip #\(live.clipId)" : "still #\(live.stillId)"))
            }
            if entry.sticker != nil {
                let palette = entry.palette.map { color in
                    Swatch.render(hex: color.hex, colored: colored) + String(format: " %.0f%%", color.share * 100)
                }
                rows.append(("Palette", palette.isEmpty ? "not computed yet" : palette.joined(separator: "  ")))
            }
            let width = rows.map(\.0.count).max() ?? 0
            return "Entry \(entry.id)\n" + rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n") + "\n"
        }
    }
}
