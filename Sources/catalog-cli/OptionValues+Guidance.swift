import ArgumentParser
import Processing

extension OptionValue {
    /// `--box X,Y,W,H`: whole pixels, a positive size; whether it fits the photo is known after decoding.
    static let box: @Sendable (String) throws -> CutoutGuidance.Box = { text in
        do {
            let box = try CutoutGuidance.Box(parsing: text)
            guard box.width > 0, box.height > 0 else { throw GuidanceError.emptyBox(box.text) }
            return box
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// `--include X,Y` / `--exclude X,Y`: whole pixels.
    /// ArgumentParser names the option in front of the message.
    static let point: @Sendable (String) throws -> CutoutGuidance.Point = { text in
        do {
            return try CutoutGuidance.Point(parsing: text, what: "point")
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
