import CFFmpeg

/// FFmpeg's negative return codes in words, shared by the clip reader and the WebM writer.
enum FFmpegStatus {
    /// `av_strerror`'s text for `code`, or the bare number when FFmpeg has none.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard av_strerror(code, &buffer, buffer.count) == 0 else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "FFmpeg failed DOING: MESSAGE", for the error case a caller chooses.
    static func failure(_ code: Int32, _ doing: String) -> String {
        "FFmpeg failed \(doing): \(message(code))"
    }
}
