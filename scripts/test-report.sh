#!/usr/bin/env bash
# The end of `make test`'s log: each phase's wall and CPU time (from scripts/phase.sh), then the 30
# slowest test cases of `swift test` (from its output, TEST_LOG), slowest first: what to look at when
# CI gets slow. The list is cut by awk reading it all, not by head: with pipefail, sort would die of
# SIGPIPE once its output outgrows the pipe, and fail make test after every test had passed.
#
#   scripts/test-report.sh TEST_LOG PHASES_LOG
set -euo pipefail
tests=$1 phases=$2
echo "== make test: time by phase (wall, and CPU of all its processes)"
awk -F'\t' 'function clock(s) { return sprintf("%3dm %02ds", int(s / 60), int(s) % 60) }
            # A phase named "· …" runs inside the one before it (side by side with others): counted there.
            { if ($1 !~ /^· /) { total += $2 / 1000; cpu += $3 }
              printf "  %-32s %s wall  %s CPU%s\n", $1, clock($2 / 1000), clock($3), ($4 == 0 ? "" : "  (failed)") }
            END { printf "  %-32s %s wall  %s CPU\n", "all phases", clock(total), clock(cpu) }' "$phases"
echo "== the 30 slowest tests (seconds from start to end as Swift Testing reports them, a wait for a free slot included; a parameterised test counts once)"
# Swift Testing ends each test with "✔ Test name() passed after 1.234 seconds." (or "✘ ... failed after").
sed -nE 's/^.*[✔✘] Test (.*) (passed|failed) after ([0-9.]+) seconds.*$/\3\t\1/p' "$tests" \
  | sort -t$'\t' -k1,1 -rn | awk -F'\t' 'NR <= 30 { printf "  %8.1f  %s\n", $1, $2 }'
