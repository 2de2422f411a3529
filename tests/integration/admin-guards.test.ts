import { describe, expect, it } from "vitest";
import { adminRequest } from "../../harness/support/admin";
import { routeFiles, sampleAddressOf } from "../../harness/support/routes";

// Every route handler under app/api/admin, found on disk (so a new one is checked without being
// listed here): without a session it answers 401, and a mutation from another site 403, before
// it reads its parameters or its body. Sign-in and sign-out are the two that need no session
// (tests/integration/admin-session.test.ts checks their own refusals).

const PUBLIC = new Set(["app/api/admin/session/route.ts", "app/api/admin/session/sign-out/route.ts"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

describe("every admin API route", async () => {
  const routes = (await routeFiles()).filter(
    ({ file }) => file.startsWith("app/api/admin/") && file.endsWith("/route.ts") && !PUBLIC.has(file),
  );

  it("is found on disk", () => {
    expect(routes.map(({ file }) => file)).toContain("app/api/admin/orders/export/route.ts");
  });

  for (const { file } of routes) {
    it(`${file}: 401 without a session, 403 for a mutation from another site`, async () => {
      const module = (await import(/* @vite-ignore */ `@/${file.replace(/\.ts$/, "")}`)) as Record<string, unknown>;
      const methods = METHODS.filter((method) => typeof module[method] === "function");
      expect(methods.length, file).toBeGreaterThan(0);
      for (const method of methods) {
        const handler = module[method] as (request: Request, context: unknown) => Promise<Response>;
        const { path, params } = sampleAddressOf(file);
        const context = { params: Promise.resolve(params) };
        const body = method === "GET" || method === "DELETE" ? {} : { form: { note: "x" } };
        const anonymous = await handler(await adminRequest(path, { method, session: false, ...body }), context);
        expect(anonymous.status, `${method} ${file} without a session`).toBe(401);
        if (method === "GET") continue;
        const crossSite = await handler(await adminRequest(path, { method, crossSite: true, ...body }), context);
        expect(crossSite.status, `${method} ${file} from another site`).toBe(403);
      }
    });
  }
});
