import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The code and the docs cite the service's contract by section ("contract 4.2 B", "contract 5.2,
// 6.1", "contract 2.8 to 2.10", "contract 3, "Typical merchant action""). The repository's own
// statement of that contract is docs/service-contract.md, whose headings keep the contract's
// numbers: every citation must land on one of them.

const root = fileURLToPath(new URL("../../", import.meta.url));
const CONTRACT = "docs/service-contract.md";
const CITING_DIRS = ["app", "components", "lib", "packages", "harness", "scripts", "tests", "e2e", "docs", "bench"];
const CITING_FILE = /\.(ts|tsx|mjs|md)$/;
/** Git-ignored or generated: not part of the repository. */
const IGNORED = new Set([
  ".git",
  "node_modules",
  ".next",
  "out",
  "lib/generated",
  ".data",
  ".sandbox",
  "test-results",
  "playwright-report",
  "bench/results",
  "coverage",
  "dist",
]);

/** Every file under `dir` (relative to the root), ignored directories left out. */
function walk(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (IGNORED.has(path) || IGNORED.has(entry.name)) return [];
    if (entry.isDirectory()) return walk(path);
    return entry.isFile() ? [path] : [];
  });
}

// ---- The headings of docs/service-contract.md ----

type Section = { id: string; level: number; body: string };

