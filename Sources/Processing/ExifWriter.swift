import CExif
import Foundation

/// Writes EXIF with libexif, for test fixtures and generated sample photos. Every field of
/// `ExifMetadata` except `tags` is written so that `ExifReader` reads back exactly the same values:
/// each number is stored as a rational whose quotient is that very `Double`.
public enum ExifWriter {
    /// The byte order of the TIFF structure inside the EXIF block.
    public enum ByteOrder: Sendable {
        /// Little-endian, `II` (most cameras).
        case intel
        /// Big-endian, `MM`.
        case motorola
    }

    /// The largest EXIF block (with its `Exif\0\0` prefix): what fits in a JPEG APP1 segment,
    /// whose 16-bit length counts its own two bytes.
    static let maximumBlockSize = 65_533

    /// The JPEG with an APP1 `Exif` segment holding `exif` right after SOI, replacing any
    /// `Exif` APP1 segment the JPEG already had.
    public static func jpegByInserting(_ exif: ExifMetadata, into jpeg: [UInt8]) throws(ProcessingError) -> [UInt8] {
        try jpegByInserting(exif, into: jpeg, byteOrder: .intel)
    }

    /// The JPEG with an APP1 `Exif` segment holding `exif`, written in `byteOrder`.
    public static func jpegByInserting(
        _ exif: ExifMetadata, into jpeg: [UInt8], byteOrder: ByteOrder
    ) throws(ProcessingError) -> [UInt8] {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == JPEGSegments.startOfImage else {
            throw .encodingFailed("not a JPEG: cannot insert EXIF")
        }
        let payload = try exifBlock(exif, byteOrder: byteOrder)
        let length = payload.count + 2
        var output: [UInt8] = [0xFF, JPEGSegments.startOfImage, 0xFF, JPEGSegments.app1, UInt8(length >> 8), UInt8(length & 0xFF)]
        output.reserveCapacity(jpeg.count + payload.count + 6)
        output += payload
        // Copy the rest, leaving out existing Exif APP1 segments.
        var position = 2
        for segment in JPEGSegments(jpeg).segments {
            if segment.marker == JPEGSegments.app1, jpeg[segment.payload].starts(with: ExifReader.exifPrefix) {
                output += jpeg[position..<segment.start]
                position = segment.end
            }
        }
        output += jpeg[position...]
        return output
    }

