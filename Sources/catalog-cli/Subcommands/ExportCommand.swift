import ArgumentParser
import Catalog
import Foundation

extension ExportFormat: ExpressibleByArgument {}

extension CatalogCommand {
    /// `catalog export PACK`: the pack as files a messaging app accepts, or plain PNGs.
    struct ExportCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export a pack for Telegram, WhatsApp, Signal, iMessage, or as PNGs / a zip.",
            discussion: """
                Writes into --output (a folder, default the current one): png → NAME/, zip → NAME.zip, telegram → NAME.telegram/, whatsapp → NAME.wastickers, signal → NAME.signal/, imessage → NAME.imessage/Stickers.xcstickers/. Every export holds manifest.json (ids, emoji, palettes, source EXIF summary, SHA-256 of every file). Stickers are fitted to the platform's canvas and byte limit (PNG, smaller PNG, fewer colours, lossy WebP); a sticker smaller than sticker.size (from a small photo) is padded at the scale of its full-size neighbours, not enlarged; a pack over the platform's maximum is split into NAME-1, NAME-2, ...

                Animated stickers (from clips, GIFs, animated WebP and APNG) go out moving: telegram as WebM (VP9 with transparency, ≤ 3 s, ≤ 30 fps, ≤ 256 KB), whatsapp as animated WebP (≤ 10 s, ≤ 500 KB), signal as APNG (≤ 3 s, ≤ 300 KB), imessage as APNG (≤ 500 KB), png and zip as the first frame with NNN-ID.apng beside it. Telegram and WhatsApp sets are either still or animated, so a mixed pack becomes NAME (the stills) and NAME-animated. To fit, an animation loses frames per second first (20, then 15), then quality (fewer colours for APNG), then 10 fps at any quality, then length; the report's MOTION column says what was given up. --stills exports every sticker as its first frame.

                Exit: 0 written, 64 bad option, 65 unknown/empty pack, too few stickers or a sticker that cannot fit (nothing written; --dry-run prints the fit report first; --json prints it as JSON), 74 output exists (use --force) or cannot be written, 130/143 interrupted (nothing written).
                """
        )

        @OptionGroup var catalog: CatalogOptions
        @Argument(help: "The pack's name.") var pack: String
        @Option(parsing: .unconditional, help: "telegram, whatsapp, signal, imessage, png or zip.") var format: ExportFormat = .png
        @Option(name: [.short, .long], help: ArgumentHelp("The folder to write into (created if needed).", valueName: "path")) var output: String?
        @Option(
            name: .customLong("imessage-size"), parsing: .unconditional, help: "iMessage sticker size: 300 (small), 408 (regular) or 618 (large).",
            transform: OptionValue.oneOf("--imessage-size", PlatformLimits.iMessageSizes)
        ) var iMessageSize = 408
        @Flag(help: "Replace an export that exists.") var force = false
        @Flag(help: "Fit every sticker and print the report; write nothing.") var dryRun = false
        @Flag(help: "Export animated stickers as their first frame, as still stickers.") var stills = false
        @OptionGroup var printing: OutputOptions

        func validate() throws {
            try validatePackName(pack)
            if output == "" { throw ValidationError("an empty --output names no folder (an unset variable?); leave it out for the current folder") }
            if !PlatformLimits.iMessageSizes.contains(iMessageSize) {
                throw ValidationError("--imessage-size must be 300, 408 or 618, not \(iMessageSize)")
            }
        }

        func run() async throws {
            let repository = try await catalog.open(.readOnly)
            let directory = URL(fileURLWithPath: output ?? FileManager.default.currentDirectoryPath)
            let exporter = Exporter(options: ExportOptions(
                format: format, outputDirectory: directory, force: force, dryRun: dryRun,
                iMessageSize: iMessageSize, jobs: ProcessInfo.processInfo.activeProcessorCount, stills: stills
            ))
            let source: PackSource = try await Diagnostics.reporting { try await repository.packSource(named: pack) }
            // Ctrl-C / SIGTERM cancel the fitting; a part being renamed into place finishes, the
            // temporary files of the others are removed.
            let work = Task { () -> Result<ExportReport, ExportError> in
                do throws(ExportError) {
                    return .success(try await exporter.run(source))
                } catch {
                    return .failure(error)
                }
            }
            let trap = SignalTrap { work.cancel() }
            let report: ExportReport
            switch await work.value {
            case .success(let value):
                report = value
            case .failure(.cancelled):
                Diagnostics.report("interrupted by \(trap.signalName); nothing was written")
                throw ExitCode(trap.exitCode)
            case .failure(let error):
                throw Diagnostics.exit(for: error)
            }
            Terminal.standardOutput.write(printing.json ? JSONOutput.document(report) : Self.describe(report))
            if !report.ok {
                Diagnostics.report("error: some files do not fit their limit (see the report); nothing was written")
                throw ExitCode(.dataError)
            }
        }

        static func describe(_ report: ExportReport) -> String {
            var text = ""
            for part in report.parts {
                text += (report.dryRun ? "Would write " : "Wrote ") + "\(part.path) (\(Counted(part.count, "sticker")))\n"
                let moving = part.files.contains { $0.animation != nil }
                var table = Table(headers: ["ID", "FILE", "PIXELS", "BYTES", "LIMIT", "ENCODING"] + (moving ? ["MOTION"] : []) + ["OK"])
                for fit in part.files {
                    var cells = [
                        fit.id.map(String.init) ?? "-", fit.file, "\(fit.width)×\(fit.height)", "\(fit.bytes)",
                        fit.limit.map(String.init) ?? "-", fit.encoding,
                    ]
                    if moving { cells.append(fit.animation.map(motion) ?? "-") }
                    cells.append(fit.ok ? "ok" : "TOO LARGE")
                    table.append(cells: cells)
                }
                if report.dryRun || !report.ok { text += table.rendered() }
            }
            return text
        }

        /// `30 frames, 10 fps, 3.0 s (30 → 10 fps)`.
        static func motion(_ motion: ExportReport.Motion) -> String {
            let seconds = Double(motion.durationMs) / 1000
            let summary = "\(motion.frames) frames, \(Format.frameRate(motion.frameRate)) fps, " + String(format: "%.1f s", seconds)
            return motion.steps.isEmpty ? summary : summary + " (" + motion.steps.joined(separator: ", ") + ")"
        }
    }

    /// `catalog preview PACK -o sheet.png`: the pack's contact sheet.
    struct PreviewCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "preview",
            abstract: "Draw a pack's contact sheet: every sticker over a gradient of its palette, in a grid, under the title.",
            discussion: "Exit: 0 written, 64 bad option, 65 unknown or empty pack, 74 output exists (use --force) or cannot be written."
        )

        @OptionGroup var catalog: CatalogOptions
        @Argument(help: "The pack's name.") var pack: String
        @Option(name: [.short, .long], help: ArgumentHelp("The PNG file to write.", valueName: "path")) var output: String
        @Option(parsing: .unconditional, help: "Stickers a row, 1 to 64 (default: about square, at most 8).", transform: OptionValue.whole("--columns", 1...64)) var columns: Int?
        @Flag(help: "Replace the file if it exists.") var force = false

        func validate() throws {
            try validatePackName(pack)
            if output.isEmpty { throw ValidationError("an empty --output names no file (an unset variable?); name the PNG file") }
            if let columns, !(1...64).contains(columns) { throw ValidationError("--columns must be between 1 and 64") }
        }

        func run() async throws {
            let repository = try await catalog.open(.readOnly)
            do {
                let source = try await repository.packSource(named: pack)
                let sheet = try await PreviewSheet.render(source, columns: columns)
                let url = URL(fileURLWithPath: output)
                try PreviewSheet.write(sheet.png, to: url, force: force)
                Terminal.standardOutput.write("Wrote \(url.standardizedFileURL.path) (\(sheet.width)×\(sheet.height), \(Counted(source.items.count, "sticker"))).\n")
            } catch let error as PackError {
                throw Diagnostics.exit(for: error)
            } catch let error as ExportError {
                throw Diagnostics.exit(for: error)
            }
        }
    }
}
