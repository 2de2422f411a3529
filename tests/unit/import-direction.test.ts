import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Imports go one way. The running shop (app/, components/, lib/) imports nothing from the
// tooling; production's scripts import only the shop; the sandbox package imports nothing from
// outside its folder; the harness (what development and tests run) imports no test; and no two
// folders import each other, even through a third. Read from the source, so a new import that
// breaks the direction fails here, whichever folder it is in.

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The folders whose imports are checked, each a unit; `packages/<name>` counts as one folder. */
const FOLDERS = ["app", "components", "lib", "scripts", "harness", "tests", "e2e", "bench", "packages/pay-sandbox"];
const SKIPPED = new Set(["node_modules", "generated", "dist", ".next", "results"]);
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** Specifiers of import, export … from and import() in `source`, comments left out. */
function specifiersOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((match) => match[1]!);
}

/** The checked folder a specifier in `file` points into, "external" for a package, or the top-level name. */
function folderOf(file: string, specifier: string): string {
  let target: string;
  if (specifier === "pay-sandbox" || specifier.startsWith("pay-sandbox/")) return "packages/pay-sandbox";
  if (specifier.startsWith("@/")) target = specifier.slice(2);
  else if (specifier.startsWith(".")) target = relative(root, normalize(join(root, dirname(file), specifier)));
  else return "external";
  return FOLDERS.find((folder) => target === folder || target.startsWith(`${folder}/`)) ?? target.split("/")[0]!;
}

/** folder → the other folders it imports from, each with one file that does, for the message. */
function importGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>(FOLDERS.map((folder) => [folder, new Map()]));
  for (const folder of FOLDERS) {
    for (const file of filesUnder(folder)) {
      for (const specifier of specifiersOf(readFileSync(join(root, file), "utf8"))) {
        const target = folderOf(file, specifier);
        if (target !== folder && target !== "external") graph.get(folder)!.set(target, file);
      }
    }
  }
  return graph;
}

const graph = importGraph();
const importsOf = (folder: string) => Object.fromEntries(graph.get(folder)!);

describe("import direction", () => {
  it("the running shop imports nothing from the sandbox, tests, harness, bench or tooling", () => {
    const allowed: Record<string, string[]> = { lib: [], components: ["lib"], app: ["components", "lib"] };
    for (const [folder, others] of Object.entries(allowed)) {
      const foreign = Object.keys(importsOf(folder)).filter((target) => !others.includes(target));
      expect(foreign, `${folder}/ imports ${JSON.stringify(importsOf(folder))}`).toEqual([]);
    }
  });

  it("production's scripts import only the shop's lib/", () => {
    expect(Object.keys(importsOf("scripts")).filter((target) => target !== "lib")).toEqual([]);
  });

  it("the sandbox package imports nothing from outside its folder", () => {
    expect(importsOf("packages/pay-sandbox")).toEqual({});
  });

  it("the harness imports no test and no benchmark", () => {
    const targets = Object.keys(importsOf("harness"));
    expect(targets.filter((target) => ["tests", "e2e", "bench"].includes(target))).toEqual([]);
  });

  it("no folder imports one that imports it back, directly or through others", () => {
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(graph.get(from)?.keys() ?? [])].some(
        (next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))),
      );
    const cycles = FOLDERS.flatMap((folder) =>
      [...graph.get(folder)!.entries()]
        .filter(([target]) => reaches(target, folder))
        .map(([target, file]) => `${folder} → ${target} (${file}) → … → ${folder}`),
    );
    expect(cycles).toEqual([]);
  });

  it("reads imports as they are written (a check of the check)", () => {
    expect(
      specifiersOf('import a from "./a";\nexport { b } from "@/lib/b";\nawait import("pay-sandbox/client");'),
    ).toEqual(["./a", "@/lib/b", "pay-sandbox/client"]);
    expect(
      specifiersOf('/** import { x } from "../tests/x"; */\n// import "../e2e/y";\nconst s = "http://x";'),
    ).toEqual([]);
    expect(folderOf("harness/support/sandbox.ts", "../../tests/setup/env")).toBe("tests");
    expect(folderOf("e2e/support/shop.ts", "pay-sandbox/playwright")).toBe("packages/pay-sandbox");
    expect(folderOf("packages/pay-sandbox/src/routes/api.ts", "../http")).toBe("packages/pay-sandbox");
  });
});
