import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { accessOf, BACK_OFFICE_ROUTES, type Role } from "@/lib/admin/roles";
import type { Actor } from "@/lib/admin/staff-events";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { adminRequest, testPerson } from "../../../harness/support/admin";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { routeFiles, sampleAddressOf } from "../../../harness/support/routes";

// Every back-office API route handler on disk, called with each of its methods by a person of
// each role, checked against the roles' table (lib/admin/roles.ts): staff get a 403 `forbidden`
// exactly where the table says the route is the owner's, and are never refused (401 or 403)
// elsewhere; the owner is refused nowhere. A route the table does not name is refused to
// everyone. tests/unit/admin-roles.test.ts checks the table against app/ itself.
// Against a database of this file's own: "sign out everywhere", called here as both roles, ends
// every session in the database it runs on, the other files' included.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

let database: TestDatabase;
let client: PrismaClient;
let pool: pg.Pool;
const people = {} as Record<Role, Actor>;

beforeAll(async () => {
  database = await createTestDatabase("admin-roles");
  await applyMigrations({ connectionString: database.url });
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  client = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 2 }) });
  Object.assign(shared, { client, pool });
  people.owner = await testPerson("owner");
  people.staff = await testPerson("staff", "Ana");
});
afterAll(async () => {
  await client?.$disconnect();
  await pool?.end();
  await database?.drop();
});

type Handler = (request: Request, context: unknown) => Promise<Response>;

const forbidden = { error: { code: "forbidden", message: expect.any(String) } };

describe("every back-office API route, as staff and as the owner", async () => {
  const routes = (await routeFiles()).filter(
    ({ file }) => file.startsWith("app/api/admin/") && file.endsWith("/route.ts"),
  );

  it("is found on disk", () => {
    expect(routes.map(({ file }) => file)).toContain("app/api/admin/orders/export/route.ts");
  });

  for (const { file } of routes) {
    it(`${file}: refused to staff exactly where the table says, never to the owner`, async () => {
      const module = (await import(/* @vite-ignore */ `@/${file.replace(/\.ts$/, "")}`)) as Record<string, unknown>;
      const methods = METHODS.filter((method) => typeof module[method] === "function");
      expect(methods.length, file).toBeGreaterThan(0);
      for (const method of methods) {
        const { path, params } = sampleAddressOf(file);
        const access = accessOf(BACK_OFFICE_ROUTES, path, method);
        expect(access, `${method} ${path} is in the roles' table`).toBeDefined();
        for (const role of ["staff", "owner"] as const) {
          // A JSON client: a refusal is JSON, and a body that is not the route's is a 4xx that changes nothing.
          const body = method === "GET" || method === "HEAD" || method === "DELETE" ? {} : { json: {} };
          const request = await adminRequest(path, { method, session: people[role], ...body });
          const response = await (module[method] as Handler)(request, { params: Promise.resolve(params) });
          const said = `${method} ${path} as ${role}`;
          if (access!.roles.includes(role)) {
            expect([401, 403], `${said}: ${response.status}`).not.toContain(response.status);
            // Whatever the route answers a body not its own, it is a clear answer, never a failure.
            expect(response.status, said).toBeLessThan(500);
          } else {
            expect(response.status, said).toBe(403);
            expect(await response.json(), said).toEqual(forbidden);
          }
        }
      }
    });
  }

  it("refuses staff before reading the body: an owner's action sent whole by staff changes nothing", async () => {
    const { POST } = await import("@/app/api/admin/promo-codes/route");
    const json = { code: "STAFFNOPE", kind: "percent", value: 5 };
    const response = await POST(await adminRequest("/api/admin/promo-codes", { session: people.staff, json }));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(forbidden);
    expect(await client.promoCode.count({ where: { code: "STAFFNOPE" } })).toBe(0);
    // The same body from the owner is the route's own: the refusal was the role's.
    const owner = await POST(await adminRequest("/api/admin/promo-codes", { session: people.owner, json }));
    expect(owner.status).toBe(201);
  });
});

describe("a route the table does not name", () => {
  it("is refused to everyone, the owner included, as is a method the table does not list", async () => {
    const { guardAdminRoute } = await import("@/lib/http/admin-route-guard");
    const unnamed: [string, string][] = [
      ["/api/admin/made-up", "POST"],
      ["/api/admin/made-up/thing", "GET"],
      ["/api/admin/orders/export/more", "GET"],
      ["/api/admin/products", "DELETE"],
      ["/api/admin/orders/export", "POST"],
    ];
    for (const role of ["staff", "owner"] as const) {
      for (const [path, method] of unnamed) {
        const guard = await guardAdminRoute(await adminRequest(path, { method, session: people[role] }));
        expect(guard.ok, `${method} ${path} as ${role}`).toBe(false);
        if (guard.ok) continue;
        expect(guard.response.status, `${method} ${path} as ${role}`).toBe(403);
        expect(await guard.response.json()).toEqual(forbidden);
      }
      // A route it names, for comparison: the guard lets its person through, with who they are.
      const named = await guardAdminRoute(await adminRequest("/api/admin/products", { session: people[role] }));
      const { id, name, email } = people[role];
      expect(named).toEqual({ ok: true, actor: { id, name, email, role } });
    }
  });
});
