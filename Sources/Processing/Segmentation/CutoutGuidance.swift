import Foundation

/// What a person told the cut-out about a photo's subject: a box around it, points on parts to
/// keep and points on parts to take out. Coordinates are whole pixels of the upright photo (its
/// full size after the EXIF orientation), origin at the top left, x to the right, y down.
///
/// Guidance belongs to a catalog entry, not to its sticker: it is stored beside the entry and
/// applied to every later cut-out of it (reprocess, a model change, `work`).
/// JSON: `{"box":{"x","y","width","height"}?,"include":[{"x","y"}],"exclude":[{"x","y"}]}`.
public struct CutoutGuidance: Sendable, Equatable, Hashable, Codable {
    /// A rectangle of the upright photo: the subject is what lies inside it.
    public struct Box: Sendable, Equatable, Hashable, Codable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// `X,Y,W,H` as given on a command line, or why it is not one.
        public init(parsing text: String) throws(GuidanceError) {
            let numbers = try Self.wholeNumbers(text, count: 4, what: "box", form: "X,Y,W,H")
            self.init(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }

        /// The command-line form, `X,Y,W,H`.
        public var text: String { "\(x),\(y),\(width),\(height)" }

        static func wholeNumbers(_ text: String, count: Int, what: String, form: String) throws(GuidanceError) -> [Int] {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let numbers = parts.compactMap { Int($0) }
            guard parts.count == count, numbers.count == count else {
                throw .malformed(what: what, value: text, expected: form + " in whole pixels")
            }
            return numbers
        }
    }

    /// A pixel of the upright photo.
    public struct Point: Sendable, Equatable, Hashable, Codable {
        public var x: Int
        public var y: Int

        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }

        /// `X,Y` as given on a command line (`what` names the option for the message).
        public init(parsing text: String, what: String = "point") throws(GuidanceError) {
            let numbers = try Box.wholeNumbers(text, count: 2, what: what, form: "X,Y")
            self.init(x: numbers[0], y: numbers[1])
        }

        /// The command-line form, `X,Y`.
        public var text: String { "\(x),\(y)" }
    }

    /// The subject lies inside this box; nil: anywhere in the photo.
    public var box: Box?
    /// The part of the subject under each point is kept, even where the network missed it.
    public var include: [Point]
    /// The part under each point is taken out (a stray blob, the dog's bed).
    public var exclude: [Point]

    /// No guidance: the automatic cut-out.
    public static let none = CutoutGuidance()

    public init(box: Box? = nil, include: [Point] = [], exclude: [Point] = []) {
        self.box = box
        self.include = include
        self.exclude = exclude
    }

    /// True when there is nothing to apply (the automatic cut-out).
    public var isEmpty: Bool { box == nil && include.isEmpty && exclude.isEmpty }

    /// Checks the guidance against the upright photo's size: the box has a positive size and lies
    /// inside the photo, every point is a pixel of the photo. The error names the offending value.
    public func validate(width: Int, height: Int) throws(GuidanceError) {
        if let box {
            guard box.width > 0, box.height > 0 else { throw .emptyBox(box.text) }
            // Compared against what is left of the photo, never summed: any Int may come from outside.
            guard box.x >= 0, box.y >= 0, box.width <= width, box.height <= height,
                  box.x <= width - box.width, box.y <= height - box.height else {
                throw .outsidePhoto(what: "box", value: box.text, width: width, height: height)
            }
        }
        for (what, points) in [("include point", include), ("exclude point", exclude)] {
            for point in points where !(0..<width).contains(point.x) || !(0..<height).contains(point.y) {
                throw .outsidePhoto(what: what, value: point.text, width: width, height: height)
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case box, include, exclude }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        box = try container.decodeIfPresent(Box.self, forKey: .box)
        include = try container.decodeIfPresent([Point].self, forKey: .include) ?? []
        exclude = try container.decodeIfPresent([Point].self, forKey: .exclude) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(box, forKey: .box)
        try container.encode(include, forKey: .include)
        try container.encode(exclude, forKey: .exclude)
    }
}

/// Guidance that cannot be applied: a usage error (exit 64) that names the value.
public enum GuidanceError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(what: String, value: String, expected: String)
    case emptyBox(String)
    case outsidePhoto(what: String, value: String, width: Int, height: Int)

    public var description: String {
        switch self {
        case let .malformed(what, value, expected): "invalid \(what) '\(value)': expected \(expected)"
        case let .emptyBox(value): "invalid box '\(value)': its width and height must be at least 1 pixel"
        case let .outsidePhoto(what, value, width, height):
            "\(what) \(value) is outside the photo (\(width) x \(height) pixels upright, origin at the top left)"
        }
    }
}
