import Foundation
import Testing

@testable import Catalog

@Suite(.timeLimit(.minutes(15))) struct TimestampTests {
    @Test(arguments: [
        ("2024-05-01T12:34:56+02:00", "2024-05-01T10:34:56Z"),
        ("2024-05-01T00:30:00+0530", "2024-04-30T19:00:00Z"),
        ("2024-12-31T22:00:00-03:00", "2025-01-01T01:00:00Z"),
        ("2024-05-01T12:34:56.250+02:00", "2024-05-01T10:34:56.250Z"),
        ("2024-05-01T12:34:56Z", "2024-05-01T12:34:56Z"),
        // No offset: the camera's local time is all we know, kept as is.
        ("2024-05-01T12:34:56", "2024-05-01T12:34:56"),
        // Not a date: kept as is.
        ("0000:00:00 00:00:00", "0000:00:00 00:00:00"),
        ("2024-13-01T12:34:56+02:00", "2024-13-01T12:34:56+02:00"),
        ("2024-05-01T12:34:56+2", "2024-05-01T12:34:56+2"),
    ])
    func takenAtUTC(takenAt: String, expected: String) {
        #expect(Timestamp.utc(fromTakenAt: takenAt) == expected)
    }

    @Test func timestampsAreUTCToTheSecond() {
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_714_559_696.75)) == "2024-05-01T10:34:56Z")
    }
}
