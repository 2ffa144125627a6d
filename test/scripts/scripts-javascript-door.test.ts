// The smoke subset of the user scripts through the JavaScript CLI
// (`CORRALTEST_DOOR=js` runs them all so): the shards run every script
// through the bin, the native client, which answers session and job
// commands in the agent; these keep the other door honest too.
import { scriptTestsThroughJavaScript } from "./script-harness.ts";

scriptTestsThroughJavaScript([
  "run-collect-basics.sh",
  "scripting-repl-dialogue.sh",
  "scripting-jq-shapes.sh",
  "scripting-two-patterns.sh",
  "jobs-facts-and-env-note.sh",
  "cli-exit-words.sh",
  "closed-pipe-quiet.sh",
  "remote-ssh-attach.sh",
]);
