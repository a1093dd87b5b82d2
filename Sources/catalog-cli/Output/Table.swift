/// A plain-text table with aligned columns, for people (scripts use --json).
struct Table {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) {
        self.headers = headers
    }

    init(headers: [String]) {
        self.headers = headers
    }

    mutating func append(_ row: String...) {
        rows.append(row)
    }

    mutating func append(cells row: [String]) {
        rows.append(row)
    }

    /// The table as text; the last column is never padded, so long paths don't make trailing blanks.
    /// Widths count what a terminal shows: colour escapes (the swatches) take no column.
    func rendered() -> String {
        var widths = headers.map(Self.visibleWidth)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], Self.visibleWidth(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[index] - Self.visibleWidth(cell)))
            }.joined(separator: "  ") + "\n"
        }
        return line(headers) + rows.map(line).joined()
    }

    /// Characters a terminal shows for `text`: ANSI escape sequences (ESC [ ... letter) count zero.
    static func visibleWidth(_ text: String) -> Int {
        guard text.contains("\u{1B}") else { return text.count }
        var shown = String.UnicodeScalarView()
        var escape = false
        for scalar in text.unicodeScalars {
            if scalar == "\u{1B}" {
                escape = true
            } else if escape {
                if scalar != "[" && (0x40...0x7E).contains(scalar.value) { escape = false }
            } else {
                shown.append(scalar)
            }
        }
        return String(shown).count
    }
}
