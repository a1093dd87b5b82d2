import CExif

/// Reads EXIF with libexif. Every value is copied into Swift before the `ExifData` is released;
/// malformed EXIF yields partial metadata or nil, never a crash (libexif bounds-checks its input,
/// and every entry's size is checked here again before a value is read).
///
/// libexif is used without its default options: `FOLLOW_SPECIFICATION` would add mandatory tags
/// the file does not have (and "fix" values), and `IGNORE_UNKNOWN_TAGS` would drop tags it has no
/// name for. No `ExifLog` is attached, so libexif prints nothing.
public enum ExifReader {
    /// The six bytes that start the EXIF payload of a JPEG APP1 segment.
    static let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
    private static let intelTIFFHeader: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
    private static let motorolaTIFFHeader: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]

    /// The EXIF of a JPEG (its first APP1 `Exif` segment), or nil when it has none.
    public static func read(fromJPEG bytes: [UInt8]) -> ExifMetadata? {
        guard let payload = JPEGSegments.exifPayload(in: bytes) else { return nil }
        return load(Array(payload))
    }

    /// The EXIF in a raw block that starts with `Exif\0\0` or directly with a TIFF header
    /// (`II*\0` / `MM\0*`, as in a PNG `eXIf` chunk), or nil.
    public static func read(tiffBlock: [UInt8]) -> ExifMetadata? {
        if tiffBlock.starts(with: exifPrefix) { return load(tiffBlock) }
        if tiffBlock.starts(with: intelTIFFHeader) || tiffBlock.starts(with: motorolaTIFFHeader) {
            return load(exifPrefix + tiffBlock)
        }
        return nil
    }

    // MARK: - Loading

    /// Loads an `Exif\0\0`-prefixed block and copies everything out; nil when no entry loads.
    private static func load(_ block: [UInt8]) -> ExifMetadata? {
        // A TIFF header plus one IFD count is the least that can hold a tag; libexif reads at most 64 KiB.
        guard block.count >= exifPrefix.count + 10, let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        block.withUnsafeBufferPointer { buffer in
            exif_data_load_data(data, buffer.baseAddress, UInt32(min(buffer.count, Int(UInt32.max))))
        }
        let snapshot = Snapshot(data)
        guard !snapshot.entries.isEmpty else { return nil }
        return metadata(from: snapshot)
    }

    /// One entry copied out of libexif: its IFD, tag, format, component count, raw bytes and display text.
    struct Entry {
        var ifd: Int
        var tag: UInt16
        var format: UInt32
        var components: Int
        var bytes: [UInt8]
        var key: String
        var displayValue: String?
    }

    /// Everything read from an `ExifData`, owned by Swift.
    struct Snapshot {
        var byteOrder: ExifByteOrder
        var entries: [Entry] = []

        init(_ data: UnsafeMutablePointer<ExifData>) {
            byteOrder = exif_data_get_byte_order(data)
            let ifds = data.pointee.ifd
            let contents = [ifds.0, ifds.1, ifds.2, ifds.3, ifds.4]
            for (ifdIndex, content) in contents.enumerated() {
                guard let content, let list = content.pointee.entries else { continue }
                let ifd = ExifIfd(rawValue: UInt32(ifdIndex))
                let ifdName = exif_ifd_get_name(ifd).map { String(cString: $0) } ?? "\(ifdIndex)"
                for index in 0..<Int(content.pointee.count) {
                    guard let entry = list[index] else { continue }
                    entries.append(Self.copy(entry, ifd: ifd, ifdIndex: ifdIndex, ifdName: ifdName))
                }
            }
        }

        private static func copy(_ entry: UnsafeMutablePointer<ExifEntry>, ifd: ExifIfd, ifdIndex: Int, ifdName: String) -> Entry {
            let tag = UInt16(truncatingIfNeeded: entry.pointee.tag.rawValue)
            let size = Int(entry.pointee.size)
            let bytes = entry.pointee.data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
            let tagName = exif_tag_get_name_in_ifd(entry.pointee.tag, ifd).map { String(cString: $0) } ?? hex(tag)
            return Entry(
                ifd: ifdIndex,
                tag: tag,
                format: entry.pointee.format.rawValue,
                components: Int(clamping: entry.pointee.components),
                bytes: bytes,
                key: "\(ifdName).\(tagName)",
                displayValue: tag == Tag.makerNote ? nil : displayValue(entry))
        }

        /// libexif's text for the entry, or nil for binary blobs too long to be worth keeping.
        private static func displayValue(_ entry: UnsafeMutablePointer<ExifEntry>) -> String? {
            let capacity = 1024
            // One spare zero byte past what libexif may write guarantees termination.
            var buffer = [CChar](repeating: 0, count: capacity + 1)
            let found = buffer.withUnsafeMutableBufferPointer { pointer in
                exif_entry_get_value(entry, pointer.baseAddress, UInt32(capacity)) != nil
            }
            guard found else { return nil }
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            let text = String(decoding: bytes, as: UTF8.self).trimmingTrailingSpace()
            let format = entry.pointee.format
            let isBinary = format == EXIF_FORMAT_UNDEFINED || format == EXIF_FORMAT_BYTE
            if isBinary && text.count > 256 { return nil }
            return text
        }

        func entry(ifd: Int, tag: UInt16) -> Entry? {
            entries.first { $0.ifd == ifd && $0.tag == tag }
        }
    }

    // MARK: - Fields

    /// Tag numbers this reader (and `ExifWriter`) uses.
    enum Tag {
        static let make: UInt16 = 0x010F
        static let model: UInt16 = 0x0110
        static let orientation: UInt16 = 0x0112
        static let dateTime: UInt16 = 0x0132
        static let exposureTime: UInt16 = 0x829A
        static let fNumber: UInt16 = 0x829D
        static let isoSpeedRatings: UInt16 = 0x8827
        static let exifVersion: UInt16 = 0x9000
        static let dateTimeOriginal: UInt16 = 0x9003
        static let dateTimeDigitized: UInt16 = 0x9004
        static let offsetTime: UInt16 = 0x9010
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let offsetTimeDigitized: UInt16 = 0x9012
        static let focalLength: UInt16 = 0x920A
        static let makerNote: UInt16 = 0x927C
        static let lensModel: UInt16 = 0xA434
        static let gpsVersionID: UInt16 = 0x0000
        static let gpsLatitudeRef: UInt16 = 0x0001
        static let gpsLatitude: UInt16 = 0x0002
        static let gpsLongitudeRef: UInt16 = 0x0003
        static let gpsLongitude: UInt16 = 0x0004
        static let gpsAltitudeRef: UInt16 = 0x0005
        static let gpsAltitude: UInt16 = 0x0006
    }

    enum IFD {
        static let zero = Int(EXIF_IFD_0.rawValue)
        static let exif = Int(EXIF_IFD_EXIF.rawValue)
        static let gps = Int(EXIF_IFD_GPS.rawValue)
    }

    private static func metadata(from snapshot: Snapshot) -> ExifMetadata {
        func entry(_ ifd: Int, _ tag: UInt16) -> Entry? { snapshot.entry(ifd: ifd, tag: tag) }
        let order = snapshot.byteOrder
        var metadata = ExifMetadata()
        metadata.make = entry(IFD.zero, Tag.make).flatMap(text)
        metadata.model = entry(IFD.zero, Tag.model).flatMap(text)
        metadata.lensModel = entry(IFD.exif, Tag.lensModel).flatMap(text)
        metadata.takenAt = takenAt(snapshot)
        metadata.exposureTime = entry(IFD.exif, Tag.exposureTime).flatMap { positive(rationals($0, order).first) }
        metadata.fNumber = entry(IFD.exif, Tag.fNumber).flatMap { positive(rationals($0, order).first) }
        metadata.focalLength = entry(IFD.exif, Tag.focalLength).flatMap { positive(rationals($0, order).first) }
        metadata.iso = entry(IFD.exif, Tag.isoSpeedRatings).flatMap { integers($0, order).first }.flatMap { $0 > 0 ? $0 : nil }
        metadata.orientation = entry(IFD.zero, Tag.orientation).flatMap { integers($0, order).first }.flatMap { (1...8).contains($0) ? $0 : nil }
        metadata.gpsLatitude = coordinate(
            entry(IFD.gps, Tag.gpsLatitude), ref: entry(IFD.gps, Tag.gpsLatitudeRef), negative: "S", limit: 90, order)
        metadata.gpsLongitude = coordinate(
            entry(IFD.gps, Tag.gpsLongitude), ref: entry(IFD.gps, Tag.gpsLongitudeRef), negative: "W", limit: 180, order)
        metadata.gpsAltitude = altitude(entry(IFD.gps, Tag.gpsAltitude), ref: entry(IFD.gps, Tag.gpsAltitudeRef), order)
        var tags: [String: String] = [:]
        for entry in snapshot.entries {
            if let value = entry.displayValue, tags[entry.key] == nil { tags[entry.key] = value }
        }
        metadata.tags = tags
        return metadata
    }

    /// The capture time: DateTimeOriginal, else DateTimeDigitized, else IFD0 DateTime, each with
    /// the offset tag that belongs to it when that is present and valid.
    private static func takenAt(_ snapshot: Snapshot) -> String? {
        let sources = [
            (IFD.exif, Tag.dateTimeOriginal, Tag.offsetTimeOriginal),
            (IFD.exif, Tag.dateTimeDigitized, Tag.offsetTimeDigitized),
            (IFD.zero, Tag.dateTime, Tag.offsetTime),
        ]
        for (ifd, dateTag, offsetTag) in sources {
            guard let date = snapshot.entry(ifd: ifd, tag: dateTag).flatMap(text).flatMap(ExifDate.iso8601) else { continue }
            // Offset tags live in the EXIF IFD, whichever IFD the date came from.
            let offset = snapshot.entry(ifd: IFD.exif, tag: offsetTag).flatMap(text).flatMap(ExifDate.offset)
            return date + (offset ?? "")
        }
        return nil
    }

    // MARK: - Values

    /// The number of bytes the entry's components need, when the format is known and they fit in its data.
    private static func checkedSize(_ entry: Entry) -> Int? {
        let unit = Int(exif_format_get_size(ExifFormat(rawValue: entry.format)))
        guard unit > 0, entry.components > 0 else { return nil }
        let (size, overflow) = unit.multipliedReportingOverflow(by: entry.components)
        guard !overflow, size <= entry.bytes.count else { return nil }
        return size
    }

    /// An ASCII (or byte) value up to its first NUL, as valid UTF-8, trimmed; nil when empty.
    static func text(_ entry: Entry) -> String? {
        let formats = [EXIF_FORMAT_ASCII, EXIF_FORMAT_UNDEFINED, EXIF_FORMAT_BYTE].map(\.rawValue)
        guard formats.contains(entry.format) else { return nil }
        let bytes = entry.bytes.prefix { $0 != 0 }
        let trimmed = String(decoding: bytes, as: UTF8.self).trimmingTrailingSpace().trimmingLeadingSpace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Unsigned integer components of a BYTE, SHORT or LONG entry.
    private static func integers(_ entry: Entry, _ order: ExifByteOrder) -> [Int] {
        guard checkedSize(entry) != nil else { return [] }
        return entry.bytes.withUnsafeBufferPointer { buffer -> [Int] in
            guard let base = buffer.baseAddress else { return [] }
            switch ExifFormat(rawValue: entry.format) {
            case EXIF_FORMAT_BYTE:
                return (0..<entry.components).map { Int(base[$0]) }
            case EXIF_FORMAT_SHORT:
                return (0..<entry.components).map { Int(exif_get_short(base + 2 * $0, order)) }
            case EXIF_FORMAT_LONG:
                return (0..<entry.components).map { Int(exif_get_long(base + 4 * $0, order)) }
            default:
                return []
            }
        }
    }

    /// The components of a RATIONAL or SRATIONAL entry as Doubles; nil for a zero denominator.
    private static func rationals(_ entry: Entry, _ order: ExifByteOrder) -> [Double?] {
        guard checkedSize(entry) != nil else { return [] }
        return entry.bytes.withUnsafeBufferPointer { buffer -> [Double?] in
            guard let base = buffer.baseAddress else { return [] }
            switch ExifFormat(rawValue: entry.format) {
            case EXIF_FORMAT_RATIONAL:
                return (0..<entry.components).map { index in
                    let value = exif_get_rational(base + 8 * index, order)
                    return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
                }
            case EXIF_FORMAT_SRATIONAL:
                return (0..<entry.components).map { index in
                    let value = exif_get_srational(base + 8 * index, order)
                    return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
                }
            default:
                return []
            }
        }
    }

    private static func positive(_ value: Double??) -> Double? {
        guard let value = value ?? nil, value.isFinite, value > 0 else { return nil }
        return value
    }

    /// Signed decimal degrees from GPS degrees, minutes, seconds and a reference letter.
    private static func coordinate(
        _ entry: Entry?, ref: Entry?, negative: Character, limit: Double, _ order: ExifByteOrder
    ) -> Double? {
        guard let entry else { return nil }
        let parts = rationals(entry, order).prefix(3)
        guard !parts.isEmpty else { return nil }
        var components: [Double] = []
        for part in parts {
            guard let part, part.isFinite else { return nil }
            components.append(part)
        }
        while components.count < 3 { components.append(0) }
        var degrees = decimalDegrees(components[0], components[1], components[2])
        if let letter = ref.flatMap(text)?.uppercased().first, letter == negative { degrees = -degrees }
        guard degrees.isFinite, abs(degrees) <= limit else { return nil }
        return degrees
    }

    /// How degrees, minutes and seconds combine; `ExifWriter` checks its rationals against this.
    static func decimalDegrees(_ degrees: Double, _ minutes: Double, _ seconds: Double) -> Double {
        degrees + minutes / 60 + seconds / 3600
    }

    /// Metres above sea level; GPSAltitudeRef 1 means below.
    private static func altitude(_ entry: Entry?, ref: Entry?, _ order: ExifByteOrder) -> Double? {
        guard let entry, let first = rationals(entry, order).first, let value = first, value.isFinite else { return nil }
        let below = ref.map { integers($0, order).first == 1 || text($0) == "1" } ?? false
        return below ? -value : value
    }

    static func hex(_ tag: UInt16) -> String {
        let digits = String(tag, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// EXIF date strings ("YYYY:MM:DD HH:MM:SS") and offsets ("+HH:MM"), validated and converted to ISO 8601.
enum ExifDate {
    /// `2024-05-01T12:34:56` from `2024:05:01 12:34:56`; nil for blank, zero or impossible dates.
    static func iso8601(_ exif: String) -> String? {
        let characters = Array(exif.utf8)
        guard characters.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = characters[index]
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        let dateSeparators: Set<UInt8> = [0x3A, 0x2D, 0x2F]  // ':' '-' '/'
        guard dateSeparators.contains(characters[4]), characters[7] == characters[4],
              characters[10] == 0x20 || characters[10] == 0x54,  // ' ' or 'T'
              characters[13] == 0x3A, characters[16] == 0x3A,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        guard (1800...9999).contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        return "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))"
    }

    /// `+02:00` from an OffsetTime value; nil for blank or impossible offsets.
    static func offset(_ exif: String) -> String? {
        let characters = Array(exif.utf8)
        guard characters.count == 6, characters[0] == 0x2B || characters[0] == 0x2D, characters[3] == 0x3A else { return nil }
        let digits = [characters[1], characters[2], characters[4], characters[5]]
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let hours = Int(digits[0] - 0x30) * 10 + Int(digits[1] - 0x30)
        let minutes = Int(digits[2] - 0x30) * 10 + Int(digits[3] - 0x30)
        guard hours <= 14, minutes < 60 else { return nil }
        return exif
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension String {
    /// Without trailing spaces, tabs, newlines or NULs.
    func trimmingTrailingSpace() -> String {
        var scalars = Substring(self).unicodeScalars
        while let last = scalars.last, last.properties.isWhitespace || last == "\0" { scalars.removeLast() }
        return String(scalars)
    }

    /// Without leading spaces, tabs, newlines or NULs.
    func trimmingLeadingSpace() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace || first == "\0" { scalars.removeFirst() }
        return String(scalars)
    }
}
