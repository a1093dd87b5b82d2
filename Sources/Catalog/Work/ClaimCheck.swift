/// The fencing decision at commit, the same on both back ends: a worker writes its result only while
/// the queue row is still claimed by it under the fence it was given. Each back end reads the row
/// (locked) with its own statement and asks here.
enum ClaimCheck: Equatable {
    /// The claim is still this worker's: write the result and finish the row.
    case write
    /// Nothing is written; this is the answer (`.fenced`, or `.committedEarlier` for a retried commit).
    case answer(WorkCommit)

    /// The queue row as read at commit; nil fields where the row has none.
    struct Row {
        var state: String
        var holder: String?
        var fence: Int64
        var resultID: Int64?
    }

    static func decide(_ row: Row?, claim: WorkClaim, holder: String) -> ClaimCheck {
        guard let row, row.fence == claim.fence else { return .answer(.fenced) }
        // Only this claim's holder finishes a row under its fence: a finished row is this claim's own
        // commit, tried again after the answer to COMMIT was lost.
        if row.state == "done" || row.state == "failed" { return .answer(.committedEarlier(resultID: row.resultID)) }
        guard row.state == "claimed", row.holder == holder else { return .answer(.fenced) }
        return .write
    }
}
