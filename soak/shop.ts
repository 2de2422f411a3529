/**
 * The shop under soak, the way a small deployment runs it: the soak's own PostgreSQL cluster
 * (soak/postgres.ts), PgBouncer in transaction mode in front of it (DATABASE_URL; the direct
 * one is DATABASE_URL_UNPOOLED), the isolated shop of the e2e tests and benchmarks (scratch
 * database, migrations, demo catalogue, random credentials, the sandbox in this process:
 * harness/isolated-shop.ts), the production build, two instances of `scripts/serve.mjs` and the
 * worker (`npm run worker`). It owns starting, killing and restarting those processes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { controlClient, type ControlClient } from "pay-sandbox/client";
import { prepareIsolatedShop, type IsolatedShop } from "../harness/isolated-shop";
import {
  prepareProductionBuild,
  startNextServer,
  waitUntilAnswering,
  type RunningNextServer,
} from "../harness/next-production";
import { pgBouncerBinary, startPgBouncer, type RunningPgBouncer } from "../harness/support/pgbouncer";
import { freePort } from "../harness/free-port";
import { startThrowAwayCluster, type ThrowAwayCluster } from "./postgres";
import type { ProcessLifetime } from "../harness/process-lifetime";

const root = fileURLToPath(new URL("..", import.meta.url));
const TSX = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url));

export interface ShopUnderSoak {
  cluster: ThrowAwayCluster;
  pooler: RunningPgBouncer;
  shop: IsolatedShop;
  /** The soak's own direct connections: setup and checks. */
  database: pg.Pool;
  control: ControlClient;
  instances: AppInstance[];
  worker: ChildProcess;
}

export class AppInstance {
  server: RunningNextServer | null = null;
  constructor(
    readonly index: number,
    readonly port: number,
    private readonly appEnv: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = startNextServer({ root, appEnv: this.appEnv, port: this.port, output: "quiet" });
    this.server = server;
    await waitUntilAnswering(`${server.url}/api/health`, { exited: server.exited, timeoutMs: 60_000 });
  }

  /** SIGKILL: no grace, requests in flight are cut, after() work is lost. */
  async kill(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.child.kill("SIGKILL");
    await server.exited;
    this.server = null;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = null;
  }
}

export async function startShopUnderSoak(options: {
  holdSeconds: number;
  skipBuild: boolean;
  lifetime: ProcessLifetime;
  log: (line: string) => void;
}): Promise<ShopUnderSoak> {
  const { lifetime, log } = options;
  const cluster = await startThrowAwayCluster({ log });
  lifetime.onStop(() => cluster.stop());
  // Behind a transaction-mode pooler the pool's own SET reaches one server session only: the
  // role's defaults are what every session starts with (docs/database-connections.md).
  const admin = new pg.Client({ connectionString: cluster.url("postgres") });
  await admin.connect();
  await admin.query("ALTER ROLE postgres SET lock_timeout = '5s'; ALTER ROLE postgres SET statement_timeout = '30s'");
  await admin.end();

  const binary = pgBouncerBinary();
  if (!binary) throw new Error("pgbouncer not found (apt-get install pgbouncer)");
  const pooler = await startPgBouncer({ binary, serverUrl: cluster.url("postgres") });
  lifetime.onStop(() => pooler.stop());

  const ports = [await freePort(), await freePort()];
  const appUrl = `http://127.0.0.1:${ports[0]}`;
  const shop = await prepareIsolatedShop({
    label: "soak",
    appUrl,
    serverDatabaseUrl: cluster.url("postgres"),
    // Every service-API request is a line of the sandbox's log: too many to print; its webhook failures are kept.
    log: (line) => /^(GET|POST) \/\S+ \d{3}$/.test(line) || log(line),
  });
  lifetime.onStop(() => shop.close());
  const databaseName = new URL(shop.databaseUrl).pathname.slice(1);
  const appEnv: Record<string, string> = {
    ...shop.appEnv,
    DATABASE_URL: pooler.url(databaseName),
    DATABASE_URL_UNPOOLED: shop.databaseUrl,
    ORDER_HOLD_SECONDS: String(options.holdSeconds),
  };
  const database = new pg.Pool({ connectionString: shop.databaseUrl, max: 3 });
  // The restart ends idle connections: an "error" event, not a reason to crash the soak.
  database.on("error", () => {});
  lifetime.onStop(() => database.end());

  await prepareProductionBuild({ root, appEnv, skipVariable: "SOAK_SKIP_BUILD", output: "on-failure", log });
  const instances = ports.map((port, index) => new AppInstance(index, port, appEnv));
  for (const instance of instances) lifetime.onStop(() => instance.stop());
  await Promise.all(instances.map((instance) => instance.start()));
  log(`two instances: ${instances.map((instance) => instance.url).join(", ")}; webhooks go to the first`);

  const worker = spawn(TSX, ["--conditions=react-server", "scripts/worker.ts"], {
    cwd: root,
    env: { ...process.env, ...appEnv },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const workerExited = new Promise((resolve) => worker.once("exit", resolve));
  worker.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    for (const line of chunk.split("\n")) if (/^\[worker\] (checked|could not|reconcile)/.test(line)) log(line);
  });
  lifetime.onStop(async () => {
    if (worker.exitCode === null) worker.kill("SIGTERM");
    await workerExited;
  });

  return {
    cluster,
    pooler,
    shop,
    database,
    control: controlClient({ url: shop.sandboxUrl, token: shop.sandboxToken }),
    instances,
    worker,
  };
}
