extension AnimationClip {
    /// The clip on a constant clock of at most `rate` frames a second, for players that take a steady
    /// frame rate only (Telegram's video stickers): tick k is at k × 1000 / clock ms, every frame shows for
    /// exactly one tick (to the millisecond) and is the source frame on screen at that tick, so a frame
    /// that lasts several ticks repeats. The clock is the slowest one whose ticks hold every source frame
    /// (a 10 fps GIF stays at 10, one of 7, 7 and 6 cs delays at 15), else `rate` itself, where frames
    /// are dropped (3 cs GIF delays, a phone's variable rate). The running time is rounded to whole ticks,
    /// never past `limit` milliseconds.
    public func steadied(atMost rate: Double, within limit: Int? = nil) -> AnimationClip {
        guard rate.isFinite, rate > 0 else { return self }
        let starts = starts
        let clock = Self.steadyClock(starts: starts, milliseconds: milliseconds, atMost: rate)
        let tick = 1000 / clock
        var ticks = max(1, Int((Double(milliseconds) / tick).rounded()))
        if let limit { ticks = max(1, min(ticks, Int((Double(limit) + 0.5) / tick))) }
        var shown: [RGBAImage] = [], times: [Int] = []
        shown.reserveCapacity(ticks)
        times.reserveCapacity(ticks)
        var index = 0
        for number in 0..<ticks {
            let time = Double(number) * tick
            while index + 1 < frames.count, Double(starts[index + 1]) <= time + Self.slack { index += 1 }
            let start = Int(time.rounded()), stop = Int((Double(number + 1) * tick).rounded())
            shown.append(frames[index])
            times.append(max(1, stop - start))
        }
        var result = AnimationClip(frames: shown, durations: times)
        result.steadyFrameRate = clock
        return result
    }

    /// When each frame starts, in milliseconds from the first.
    var starts: [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(durations.count)
        var time = 0
        for duration in durations {
            starts.append(time)
            time += duration
        }
        return starts
    }

    /// How far a frame may start from its tick and still be on it: GIF delays in whole centiseconds are
    /// off a 15 fps clock by up to 6.7 ms, and shown that much early no one sees it.
    static let slack = 7.0

    /// The slowest clock, at most `rate`, that gives every start (and the end) a tick of its own within
    /// ``slack``: `rate` divided by 1, 2, 3 ..., or 1000 over the starts' common step in milliseconds;
    /// `rate` when none does.
    static func steadyClock(starts: [Int], milliseconds: Int, atMost rate: Double) -> Double {
        let times = starts + [milliseconds]
        let step = times.reduce(0, greatestCommonDivisor)
        var candidates = (1...max(1, Int(min(rate, 1000).rounded(.up)))).map { rate / Double($0) }
        if step > 0, 1000 / Double(step) <= rate { candidates.append(1000 / Double(step)) }
        // Slower than one frame a second is no sticker's clock.
        let fitting = candidates.filter { clock in
            guard clock >= 1 else { return false }
            var previous = -1.0
            for time in times {
                let ticks = (Double(time) * clock / 1000).rounded()
                guard abs(ticks * 1000 / clock - Double(time)) <= slack, ticks > previous else { return false }
                previous = ticks
            }
            return true
        }
        return fitting.min() ?? rate
    }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : greatestCommonDivisor(b, a % b)
    }
}
