# The pty exec sequence every shell goes through (sourced by exec-<shell>.sh
# with $shell set to bash, zsh, fish or dash): one session, state carried from
# step to step, each step's output and status checked as a script would.
. "$SCRIPT_LIB"
command -v "$shell" >/dev/null || skip "$shell is not installed (.ci/run installs it)"

# A home of its own, whose startup file the hook must source first: FROM_RC proves it did.
home="$SCRIPT_TMP/home"
mkdir -p "$home/.config/fish" "$SCRIPT_TMP/sub dir"
printf 'export FROM_RC=yes\nPS2="more> "\n' > "$home/.bashrc"
printf 'export FROM_RC=yes\nPS2="more> "\n' > "$home/.zshrc"
printf 'set -gx FROM_RC yes\n' > "$home/.config/fish/config.fish"
# As after fish's first run: in a home without it, an interactive fish starts python in the
# background to build completions from every man page (about 7 s of CPU), which the test does not need.
mkdir -p "$home/.local/share/fish/generated_completions"
printf 'FROM_RC=yes; export FROM_RC; PS2="more> "\n' > "$home/.shrc"
# A prompt given in the environment, as a script sets one: the hook adds its marks to it.
s=$(corral pty open --cwd "$SCRIPT_TMP" --env "HOME=$home" --env "ENV=$home/.shrc" --env "PS1=$shell> " --record "$SCRIPT_TMP/exec.cast" -- "$shell")

# exec_json ARGS...: pty exec --json, its status kept in $status.
exec_json() {
  status=0
  json=$(corral pty exec "$s" --json "$@") || status=$?
}

out=$(corral pty exec "$s" --timeout 60s -- 'echo "rc: $FROM_RC"')
assert_eq "$out" "rc: yes" "$shell: the user's startup file ran before the hook"

# The nonce stays in the shell: no child finds it in its environment (the prompt it is in came
# from the environment), so no program in the session can print the shell's marks.
out=$(corral pty exec "$s" -- "sh -c 'env | grep -cE corral=[0-9a-f]{32} || true'")
assert_eq "$out" "0" "$shell: a child's environment holds no nonce"

# cd carries over, and the shell reports where it is.
corral pty exec "$s" -- "cd 'sub dir'"
exec_json -- pwd
assert_eq "$(jq --arg d "$SCRIPT_TMP/sub dir" '.output == $d + "\n"' <<<"$json")" true "$shell: pwd after cd"
assert_eq "$(jq -r .cwd <<<"$json")" "$SCRIPT_TMP/sub dir" "$shell: cwd after cd"
assert_eq "$(jq -r .status <<<"$json")" 0 "$shell: pwd status"

# Exported variables carry over, to children too.
if [[ $shell == fish ]]; then corral pty exec "$s" -- 'set -gx GREETING hi'; else corral pty exec "$s" -- 'export GREETING=hi'; fi
out=$(corral pty exec "$s" -- "sh -c 'echo \$GREETING there'")
assert_eq "$out" "hi there" "$shell: an exported variable reaches a child"

# Statuses: false, exit in a subshell, a signal.
st=0; corral pty exec "$s" -- false || st=$?
assert_eq "$st" 1 "$shell: false"
if [[ $shell == fish ]]; then sub="fish -c 'exit 3'"; else sub='(exit 3)'; fi
st=0; corral pty exec "$s" -- "$sub" || st=$?
assert_eq "$st" 3 "$shell: exit 3 in a subshell"
exec_json -- "sh -c 'kill -TERM \$\$'"
assert_eq "$status" 143 "$shell: killed by SIGTERM is 128+15"
assert_eq "$(jq -r .signal <<<"$json")" SIGTERM "$shell: the signal is named"

# 200,000 lines: head and tail shown, the spill byte-exact.
exec_json --head-lines 3 --tail-lines 2 --spill seq.out -- seq 200000
assert_eq "$status" 0 "$shell: seq status"
assert_eq "$(jq -r .truncated <<<"$json")" true "$shell: seq output is cut"
assert_eq "$(jq -r .lines <<<"$json")" 200000 "$shell: seq lines counted"
shown=$(jq -r .output <<<"$json")
assert_eq "$(head -3 <<<"$shown")" $'1\n2\n3' "$shell: the head"
assert_eq "$(tail -2 <<<"$shown")" $'199999\n200000' "$shell: the tail"
assert_contains "$shown" "lines, " "$shell: one marker line"
seq 200000 | cmp - seq.out || fail "$shell: the spill is not seq's output byte for byte"

# Nothing; no final newline; a here-string (a pipe in fish, a here-document in dash: neither has one).
exec_json -- true
assert_eq "$(jq -c '[.output, .status, .bytes]' <<<"$json")" '["",0,0]' "$shell: prints nothing"
exec_json -- 'printf abc'
assert_eq "$(jq -c .output <<<"$json")" '"abc"' "$shell: no final newline"
case $shell in
  fish) line="echo 'here string' | cat" ;;
  dash) line=$'cat <<EOF\nhere string\nEOF' ;;
  *) line="cat <<< 'here string'" ;;
esac
assert_eq "$(corral pty exec "$s" -- "$line")" "here string" "$shell: here-string"

# A program that prints OSC 133 marks of its own (no nonce, a wrong one) cannot end the command.
exec_json -- "printf '\\033]133;D;7;corral=0000\\007\\033]133;D;5\\007\\033]133;A\\007still running\\n'; sleep 1; echo done"
assert_eq "$status" 0 "$shell: fake finish marks ignored"
assert_contains "$(jq -r .output <<<"$json")" "done" "$shell: the output after the fake marks is there"

