import ArgumentParser
import Catalog
import Foundation
import Processing

extension CatalogCommand {
    /// `catalog cutout INPUT -o OUTPUT`: one photo to a sticker (or its mask), no catalog involved.
    struct CutoutCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cutout",
            abstract: "Cut the subject out of one photo and write the sticker (or its mask) as PNG.",
            discussion: """
                No catalog is involved (like `rembg i`). INPUT and OUTPUT may be - for stdin and stdout. OUTPUT is written through a temporary file beside it, synced, then renamed into place; an existing file is replaced only with --force, and a folder, device, FIFO or socket never (exit 74). Photos that already have transparency keep it; others need the segmentation model: u2net unless --model or $STICKER_MODEL names u2netp (`catalog --help` says where models are looked for; --model-dir DIR points elsewhere).

                --mask-only --no-crop writes the grey-scale mask at the input's full oriented size (what the quality benchmark scores).

                Guidance steers the cut-out, in pixels of the upright photo (after its EXIF orientation, origin at the top left). --box X,Y,W,H: the subject is what lies in the box; the network looks at the box and 15 % around it, and nothing outside the box is kept. --include X,Y keeps the part under the point, even where the network missed it: the region it half saw there (a probability of 0.2 or more), else the region around the point that looks like it. --exclude X,Y takes out the part under the point: a separate part of the mask goes whole; on the main subject, only the region around the point that looks like it. Points may be repeated; excludes win over includes. A box or point outside the photo is a usage error (64).
                """
        )

        @Argument(help: ArgumentHelp("The photo (JPEG or PNG), or - for standard input.", valueName: "input"))
        var input: String

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write the PNG, or - for standard output.", valueName: "output"))
        var output: String

        @Flag(help: "Replace OUTPUT if it is an existing file.")
        var force = false

        @Flag(help: "Write the subject's mask (white subject on black) instead of the sticker.")
        var maskOnly = false

        @Flag(help: "Keep the whole frame: no crop to the subject, no outline.")
        var noCrop = false

        @Option(parsing: .unconditional, help: ArgumentHelp("Cut out only what lies in this box: X,Y,W,H in pixels of the upright photo.", valueName: "x,y,w,h"), transform: OptionValue.box)
        var box: CutoutGuidance.Box?

        @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Keep the part of the subject under this pixel, X,Y (repeatable).", valueName: "x,y"), transform: OptionValue.point)
        var include: [CutoutGuidance.Point] = []

        @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Take out the part under this pixel, X,Y (repeatable).", valueName: "x,y"), transform: OptionValue.point)
        var exclude: [CutoutGuidance.Point] = []

        @Option(parsing: .unconditional, help: "White outline width in pixels at a 512-pixel sticker, 0 to 64; 0 for none.", transform: OptionValue.whole("--outline", 0...64))
        var outline: Int = StickerStyle.default.outline

        @Flag(help: "Add a soft shadow under the sticker.")
        var shadow = false

        @Option(parsing: .unconditional, help: "Long side of the sticker in pixels, 16 to 4096 (less when the subject is small in the photo: it is enlarged at most twice).", transform: OptionValue.whole("--size", 16...4096))
        var size: Int = StickerStyle.default.size

        @Option(help: ArgumentHelp("The segmentation model: u2net (the stronger, the default) or u2netp (the fast one); default: $STICKER_MODEL, else u2net. A folder here is taken as --model-dir, as older versions did.", valueName: "name"))
        var model: String?

        @Option(
            name: .customLong("precision"),
            help: ArgumentHelp("The arithmetic of the cut-out network: \(CatalogSetting.precisionChoices). Default: auto.", valueName: "precision")
        )
        var precision: String?

        /// `--precision`, resolved on this machine (`auto` when not given).
        private var chosenPrecision: InferencePrecision {
            (precision.flatMap(PrecisionSetting.named) ?? .default).resolved
        }

        @Option(name: .customLong("model-dir"), help: ArgumentHelp("The folder holding the model's files (NAME.json and NAME.bin), instead of the usual places.", valueName: "folder"))
        var modelDirectory: String?

        /// The folder `--model-dir` names, or `--model` when it names a folder (as it did before models had names).
        private var modelFolder: String? {
            modelDirectory ?? model.flatMap { CutoutModel.named($0) == nil ? $0 : nil }
        }

        /// The model named by `--model`, else `$STICKER_MODEL`, else the default.
        private func chosenModel() throws -> CutoutModel {
            if let model, let named = CutoutModel.named(model) { return named }
            return try CatalogEnvironment.current.modelOption() ?? .default
        }

        @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: "Refuse images with more pixels than this.", transform: OptionValue.whole("--max-pixels", 1...Int.max))
        var maxPixels: Int = DecodeOptions.defaultMaxPixels

        /// The cut-out runs at this long side; the mask is then scaled to the photo's size.
        static let workingSize = PhotoProcessor.workingSize

        func validate() throws {
            if input.isEmpty { throw ValidationError("an empty INPUT names no file (an unset variable?); name a photo, or - for standard input") }
            if output.isEmpty { throw ValidationError("an empty --output names no file (an unset variable?); name a PNG file, or - for standard output") }
            if !(0...64).contains(outline) { throw ValidationError("--outline must be between 0 and 64 pixels") }
            if !(16...4096).contains(size) { throw ValidationError("--size must be between 16 and 4096 pixels") }
            if maxPixels < 1 { throw ValidationError("--max-pixels must be a positive number of pixels") }
            if let model, CutoutModel.named(model) == nil {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: model, isDirectory: &isFolder), isFolder.boolValue else {
                    throw ValidationError("unknown --model '\(model)': expected \(CutoutModel.choices) (or a folder, as --model-dir)")
                }
                if modelDirectory != nil { throw ValidationError("give the model's folder once: --model-dir, or --model FOLDER") }
            }
            _ = try chosenModel()
            try ModelOptions.validatePrecision(precision)
        }

        func run() async throws {
            let name = input == "-" ? "standard input" : input
            let chosen = try chosenModel()
            // Refused before the slow work: an output that may not be written is known at once.
            if output != "-", let refusal = OutputFile.refusal(output, force: force) {
                Diagnostics.report("error: " + (refusal.errorDescription ?? refusal.reason))
                throw ExitCode(.ioError)
            }
            let bytes: [UInt8]
            switch input == "-" ? InputFile.readStandardInput() : InputFile.read(input) {
            case .success(let read): bytes = read
            case .failure(let problem):
                Diagnostics.report("error: \(name): cannot read: \(problem.reason)")
                throw ExitCode(.ioError)
            }
            let png: [UInt8]
            do {
                png = try makePNG(from: bytes, model: chosen)
            } catch {
                Diagnostics.report("error: \(name): \(error.errorDescription ?? error.code)")
                if case .invalidGuidance = error { throw ExitCode.validationFailure }
                switch error {
                case .segmentationUnavailable, .invalidModel:
                    throw SegmentationModel.unavailable(
                        error, model: chosen, looked: SegmentationModel.folders(modelFolder, environment: .current)
                    )
                default: throw ExitCode(.dataError)
                }
            }
            if output == "-" {
                Terminal.standardOutput.write(bytes: png)
                return
            }
            do throws(OutputFileError) {
                try OutputFile.write(png, to: output, force: force)
            } catch {
                Diagnostics.report("error: " + (error.errorDescription ?? error.reason))
                throw ExitCode(.ioError)
            }
        }

        private func makePNG(from bytes: [UInt8], model chosen: CutoutModel) throws(ProcessingError) -> [UInt8] {
            let job = CutoutJob(maxPixels: maxPixels, workingSize: Self.workingSize, guidance: CutoutGuidance(box: box, include: include, exclude: exclude))
            let decoded = try job.decode(bytes)
            let predictor = try SegmentationModel.installed(chosen, precision: chosenPrecision, in: modelFolder, environment: .current)
            let output: CutoutJob.Output = switch (maskOnly, noCrop) {
            case (true, true): .mask
            case (true, false): .croppedMask
            case (false, true): .frame
            case (false, false): .sticker(StickerStyle(size: size, outline: outline, shadow: shadow))
            }
            return try job.png(from: decoded, segmenter: SubjectSegmenter(predictor: predictor), output: output)
        }
    }
}
