import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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
const FOLDERS = [
  "app",
  "components",
  "lib",
  "scripts",
  "harness",
  "tests",
  "e2e",
  "bench",
  "soak",
  "packages/pay-sandbox",
];
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

// Inside lib/, the domains are layers, lowest first: a file imports only from its own layer's
// folder or a lower layer. The payment service (lib/pay/) imports nothing else of the shop, so it
// can be lifted into another app; only lib/http/ (and the cached pages' revalidation) is Next's.
const LIB_LAYERS: string[][] = [
  ["lib/*.ts", "lib/generated/"],
  ["lib/i18n/"],
  // With the database, who did what: every domain's change records its person in its own transaction.
  ["lib/db/", "lib/admin/roles.ts", "lib/admin/staff-events.ts", "lib/admin/event-changes.ts"],
  ["lib/pay/"],
  ["lib/jobs/job-types.ts", "lib/jobs/queue.ts"],
  ["lib/catalog/"],
  ["lib/cart/"],
  ["lib/promotions/"],
  ["lib/delivery/"],
  ["lib/orders/"],
  ["lib/messages/"],
  ["lib/offline/"],
  ["lib/checkout/"],
  ["lib/mail/"],
  ["lib/accounts/"],
  ["lib/jobs/handlers.ts", "lib/jobs/runner.ts", "lib/jobs/refund-mail.ts"],
  ["lib/seo/"],
  ["lib/dashboard/"],
  ["lib/admin/"],
  ["lib/http/"],
];
const NEXT_ALLOWED = ["lib/http/", "lib/catalog/cached-pages.ts"];

/** The layer of a lib/ file: its index in LIB_LAYERS, or -1 for a file no layer names. */
function layerOf(file: string): number {
  return LIB_LAYERS.findIndex((patterns) =>
    patterns.some((pattern) =>
      pattern === "lib/*.ts"
        ? /^lib\/[^/]+\.tsx?$/.test(file)
        : pattern.endsWith("/")
          ? file.startsWith(pattern)
          : file === pattern,
    ),
  );
}

/** The lib/ file a specifier in a lib/ file resolves to, extension and index included; undefined outside lib/. */
function libTargetOf(file: string, specifier: string): string | undefined {
  let target: string;
  if (specifier.startsWith("@/")) target = specifier.slice(2);
  else if (specifier.startsWith(".")) target = relative(root, normalize(join(root, dirname(file), specifier)));
  else return undefined;
  if (!target.startsWith("lib/")) return undefined;
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`]) {
    if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return candidate;
  }
  return target;
}

/** Every lib/ file → the lib/ files it imports and the packages it imports. */
function libImports(): Map<string, { files: string[]; packages: string[] }> {
  const imports = new Map<string, { files: string[]; packages: string[] }>();
  for (const file of filesUnder("lib")) {
    const specifiers = specifiersOf(readFileSync(join(root, file), "utf8"));
    imports.set(file, {
      files: specifiers.map((specifier) => libTargetOf(file, specifier)).filter((t): t is string => t !== undefined),
      packages: specifiers.filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("@/")),
    });
  }
  return imports;
}

/** The import edges of `imports` that go up a layer or out of lib/pay/, and the next/* imports outside the edge. */
function libViolations(imports: Map<string, { files: string[]; packages: string[] }>): string[] {
  const violations: string[] = [];
  for (const [file, { files, packages }] of imports) {
    const layer = layerOf(file);
    if (layer < 0) violations.push(`${file} is in no layer of LIB_LAYERS`);
    for (const target of files) {
      if (file.startsWith("lib/pay/") && !target.startsWith("lib/pay/"))
        violations.push(`${file} → ${target} (lib/pay imports nothing else of the shop)`);
      else if (layerOf(target) > layer)
        violations.push(`${file} → ${target} (up from layer ${layer} to ${layerOf(target)})`);
    }
    for (const name of packages) {
      if ((name === "next" || name.startsWith("next/")) && !NEXT_ALLOWED.some((allowed) => file.startsWith(allowed))) {
        violations.push(`${file} imports ${name} (only lib/http/ may)`);
      }
    }
  }
  return violations;
}

/** The cycles among lib/'s files, each as the path that closes it. */
function libCycles(imports: Map<string, { files: string[] }>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
      return;
    }
    state.set(file, "open");
    for (const target of imports.get(file)?.files ?? []) visit(target, [...path, file]);
    state.set(file, "done");
  };
  for (const file of imports.keys()) visit(file, []);
  return cycles;
}

describe("import direction", () => {
  it("the running shop imports nothing from the sandbox, tests, harness, bench, soak or tooling", () => {
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

  it("the harness imports no test, no benchmark and no soak", () => {
    const targets = Object.keys(importsOf("harness"));
    expect(targets.filter((target) => ["tests", "e2e", "bench", "soak"].includes(target))).toEqual([]);
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

  it("inside lib/, goes down the layers only; lib/pay imports nothing else of the shop; next/* only at the edge", () => {
    expect(libViolations(libImports())).toEqual([]);
  });

  it("has no circle between lib/'s files", () => {
    expect(libCycles(libImports())).toEqual([]);
  });

  it("the back office's modules (lib/**/*-admin.ts) are imported only by the back office", () => {
    const backOffice = (file: string) =>
      /-admin\.tsx?$/.test(file) ||
      ["lib/admin/", "lib/http/", "app/api/admin/", "app/[lang]/admin/", "components/admin/"].some((folder) =>
        file.startsWith(folder),
      );
    const shopImports = ["app", "components", "lib"].flatMap((folder) =>
      filesUnder(folder)
        .filter((file) => !backOffice(file))
        .flatMap((file) =>
          specifiersOf(readFileSync(join(root, file), "utf8"))
            .filter(
              (specifier) => /-admin$/.test(specifier) && (specifier.startsWith(".") || specifier.startsWith("@/lib/")),
            )
            .map((specifier) => `${file} → ${specifier}`),
        ),
    );
    expect(shopImports).toEqual([]);
  });

  it("finds a deliberate bad import in lib/ (a check of the check)", () => {
    const bad = new Map([
      ["lib/catalog/products.ts", { files: ["lib/orders/status.ts"], packages: [] }],
      ["lib/pay/api/client.ts", { files: ["lib/log.ts"], packages: [] }],
      ["lib/orders/status.ts", { files: ["lib/catalog/products.ts"], packages: ["next/server"] }],
    ]);
    expect(libViolations(bad)).toEqual([
      "lib/catalog/products.ts → lib/orders/status.ts (up from layer 5 to 9)",
      "lib/pay/api/client.ts → lib/log.ts (lib/pay imports nothing else of the shop)",
      "lib/orders/status.ts imports next/server (only lib/http/ may)",
    ]);
    expect(libCycles(bad)).toEqual(["lib/catalog/products.ts → lib/orders/status.ts → lib/catalog/products.ts"]);
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
