#!/usr/bin/env bash
# Runs one phase of `make test` and appends its wall time and CPU time (user + system, its processes
# included) to LOG, which scripts/test-report.sh prints at the end of the run.
#
#   scripts/phase.sh LOG NAME COMMAND [ARGUMENT ...]
set -uo pipefail
log=$1 name=$2
shift 2
start=$(date +%s%N)
"$@"
status=$?
end=$(date +%s%N)
# The second line of `times` is what this shell's children used: "XmY.YYYs XmY.YYYs" (user, system).
# (`times` runs in this shell, not in a pipeline's subshell, which would count only its own children.)
record=$(mktemp)
times > "$record"
read -r user system < <(tail -1 "$record")
rm -f "$record"
cpu=$(awk -v u="$user" -v s="$system" 'function seconds(t) { sub(/s$/, "", t); split(t, part, "m"); return part[1] * 60 + part[2] }
                                                  BEGIN { printf "%.1f", seconds(u) + seconds(s) }')
printf '%s\t%s\t%s\t%s\n' "$name" "$(( (end - start) / 1000000 ))" "$cpu" "$status" >> "$log"
exit $status
