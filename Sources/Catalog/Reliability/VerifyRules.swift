/// What `catalog verify` counts as a problem, written once for both back ends: each back end reads the
/// rows with its own statements and hands them here, so a check and its message are the same everywhere.
enum VerifyRules {
    /// One entry that is ok or has a sticker, as read: whether its sticker and PNG rows exist, the
    /// recorded size and byte count, and the PNG's length and first 24 bytes (signature and IHDR).
    struct StickerRow {
        var id: Int64
        var hasSticker, hasPNG: Bool
        var width, height: Int
        var bytes, pngBytes: Int64
        var head: [UInt8]
    }

    /// One entry's palette as counted: its number of colours, lowest and highest rank, and the shares' sum.
    struct PaletteRow {
        var id: Int64
        var count, lowRank, highRank: Int
        var shareSum: Double
    }

    /// Every ok entry has a sticker and its PNG; the recorded size is the PNG's, and the PNG's header
    /// has the recorded width and height.
    static func problems(_ row: StickerRow) -> [VerifyReport.Problem] {
        let id = row.id
        guard row.hasSticker else { return [.init(check: "incomplete-entry", id: id, message: "entry \(id) is ok but has no sticker")] }
        guard row.hasPNG else { return [.init(check: "incomplete-entry", id: id, message: "entry \(id) has no sticker PNG")] }
        var problems: [VerifyReport.Problem] = []
        if row.bytes != row.pngBytes {
            problems.append(.init(
                check: "sticker-size", id: id, message: "entry \(id): the sticker is recorded as \(row.bytes) bytes but its PNG has \(row.pngBytes)"))
        }
        guard let size = PNGHeader.size(row.head) else {
            return problems + [.init(check: "sticker-size", id: id, message: "entry \(id): the sticker is not a PNG (no signature and IHDR)")]
        }
        if size != (row.width, row.height) {
            problems.append(.init(
                check: "sticker-size", id: id,
                message: "entry \(id): the sticker is recorded as \(row.width)x\(row.height) but its PNG is \(size.width)x\(size.height)"))
        }
        return problems
    }

    /// Ranks 0..n-1 and shares that sum to at most 1.
    static func problems(_ row: PaletteRow) -> [VerifyReport.Problem] {
        let id = row.id
        var problems: [VerifyReport.Problem] = []
        if row.lowRank != 0 || row.highRank != row.count - 1 {
            problems.append(.init(
                check: "palette", id: id, message: "entry \(id): palette ranks are not 0...\(row.count - 1) (\(row.lowRank)...\(row.highRank))"))
        }
        if row.shareSum > 1 + 1e-6 {
            problems.append(.init(check: "palette", id: id, message: "entry \(id): palette shares sum to \(row.shareSum), more than 1"))
        }
        return problems
    }

    /// An entry whose shares grow with the rank somewhere (the statement finds it; the message is here).
    static func unorderedShares(id: Int64) -> VerifyReport.Problem {
        .init(check: "palette", id: id, message: "entry \(id): palette shares do not decrease with the rank")
    }
}
