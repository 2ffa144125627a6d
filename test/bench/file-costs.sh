#!/usr/bin/env bash
# Per-test-file cost table: wall time and CPU (user+sys) of each file run
# alone on Node's runner, daemonized agents and guardians included. As root
# with cgroup v1 cpuacct, each file runs in its own cgroup (so what detaches
# still counts); otherwise getrusage of waited children via /usr/bin/time
# (then daemons are not counted, and the table says so).
# Usage: test/bench/file-costs.sh [test files...]   (default: every test file)
# Output: TSV on stdout, sorted by CPU: file, wall s, user s, sys s, cpu s.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$#" -eq 0 ]; then
  mapfile -t files < <(find test -name '*.test.ts' -not -path 'test/bench/*' -not -path 'test/support/*' | sort)
else
  files=("$@")
fi
cg_root=/sys/fs/cgroup/cpuacct
use_cg=0
if [ "$(id -u)" = 0 ] && [ -w "$cg_root" ]; then use_cg=1; fi
hz=$(getconf CLK_TCK)
rows=$(mktemp)
for f in "${files[@]}"; do
  start=$(date +%s.%N)
  if [ "$use_cg" = 1 ]; then
    cg="$cg_root/corral-file-costs-$$"
    mkdir "$cg"
    sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$cg" node --import tsx --test "$f" >/dev/null 2>&1 || echo "# $f failed" >&2
    end=$(date +%s.%N)
    # what the file left detaching (agents on their idle timer) may still run: give it 2 s
    for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$cg/cgroup.procs" ] || break; sleep 0.2; done
    read -r _ user < <(grep '^user' "$cg/cpuacct.stat")
    read -r _ sys < <(grep '^system' "$cg/cpuacct.stat")
    while read -r pid; do echo "$pid" > "$cg_root/cgroup.procs" 2>/dev/null || true; done < "$cg/cgroup.procs"
    rmdir "$cg"
    user=$(echo "scale=2; $user / $hz" | bc); sys=$(echo "scale=2; $sys / $hz" | bc)
  else
    out=$( { /usr/bin/time -f '%U %S' node --import tsx --test "$f" >/dev/null 2>/dev/null; } 2>&1 | tail -1) || echo "# $f failed" >&2
    end=$(date +%s.%N)
    read -r user sys <<<"$out"
  fi
  wall=$(echo "$end - $start" | bc)
  printf '%s\t%.1f\t%.1f\t%.1f\t%.1f\n' "$f" "$wall" "$user" "$sys" "$(echo "$user + $sys" | bc)" | tee -a "$rows" >&2
done
echo -e "# file\twall_s\tuser_s\tsys_s\tcpu_s (cgroup: $use_cg)"
sort -t$'\t' -k5 -rn "$rows"
awk -F'\t' '{w+=$2; c+=$5} END {printf "# total\t%.1f\t\t\t%.1f\n", w, c}' "$rows"
rm -f "$rows"
