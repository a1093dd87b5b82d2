import Catalog
import Foundation
import Hummingbird

extension CatalogAPI {
    /// `GET /api/packs/{name}/export?format=F[&dry-run=1][&imessage-size=408]`: the export as a download
    /// (see ``ExportDownload``: one-file formats as they are, folder formats zipped), or the fit report.
    func registerExport(on router: RecordingRouter) {
        router.get("/api/packs/{name}/export") { request, context in
            let name = try context.text("name")
            guard let formatText = request.query("format") else {
                throw APIError.badRequest("bad-parameter", "give format=\(ExportFormat.allCases.map(\.rawValue).joined(separator: "|"))")
            }
            guard let format = ExportFormat(rawValue: formatText) else {
                throw APIError.badRequest(
                    "bad-parameter", "format must be one of \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")), not \(formatText)"
                )
            }
            let size = try request.integer("imessage-size", in: 1...10_000, default: 408)
            guard PlatformLimits.iMessageSizes.contains(size) else {
                throw APIError.badRequest("bad-parameter", "imessage-size must be 300, 408 or 618, not \(size)")
            }
            let dryRun = try request.flag("dry-run")
            let source: PackSource
            do throws(PackError) {
                source = try await repository.packSource(named: name)
            } catch {
                throw APIError(error)
            }
            let options = ExportOptions(
                format: format, outputDirectory: FileManager.default.temporaryDirectory, dryRun: dryRun,
                iMessageSize: size, jobs: configuration.jobs
            )
            if dryRun {
                do throws(ExportError) {
                    return JSONBody.response(try await Exporter(options: options).run(source))
                } catch {
                    throw APIError(error)
                }
            }
            let download: ExportDownload
            do throws(ExportError) {
                download = try await ExportDownload.make(source, options: options)
            } catch {
                throw APIError(error)
            }
            let body: ResponseBody
            do {
                body = try Self.streamedFile(download.file) { download.discard() }
            } catch {
                download.discard()
                throw APIError.unexpected(error)
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: download.contentType, .cacheControl: "no-store",
                    .contentDisposition: "attachment; filename=\"\(Self.headerSafe(download.fileName))\"",
                ],
                body: body
            )
        }
    }

    /// A file name for a header: ASCII letters, digits and `._-` kept, the rest `_`.
    static func headerSafe(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }
}
