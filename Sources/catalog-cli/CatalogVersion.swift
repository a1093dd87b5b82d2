import Processing

/// The program's version: the one place it is written (the Debian package takes it from
/// `catalog --version`), printed with the version of the pipeline that makes the stickers.
enum CatalogVersion {
    /// Semantic version of the program.
    static let number = "0.2.0"

    /// `0.2.0 (pipeline 2)`: what `catalog --version` prints.
    static var description: String { "\(number) (pipeline \(PhotoProcessor.pipelineVersion))" }
}
