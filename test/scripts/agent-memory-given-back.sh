# An adversary holds the agent's memory and lets go: twenty connections,
# each sending all but the last byte of an 8 MiB request frame (the largest
# allowed), then closing; five rounds. The agent refuses the frames past its
# pending-frame budget (32 MiB), and once they close its resident memory
# (VmRSS, read from /proc) comes back to within that budget of where it
# started, round after round, instead of growing with each round. The agent
# answers throughout. Bounds with wide margins, no timing: each "after" is
# waited for with a deadline.
. "$SCRIPT_LIB"

BUDGET_MIB=32
corral agent start >/dev/null
pid=$(corral agent status --json | jq .pid)
rss() { awk '/^VmRSS:/ {print int($2 / 1024)}' "/proc/$pid/status"; }
under() { (($(rss) <= $1)); }

# One round: 20 connections each hold an unfinished maximal frame (or are refused and closed);
# once every one has sent its bytes or been closed, the agent's RSS is printed, then all close.
cat > hold-frames.mjs <<'EOF'
import net from "node:net";
import { readFileSync } from "node:fs";
const [socket, pid] = process.argv.slice(2);
const MAX = 8 * 1024 * 1024;
const frame = Buffer.alloc(4 + MAX - 1, 0x78);
frame.writeUInt32BE(MAX, 0);
frame[4] = 1; // a JSON request, never finished
const socks = [];
await Promise.all(Array.from({ length: 20 }, () => new Promise((resolve) => {
  const s = net.createConnection(socket);
  socks.push(s);
  s.on("error", () => resolve());
  s.on("close", () => resolve());
  s.write(frame, () => resolve());
})));
console.log(Math.round(Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024));
for (const s of socks) s.destroy();
EOF

corral pty list >/dev/null
before=$(rss)
echo "agent RSS before: $before MiB"
for round in 1 2 3 4 5; do
  during=$(node hold-frames.mjs "$CORRAL_STATE_DIR/agent.sock" "$pid")
  # Held: about the budget (four frames), never twenty frames (160 MiB).
  ((during - before <= 4 * BUDGET_MIB)) || fail "round $round: the agent grew by $((during - before)) MiB while frames were held (budget $BUDGET_MIB MiB)"
  wait_until 60 under $((before + 2 * BUDGET_MIB))
  echo "round $round: agent RSS $during MiB while held, $(rss) MiB after they closed"
  corral pty list >/dev/null || fail "round $round: the agent does not answer"
done
corral agent stop >/dev/null