    /// The EXIF block for `exif`: `Exif\0\0` followed by the TIFF structure (drop the first six
    /// bytes for a PNG `eXIf` chunk, or use `PNGCodec.pngByInserting(exifChunk:into:)`).
    public static func exifBlock(_ exif: ExifMetadata, byteOrder: ByteOrder = .intel) throws(ProcessingError) -> [UInt8] {
        guard let mem = exif_mem_new_default() else { throw .encodingFailed("libexif: out of memory") }
        defer { exif_mem_unref(mem) }
        guard let data = exif_data_new_mem(mem) else { throw .encodingFailed("libexif: out of memory") }
        defer { exif_data_unref(data) }
        // Write exactly the entries given: no mandatory tags added, none "fixed".
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        let order = byteOrder == .intel ? EXIF_BYTE_ORDER_INTEL : EXIF_BYTE_ORDER_MOTOROLA
        exif_data_set_byte_order(data, order)

        let builder = EntryBuilder(mem: mem, data: data, order: order)
        try builder.add(entries(for: exif))

        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt32 = 0
        exif_data_save_data(data, &output, &size)
        defer { free(output) }
        guard let output, size > 0 else { throw .encodingFailed("libexif could not save the EXIF block") }
        // libexif reads at most 64 KiB and a JPEG APP1 segment holds 65533 bytes after its length.
        guard size <= maximumBlockSize else {
            throw .encodingFailed("EXIF block of \(size) bytes is larger than \(maximumBlockSize)")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    // MARK: - Entries

    /// One entry to write: where, which tag, and its value already encoded.
    struct Value {
        enum Payload {
            case ascii(String)
            case bytes([UInt8], format: ExifFormat)
            case shorts([UInt16])
            case longs([UInt32])
            case rationals([(UInt32, UInt32)])
        }

        var ifd: ExifIfd
        var tag: UInt16
        var payload: Payload
    }

    private static func entries(for exif: ExifMetadata) throws(ProcessingError) -> [Value] {
        typealias Tag = ExifReader.Tag
        var values: [Value] = []
        func add(_ ifd: ExifIfd, _ tag: UInt16, _ payload: Value.Payload) {
            values.append(Value(ifd: ifd, tag: tag, payload: payload))
        }
        func rational(_ value: Double, _ name: String) throws(ProcessingError) -> (UInt32, UInt32) {
            guard let fraction = Rational.exact(value) else {
                throw .encodingFailed("\(name) \(value) cannot be stored as an EXIF rational")
            }
            return fraction
        }

        if let make = exif.make { add(EXIF_IFD_0, Tag.make, .ascii(make)) }
        if let model = exif.model { add(EXIF_IFD_0, Tag.model, .ascii(model)) }
        if let orientation = exif.orientation {
            guard (1...8).contains(orientation) else { throw .encodingFailed("orientation \(orientation) is not 1...8") }
            add(EXIF_IFD_0, Tag.orientation, .shorts([UInt16(orientation)]))
        }

        add(EXIF_IFD_EXIF, Tag.exifVersion, .bytes(Array("0232".utf8), format: EXIF_FORMAT_UNDEFINED))
        if let exposure = exif.exposureTime {
            add(EXIF_IFD_EXIF, Tag.exposureTime, .rationals([try rational(exposure, "exposure time")]))
        }
        if let fNumber = exif.fNumber { add(EXIF_IFD_EXIF, Tag.fNumber, .rationals([try rational(fNumber, "f-number")])) }
        if let iso = exif.iso {
            guard iso > 0, iso <= Int(UInt32.max) else { throw .encodingFailed("ISO \(iso) is out of range") }
            // ISOSpeedRatings is a SHORT; a LONG keeps values past 65535 readable.
            add(EXIF_IFD_EXIF, Tag.isoSpeedRatings, iso <= Int(UInt16.max) ? .shorts([UInt16(iso)]) : .longs([UInt32(iso)]))
        }
        if let takenAt = exif.takenAt {
            guard let (date, offset) = ExifDate.exifParts(takenAt) else {
                throw .encodingFailed("takenAt \"\(takenAt)\" is not YYYY-MM-DDTHH:MM:SS with an optional ±HH:MM")
            }
            add(EXIF_IFD_EXIF, Tag.dateTimeOriginal, .ascii(date))
            if let offset { add(EXIF_IFD_EXIF, Tag.offsetTimeOriginal, .ascii(offset)) }
        }
        if let focalLength = exif.focalLength {
            add(EXIF_IFD_EXIF, Tag.focalLength, .rationals([try rational(focalLength, "focal length")]))
        }
        if let lens = exif.lensModel { add(EXIF_IFD_EXIF, Tag.lensModel, .ascii(lens)) }

        let hasGPS = exif.gpsLatitude != nil || exif.gpsLongitude != nil || exif.gpsAltitude != nil
        if hasGPS { add(EXIF_IFD_GPS, Tag.gpsVersionID, .bytes([2, 3, 0, 0], format: EXIF_FORMAT_BYTE)) }
        if let latitude = exif.gpsLatitude {
            guard abs(latitude) <= 90, let dms = Rational.degreesMinutesSeconds(abs(latitude)) else {
                throw .encodingFailed("latitude \(latitude) cannot be stored")
            }
            add(EXIF_IFD_GPS, Tag.gpsLatitudeRef, .ascii(latitude < 0 ? "S" : "N"))
            add(EXIF_IFD_GPS, Tag.gpsLatitude, .rationals(dms))
        }
        if let longitude = exif.gpsLongitude {
            guard abs(longitude) <= 180, let dms = Rational.degreesMinutesSeconds(abs(longitude)) else {
                throw .encodingFailed("longitude \(longitude) cannot be stored")
            }
            add(EXIF_IFD_GPS, Tag.gpsLongitudeRef, .ascii(longitude < 0 ? "W" : "E"))
            add(EXIF_IFD_GPS, Tag.gpsLongitude, .rationals(dms))
        }
        if let altitude = exif.gpsAltitude {
            add(EXIF_IFD_GPS, Tag.gpsAltitudeRef, .bytes([altitude < 0 ? 1 : 0], format: EXIF_FORMAT_BYTE))
            add(EXIF_IFD_GPS, Tag.gpsAltitude, .rationals([try rational(abs(altitude), "altitude")]))
        }
        return values
    }

    /// Creates entries in one `ExifData`, allocating their data with its `ExifMem` so that libexif
    /// frees it with the same allocator.
    private struct EntryBuilder {
        let mem: OpaquePointer
        let data: UnsafeMutablePointer<ExifData>
        let order: ExifByteOrder

        func add(_ values: [Value]) throws(ProcessingError) {
            let ifds = data.pointee.ifd
            let contents = [ifds.0, ifds.1, ifds.2, ifds.3, ifds.4]
            for value in values {
                let (format, components, bytes) = encode(value.payload)
                // libexif silently writes garbage for more components than this.
                guard components <= 65_536 else { throw .encodingFailed("EXIF value of \(components) items is too long") }
                guard let content = contents[Int(value.ifd.rawValue)],
                      let entry = exif_entry_new_mem(mem) else {
                    throw .encodingFailed("libexif: out of memory")
                }
                defer { exif_entry_unref(entry) }
                guard let storage = exif_mem_alloc(mem, UInt32(max(bytes.count, 1)))?.assumingMemoryBound(to: UInt8.self) else {
                    throw .encodingFailed("libexif: out of memory")
                }
                bytes.withUnsafeBufferPointer { source in
                    if let base = source.baseAddress { storage.update(from: base, count: source.count) }
                }
                entry.pointee.tag = ExifTag(rawValue: UInt32(value.tag))
                entry.pointee.format = format
                entry.pointee.components = UInt(components)
                entry.pointee.data = storage
                entry.pointee.size = UInt32(bytes.count)
                exif_content_add_entry(content, entry)
            }
        }

        /// The libexif format, component count and raw bytes (in the data's byte order) of a value.
        private func encode(_ payload: Value.Payload) -> (ExifFormat, Int, [UInt8]) {
            switch payload {
            case .ascii(let string):
                let bytes = Array(string.utf8) + [0]
                return (EXIF_FORMAT_ASCII, bytes.count, bytes)
            case .bytes(let bytes, let format):
                return (format, bytes.count, bytes)
            case .shorts(let values):
                return (EXIF_FORMAT_SHORT, values.count, packed(values, size: 2) { exif_set_short($0, order, $1) })
            case .longs(let values):
                return (EXIF_FORMAT_LONG, values.count, packed(values, size: 4) { exif_set_long($0, order, $1) })
            case .rationals(let values):
                return (EXIF_FORMAT_RATIONAL, values.count, packed(values, size: 8) {
                    exif_set_rational($0, order, ExifRational(numerator: $1.0, denominator: $1.1))
                })
            }
        }

        /// Values of `size` bytes each, written one after the other by libexif's setter.
        private func packed<Element>(_ values: [Element], size: Int,
                                     set: (UnsafeMutablePointer<UInt8>, Element) -> Void) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: values.count * size)
            bytes.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for (index, value) in values.enumerated() { set(base + size * index, value) }
            }
            return bytes
        }
    }
}

