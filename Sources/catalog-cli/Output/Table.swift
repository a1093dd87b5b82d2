/// A plain-text table with aligned columns, for people (scripts use --json).
struct Table {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) {
        self.headers = headers
    }

    mutating func append(_ row: String...) {
        rows.append(row)
    }

    /// The table as text; the last column is never padded, so long paths don't make trailing blanks.
    func rendered() -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "\n"
        }
        return line(headers) + rows.map(line).joined()
    }
}
