import Testing

@testable import Catalog

/// The moved-file rule both back ends share, without a database or files.
@Suite struct SourceRefreshTests {
    static let seen = SourceFile(path: "/new/a.jpg", size: 10, modificationTime: 5)

    @Test func samePathRewritesOnlyWhenSizeOrTimeChanged() {
        #expect(SourceRefresh.plan(path: "/new/a.jpg", size: 10, modificationTime: 5, seenAt: Self.seen) == .init(writes: false, pathUpdated: false))
        #expect(SourceRefresh.plan(path: "/new/a.jpg", size: 11, modificationTime: 5, seenAt: Self.seen) == .init(writes: true, pathUpdated: false))
    }

    @Test func aMoveIsWhenTheRecordedFileIsGone() {
        #expect(SourceRefresh.plan(path: "/old/a.jpg", size: 10, modificationTime: 5, seenAt: Self.seen, exists: { _ in false })
            == .init(writes: true, pathUpdated: true))
    }

    @Test func aSecondCopyLeavesTheEntryWhereItWas() {
        #expect(SourceRefresh.plan(path: "/old/a.jpg", size: 99, modificationTime: 1, seenAt: Self.seen, exists: { _ in true })
            == .init(writes: false, pathUpdated: false))
    }
}
