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
    /// Moving stickers are exported as their first frame, as still ones.
    public var stills: Bool
    /// Limits to use instead of the table's (tests: a limit nothing can meet).
    var limitsOverride: PlatformLimits?

    public init(format: ExportFormat, outputDirectory: URL, force: Bool = false, dryRun: Bool = false, iMessageSize: Int = 408, jobs: Int = 2, stills: Bool = false) {
        self.format = format
        self.outputDirectory = outputDirectory
        self.force = force
        self.dryRun = dryRun
        self.iMessageSize = iMessageSize
        self.jobs = max(1, jobs)
        self.stills = stills
    }
}

/// Exports a pack: checks the platform's rules, splits packs over its maximum (and mixed packs where
/// a set is either still or moving), fits every sticker
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
        let plans = try ExportSet.parts(of: source, limits: limits, stills: options.stills)
        let moving = Set(plans.filter(\.animated).flatMap(\.indices))
        let fitted = try await fitStickers(source.items, limits: limits, moving: moving)
        var parts: [PlannedPart] = []
        for plan in plans {
            let icon = try StickerFit.icon(limits.icon, from: source.items[plan.indices[0]])
            parts.append(try ExportLayout.part(
                limits: limits, packName: source.name, partName: plan.name, title: plan.title, author: source.author,
                number: plan.number, of: plans.count,
                items: plan.indices.map { (source.items[$0], fitted[$0]) }, icon: icon
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

    /// Every sticker fitted, in pack order, at most `jobs` at once.
    /// The items at `moving` are exported as moving stickers, the rest as still ones.
    private func fitStickers(_ items: [PackSource.Item], limits: PlatformLimits, moving: Set<Int>) async throws(ExportError) -> [FittedSticker] {
        let jobs = options.jobs
        let results = await withTaskGroup(of: (Int, Result<FittedSticker, ExportError>).self) { group in
            var results = [Result<FittedSticker, ExportError>?](repeating: nil, count: items.count)
            var next = 0
            while next < min(jobs, items.count) {
                let index = next
                group.addTask { (index, await StickerFit.fit(items[index], limits: limits, animated: moving.contains(index))) }
                next += 1
            }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < items.count, !Task.isCancelled {
                    let index = next
                    group.addTask { (index, await StickerFit.fit(items[index], limits: limits, animated: moving.contains(index))) }
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
}
