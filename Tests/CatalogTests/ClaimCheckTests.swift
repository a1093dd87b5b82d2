import Testing

@testable import Catalog

/// The fencing decision at commit both back ends share, on rows made by hand (no database).
@Suite struct ClaimCheckTests {
    static let claim = WorkClaim(id: 4, source: SourceFile(path: "/a.jpg", size: 1, modificationTime: 0), fence: 3)

    static func decide(_ state: String, holder: String? = "w1", fence: Int64 = 3, resultID: Int64? = nil) -> ClaimCheck {
        ClaimCheck.decide(ClaimCheck.Row(state: state, holder: holder, fence: fence, resultID: resultID), claim: claim, holder: "w1")
    }

    @Test func theHolderUnderItsFenceWrites() {
        #expect(Self.decide("claimed") == .write)
    }

    @Test func anotherFenceOrHolderOrAGoneRowIsFenced() {
        #expect(Self.decide("claimed", fence: 4) == .answer(.fenced))
        #expect(Self.decide("claimed", holder: "w2") == .answer(.fenced))
        #expect(Self.decide("pending", holder: nil) == .answer(.fenced))
        #expect(ClaimCheck.decide(nil, claim: Self.claim, holder: "w1") == .answer(.fenced))
        // A newer claim finished the row: still not this claim's commit.
        #expect(Self.decide("done", fence: 5, resultID: 9) == .answer(.fenced))
    }

    @Test func aFinishedRowUnderTheSameFenceIsTheEarlierCommit() {
        #expect(Self.decide("done", resultID: 9) == .answer(.committedEarlier(resultID: 9)))
        #expect(Self.decide("failed", holder: nil) == .answer(.committedEarlier(resultID: nil)))
    }
}
