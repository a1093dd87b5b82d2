import Hummingbird

/// Reading query and path parameters with 400s that name the parameter and the rule.
extension Request {
    /// The query parameter `name` (the last one when repeated), nil when absent or empty.
    func query(_ name: String) -> String? {
        let value = uri.queryParameters.getAll(name).last
        return value?.isEmpty == false ? value : nil
    }

    /// Every value of a repeated query parameter (`color=red&color=blue`), empty ones included.
    func queryAll(_ name: String) -> [String] {
        uri.queryParameters.getAll(name)
    }

    /// The query parameter `name` as given (the last one when repeated), empty text included: a number, a
    /// flag or a date given as `name=` is refused rather than taken for its default.
    func given(_ name: String) -> String? {
        uri.queryParameters.getAll(name).last
    }

    /// An integer query parameter within `range`, `fallback` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(APIError) -> Int {
        guard let text = given(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest(
                "bad-parameter", "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text.isEmpty ? "nothing" : text)")
        }
        return value
    }

    /// A yes/no query parameter: 1/true/yes or 0/false/no.
    func flag(_ name: String) throws(APIError) -> Bool {
        guard let text = given(name)?.lowercased() else { return false }
        switch text {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw APIError.badRequest("bad-parameter", "\(name) must be 1 or 0, not \(text.isEmpty ? "nothing" : text)")
        }
    }
}

extension ServerRequestContext {
    /// The entry id in the path: a positive number, else 400.
    func entryId(_ name: String = "id") throws(APIError) -> Int64 {
        guard let text = parameters.get(name), let id = Int64(text), id > 0 else {
            throw APIError.badRequest("bad-id", "an entry id is a positive number, not \(parameters.get(name) ?? "nothing")")
        }
        return id
    }

    /// A text path parameter, percent-decoded.
    func text(_ name: String) throws(APIError) -> String {
        guard let raw = parameters.get(name), let text = raw.removingPercentEncoding, !text.isEmpty else {
            throw APIError.badRequest("bad-parameter", "the path lacks \(name)")
        }
        return text
    }
}
