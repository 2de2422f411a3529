import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "./support/fixtures";
import { readE2eServerEnvironment } from "../harness/server-environment";

/**
 * The production build's client output (.next/static, what any browser can download) holds none
 * of the run's server secrets. The e2e server builds with random credentials, so a secret found
 * here got there through code, not by chance.
 */

const staticDir = fileURLToPath(new URL("../.next/static", import.meta.url));

test("the client JavaScript holds neither PAY_CLIENT_SECRET nor PAY_WEBHOOK_SECRET", async ({ sandbox }) => {
  // A reused build was made with an earlier run's credentials: this run's cannot be in it.
  test.skip(process.env.E2E_SKIP_BUILD === "1", "E2E_SKIP_BUILD=1: the build is not this run's");
  const { clientSecret, webhookSecret } = await sandbox.credentials();
  const scripts = readdirSync(staticDir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
  expect(scripts.length, "client scripts in .next/static").toBeGreaterThan(0);

  const leaks = scripts.flatMap((file) => {
    const text = readFileSync(path.join(staticDir, file), "utf8");
    return [
      ...(text.includes(clientSecret) ? [`PAY_CLIENT_SECRET in ${file}`] : []),
      ...(text.includes(webhookSecret) ? [`PAY_WEBHOOK_SECRET in ${file}`] : []),
    ];
  });
  expect(leaks).toEqual([]);
});

test("the client JavaScript holds none of ADMIN_PASSWORD, ADMIN_SESSION_SECRET and BETTER_AUTH_SECRET", () => {
  test.skip(process.env.E2E_SKIP_BUILD === "1", "E2E_SKIP_BUILD=1: the build is not this run's");
  const { adminPassword, adminSessionSecret, shopperSessionSecret } = readE2eServerEnvironment();
  const scripts = readdirSync(staticDir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
  expect(scripts.length, "client scripts in .next/static").toBeGreaterThan(0);
  const leaks = scripts.filter((file) => {
    const text = readFileSync(path.join(staticDir, file), "utf8");
    return [adminPassword, adminSessionSecret, shopperSessionSecret].some((secret) => text.includes(secret));
  });
  expect(leaks).toEqual([]);
});

/**
 * The dashboard's chart library (Recharts, components/admin/dashboard/charts.tsx) is a chunk of its
 * own that the back office's home loads after the page (charts-lazy.tsx): no route's first load
 * carries a byte of it, and so no page of the shop. Read from the build's own per-route lists of
 * first-load chunks; "recharts-surface", the class of every chart's SVG, marks it.
 */
test("the chart library is in no route's first load, and so in no page of the shop", () => {
  test.skip(process.env.E2E_SKIP_BUILD === "1", "E2E_SKIP_BUILD=1: the build is not this run's");
  const root = fileURLToPath(new URL("..", import.meta.url));
  const routes: { route: string; firstLoadChunkPaths: string[] }[] = JSON.parse(
    readFileSync(path.join(root, ".next/diagnostics/route-bundle-stats.json"), "utf8"),
  );
  const charts = (chunk: string) => readFileSync(path.join(root, chunk), "utf8").includes("recharts-surface");
  expect(routes.length).toBeGreaterThan(10);
  expect(routes.filter((route) => route.firstLoadChunkPaths.some(charts)).map((route) => route.route)).toEqual([]);
  // It is in the build all the same: the check would pass on nothing otherwise.
  const scripts = readdirSync(staticDir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
  expect(scripts.filter((file) => charts(path.join(".next/static", file))).length).toBeGreaterThan(0);
});