/// Finding EXIF rationals whose quotient, as `ExifReader` computes it, is exactly a given `Double`.
enum Rational {
    /// A fraction n/d with `Double(n) / Double(d) == value`, preferring 1/d (exposure times),
    /// then decimal fractions, then continued-fraction convergents; nil when none fits in 32 bits.
    static func exact(_ value: Double) -> (UInt32, UInt32)? {
        guard value.isFinite, value >= 0, value <= Double(UInt32.max) else { return nil }
        func matches(_ numerator: Double, _ denominator: Double) -> (UInt32, UInt32)? {
            guard numerator >= 0, numerator <= Double(UInt32.max), denominator >= 1, denominator <= Double(UInt32.max),
                  numerator == numerator.rounded(), denominator == denominator.rounded(),
                  numerator / denominator == value else { return nil }
            return (UInt32(numerator), UInt32(denominator))
        }
        if value > 0, value < 1, let reciprocal = matches(1, (1 / value).rounded()) { return reciprocal }
        var denominator = 1.0
        while denominator <= 1e9 {
            if let decimal = matches((value * denominator).rounded(), denominator) { return decimal }
            denominator *= 10
        }
        // Convergents of the continued fraction of `value`.
        var (h0, h1) = (0.0, 1.0)
        var (k0, k1) = (1.0, 0.0)
        var remainder = value
        for _ in 0..<64 {
            let whole = remainder.rounded(.down)
            (h0, h1) = (h1, whole * h1 + h0)
            (k0, k1) = (k1, whole * k1 + k0)
            guard h1 <= Double(UInt32.max), k1 <= Double(UInt32.max) else { break }
            if let fraction = matches(h1, k1) { return fraction }
            let fractional = remainder - whole
            guard fractional > 0 else { break }
            remainder = 1 / fractional
        }
        return nil
    }

