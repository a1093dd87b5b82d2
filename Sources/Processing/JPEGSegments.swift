/// The marker segments at the head of a JPEG stream (SOI up to and including SOS), found by
/// walking the markers in Swift with every length checked against the data.
struct JPEGSegments {
    /// One marker segment: the marker byte (e.g. 0xE1 for APP1) and where its payload lies
    /// (after the two length bytes) in the scanned bytes.
    struct Segment {
        var marker: UInt8
        /// Offset of the 0xFF that starts the marker.
        var start: Int
        var payload: Range<Int>
        /// Offset just past the segment.
        var end: Int { payload.upperBound }
    }

    static let startOfImage: UInt8 = 0xD8
    static let endOfImage: UInt8 = 0xD9
    static let startOfScan: UInt8 = 0xDA
    static let app1: UInt8 = 0xE1
    static let app2: UInt8 = 0xE2
    static let app14: UInt8 = 0xEE

    /// The segments in order, stopping after SOS, at EOI, or at the first segment that does not
    /// fit in the data (what was read before is kept). Like libjpeg, bytes between segments that
    /// are not a marker ("extraneous bytes") are skipped.
    let segments: [Segment]

    /// True when the data ends before SOS in the middle of what looks like a valid header:
    /// between segments, or inside a segment of a marker JPEG defines (a truncated file, as
    /// opposed to garbage).
    let endsBeforeScan: Bool

    init(_ bytes: [UInt8]) {
        (segments, endsBeforeScan) = Self.walk(bytes)
    }

    private static func walk(_ bytes: [UInt8]) -> ([Segment], endsBeforeScan: Bool) {
        var found: [Segment] = []
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == startOfImage else { return (found, false) }
        var position = 2
        var skippedJunk = false
        while position < bytes.count {
            if bytes[position] != 0xFF {
                // Extraneous bytes: libjpeg warns and looks for the next marker, and so do we.
                skippedJunk = true
                position += 1
                continue
            }
            let markerStart = position
            // Any number of 0xFF fill bytes may precede a marker.
            while position < bytes.count, bytes[position] == 0xFF { position += 1 }
            guard position < bytes.count else { return (found, !skippedJunk) }
            let marker = bytes[position]
            position += 1
            switch marker {
            case 0x00:
                skippedJunk = true  // FF 00 is not a marker either.
                continue
            case 0x01, 0xD0...0xD7:
                continue  // TEM and RSTn stand alone, without a length.
            case startOfImage, endOfImage:
                return (found, false)
            default:
                break
            }
            let known = isSegmentMarker(marker) && !skippedJunk
            guard position + 2 <= bytes.count else { return (found, known) }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2 else { return (found, false) }
            guard position + length <= bytes.count else { return (found, known) }
            found.append(Segment(marker: marker, start: markerStart, payload: position + 2 ..< position + length))
            position += length
            if marker == startOfScan { return (found, false) }
        }
        return (found, !skippedJunk)
    }

    /// Markers JPEG defines with a length field: SOFn, DHT, DAC, JPG, DQT, DNL, DRI, DHP, EXP,
    /// APPn, JPGn, COM and SOS.
    private static func isSegmentMarker(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) || (0xDA...0xDF).contains(marker) || (0xE0...0xFE).contains(marker)
    }

    /// The payload of the first APP1 segment that starts with `Exif\0\0`, prefix included.
    static func exifPayload(in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        for segment in JPEGSegments(bytes).segments where segment.marker == app1 {
            let payload = bytes[segment.payload]
            if payload.starts(with: ExifReader.exifPrefix) { return payload }
        }
        return nil
    }

    /// The ICC profile in the APP2 `ICC_PROFILE` segments, joined in their sequence order (a
    /// profile over 64 KB is split across several). nil when there is none; a set with a missing
    /// or repeated part is joined as it is, and lcms2 then refuses it (a warning, not a failure).
    static func iccProfile(in bytes: [UInt8]) -> [UInt8]? {
        let signature = Array("ICC_PROFILE".utf8) + [0]
        var parts: [(sequence: UInt8, data: ArraySlice<UInt8>)] = []
        for segment in JPEGSegments(bytes).segments where segment.marker == app2 {
            let payload = bytes[segment.payload]
            guard payload.starts(with: signature), payload.count > signature.count + 2 else { continue }
            let sequence = payload[payload.startIndex + signature.count]
            parts.append((sequence, payload.dropFirst(signature.count + 2)))
        }
        guard !parts.isEmpty else { return nil }
        return parts.sorted { $0.sequence < $1.sequence }.flatMap(\.data)
    }

    /// Whether an EOI marker follows the first SOS segment: entropy-coded data never contains
    /// FF D9 (an FF there is followed by 00 or a restart marker), so a file without one after
    /// the scan has been cut short.
    static func hasEndOfImageAfterScan(_ bytes: [UInt8]) -> Bool {
        guard let scan = JPEGSegments(bytes).segments.last, scan.marker == startOfScan else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var index = scan.end
            while index + 1 < buffer.count {
                if buffer[index] == 0xFF && buffer[index + 1] == endOfImage { return true }
                index += 1
            }
            return false
        }
    }

    /// Whether an Adobe APP14 segment is present: Adobe applications store CMYK inverted.
    static func hasAdobeMarker(in bytes: [UInt8]) -> Bool {
        JPEGSegments(bytes).segments.contains { segment in
            segment.marker == app14 && bytes[segment.payload].starts(with: Array("Adobe".utf8))
        }
    }
}
