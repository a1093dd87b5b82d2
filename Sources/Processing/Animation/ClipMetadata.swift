/// What a clip's container says about where and when it was filmed, read from the text tags of
/// its metadata (QuickTime/MP4 `udta`/`meta`, Matroska tags), turned into the same `ExifMetadata`
/// fields a photo's EXIF gives: make, model, date taken and GPS position. ClipDecoder hands the tags
/// over as plain strings, so this reads no FFmpeg structure.
enum ClipMetadata {
    /// The keys read, in order of preference where two say the same thing.
    static let keys = [
        "com.apple.quicktime.creationdate", "creation_time",
        "com.apple.quicktime.make", "com.apple.quicktime.model",
        "com.apple.quicktime.location.ISO6709", "location",
        "com.apple.quicktime.content.identifier",
    ]

    /// `tags` are the container's tags with the video stream's after them (a stream tag fills a gap
    /// the container leaves, never overrides it); nil when none of the keys is there. Each key found is
    /// kept in `tags` as `QuickTime.KEY`, the Live Photo content identifier among them.
    static func exif(container: [String: String], stream: [String: String]) -> ExifMetadata? {
        func value(_ key: String) -> String? {
            for tags in [container, stream] {
                if let text = tags[key].map(trimmed), !text.isEmpty { return text }
            }
            return nil
        }
        var exif = ExifMetadata()
        exif.make = value("com.apple.quicktime.make")
        exif.model = value("com.apple.quicktime.model")
        // The QuickTime date is the phone's local time with its offset; creation_time is only UTC.
        exif.takenAt = value("com.apple.quicktime.creationdate").flatMap(takenAt(quickTime:))
            ?? value("creation_time").flatMap(takenAt(quickTime:))
        let location = value("com.apple.quicktime.location.ISO6709") ?? value("location")
        if let position = location.flatMap(iso6709) {
            exif.gpsLatitude = position.latitude
            exif.gpsLongitude = position.longitude
            exif.gpsAltitude = position.altitude
        }
        for key in keys { if let text = value(key) { exif.tags["QuickTime.\(key)"] = text } }
        // A Live Photo's content identifier alone is worth keeping: it names the still the clip belongs to.
        guard !exif.tags.isEmpty else { return nil }
        return exif
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// `2024-05-01T12:34:56+0200` (QuickTime), `2024-05-01T10:34:56.000000Z` (FFmpeg's
    /// creation_time) → `2024-05-01T12:34:56+02:00`, `2024-05-01T10:34:56Z`: the shape photos' dates
    /// take. A fraction of zeros is dropped; text of another shape is refused.
    static func takenAt(quickTime text: String) -> String? {
        let chars = Array(text)
        guard chars.count >= 19, chars[4] == "-", chars[7] == "-", chars[10] == "T" || chars[10] == " ",
              chars[13] == ":", chars[16] == ":",
              [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18].allSatisfy({ chars[$0].isASCII && chars[$0].isNumber })
        else { return nil }
        var result = String(chars[0 ..< 10]) + "T" + String(chars[11 ..< 19])
        var rest = chars[19...]
        if rest.first == "." {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            if digits.contains(where: { $0 != "0" }) { result += "." + String(digits) }
            rest = rest.dropFirst(1 + digits.count)
        }
        switch rest.first {
        case nil: return result
        case "Z": return rest.count == 1 ? result + "Z" : nil
        case "+", "-":
            let digits = rest.dropFirst().filter { $0 != ":" }
            guard digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return result + String(rest.first!) + String(digits.prefix(2)) + ":" + String(digits.suffix(2))
        default: return nil
        }
    }

    /// An ISO 6709 position string (`+37.3349-122.0090/`, `+37.3349-122.0090+010.000/`, or with
    /// degrees and minutes `+3720.094-12200.540/`) as signed decimal degrees and metres.
    static func iso6709(_ text: String) -> (latitude: Double, longitude: Double, altitude: Double?)? {
        var parts: [String] = []
        for char in text.prefix(while: { $0 != "/" && $0 != "C" }) {
            if char == "+" || char == "-" {
                parts.append(String(char))
            } else if char.isASCII, char.isNumber || char == ".", !parts.isEmpty {
                parts[parts.count - 1].append(char)
            } else {
                return nil
            }
        }
        guard parts.count == 2 || parts.count == 3,
              let latitude = degrees(parts[0], degreeDigits: 2), let longitude = degrees(parts[1], degreeDigits: 3),
              abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        let altitude = parts.count == 3 ? Double(parts[2]) : nil
        return (latitude, longitude, altitude)
    }

    /// `±DD.DD`, `±DDMM.MM` or `±DDMMSS.SS` (three degree digits for a longitude) as decimal degrees.
    private static func degrees(_ part: String, degreeDigits: Int) -> Double? {
        let sign: Double = part.first == "-" ? -1 : 1
        let body = part.dropFirst()
        let whole = body.prefix { $0 != "." }
        let fraction = body.dropFirst(whole.count)
        guard !whole.isEmpty, fraction.isEmpty || fraction.count > 1 else { return nil }
        switch whole.count - degreeDigits {
        case 0:
            return Double(body).map { sign * $0 }
        case 2:
            guard let d = Double(whole.prefix(degreeDigits)), let m = Double(whole.dropFirst(degreeDigits) + fraction), m < 60 else { return nil }
            return sign * (d + m / 60)
        case 4:
            guard let d = Double(whole.prefix(degreeDigits)), let m = Double(whole.dropFirst(degreeDigits).prefix(2)),
                  let s = Double(whole.suffix(2) + fraction), m < 60, s < 60
            else { return nil }
            return sign * (d + m / 60 + s / 3600)
        default:
            return nil
        }
    }
}
