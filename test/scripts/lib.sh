# Helpers for test/scripts/*.sh: sourced as `. "$SCRIPT_LIB"`.
# Every wait here is a condition polled against a deadline, never a fixed pause.

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# skip REASON: the script cannot run here; the harness reports a skip with REASON (never a pass).
skip() {
  echo "SKIP: $*"
  exit 77
}

# skip_part REASON: one part of the script cannot run here; the rest goes on.
# The harness reports each such part as a skipped subtest with its reason.
skip_part() {
  echo "SKIP (part): $*"
  echo "$*" >> "${SCRIPT_SKIPS:-/dev/null}"
}

# wait_until SECONDS COMMAND...: runs COMMAND until it succeeds or SECONDS pass.
# Polls every 0.05 s for the first second, then every 0.25 s: many COMMANDs
# start corral (a runtime start-up each), and a tight loop of them costs the
# suite CPU while the condition is seconds away.
wait_until() {
  local seconds=$1
  shift
  local deadline=$((SECONDS + seconds))
  local tries=0
  until "$@"; do
    if ((SECONDS >= deadline)); then
      fail "timed out after ${seconds}s waiting for: $*"
    fi
    if ((++tries <= 20)); then sleep 0.05; else sleep 0.25; fi
  done
}

# output_is EXPECTED COMMAND...: COMMAND's output, taken anew at each call, is EXPECTED.
# For wait_until: `wait_until 30 test "$(f)" = 6` would expand $(f) once, before the wait.
output_is() {
  local want=$1
  shift
  [ "$("$@")" = "$want" ]
}

assert_eq() {
  [[ "$1" == "$2" ]] || fail "${3:-values differ}: expected [$2], got [$1]"
}

assert_contains() {
  [[ "$1" == *"$2"* ]] || fail "${3:-text does not contain [$2]}: [$1]"
}

# A private tmux server for this script, ended when the script exits.
tmux_private() {
  TMUX_SOCKET="$SCRIPT_TMP/tmux.sock"
  trap 'tmux -S "$TMUX_SOCKET" kill-server 2>/dev/null || true' EXIT
}
tmx() {
  tmux -S "$TMUX_SOCKET" "$@"
}

# A private OpenSSH server for this script on 127.0.0.1 (a free high port),
# with generated host and user keys and its own sshd_config; sets
# CORRAL_SSH (ssh -F with the script's client config), SSH_DEST (user@host)
# and REMOTE_CORRAL (a `corral` for the far side whose agent keeps its state
# in $SCRIPT_TMP/remote-state, so nothing is shared with the script's own).
# Skips the script (lib.sh's skip) where no sshd is installed. sshd_stop
# (in the script's EXIT trap) ends the shared ssh connection, the remote
# agent and sshd.
sshd_private() {
  local sshd
  sshd=$(command -v sshd || true)
  [[ -n "$sshd" ]] || { [[ -x /usr/sbin/sshd ]] && sshd=/usr/sbin/sshd; }
  if [[ -z "$sshd" ]]; then
    skip "sshd is not installed (CI installs openssh-server: .ci/run)"
  fi
  command -v ssh >/dev/null || skip "ssh is not installed (CI installs openssh-client: .ci/run)"
  # sshd refuses to start without its privilege-separation directory, which
  # the package's service would create at boot; only root may make it.
  if [[ ! -d /run/sshd ]]; then
    if [[ $(id -u) -eq 0 ]]; then mkdir -p -m 755 /run/sshd; else
      skip "sshd needs /run/sshd, which only root may create (running as uid $(id -u))"
    fi
  fi
  SSHD_DIR="$SCRIPT_TMP/sshd"
  mkdir -p "$SSHD_DIR/home" "$SCRIPT_TMP/remote-state"
  chmod 700 "$SSHD_DIR" "$SCRIPT_TMP/remote-state"
  ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/host_key" </dev/null
  ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/user_key" </dev/null
  cp "$SSHD_DIR/user_key.pub" "$SSHD_DIR/authorized_keys"
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  local user
  user=$(id -un)
  # The sessions get a home of their own (SetEnv HOME): sshd starts the user's shell from the
  # passwd entry's home, and Debian's bash reads ~/.bashrc under sshd even for `bash -c`; one that
  # runs `pyenv init` cost every remote command 150 ms.
  cat >"$SSHD_DIR/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $SSHD_DIR/host_key
PidFile $SSHD_DIR/sshd.pid
AuthorizedKeysFile $SSHD_DIR/authorized_keys
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers $user
LogLevel ERROR
SetEnv HOME=$SSHD_DIR/home
CONF
  echo "127.0.0.1 $(cut -d' ' -f1,2 "$SSHD_DIR/host_key.pub")" | sed "s/^127.0.0.1/[127.0.0.1]:$port/" >"$SSHD_DIR/known_hosts"
  cat >"$SSHD_DIR/ssh_config" <<CONF
Host *
  Port $port
  IdentityFile $SSHD_DIR/user_key
  IdentitiesOnly yes
  UserKnownHostsFile $SSHD_DIR/known_hosts
  StrictHostKeyChecking yes
  LogLevel ERROR
CONF
  # sshd wants an absolute path; -E keeps its log here, not in syslog.
  "$sshd" -f "$SSHD_DIR/sshd_config" -E "$SSHD_DIR/sshd.log" || fail "sshd did not start: $(cat "$SSHD_DIR/sshd.log")"
  # Stopped however the script ends, from here on: a failure before the script sets its own
  # trap (which calls sshd_stop too) left this daemon running, and sshd drops the environment
  # the harness finds a script's processes by.
  trap 'sshd_stop' EXIT
  wait_until 30 test -s "$SSHD_DIR/sshd.pid"
  export CORRAL_SSH="ssh -F $SSHD_DIR/ssh_config"
  SSH_DEST="$user@127.0.0.1"
  # The far side's corral: the built CLI (an absolute runtime path: sshd's PATH is its own),
  # with a state dir of its own.
  REMOTE_CORRAL="$SSHD_DIR/remote-corral"
  # The same `corral` as here, by its absolute path (the bin or a wrapper; the
  # bin hands over to the JavaScript CLI under $CORRAL_JS_RUNTIME).
  local here
  here=$(command -v corral)
  printf '#!/bin/sh\nCORRAL_STATE_DIR=%s CORRAL_AGENT_IDLE=5m CORRAL_JS_RUNTIME=%s exec %s "$@"\n' \
    "$SCRIPT_TMP/remote-state" "${CORRAL_JS_RUNTIME:-$(command -v node)}" "$here" >"$REMOTE_CORRAL"
  chmod 755 "$REMOTE_CORRAL"
}

