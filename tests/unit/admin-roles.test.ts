import { describe, expect, it } from "vitest";
import { currentSection } from "@/components/admin/admin-nav-links";
import { backOfficeSections } from "@/components/admin/admin-shell";
import {
  BACK_OFFICE_PAGES,
  BACK_OFFICE_ROUTES,
  ROLES,
  mayCallRoute,
  mayOpenPage,
  seesMoney,
  type Access,
} from "@/lib/admin/roles";
import { BACK_OFFICE_TEXTS } from "@/lib/i18n/back-office";
import { pt } from "@/lib/i18n/dictionaries";
import { routeFiles } from "../../harness/support/routes";

// The roles' table (lib/admin/roles.ts) against app/ as it is on disk: every back-office page and
// API route (with the HTTP methods its file exports) is in the table, and every entry of the
// table is a page or route that exists, so a new page or route is closed to everyone until it is
// given its roles here, and the table never keeps a stale entry that would open a future one.
// tests/integration/admin/admin-roles.test.ts calls every route as each role.

const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The address a file answers, as the table names it: no language, no route group, `[x]` kept. */
const patternOf = (file: string) =>
  file
    .replace(/^app/, "")
    .replace(/^\/\[lang\](?=\/|$)/, "")
    .replace(/\/\([^)]+\)(?=\/|$)/g, "")
    .replace(/\/(route\.ts|page\.tsx)$/, "") || "/";

/** The HTTP methods a route file exports (`export async function POST`, `export const DELETE =`, `export { GET }`). */
function methodsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const names = [
    ...[...code.matchAll(/export\s+(?:async\s+)?function\s+([A-Z]+)\b/g)].map((match) => match[1]!),
    ...[...code.matchAll(/export\s+(?:const|let|var)\s+([A-Z]+)\b/g)].map((match) => match[1]!),
    ...[...code.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((match) =>
      match[1]!.split(",").map((name) =>
        name
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
      ),
    ),
  ];
  return [...new Set(names.filter((name) => HTTP_METHODS.includes(name)))].sort();
}

describe("the roles' table against app/", async () => {
  const files = await routeFiles();
  const pages = files
    .filter(({ file }) => file.endsWith("/page.tsx"))
    .map(({ file }) => ({ file, path: patternOf(file) }))
    .filter(({ path }) => path === "/admin" || path.startsWith("/admin/"));
  const routes = files
    .filter(({ file }) => file.startsWith("app/api/admin/") && file.endsWith("/route.ts"))
    .map(({ file, source }) => ({ file, path: patternOf(file), methods: methodsOf(source) }));

  it("finds the back office's pages and routes on disk (a check of the walk)", () => {
    expect(pages.map(({ path }) => path)).toEqual(
      expect.arrayContaining(["/admin", "/admin/orders/[externalTransactionId]"]),
    );
    expect(routes).toContainEqual({
      file: "app/api/admin/session/route.ts",
      path: "/api/admin/session",
      methods: ["DELETE", "POST"],
    });
  });

  it("names every back-office page on disk", () => {
    const named = new Set(BACK_OFFICE_PAGES.map((entry) => entry.path));
    expect(pages.filter(({ path }) => !named.has(path)).map(({ file }) => file)).toEqual([]);
  });

  it("names no page that is not on disk", () => {
    const onDisk = new Set(pages.map(({ path }) => path));
    const stale = BACK_OFFICE_PAGES.filter((entry) => !onDisk.has(entry.path));
    expect(stale.map((entry) => entry.path)).toEqual([]);
  });

  it("names every back-office route on disk with exactly the methods its file exports", () => {
    const table = new Map(BACK_OFFICE_ROUTES.map((entry) => [entry.path, [...(entry.methods ?? [])].sort()]));
    for (const { file, methods } of routes) expect(methods.length, `${file} exports a method`).toBeGreaterThan(0);
    expect(routes.map(({ path, methods }) => ({ path, methods: table.get(path) ?? "not in the table" }))).toEqual(
      routes.map(({ path, methods }) => ({ path, methods })),
    );
  });

  it("names no route that is not on disk", () => {
    const onDisk = new Set(routes.map(({ path }) => path));
    const stale = BACK_OFFICE_ROUTES.filter((entry) => !onDisk.has(entry.path));
    expect(stale.map((entry) => entry.path)).toEqual([]);
  });
});

