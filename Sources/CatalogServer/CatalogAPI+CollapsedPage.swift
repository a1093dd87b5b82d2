import Catalog
import Processing

extension CatalogAPI {
    /// A page of entries with every member of a group of near-duplicates but the group's best left out
    /// (`GET /api/entries?distinct=true`): offsets and the total count the entries shown, not those left out.
    ///
    /// The store pages by offset and cannot leave ids out, so the listing is read from its start, a
    /// full page at a time, until the page asked for is filled. The total is then the store's minus
    /// the entries left out: every signed entry is in the unfiltered listing, and for `status=ok` the
    /// failed listing (short) tells which of them are not. A stale-only or failed-only listing is read
    /// to its end instead.
    func collapsedPage(
        _ query: EntryPageQuery, settings: StickerSettings, chunk: Int = EntryPageQuery.maxLimit
    ) async throws(APIError) -> EntryPage {
        let groups = try await duplicateGroups(within: SimilaritySignature.defaultWithin)
        let hidden = Set(groups.flatMap { $0.members.dropFirst().map(\.id) })
        if hidden.isEmpty {
            return try await catalog { () async throws(CatalogError) in try await repository.entryPage(query, settings: settings) }
        }
        let stopEarly = !query.staleOnly && query.status != .failed
        var scan = try await self.scan(query, settings: settings, leavingOut: hidden, stopEarly: stopEarly, chunk: chunk)
        if !scan.ended {
            var inListing = hidden.count
            if query.status == .ok {
                let failed = try await self.scan(
                    EntryPageQuery(limit: 0, offset: 0, status: .failed), settings: settings, leavingOut: [], stopEarly: false, chunk: chunk)
                inListing -= failed.ids.intersection(hidden).count
            }
            scan.page.total = scan.page.total - inListing
        }
        return scan.page
    }

    /// What one reading of the listing found: the page asked for (its total the store's, or, when the
    /// listing was read to its end, the count of entries shown), whether it was read to its end, and
    /// every id read.
    struct ListingScan {
        var page: EntryPage
        var ended: Bool
        var ids: Set<Int64>
    }

    /// Reads `query`'s listing from its start, `chunk` entries at a time (the tests read small chunks to
    /// cross their boundaries), leaving `hidden` out, until `query`'s page is filled (when `stopEarly`)
    /// or the listing ends.
    func scan(
        _ query: EntryPageQuery, settings: StickerSettings, leavingOut hidden: Set<Int64>, stopEarly: Bool, chunk: Int
    ) async throws(APIError) -> ListingScan {
        var window: [EntryPage.Item] = []
        var shown = 0, read = 0
        var ids: Set<Int64> = []
        var first: EntryPage?
        while true {
            let part = EntryPageQuery(limit: chunk, offset: read, status: query.status, staleOnly: query.staleOnly)
            let page = try await catalog { () async throws(CatalogError) in try await repository.entryPage(part, settings: settings) }
            if first == nil { first = page }
            for item in page.entries where !hidden.contains(item.id) {
                if shown >= query.offset && window.count < query.limit { window.append(item) }
                shown += 1
            }
            ids.formUnion(page.entries.map(\.id))
            read += page.entries.count
            let ended = page.entries.count < chunk
            if ended || (stopEarly && window.count == query.limit) {
                var result = first ?? page
                result.total = ended ? shown : page.total
                result.limit = query.limit
                result.offset = query.offset
                result.entries = window
                return ListingScan(page: result, ended: ended, ids: ids)
            }
        }
    }
}
