import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { NextRequest } from "next/server";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createStaffAuth } from "@/lib/admin/staff-auth";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The first owner, made from ADMIN_EMAIL and ADMIN_PASSWORD (lib/admin/owner.ts) when the back
// office has none: at the server's start (instrumentation-node.ts), in the background, and again
// at the first sign-in when the start could not. Each test starts from an empty staff table, on
// a database of its own (the suite's has its owner already, and staff rows are never deleted
// once they have events).

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);
const opened: { database: TestDatabase; clients: PrismaClient[]; pool: pg.Pool }[] = [];

/** A migrated database with no one in it, which db() and dbPool() now answer with. */
async function emptyShop(label: string) {
  const database = await createTestDatabase(label);
  await applyMigrations({ connectionString: database.url });
  const client = () =>
    new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: server ? 5 : 1 }) });
  const shop = {
    database,
    clients: [client()],
    pool: new pg.Pool({ connectionString: database.url, max: server ? 5 : 1 }),
  };
  opened.push(shop);
  Object.assign(shared, { client: shop.clients[0], pool: shop.pool });
  /** Another instance's client of the same database. */
  const another = () => {
    const next = client();
    shop.clients.push(next);
    return next;
  };
  return { client: shop.clients[0]!, pool: shop.pool, another };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});
afterAll(async () => {
  for (const { database, clients, pool } of opened) {
    for (const client of clients) await client.$disconnect();
    await pool.end();
    await database.drop();
  }
});

const environment = () => ({ email: process.env.ADMIN_EMAIL!, password: process.env.ADMIN_PASSWORD! });

/** lib/admin/owner.ts and the sign-in route as fresh modules: their singletons (the auth, the "owner found" flag) start over. */
async function fresh() {
  vi.resetModules();
  return {
    owner: await import("@/lib/admin/owner"),
    instrumentation: await import("@/instrumentation-node"),
    signIn: (await import("@/app/api/admin/session/route")).POST,
  };
}

/** `{ password }` alone: the owner's sign-in. */
const signInAsOwner = async (signIn: (request: NextRequest) => Promise<Response>) =>
  signIn(
    new NextRequest("http://localhost:3000/api/admin/session", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7" },
      body: JSON.stringify({ password: environment().password }),
    }),
  );

/** The JSON log lines written to the console during `run`. */
async function logged(run: () => Promise<unknown>) {
  const lines: string[] = [];
  for (const method of ["log", "warn", "error", "info"] as const)
    vi.spyOn(console, method).mockImplementation((line: unknown) => void lines.push(String(line)));
  await run();
  vi.restoreAllMocks();
  return lines;
}

describe("the first owner", () => {
  it("two instances starting together on an empty staff table make exactly one owner, who signs in", async () => {
    const { client, another } = await emptyShop("owner-race");
    const second = another();
    const { owner } = await fresh();
    const authOf = (db: PrismaClient) =>
      createStaffAuth({
        db,
        secret: process.env.ADMIN_SESSION_SECRET!,
        appUrl: "http://localhost:3000",
        issuer: "Loja",
      });
    expect(await client.staff.count()).toBe(0);
    await Promise.all([
      owner.ensureOwner(client, authOf(client), environment()),
      owner.ensureOwner(second, authOf(second), environment()),
    ]);
    expect(await client.staff.findMany({ select: { email: true, role: true, name: true, banned: true } })).toEqual([
      { email: environment().email, role: "owner", name: owner.FIRST_OWNER_NAME, banned: false },
    ]);
    expect(await client.staffLogin.count({ where: { providerId: "credential" } })).toBe(1);
    // The password is kept hashed, never as written.
    const [login] = await client.staffLogin.findMany();
    expect(login!.password).not.toContain(environment().password);

    expect((await signInAsOwner((await fresh()).signIn)).status).toBe(200);
  });

  it("once there is an owner, the environment makes nobody, whatever its e-mail says", async () => {
    const { client } = await emptyShop("owner-once");
    const { owner } = await fresh();
    await owner.ensureOwnerAtStart();
    expect(await client.staff.count({ where: { role: "owner" } })).toBe(1);
    const first = environment().email;

    vi.stubEnv("ADMIN_EMAIL", "another.owner@shop.example");
    const again = await fresh();
    await again.owner.ensureOwnerAtStart();
    expect((await signInAsOwner(again.signIn)).status).toBe(401);
    expect(await client.staff.findMany({ select: { email: true } })).toEqual([{ email: first }]);
  });
});

describe("at the server's start", () => {
  it("the owner is made in the background: the start waits for nothing", async () => {
    const { client } = await emptyShop("owner-start");
    const { instrumentation } = await fresh();
    expect(instrumentation.ensureOwnerInBackground()).toBeUndefined();
    await expect.poll(() => client.staff.count({ where: { role: "owner" } }), { timeout: 10_000 }).toBe(1);
  });

  it("a failure is logged by its kind, never thrown, and the first sign-in makes the owner", async () => {
    const { client, pool } = await emptyShop("owner-start-fails");
    const { owner } = await fresh();
    await pool.query("ALTER TABLE staff RENAME TO staff_away");
    let lines: string[] = [];
    try {
      lines = await logged(() => owner.ensureOwnerAtStart());
    } finally {
      await pool.query("ALTER TABLE staff_away RENAME TO staff");
    }
    const events = lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as object);
    expect(events).toEqual([{ level: "warn", event: "admin.owner_unavailable", error: expect.any(String) }]);
    for (const secret of [environment().email, environment().password]) expect(lines.join("\n")).not.toContain(secret);
    expect(await client.staff.count()).toBe(0);

    // The same modules, as the server goes on with them: the first sign-in asks again.
    expect((await signInAsOwner((await import("@/app/api/admin/session/route")).POST)).status).toBe(200);
    expect(await client.staff.count({ where: { role: "owner" } })).toBe(1);
  });

  it("with the back office off (no ADMIN_PASSWORD) nobody is made", async () => {
    const { client } = await emptyShop("owner-off");
    vi.stubEnv("ADMIN_PASSWORD", "");
    const { owner } = await fresh();
    await owner.ensureOwnerAtStart();
    expect(await client.staff.count()).toBe(0);
  });
});
