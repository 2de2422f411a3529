import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BACK_OFFICE_PAGES, BACK_OFFICE_ROUTES, ROLES, type Access } from "@/lib/admin/roles";

// docs/people.md's table of what each role may open is this table, rendered: a change to
// lib/admin/roles.ts fails here until the docs say it too (`UPDATE_DOCS=1 npx vitest run
// --project unit tests/unit/roles-docs.test.ts` writes it).

const DOC = "docs/people.md";
const START = "<!-- roles:start (tests/unit/roles-docs.test.ts writes this table) -->";
const END = "<!-- roles:end -->";

function rows(table: readonly Access[]): string[] {
  return table.map((entry) => {
    const what = `\`${entry.methods ? `${entry.methods.join(", ")} ` : ""}${entry.path}\``;
    const cells = ROLES.map((role) => (entry.roles.includes(role) ? "yes" : "no"));
    return `| ${what} | ${cells.join(" | ")} | ${entry.why ?? ""} |`;
  });
}

function rolesTable(): string {
  const head = `| Page or route | ${ROLES.join(" | ")} | Why the owner's alone |\n| --- | ${ROLES.map(() => "---").join(" | ")} | --- |`;
  return [head, ...rows(BACK_OFFICE_PAGES), ...rows(BACK_OFFICE_ROUTES)].join("\n");
}

describe("docs/people.md", () => {
  it("shows lib/admin/roles.ts's table as it is", () => {
    const doc = readFileSync(DOC, "utf8");
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, `${DOC} has the table's markers`).toBeGreaterThan(-1);
    const shown = doc.slice(start + START.length, end).trim();
    if (process.env.UPDATE_DOCS === "1" && shown !== rolesTable()) {
      writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${rolesTable()}\n${doc.slice(end)}`);
      return;
    }
    expect(shown).toBe(rolesTable());
  });
});
