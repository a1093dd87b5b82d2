import Foundation
import Processing

/// How an export runs.
public struct ExportOptions: Sendable {
    public var format: ExportFormat
    /// The folder the export's pack file(s) or folder(s) go into.
    public var outputDirectory: URL
    /// Replace outputs that exist.
    public var force: Bool
    /// Fit every sticker and report, write nothing.
    public var dryRun: Bool
    /// iMessage sticker size: 300, 408 or 618.
    public var iMessageSize: Int
    /// Stickers encoded at once.
    public var jobs: Int
    /// Limits to use instead of the table's (tests: a limit nothing can meet).
    var limitsOverride: PlatformLimits?

    public init(format: ExportFormat, outputDirectory: URL, force: Bool = false, dryRun: Bool = false, iMessageSize: Int = 408, jobs: Int = 2) {
        self.format = format
        self.outputDirectory = outputDirectory
        self.force = force
        self.dryRun = dryRun
        self.iMessageSize = iMessageSize
        self.jobs = max(1, jobs)
    }
}

/// Exports a pack: checks the platform's rules, splits packs over its maximum, fits every sticker
/// to its canvas and byte limit (in parallel), lays out the files with a manifest, and writes
/// them under a temporary name renamed into place. Nothing is written unless everything fits.
public struct Exporter: Sendable {
    public let options: ExportOptions

    public init(options: ExportOptions) {
        self.options = options
    }

    /// The limits in force (the table's, with the chosen iMessage size).
    public var limits: PlatformLimits {
        if let override = options.limitsOverride { return override }
        var limits = PlatformLimits.of(options.format)
        if options.format == .imessage { limits.canvas = .square(options.iMessageSize) }
        return limits
    }

    /// Runs the export. A dry run returns the report with `ok` false when something does not fit;
    /// a real export throws `.doesNotFit` instead, before writing anything.
    public func run(_ source: PackSource) async throws(ExportError) -> ExportReport {
        let limits = self.limits
        guard !source.items.isEmpty else { throw .emptyPack(name: source.name) }
        if let range = limits.stickersPerPack, source.items.count < range.lowerBound {
            throw .tooFewStickers(format: limits.format, count: source.items.count, minimum: range.lowerBound, source: limits.source)
        }
        let groups = Self.split(count: source.items.count, maximum: limits.stickersPerPack?.upperBound)
        // Split parts are titled "Title (1/2)": the suffix counts against the limit too.
        let longestTitle = source.title.count + (groups.count == 1 ? 0 : " (\(groups.count)/\(groups.count))".count)
        if let maxTitle = limits.maxTitleLength, longestTitle > maxTitle {
            throw .titleTooLong(format: limits.format, length: longestTitle, limit: maxTitle)
        }
        let fitted = try await fitStickers(source.items, limits: limits)
        var parts: [PlannedPart] = []
        for (index, range) in groups.enumerated() {
            let partName = groups.count == 1 ? source.name : "\(source.name)-\(index + 1)"
            let title = groups.count == 1 ? source.title : "\(source.title) (\(index + 1)/\(groups.count))"
            let icon = try Self.icon(limits.icon, from: source.items[range.lowerBound])
            parts.append(try ExportLayout.part(
                limits: limits, packName: source.name, partName: partName, title: title, author: source.author,
                number: index + 1, of: groups.count,
                items: Array(zip(source.items[range], fitted[range])), icon: icon
            ))
        }
        let failures = parts.flatMap { part in
            part.fits.filter { !$0.ok }.map { fit in
                ExportError.FitFailure(id: fit.id, file: fit.file, smallestBytes: fit.bytes, limit: fit.limit ?? 0, format: limits.format)
            }
        }
        let directory = options.outputDirectory.standardizedFileURL
        var report = ExportReport(
            pack: source.name, format: limits.format, dryRun: options.dryRun, ok: failures.isEmpty,
            parts: parts.map { part in
                ExportReport.Part(
                    name: part.name, path: directory.appendingPathComponent(part.fileName).path,
                    count: part.stickerCount, files: part.fits
                )
            }
        )
        if Task.isCancelled { throw .cancelled }
        if options.dryRun { return report }
        if !failures.isEmpty { throw .doesNotFit(failures) }
        let written = try ExportWriter.write(parts, into: directory, force: options.force)
        for index in report.parts.indices { report.parts[index].path = written[index] }
        return report
    }

