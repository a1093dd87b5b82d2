import Crypto
import Foundation
import Processing

/// One pack ready to write: its files (relative paths, bytes) and the fit of each sticker.
struct PlannedPart: Sendable {
    enum Container: Sendable { case folder, zip }

    /// The part's pack name (`beach`, `beach-1`).
    var name: String
    /// The file or folder written into the output folder (`beach.wastickers`, `beach.telegram`).
    var fileName: String
    var container: Container
    /// Relative, `/`-separated paths and their bytes, sorted by path.
    var files: [(path: String, bytes: [UInt8])]
    var fits: [ExportReport.Fit]
    var stickerCount: Int
}

/// Where each format puts its files, and the manifest that lists them.
enum ExportLayout {
    /// The files of one part in `limits.format`'s layout.
    static func part(
        limits: PlatformLimits, packName: String, partName: String, title: String, author: String,
        number: Int, of count: Int,
        items: [(PackSource.Item, FittedSticker)],
        icon: (rule: IconRule, file: EncodedImage?, smallest: Int)?
    ) throws(ExportError) -> PlannedPart {
        let format = limits.format
        let place = Placement(format: format, safeName: ExportPath.component(partName))
        var contents = PartContents(limits: limits, stickerFolder: place.stickerFolder)
        for (index, (item, fitted)) in items.enumerated() { contents.add(item, fitted, number: index + 1) }
        if let icon { contents.add(icon: icon.rule, file: icon.file, smallest: icon.smallest) }
        contents.addPlatformFiles(title: title, author: author)

        var files = contents.files
        let listed = files.keys.sorted().map { path in
            ExportManifest.File(path: path, bytes: files[path]!.count, sha256: sha256(files[path]!))
        }
        let manifest = ExportManifest(
            format: format, name: partName, pack: packName, part: number, parts: count, title: title, author: author,
            cover: contents.cover, stickers: contents.stickers, files: listed
        )
        files[(format == .zip ? place.stickerFolder : "") + "manifest.json"] = try encode(manifest)
        for path in files.keys { try ExportPath.check(path) }
        return PlannedPart(
            name: partName, fileName: place.fileName, container: place.container,
            files: files.keys.sorted().map { ($0, files[$0]!) }, fits: contents.fits, stickerCount: items.count
        )
    }

    /// Where a part goes in the output folder, and where its stickers go inside it.
    struct Placement {
        /// The file or folder written into the output folder.
        let fileName: String
        let container: PlannedPart.Container
        /// Folder of the stickers inside the part ("" or ending in "/").
        let stickerFolder: String

        init(format: ExportFormat, safeName: String) {
            switch format {
            case .png: (fileName, container, stickerFolder) = (safeName, .folder, "")
            case .zip: (fileName, container, stickerFolder) = (safeName + ".zip", .zip, safeName + "/")
            case .telegram: (fileName, container, stickerFolder) = (safeName + ".telegram", .folder, "")
            case .whatsapp: (fileName, container, stickerFolder) = (safeName + ".wastickers", .zip, "")
            case .signal: (fileName, container, stickerFolder) = (safeName + ".signal", .folder, "")
            case .imessage:
                (fileName, container, stickerFolder) = (safeName + ".imessage", .folder, "Stickers.xcstickers/\(safeName).stickerpack/")
            }
        }
    }

    /// The files of a part as they are gathered, before the manifest that lists them.
    struct PartContents {
        let limits: PlatformLimits
        let stickerFolder: String
        private(set) var files: [String: [UInt8]] = [:]
        private(set) var fits: [ExportReport.Fit] = []
        private(set) var stickers: [ExportManifest.Sticker] = []
        private(set) var cover: String?
        private var emojiLines: [String] = []
        private var stickerDirectories: [String] = []

        init(limits: PlatformLimits, stickerFolder: String) {
            self.limits = limits
            self.stickerFolder = stickerFolder
        }

