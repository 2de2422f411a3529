import { describe, expect, it } from "vitest";
import { adminRequest } from "../../../harness/support/admin";
import { routeFiles, sampleAddressOf } from "../../../harness/support/routes";

// Every route handler under app/api/admin, found on disk (so a new one is checked without being
// listed here): without a session it answers a JSON client 401, sends a browser (a form post, or
// opening the address) to the sign-in, and answers a mutation from another site 403, before it
// reads its parameters or its body. Sign-in (its password and its two-factor code) and sign-out
// are the ones that need no session (tests/integration/admin/admin-session.test.ts checks their
// own refusals).

const PUBLIC = new Set([
  "app/api/admin/session/route.ts",
  "app/api/admin/session/two-factor/route.ts",
  "app/api/admin/session/sign-out/route.ts",
]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

describe("every admin API route", async () => {
  const routes = (await routeFiles()).filter(
    ({ file }) => file.startsWith("app/api/admin/") && file.endsWith("/route.ts") && !PUBLIC.has(file),
  );

  it("is found on disk", () => {
    expect(routes.map(({ file }) => file)).toContain("app/api/admin/orders/export/route.ts");
  });

  for (const { file } of routes) {
    it(`${file}: 401 without a session (the sign-in for a browser), 403 for a mutation from another site`, async () => {
      const module = (await import(/* @vite-ignore */ `@/${file.replace(/\.ts$/, "")}`)) as Record<string, unknown>;
      const methods = METHODS.filter((method) => typeof module[method] === "function");
      expect(methods.length, file).toBeGreaterThan(0);
      for (const method of methods) {
        const handler = module[method] as (request: Request, context: unknown) => Promise<Response>;
        const { path, params } = sampleAddressOf(file);
        const context = { params: Promise.resolve(params) };
        const body = method === "GET" || method === "DELETE" ? {} : { form: { note: "x" } };
        const client = method === "GET" || method === "DELETE" ? {} : { json: { note: "x" } };
        const anonymous = await handler(await adminRequest(path, { method, session: false, ...client }), context);
        expect(anonymous.status, `${method} ${file} without a session`).toBe(401);
        expect(await anonymous.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
        // A browser never gets raw JSON: its form post, or its opening of the address, goes to the sign-in.
        const browser = method === "GET" ? { headers: { "sec-fetch-mode": "navigate" } } : body;
        if (method !== "DELETE") {
          const signIn = await handler(await adminRequest(path, { method, session: false, ...browser }), context);
          expect(signIn.status, `${method} ${file} from a browser without a session`).toBe(303);
          expect(signIn.headers.get("location")).toMatch(/^\/admin\?expired=1&next=%2Fadmin/);
        }
        if (method === "GET") continue;
        const crossSite = await handler(await adminRequest(path, { method, crossSite: true, ...body }), context);
        expect(crossSite.status, `${method} ${file} from another site`).toBe(403);
      }
    });
  }
});
