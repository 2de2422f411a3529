import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { adminRequest } from "../support/admin";
import { routeFiles } from "../support/routes";

// Every route handler under app/api/admin, found on disk (so a new one is checked without being
// listed here): without a session it answers 401, and a mutation from another site 403, before
// it reads its parameters or its body. Sign-in and sign-out are the two that need no session
// (tests/integration/admin-session.test.ts checks their own refusals).

const PUBLIC = new Set(["app/api/admin/session/route.ts", "app/api/admin/session/sign-out/route.ts"]);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** A well-formed value for each dynamic segment, so the refusal is the guard's and not a 404. */
function paramsOf(file: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [, name] of file.matchAll(/\[([^\]]+)\]/g))
    params[name!] = name === "externalTransactionId" ? `order_${randomUUID()}` : randomUUID();
  return params;
}

const pathOf = (file: string, params: Record<string, string>) =>
  file
    .replace(/^app/, "")
    .replace(/\/route\.ts$/, "")
    .replace(/\[([^\]]+)\]/g, (_, name: string) => params[name]!);

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
        const params = paramsOf(file);
        const context = { params: Promise.resolve(params) };
        const body = method === "GET" || method === "DELETE" ? {} : { form: { note: "x" } };
        const anonymous = await handler(
          await adminRequest(pathOf(file, params), { method, session: false, ...body }),
          context,
        );
        expect(anonymous.status, `${method} ${file} without a session`).toBe(401);
        if (method === "GET") continue;
        const crossSite = await handler(
          await adminRequest(pathOf(file, params), { method, crossSite: true, ...body }),
          context,
        );
        expect(crossSite.status, `${method} ${file} from another site`).toBe(403);
      }
    });
  }
});
