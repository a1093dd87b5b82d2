import Processing

/// A colour search: stickers having every one of `colors` in their palette, within `within` Oklab ΔE.
public struct ColorQuery: Sendable, Equatable {
    /// The default ΔE threshold: orange (#ffa500) then finds #ff8800, dark orange and shadowed #cc8400
    /// (ΔE 12.4 is just outside: see docs/guide.md), not red or orange-red.
    public static let defaultWithin = 12.0
    public static let defaultLimit = 20

    /// The colours looked for (all must match), in Oklab.
    public var colors: [OklabColor]
    /// Oklab ΔE (100 × Euclidean distance) at most between a query colour and the palette colour matching it.
    public var within: Double
    /// Results at most.
    public var limit: Int
    /// A substring of the camera's make and model ("make model"), case-insensitive.
    public var camera: String?
    /// Only photos taken at or after this ISO 8601 UTC time (a date `2024-05-01` is its midnight UTC).
    public var takenAfter: String?
    /// Only photos taken before this ISO 8601 UTC time.
    public var takenBefore: String?

    public init(
        colors: [OklabColor], within: Double = defaultWithin, limit: Int = defaultLimit,
        camera: String? = nil, takenAfter: String? = nil, takenBefore: String? = nil
    ) {
        self.colors = colors
        self.within = within
        self.limit = limit
        self.camera = camera
        self.takenAfter = takenAfter
        self.takenBefore = takenBefore
    }

    var hasExifFilter: Bool { camera != nil || takenAfter != nil || takenBefore != nil }

    /// How much a palette colour `distance` ΔE away with `share` of the subject counts for one query colour:
    /// its share, scaled down linearly to nothing at the threshold. An exact match counts its full share.
    func score(distance: Double, share: Double) -> Double {
        distance <= within ? share * (1 - distance / within) : -1
    }
}

/// One sticker a colour search found.
public struct ColorSearchResult: Sendable, Equatable {
    /// The palette colour that matched one query colour.
    public struct Match: Sendable, Equatable {
        /// `#rrggbb` of the palette colour.
        public var hex: String
        /// Its share of the subject, its Oklab ΔE from the query colour, and the match's score:
        /// `share × (1 − distance / within)`.
        public var share, distance, score: Double
    }

    public var id: Int64
    public var path: String
    /// The sticker's score: its weakest query colour's (every colour must be there, in quantity).
    public var score: Double
    /// One match per query colour, in query order.
    public var matches: [Match]

    /// The match that sets the score (the weakest).
    public var deciding: Match {
        matches.min { $0.score < $1.score } ?? Match(hex: "", share: 0, distance: 0, score: 0)
    }
}
