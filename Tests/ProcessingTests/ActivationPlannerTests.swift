import Testing
@testable import Processing

@Suite(.timeLimit(.minutes(15)))
struct ActivationPlannerTests {
    typealias Lifetime = ActivationPlanner.Lifetime

    /// No two tensors alive at the same step share a float, and every tensor fits in the arena.
    static func expectNoOverlap(_ lifetimes: [Lifetime], _ plan: (offsets: [Int], arenaCount: Int)) {
        for a in lifetimes.indices {
            #expect(plan.offsets[a] % 16 == 0)
            #expect(plan.offsets[a] + lifetimes[a].count <= plan.arenaCount)
            for b in lifetimes.indices where a < b {
                let together = lifetimes[a].first <= lifetimes[b].last && lifetimes[b].first <= lifetimes[a].last
                let apart = plan.offsets[a] + lifetimes[a].count <= plan.offsets[b] || plan.offsets[b] + lifetimes[b].count <= plan.offsets[a]
                #expect(!together || apart, "tensors \(a) and \(b) are alive together and overlap")
            }
        }
    }

    @Test func aChainReusesMemoryAndAStepsOutputNeverOverlapsItsInput() {
        // input -> a -> b -> c: each step reads the previous tensor, so two are alive at a time.
        let chain = [Lifetime(count: 100, first: -1, last: 0), Lifetime(count: 100, first: 0, last: 1),
                     Lifetime(count: 100, first: 1, last: 2), Lifetime(count: 100, first: 2, last: 3)]
        let plan = ActivationPlanner.plan(chain)
        Self.expectNoOverlap(chain, plan)
        #expect(plan.arenaCount == 2 * 112)
    }

    @Test func randomGraphsNeverOverlap() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let lifetimes = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
                let first = Int.random(in: -1...30, using: &generator)
                return Lifetime(count: Int.random(in: 1...5_000, using: &generator), first: first,
                                last: first + Int.random(in: 0...10, using: &generator))
            }
            let plan = ActivationPlanner.plan(lifetimes)
            Self.expectNoOverlap(lifetimes, plan)
            // Never more than every tensor side by side.
            #expect(plan.arenaCount <= lifetimes.reduce(0) { $0 + ($1.count + 15) / 16 * 16 })
        }
    }
}