# Ends what sshd_private started: the shared connection, the remote agent, sshd.
sshd_stop() {
  [[ -n "${SSHD_DIR:-}" ]] || return 0
  # %C names this host, port and user's master only (corral's fallback dir is shared by all).
  local dir
  for dir in "$CORRAL_STATE_DIR/ssh" "/tmp/corral-ssh-$(id -u)"; do
    [[ -d "$dir" ]] && ssh -F "$SSHD_DIR/ssh_config" -o ControlPath="$dir/%C" -O exit "$SSH_DEST" 2>/dev/null || true
  done
  CORRAL_STATE_DIR="$SCRIPT_TMP/remote-state" corral agent stop --force >/dev/null 2>&1 || true
  if [[ -s "$SSHD_DIR/sshd.pid" ]]; then
    kill "$(cat "$SSHD_DIR/sshd.pid")" 2>/dev/null || true
  fi
}

# guardian_under_strace STRACE_ARGS...: from here on corral's guardian runs under
# `strace -qq -o /dev/null STRACE_ARGS` (only the guardian: no -f, so its
# children's syscalls are untouched), for syscall faults injected with
# `-e inject=`. The arguments are written into the wrapper as given, so a
# '$VAR' among them is read each time a guardian starts. Skips the script
# where no guardian is built or strace cannot trace.
guardian_under_strace() {
  local guardian wrapper="$SCRIPT_TMP/guardian-under-strace"
  guardian=$(corral probe --json | jq -r 'if .guardian.built then .guardian.path else "" end')
  [[ -n "$guardian" ]] || skip "no guardian built here (corral probe)"
  command -v strace >/dev/null || skip "strace is not installed (CI installs it: .ci/run)"
  strace -qq -o /dev/null -e inject=getppid:error=EPERM true 2>"$SCRIPT_TMP/strace.err" ||
    skip "strace cannot trace here: $(head -c 300 "$SCRIPT_TMP/strace.err")"
  printf '#!/bin/sh\nexec strace -qq -o /dev/null %s "%s" "$@"\n' "$*" "$guardian" >"$wrapper"
  chmod +x "$wrapper"
  export CORRAL_GUARDIAN=always CORRAL_GUARDIAN_BIN="$wrapper"
}