    /// Degrees, minutes and seconds for a non-negative angle, such that
    /// `ExifReader.decimalDegrees` gives the angle back exactly; whole degrees and minutes when
    /// that works, else the whole angle in the degrees rational.
    static func degreesMinutesSeconds(_ angle: Double) -> [(UInt32, UInt32)]? {
        guard angle.isFinite, angle >= 0, angle <= 360 else { return nil }
        let zero: (UInt32, UInt32) = (0, 1)
        let degrees = angle.rounded(.down)
        let minutes = ((angle - degrees) * 60).rounded(.down)
        let seconds = (angle - degrees - minutes / 60) * 3600
        for scale in [1.0, 10, 100, 1000, 10_000, 100_000] {
            let candidate = (seconds * scale).rounded() / scale
            guard candidate >= 0, candidate < 60,
                  ExifReader.decimalDegrees(degrees, minutes, candidate) == angle,
                  let secondsRational = exact(candidate) else { continue }
            return [(UInt32(degrees), 1), (UInt32(minutes), 1), secondsRational]
        }
        if let whole = exact(angle), ExifReader.decimalDegrees(angle, 0, 0) == angle {
            return [whole, zero, zero]
        }
        return nil
    }
}

extension ExifDate {
    /// `("2024:05:01 12:34:56", "+02:00")` from `2024-05-01T12:34:56+02:00`; the offset is nil
    /// when the text has none. Nil when the text is not a valid date in that form.
    static func exifParts(_ iso: String) -> (date: String, offset: String?)? {
        let characters = Array(iso.utf8)
        guard characters.count == 19 || characters.count == 25,
              characters[4] == 0x2D, characters[7] == 0x2D, characters[10] == 0x54 else { return nil }
        var exif = characters[0..<19]
        exif[exif.startIndex + 4] = 0x3A
        exif[exif.startIndex + 7] = 0x3A
        exif[exif.startIndex + 10] = 0x20
        let date = String(decoding: exif, as: UTF8.self)
        // The date must read back as the same text.
        guard iso8601(date) == String(decoding: characters[0..<19], as: UTF8.self) else { return nil }
        guard characters.count == 25 else { return (date, nil) }
        guard let offset = offset(String(decoding: characters[19...], as: UTF8.self)) else { return nil }
        return (date, offset)
    }
}