describe("the roles' table", () => {
  const entries: [string, readonly Access[]][] = [
    ["pages", BACK_OFFICE_PAGES],
    ["routes", BACK_OFFICE_ROUTES],
  ];

  it("names each page and route once, every route with its methods, every owner-only one with why", () => {
    for (const [name, table] of entries) {
      const paths = table.map((entry) => entry.path);
      expect(new Set(paths).size, name).toBe(paths.length);
      for (const entry of table) {
        expect(entry.roles.length, entry.path).toBeGreaterThan(0);
        expect(
          entry.roles.every((role) => ROLES.includes(role)),
          entry.path,
        ).toBe(true);
        if (!entry.roles.includes("staff")) expect(entry.why, `${entry.path}: why staff may not`).toBeTruthy();
      }
    }
    for (const entry of BACK_OFFICE_ROUTES) expect(entry.methods?.length, entry.path).toBeGreaterThan(0);
  });

  it("opens to each role exactly what it lists, read with real addresses", () => {
    for (const role of ROLES) {
      for (const entry of BACK_OFFICE_PAGES) {
        const address = entry.path.replace(/\[[^\]]+\]/g, "x_1");
        expect(mayOpenPage(role, address), `${role} ${address}`).toBe(entry.roles.includes(role));
      }
      for (const entry of BACK_OFFICE_ROUTES)
        for (const method of entry.methods!) {
          const address = entry.path.replace(/\[[^\]]+\]/g, "x_1");
          expect(mayCallRoute(role, address, method), `${role} ${method} ${address}`).toBe(entry.roles.includes(role));
        }
    }
  });

  it("refuses to everyone, the owner too, what it does not list: another page, route or method", () => {
    for (const role of ROLES) {
      expect(mayOpenPage(role, "/admin/not-in-the-table")).toBe(false);
      expect(mayOpenPage(role, "/admin/orders/x/more")).toBe(false);
      expect(mayCallRoute(role, "/api/admin/not-in-the-table", "POST")).toBe(false);
      expect(mayCallRoute(role, "/api/admin/products", "DELETE")).toBe(false);
      expect(mayCallRoute(role, "/api/admin/orders/export", "POST")).toBe(false);
      // An empty segment is not a parameter.
      expect(mayCallRoute(role, "/api/admin/products//archive", "POST")).toBe(false);
    }
  });

  it("keeps from staff what is the owner's alone: exports, money, promo codes, delivery, people, settings", () => {
    const ownersAlone =
      /\/export$|\/resolve$|\/retry$|^\/api\/admin\/(promo-codes|delivery-zones|pickup-points|people|settings|activity|webhooks|dashboard|catalogue)(\/|$)|^\/admin\/(promo-codes|delivery|people|activity|webhooks|catalogue)(\/|$)/;
    const opened = [...BACK_OFFICE_PAGES, ...BACK_OFFICE_ROUTES].filter(
      (entry) => ownersAlone.test(entry.path) && entry.roles.includes("staff"),
    );
    expect(opened.map((entry) => entry.path)).toEqual([]);
    // And staff keep their work: the orders, their fulfilment, the products and their stock.
    for (const path of ["/api/admin/orders/x/fulfilment", "/api/admin/products/x/stock", "/api/admin/products"])
      expect(mayCallRoute("staff", path, "POST"), path).toBe(true);
    for (const path of ["/admin/orders", "/admin/orders/x", "/admin/products/x"])
      expect(mayOpenPage("staff", path)).toBe(true);
  });

  it("shows the money to the owner alone", () => {
    expect(seesMoney("owner")).toBe(true);
    expect(seesMoney("staff")).toBe(false);
  });
});

describe("the back office's menu", () => {
  const sections = backOfficeSections(pt, BACK_OFFICE_TEXTS.pt);
  const shown = (role: (typeof ROLES)[number]) =>
    sections.filter((link) => mayOpenPage(role, link.href)).map((link) => link.href);

  it("links only pages of the table, each once, every one the owner may open", () => {
    const hrefs = sections.map((link) => link.href);
    expect(new Set(hrefs).size).toBe(hrefs.length);
    expect(shown("owner")).toEqual(hrefs);
    for (const { label } of sections) expect(label).toBeTruthy();
  });

  it("shows staff their sections and none of the owner's", () => {
    expect(shown("staff")).toEqual([
      "/admin",
      "/admin/orders",
      "/admin/products",
      "/admin/categories",
      "/admin/account",
    ]);
  });

  it("marks the section of the page, in the browser's address or the server's (with the language)", () => {
    const hrefs = sections.map((link) => link.href);
    expect(currentSection("/admin", hrefs)).toBe("/admin");
    expect(currentSection("/pt/admin", hrefs)).toBe("/admin");
    expect(currentSection("/admin/orders", hrefs)).toBe("/admin/orders");
    expect(currentSection("/admin/orders/order_1", hrefs)).toBe("/admin/orders");
    expect(currentSection("/en/admin/products/new", hrefs)).toBe("/admin/products");
    expect(currentSection("/admin/promo-codes/", hrefs)).toBe("/admin/promo-codes");
    // Not a section of its own, and not the home's either.
    expect(currentSection("/admin/webhooks/x", hrefs)).toBeUndefined();
    expect(currentSection("/admin/ordersx", hrefs)).toBeUndefined();
  });
});