    /// `count` stickers in consecutive groups of at most `maximum`, as even as possible
    /// (31 for 30 makes 16 + 15, so no part falls under a platform's minimum).
    public static func split(count: Int, maximum: Int?) -> [Range<Int>] {
        guard let maximum, maximum > 0, count > maximum else { return [0..<count] }
        let groups = (count + maximum - 1) / maximum
        var ranges: [Range<Int>] = []
        var start = 0
        for group in 0..<groups {
            let size = count / groups + (group < count % groups ? 1 : 0)
            ranges.append(start..<(start + size))
            start += size
        }
        return ranges
    }

    // MARK: - Fitting

    /// A sticker encoded for the platform, or (file nil) the smallest size any encoding reached.
    struct FittedSticker: Sendable {
        var file: EncodedImage?
        var width: Int
        var height: Int
        var bytes: Int
        var encoding: String

        init(_ file: EncodedImage, width: Int, height: Int) {
            self.file = file
            self.width = width
            self.height = height
            self.bytes = file.bytes.count
            self.encoding = file.encoding
        }

        init(tooLarge smallest: Int, encoding: String, width: Int, height: Int) {
            self.file = nil
            self.width = width
            self.height = height
            self.bytes = smallest
            self.encoding = encoding
        }
    }

    /// Every sticker fitted, in pack order, at most `jobs` at once.
    private func fitStickers(_ items: [PackSource.Item], limits: PlatformLimits) async throws(ExportError) -> [FittedSticker] {
        let jobs = options.jobs
        let results = await withTaskGroup(of: (Int, Result<FittedSticker, ExportError>).self) { group in
            var results = [Result<FittedSticker, ExportError>?](repeating: nil, count: items.count)
            var next = 0
            while next < min(jobs, items.count) {
                let index = next
                group.addTask { (index, await Self.fit(items[index], limits: limits)) }
                next += 1
            }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < items.count, !Task.isCancelled {
                    let index = next
                    group.addTask { (index, await Self.fit(items[index], limits: limits)) }
                    next += 1
                }
            }
            return results
        }
        var fitted: [FittedSticker] = []
        for result in results {
            guard let result else { throw .cancelled }
            fitted.append(try result.get())
        }
        return fitted
    }

    /// One sticker on the platform's canvas, encoded to fit its byte limit.
    @concurrent
    static func fit(_ item: PackSource.Item, limits: PlatformLimits) async -> Result<FittedSticker, ExportError> {
        let stored = EncodedImage(bytes: item.png, type: .png, encoding: "stored")
        guard let placement = limits.canvas.placement(width: item.width, height: item.height, fullSize: item.fullSize) else {
            return .success(FittedSticker(stored, width: item.width, height: item.height))
        }
        // A stored PNG already the right size and under the limit goes out as it is.
        let unchanged = CanvasPlacement(canvasWidth: item.width, canvasHeight: item.height, width: item.width, height: item.height)
        if placement == unchanged, limits.fileTypes.contains(.png), item.png.count <= limits.maxBytes ?? .max {
            return .success(FittedSticker(stored, width: item.width, height: item.height))
        }
        do {
            let image = try PNGCodec.decode(item.png, maxPixels: 64_000_000)
            let canvas = CanvasFitter.centred(
                image, resizedTo: (placement.width, placement.height), onCanvas: (placement.canvasWidth, placement.canvasHeight)
            )
            switch try ByteBudgetEncoder.encode(canvas, types: limits.fileTypes, maxBytes: limits.maxBytes) {
            case .fits(let file):
                return .success(FittedSticker(file, width: canvas.width, height: canvas.height))
            case .tooLarge(let smallest, let encoding):
                return .success(FittedSticker(tooLarge: smallest, encoding: encoding, width: canvas.width, height: canvas.height))
            }
        } catch {
            return .failure(.unreadableSticker(id: item.id, reason: error.errorDescription ?? error.code))
        }
    }

    /// The icon (tray, thumbnail) made from `item`: fitted to its square, PNG under its limit.
    static func icon(_ rule: IconRule?, from item: PackSource.Item) throws(ExportError) -> (rule: IconRule, file: EncodedImage?, smallest: Int)? {
        guard let rule else { return nil }
        do {
            let image = try PNGCodec.decode(item.png, maxPixels: 64_000_000)
            let canvas = CanvasFitter.onCanvas(image, width: rule.side, height: rule.side)
            switch try ByteBudgetEncoder.encode(canvas, types: [.png], maxBytes: rule.maxBytes) {
            case .fits(let file): return (rule, file, file.bytes.count)
            case .tooLarge(let smallest, _): return (rule, nil, smallest)
            }
        } catch {
            throw .unreadableSticker(id: item.id, reason: error.errorDescription ?? error.code)
        }
    }
}
