// The docs show the mutants in two places, both written from
// mutant-list.ts so that neither can drift from it: docs/mutants.md's
// section per guarantee, and docs/guarantees.md's table linking each of its
// promises to the mutants that break it. `npm run mutants -- --markdown`
// prints both; mutant-list.test.ts checks that the pages hold them as
// printed, and that every promise of docs/guarantees.md is in the list.
import { type Guarantee, type Mutant, type MutantTests, guarantees, mutants } from "./mutant-list.ts";

/** The anchor a Markdown heading gets (GitHub's rule: lower case, punctuation dropped, spaces to hyphens). */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}

/** The mutants that break `g`. */
export function mutantsOf(g: Guarantee): Mutant[] {
  return mutants.filter((m) => m.guarantee === g.label || (m.also ?? []).includes(g.label));
}

const SHARD = /^test\/scripts\/scripts-\d+\.test\.ts$/;

function testsCell(tests: MutantTests): string {
  const files = tests.files.filter((f) => !SHARD.test(f)).map((f) => `\`${f}\``);
  const scriptName = tests.env?.["CORRALTEST_SCRIPT"];
  if (scriptName !== undefined) files.push(`\`test/scripts/${scriptName}\``);
  const pattern = tests.namePattern?.replace(/\|?\^script [^|]*\$$/, "");
  return `${files.join(", ")}${pattern ? ` (tests matching \`${pattern.replace(/\|/g, "\\|")}\`)` : ""}`;
}

/** docs/mutants.md from its "## The guarantees and their mutants" heading to the next `## ` heading. */
export function mutantsSection(): string {
  const parts = ["## The guarantees and their mutants\n"];
  for (const g of guarantees) {
    const [page, anchor] = g.promised.split("#");
    parts.push(`### ${g.label}\n`);
    parts.push(`Promised in [${page!.replace(/\.md$/, "")}: ${anchor!.replace(/-/g, " ")}](${g.promised}).\n`);
    const rows = mutantsOf(g).map((m) => `| \`${m.name}\` | ${m.bug.replace(/\|/g, "\\|")} | ${testsCell(m.tests)} |`);
    parts.push(["| mutant | the planted bug | tests that must fail |", "|---|---|---|", ...rows].join("\n") + "\n");
  }
  return parts.join("\n");
}

/** docs/guarantees.md's last section: each of its promises and the mutants that break it. */
export function guaranteesSection(): string {
  const rows = guarantees
    .filter((g) => g.promised.startsWith("guarantees.md#"))
    .map((g) => {
      const links = mutantsOf(g).map((m) => `[\`${m.name}\`](mutants.md#${slug(g.label)})`);
      return `| [${g.label}](${g.promised.slice("guarantees.md".length)}) | ${links.join(", ")} |`;
    });
  return [
    "## Checked by mutants\n",
    "Each promise on this page has planted bugs that its tests must catch",
    "([mutants](mutants.md), `npm run mutants`): a promise no test can fail",
    "is a promise nothing checks. This table is written from",
    "`test/mutants/mutant-list.ts` (`npm run mutants -- --markdown`), and",
    "`npm test` checks that it matches and names every promise above.\n",
    ["| promise | mutants |", "|---|---|", ...rows].join("\n") + "\n",
  ].join("\n");
}

/** A promise of docs/guarantees.md: the bold lead of a paragraph, or a heading with none under it. */
export interface Promise_ {
  readonly lead: string;
  readonly section: string;
}

/** Every promise docs/guarantees.md makes above its "Checked by mutants" section. */
export function promisesOf(page: string): Promise_[] {
  const found: Promise_[] = [];
  const sections: { title: string; level: number; leads: number; children: number }[] = [];
  for (const line of page.split("\n")) {
    const heading = /^(#{2,3}) (.*)$/.exec(line);
    if (heading !== null) {
      if (heading[2] === "Checked by mutants") break;
      const level = heading[1]!.length;
      if (level === 3) for (let i = sections.length - 1; i >= 0; i--) if (sections[i]!.level === 2) { sections[i]!.children++; break; }
      sections.push({ title: heading[2]!, level, leads: 0, children: 0 });
      continue;
    }
    const lead = /^(?:- )?\*\*(.+?)\*\*/.exec(line);
    const current = sections[sections.length - 1];
    if (lead !== null && current !== undefined) {
      current.leads++;
      found.push({ lead: lead[1]!.replace(/[.:]$/, ""), section: current.title });
    }
  }
  for (const s of sections) if (s.leads === 0 && s.children === 0) found.push({ lead: s.title, section: s.title });
  return found;
}
