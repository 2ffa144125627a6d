// The planted bugs `npm run mutants` tries, and the promises they stand
// for: every guarantee the docs make (each promise of docs/guarantees.md,
// and a few of other pages) has one or more small edits that break it, with
// the test files that must then fail. A guarantee whose mutant no test
// catches is a guarantee nothing checks. Each edit replaces text that must
// occur exactly once in its file, so a mutant whose code moved is reported,
// not skipped. The docs' tables are written from here (mutant-docs.ts).
import type { Guarantee, Mutant } from "./mutant.ts";
import { agentMutants } from "./mutants-agent.ts";
import { outputMutants } from "./mutants-output.ts";
import { processesMutants } from "./mutants-processes.ts";
import { terminalMutants } from "./mutants-terminal.ts";

export type { Guarantee, Mutant, MutantTests, Mutation } from "./mutant.ts";

const G = "guarantees.md";
/** Every promise a mutant stands for, in the order docs/mutants.md gives them. */
export const guarantees: readonly Guarantee[] = [
  { label: "The whole tree", promised: `${G}#nothing-left-running` },
  { label: "A census, not a guess", promised: `${G}#nothing-left-running` },
  { label: "Said, not silent", promised: `${G}#nothing-left-running` },
  { label: "A receipt", promised: `${G}#nothing-left-running` },
  { label: "Lifeline", promised: `${G}#nothing-left-running` },
  { label: "Hygiene", promised: `${G}#nothing-left-running` },
  { label: "Output before exit", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Bounded memory", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Cuts are said", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Byte-exact files", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Text", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Signals to corral", promised: `${G}#exit-facts` },
  { label: "Where `--facts` goes", promised: `${G}#exit-facts` },
  { label: "Secrets stay out", promised: `${G}#secrets-stay-out` },
  { label: "sessions", promised: `${G}#what-survives-what` },
  { label: "jobs", promised: `${G}#what-survives-what` },
  { label: "programs that exited", promised: `${G}#what-survives-what` },
  { label: "sessions that ended", promised: `${G}#what-survives-what` },
  { label: "Without the guardian", promised: `${G}#without-the-guardian` },
  { label: "It dies", promised: `${G}#the-guardian` },
  { label: "It stops answering", promised: `${G}#the-guardian` },
  { label: "A system call fails in it", promised: `${G}#the-guardian` },
  { label: "A spill on a full disk", promised: `${G}#the-disk` },
  { label: "A spill file that cannot be created", promised: `${G}#the-disk` },
  { label: "It is killed (the agent)", promised: `${G}#the-agent` },
  { label: "It runs out of file descriptors", promised: `${G}#the-agent` },
  { label: "Memory budgets", promised: `${G}#the-agent` },
  { label: "One client floods it", promised: `${G}#the-agent` },
  { label: "Someone else's agent answers on the socket", promised: `${G}#the-client` },
  { label: "It is killed (the client)", promised: `${G}#the-client` },
  { label: "It sends bad values", promised: `${G}#the-client` },
  { label: "Exit statuses", promised: `${G}#exit-statuses` },
  { label: "`--json` on failure", promised: `${G}#exit-statuses` },
  { label: "keys reach the program", promised: "terminals.md#keys" },
  { label: "TERM is set (xterm-256color unless --term)", promised: "terminals.md#what-a-session-gets" },
  { label: "send-then-wait never races (--after)", promised: "scripting.md#output-positions" },
  { label: "the screen is what tmux shows (terminal fidelity)", promised: "terminals.md#fidelity" },
  { label: "a state dir too long for its sockets is one clear line", promised: "agent.md#the-state-dir" },
];


export const mutants: readonly Mutant[] = [...terminalMutants, ...processesMutants, ...outputMutants, ...agentMutants];
