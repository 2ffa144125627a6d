# Ctrl-C at a terminal stops a shell loop of `corral run` steps: the kernel
# sends SIGINT to the whole foreground process group (bash and corral; the
# step runs in its own group), corral forwards it to the step, the step dies
# of it, and corral dies of SIGINT too, so bash ends the loop instead of going
# on with the next file (bash's wait-and-cooperative-exit rule). Checked on
# both backends: the guardian and the process group (CORRAL_GUARDIAN=never).
. "$SCRIPT_LIB"
tmux_private

cat > step <<'STEP'
#!/bin/sh
# One step of the loop: says it is running, then takes its time.
echo $$ > "step.$1.pid"
touch "started.$1"
exec sleep 600
STEP
chmod +x step

cat > loop.sh <<'LOOP'
for f in a b c; do
  corral run -- ./step "$f"
  touch "after.$f"
done
touch loop.finished
LOOP

# /proc/PID/stat after the command name: the state is the first field, and the
# last (exit_code, Linux 3.5+) is a zombie's wait status.
proc_stat() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null; }

# Gone, or a zombie its parent has not reaped yet (some PID 1s take seconds).
pid_gone() {
  local stat
  stat=$(proc_stat "$1") || return 0
  [[ -z "$stat" || "${stat%% *}" == Z ]]
}

# How the pane's process ended: "signal=N" or "exit=N". From tmux once it reaped it;
# from /proc while it is a zombie (tmux 3.3 sometimes leaves one unreaped for long).
how_it_ended() {
  local pid=$1 pane=$2 stat status
  stat=$(proc_stat "$pid") || stat=""
  if [[ "${stat%% *}" == Z ]]; then
    status=${stat##* }
    if ((status & 127)); then echo "signal=$((status & 127))"; else echo "exit=$((status >> 8))"; fi
    return
  fi
  tmx display -p -t "$pane" '#{?pane_dead_signal,signal=#{pane_dead_signal},exit=#{pane_dead_status}}'
}

# A session that outlives both rounds: killing a round's session must not end
# the tmux server while the next round's client connects to it (tmux then says
# "server exited unexpectedly").
tmx -f /dev/null new-session -d -s keep -x 80 -y 24 "exec sleep 600"
for guardian in auto never; do
  rm -f started.* after.* step.*.pid loop.finished
  tmx new-session -d -s "loop-$guardian" -x 80 -y 24 "CORRAL_GUARDIAN=$guardian exec bash loop.sh"
  tmx set-option -t "loop-$guardian" remain-on-exit on
  # Only once the first step really runs (corral is waiting on it) is Ctrl-C sent.
  wait_until 60 test -s step.a.pid
  tmx send-keys -t "loop-$guardian" C-c
  loop_pid=$(tmx display -p -t "loop-$guardian" '#{pane_pid}')
  wait_until 60 pid_gone "$loop_pid"
  wait_until 60 pid_gone "$(cat step.a.pid)"
  [[ ! -e started.b ]] || fail "$guardian: the loop went on to the next step after Ctrl-C"
  [[ ! -e after.a ]] || fail "$guardian: the loop ran the command after the interrupted step"
  [[ ! -e loop.finished ]] || fail "$guardian: the loop finished as if nothing happened"
  # remain-on-exit keeps the dead pane: bash itself died of SIGINT (signal 2).
  assert_eq "$(how_it_ended "$loop_pid" "loop-$guardian")" "signal=2" "$guardian: bash running the loop died of SIGINT"
  tmx kill-session -t "loop-$guardian"
done
