import Catalog
import Hummingbird
import Processing

extension CatalogAPI {
    func registerSettings(on router: RecordingRouter) {
        // `catalog config list --json`.
        router.get("/api/settings") { _, _ in
            JSONBody.response(SettingDescription.all(try await catalog { () async throws(CatalogError) in try await repository.settingValues() }))
        }

        // `{"key": value, ...}`: every value is checked before any is stored; answers as GET does.
        router.put("/api/settings") { request, context in
            let body = try await JSONBody.decode([String: SettingInput].self, from: request, context: context)
            var changes: [(CatalogSetting, String)] = []
            for (key, input) in body.sorted(by: { $0.key < $1.key }) {
                do throws(SettingError) {
                    let setting = try CatalogSetting.named(key)
                    changes.append((setting, try setting.canonical(input.text)))
                } catch {
                    throw APIError.badRequest("bad-setting", error.description)
                }
            }
            for (setting, value) in changes {
                try await writing { () async throws(CatalogError) in try await repository.store(setting, value: value) }
            }
            return JSONBody.response(SettingDescription.all(try await catalog { () async throws(CatalogError) in try await repository.settingValues() }))
        }
    }

    /// A setting's new value as JSON gives it: a number, a boolean or a string, read as its text.
    struct SettingInput: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                text = String(flag)
            } else if let number = try? container.decode(Int.self) {
                text = String(number)
            } else if let number = try? container.decode(Double.self) {
                text = String(number)
            } else {
                text = try container.decode(String.self)
            }
        }
    }
}
