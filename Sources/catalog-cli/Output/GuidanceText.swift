import Foundation
import Processing

/// An entry's cut-out guidance for people, in the options' own forms (`box X,Y,W,H`, points `X,Y`), so a
/// line of `show` can be typed back into `catalog recut`.
enum GuidanceText {
    /// `box 10,20,300,400 · include 50,60 · exclude 5,5 8,9`; "none (the automatic cut-out)" without guidance.
    static func describe(_ guidance: CutoutGuidance?) -> String {
        guard let guidance, !guidance.isEmpty else { return "none (the automatic cut-out)" }
        var parts: [String] = []
        if let box = guidance.box { parts.append("box \(box.text)") }
        if !guidance.include.isEmpty { parts.append("include " + guidance.include.map(\.text).joined(separator: " ")) }
        if !guidance.exclude.isEmpty { parts.append("exclude " + guidance.exclude.map(\.text).joined(separator: " ")) }
        return parts.joined(separator: " · ")
    }

    /// `2.5 s + 3 s, at most 90 frames`: an entry's part of a clip, or the default part's, said so.
    static func describe(clip: ClipWindow?) -> String {
        let window = clip ?? .default
        let text = "\(String(format: "%g", window.startSeconds)) s + \(String(format: "%g", window.durationSeconds)) s, at most \(window.maxFrames) frames"
        return clip == nil ? text + " (the default)" : text
    }
}