        /// The `number`th sticker (from 1), its file (and a plain export's APNG beside it) and its
        /// line in the emoji list.
        mutating func add(_ item: PackSource.Item, _ fitted: FittedSticker, number: Int) {
            let base = String(format: "%03d-%lld", number, item.id)
            let stickerFile = base + "." + fitted.fileExtension
            let path: String
            if limits.format == .imessage {
                stickerDirectories.append(base + ".sticker")
                path = stickerFolder + base + ".sticker/" + stickerFile
                files[stickerFolder + base + ".sticker/Contents.json"] = json(["info": xcodeInfo, "properties": ["filename": stickerFile]])
            } else {
                path = stickerFolder + stickerFile
            }
            let bytes = addFile(path, fitted, id: item.id)
            // A companion keeps the sticker's name with its own extension (`001-12.apng`).
            let companions = fitted.companions.map { companion in
                let companionPath = stickerFolder + base + "." + (companion.fileExtension == "png" ? "apng" : companion.fileExtension)
                let companionBytes = addFile(companionPath, companion, id: item.id)
                return ExportManifest.Companion(
                    file: companionPath, bytes: companionBytes.count, sha256: sha256(companionBytes), encoding: companion.encoding,
                    animation: companion.motion)
            }
            let emoji = Array(item.emoji.prefix(limits.emojiPerSticker?.upperBound ?? StickerEmoji.maxCount))
            emojiLines.append(stickerFile + " " + emoji.joined())
            stickers.append(ExportManifest.Sticker(
                id: item.id, position: item.position, file: path, emoji: emoji, width: fitted.width, height: fitted.height,
                bytes: bytes.count, sha256: sha256(bytes), encoding: fitted.encoding, animation: fitted.motion,
                companions: companions.isEmpty ? nil : companions,
                palette: item.palette.colors.map { ExportManifest.Color(hex: $0.hex, share: $0.share) }, source: item.source
            ))
        }

        /// One sticker file and its line in the fit report; the bytes written (none when it does not fit).
        private mutating func addFile(_ path: String, _ fitted: FittedSticker, id: Int64) -> [UInt8] {
            let limit = fitted.motion == nil ? limits.maxBytes : limits.animation.limits.maxBytes
            fits.append(ExportReport.Fit(
                id: id, file: path, width: fitted.width, height: fitted.height, bytes: fitted.bytes,
                limit: limit, encoding: fitted.encoding, ok: fitted.file != nil, animation: fitted.motion
            ))
            let bytes = fitted.file ?? []
            files[path] = bytes
            return bytes
        }

        /// The pack's icon; it is the cover, except on Signal.
        mutating func add(icon rule: IconRule, file: EncodedImage?, smallest: Int) {
            fits.append(ExportReport.Fit(
                id: nil, file: rule.file, width: rule.side, height: rule.side,
                bytes: file?.bytes.count ?? smallest, limit: rule.maxBytes, encoding: file?.encoding ?? "png", ok: file != nil
            ))
            files[rule.file] = file?.bytes ?? []
            cover = rule.file
        }

        /// The files each platform's importer reads besides the stickers.
        mutating func addPlatformFiles(title: String, author: String) {
            switch limits.format {
            case .telegram:
                files["title.txt"] = Array((title + "\n").utf8)
                files["emoji.txt"] = Array((emojiLines.joined(separator: "\n") + "\n").utf8)
            case .whatsapp:
                files["title.txt"] = Array(title.utf8)
                files["author.txt"] = Array(author.utf8)
                files["emoji.txt"] = Array((emojiLines.joined(separator: "\n") + "\n").utf8)
            case .signal:
                cover = stickers.first?.file
            case .imessage:
                let gridSize = switch limits.canvas {
                case .square(300): "small"
                case .square(618): "large"
                default: "regular"
                }
                files["Stickers.xcstickers/Contents.json"] = json(["info": xcodeInfo])
                files[stickerFolder + "Contents.json"] = json([
                    "info": xcodeInfo,
                    "properties": ["grid-size": gridSize],
                    "stickers": stickerDirectories.map { ["filename": $0] },
                ])
            case .png, .zip:
                break
            }
        }
    }

    /// What Xcode writes in the `info` of every asset catalog `Contents.json`.
    static var xcodeInfo: [String: Any] { ["author": "xcode", "version": 1] }

    /// Lower-case hex SHA-256.
    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// A JSON object as pretty, sorted-keys text with a final newline (stable bytes).
    static func json(_ object: [String: Any]) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }

    static func encode(_ manifest: ExportManifest) throws(ExportError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(manifest)) + [0x0A]
        } catch {
            throw .io(path: "manifest.json", reason: "could not encode the manifest: \(error)")
        }
    }
}