/** "## 4. Endpoints" → "4"; "### 4.2 Endpoints…" → "4.2"; "#### 4.2 A. `POST …`" → "4.2 A". */
function readSections(markdown: string): Map<string, Section> {
  const lines = markdown.split("\n");
  const headings = lines.flatMap((line, index) => {
    const match = /^(#{1,6})\s+(\d+(?:\.\d+)*)(?:\s+([A-Z])(?![\w]))?/.exec(line);
    if (!match) return [];
    const [, hashes = "", number = "", letter] = match;
    return [{ index, level: hashes.length, id: letter ? `${number} ${letter}` : number }];
  });
  const sections = new Map<string, Section>();
  for (const { index, level, id } of headings) {
    // A section runs to the next heading of its level or above (subsections included).
    let end = lines.findIndex((line, i) => i > index && (/^(#{1,6})\s/.exec(line)?.[1]?.length ?? 7) <= level);
    if (end === -1) end = lines.length;
    sections.set(id, { id, level, body: lines.slice(index + 1, end).join("\n") });
  }
  return sections;
}

// ---- Citations in the code and the docs ----

type Citation = { where: string; cites: string };

const SECTION = String.raw`\d+(?:\.\d+)*(?: [A-Z](?:\.\d+)?(?![\w]))?`;
/** "contract 4.2 A.1", "Contract 3:", "contract 5.2, 6.1", "contract 5.1 and 8", "contract 2.8 to 2.10", and a quoted column name after the last number. */
const LIST = new RegExp(
  String.raw`\b[Cc]ontract(?:'s)?\s+(?:§\s*)?(${SECTION}(?:(?:,\s*|\s+and\s+|\s+to\s+)${SECTION})*)(?:,\s*"([^"\n]+)")?`,
  "g",
);
/** "the contract (2.7)", "are contract (2.5)". */
const PARENTHESISED = /\b[Cc]ontract\s*\((\d+(?:\.\d+)*)\)/g;
/** "The contract's three endpoints … (section 4.2)", on a line that names the contract. */
const SECTION_WORD = /\(section (\d+(?:\.\d+)*)\)/g;

/** "2.8 to 2.10" → 2.8, 2.9, 2.10; anything else → its two ends. */
function expandRange(from: string, to: string): string[] {
  const [a, b] = [from.split("."), to.split(".")];
  const sameParent = a.length === b.length && a.slice(0, -1).join(".") === b.slice(0, -1).join(".");
  if (!sameParent || from.includes(" ") || to.includes(" ")) return [from, to];
  const parent = a.slice(0, -1);
  const [first, last] = [Number(a.at(-1)), Number(b.at(-1))];
  return Array.from({ length: last - first + 1 }, (_, i) => [...parent, String(first + i)].join("."));
}

function parseList(list: string): string[] {
  const cited: string[] = [];
  for (const part of list.split(/,\s*|\s+and\s+/)) {
    const [, from, to] = /^(.+?)\s+to\s+(.+)$/.exec(part) ?? [];
    cited.push(...(from && to ? expandRange(from, to) : [part]));
  }
  return cited;
}

function citationsIn(file: string, text: string): Citation[] {
  const citations: Citation[] = [];
  const lineOf = (offset: number) => text.slice(0, offset).split("\n").length;
  for (const match of text.matchAll(LIST)) {
    const [, list = "", quoted] = match;
    const where = `${file}:${lineOf(match.index)}`;
    for (const section of parseList(list)) citations.push({ where, cites: section });
    // A quoted name after the last number is a column or phrase of that section.
    if (quoted) citations.push({ where, cites: `${parseList(list).at(-1)} "${quoted}"` });
  }
  for (const match of text.matchAll(PARENTHESISED)) {
    citations.push({ where: `${file}:${lineOf(match.index)}`, cites: match[1] ?? "" });
  }
  text.split("\n").forEach((line, index) => {
    if (!/contract/i.test(line)) return;
    for (const match of line.matchAll(SECTION_WORD))
      citations.push({ where: `${file}:${index + 1}`, cites: match[1] ?? "" });
  });
  // docs/contract-decisions.md: the first column of its table ("2.6, 4.2 C", "3, 6.1", …).
  if (file === "docs/contract-decisions.md") {
    text.split("\n").forEach((line, index) => {
      const cell = /^\|\s*([^|]+?)\s*\|/.exec(line)?.[1];
      if (cell && new RegExp(String.raw`^${SECTION}(?:,\s*${SECTION})*$`).test(cell)) {
        for (const section of parseList(cell)) citations.push({ where: `${file}:${index + 1}`, cites: section });
      }
    });
  }
  return citations;
}

/** Why `cites` does not resolve in `sections`, or null when it does. */
function unresolved(cites: string, sections: Map<string, Section>): string | null {
  const [, quotedIn = "", phrase] = /^(\S+) "(.+)"$/.exec(cites) ?? [];
  if (phrase) {
    const section = sections.get(quotedIn);
    if (!section) return `no heading ${quotedIn}`;
    return section.body.includes(phrase) ? null : `"${phrase}" is not in section ${quotedIn}`;
  }
  const [, stepIn = "", step] = /^(\S+ [A-Z])\.(\d+)$/.exec(cites) ?? [];
  if (step) {
    const section = sections.get(stepIn);
    if (!section) return `no heading ${stepIn}`;
    return new RegExp(String.raw`^${step}\. `, "m").test(section.body) ? null : `no step ${step} in ${stepIn}`;
  }
  return sections.has(cites) ? null : `no heading ${cites}`;
}

const sections = readSections(readFileSync(join(root, CONTRACT), "utf8"));
const citingFiles = [
  ...walk("").filter((file) => !file.includes("/") && CITING_FILE.test(file)),
  ...CITING_DIRS.flatMap((dir) => walk(dir)).filter((file) => CITING_FILE.test(file)),
];
const citations = citingFiles.flatMap((file) => citationsIn(file, readFileSync(join(root, file), "utf8")));

describe(`${CONTRACT}, the repository's statement of the service's contract`, () => {
  it("keeps the contract's section numbers as headings", () => {
    const expected = [
      ...["1", "2", "3", "4", "5", "6", "7", "8", "9"],
      ...Array.from({ length: 10 }, (_, i) => `2.${i + 1}`),
      ...["4.1", "4.2", "4.2 A", "4.2 B", "4.2 C", "4.3"],
      ...["5.1", "5.2", "5.3", "5.4", "6.1", "6.2"],
    ];
    expect([...sections.keys()].sort()).toEqual(expected.sort());
  });

  it("the extractor finds every form of citation the repository uses", () => {
    const cited = new Set(citations.map(({ cites }) => cites));
    expect(citations.length).toBeGreaterThan(50);
    // "contract 4.2 A.1", "contract 2.8 to 2.10", "contract 3, "Typical merchant action"", "Contract 1:".
    for (const form of ["4.2 A.1", "4.2 B", "4.2 C", "2.9", '3 "Typical merchant action"', "1"]) {
      expect(cited).toContain(form);
    }
  });

  it("every section cited in the code and the docs is a heading there", () => {
    const broken = citations.flatMap(({ where, cites }) => {
      const reason = unresolved(cites, sections);
      return reason ? [`${where}: contract ${cites} (${reason})`] : [];
    });
    expect(broken).toEqual([]);
  });

  it("no file points at the contract outside the repository", () => {
    const outside = ["shared", "contract.md"].join("/");
    const mentions = walk("").filter((file) => {
      const bytes = readFileSync(join(root, file));
      return !bytes.includes(0) && bytes.toString("utf8").includes(outside);
    });
    expect(mentions).toEqual([]);
  });
});