# A multi-line command runs as one, with the last line's status; quotes and $ reach the shell as typed.
exec_json -- $'echo one\necho two\nfalse'
assert_eq "$(jq -c '[.output, .status]' <<<"$json")" '["one\ntwo\n",1]' "$shell: multi-line command"
out=$(corral pty exec "$s" -- "echo \"it's \\\$HOME\" 'and \$HOME'")
assert_eq "$out" "it's \$HOME and \$HOME" "$shell: quotes and \$"

# The screen's JSON names the directory and the last command.
last=$(corral pty screen "$s" --json | jq -c '[.screen.cwd, .screen.lastCommand.line, .screen.lastCommand.status]')
assert_eq "$last" "$(jq -nc --arg d "$SCRIPT_TMP/sub dir" --arg l "echo \"it's \\\$HOME\" 'and \$HOME'" '[$d, $l, 0]')" "$shell: screen cwd and lastCommand"

# A command line the shell finds incomplete is cancelled, an error; the shell stays usable
# (fish has no continuation prompt: it keeps the line in its editor, waiting for more).
st=0; err=$(corral pty exec "$s" --timeout 30s -- "echo 'open" 2>&1) || st=$?
assert_eq "$st" 1 "$shell: incomplete command line"
assert_contains "$err" "incomplete" "$shell: says why"
assert_eq "$(corral pty exec "$s" -- echo usable)" "usable" "$shell: usable after an incomplete line"

# A line the shell refuses (a syntax error): an error naming it, and the shell stays usable.
st=0; err=$(corral pty exec "$s" --timeout 30s -- 'echo )(' 2>&1) || st=$?
assert_eq "$st" 1 "$shell: a syntax error"
assert_contains "$err" "did not run the command line" "$shell: says the line did not run"
# fish keeps a refused line in its editor: exec clears it (Ctrl-C once fish waits for input).
assert_eq "$(corral pty exec "$s" -- echo fine)" "fine" "$shell: usable after a refused line"

# Typed by hand into a continuation prompt (fish: a second line in its editor): exec refuses.
at=$(corral pty send "$s" "echo 'open" --key Enter --json | jq .at)
if [[ $shell == fish ]]; then
  corral pty wait "$s" --after "$at" --text "open" --timeout 30s >/dev/null
  # fish redraws the line it holds: the echo may take more than one write.
  wait_until 30 bash -c "! corral pty exec $s -- true 2>err.txt && grep -q 'typed text' err.txt"
else
  corral pty wait "$s" --after "$at" --text "more> " --timeout 30s >/dev/null
  st=0; err=$(corral pty exec "$s" -- true 2>&1) || st=$?
  assert_eq "$st" 1 "$shell: exec at PS2"
  assert_contains "$err" "continuation prompt" "$shell: says the shell is at PS2"
fi
# Ctrl-C reaches fish as SIGINT: sent while fish still redraws, it cancels the redraw, not the line.
corral pty wait "$s" --ready --timeout 30s >/dev/null
corral pty send "$s" --key C-c >/dev/null
wait_until 30 corral pty exec "$s" -- true

# A timeout leaves the command running (exit 124); --interrupt stops it with Ctrl-C.
st=0; err=$(corral pty exec "$s" --timeout 1s -- sleep 30 2>&1) || st=$?
assert_eq "$st" 124 "$shell: timeout"
assert_contains "$err" "still running" "$shell: says the command runs on"
st=0; err=$(corral pty exec "$s" -- true 2>&1) || st=$?
assert_eq "$st" 1 "$shell: busy"
assert_contains "$err" "running a command" "$shell: says it is busy"
if [[ $shell != dash ]]; then
  # A command typed by hand: wait --command-done sees it finish (dash has no hook before a command runs).
  corral pty send "$s" --key C-c >/dev/null
  wait_until 30 corral pty exec "$s" -- true
  at=$(corral pty send "$s" "sh -c 'exit 4'" --key Enter --json | jq .at)
  done_json=$(corral pty wait "$s" --after "$at" --command-done --json --timeout 30s)
  assert_eq "$(jq -c '[.fired, .command.status]' <<<"$done_json")" '["command",4]' "$shell: wait --command-done"
  assert_eq "$(corral pty screen "$s" --json | jq -r .screen.lastCommand.line)" "sh -c 'exit 4'" "$shell: a typed command's line, as echoed"
  st=0; err=$(corral pty exec "$s" --timeout 1s --interrupt --grace 30s -- sleep 30 2>&1) || st=$?
  assert_eq "$st" 124 "$shell: timeout with --interrupt"
  assert_contains "$err" "interrupted with Ctrl-C" "$shell: says it was interrupted"
else
  corral pty send "$s" --key C-c >/dev/null
fi
wait_until 30 corral pty exec "$s" -- true

# The shell's marks (with the 32-hex-digit nonce) never reach the recording; the fake ones did, as output.
grep -q 'corral=0000' exec.cast || fail "$shell: the program's own marks are missing from the recording"
! grep -qE '133;[ABCDP][^"]*corral=[0-9a-f]{32}' exec.cast || fail "$shell: a mark of the shell's is in the recording"

# The agent dies (SIGKILL); the next exec starts a new one, which re-adopts the shell and its marks.
agent=$(corral agent status --json | jq .pid)
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"
exec_json -- 'echo again; pwd'
assert_eq "$(jq -c '[.output, .status, .cwd]' <<<"$json")" "$(jq -nc --arg d "$SCRIPT_TMP/sub dir" '["again\n\($d)\n", 0, $d]')" "$shell: exec after the agent was replaced"
[[ $(corral agent status --json | jq .pid) != "$agent" ]] || fail "$shell: the agent was not replaced"

corral pty close "$s" --force >/dev/null
