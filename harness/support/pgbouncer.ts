import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../free-port";

/**
 * A PgBouncer of a test's own in transaction mode, the pooler Vercel's Postgres integrations
 * (Neon) put behind DATABASE_URL: it proves the app's connections work through one
 * (tests/integration/db/pooler.test.ts). Started from the distribution's package (`apt-get install
 * pgbouncer`, which .ci/run does), in the foreground, with a generated configuration in a
 * temporary directory: any database name is passed on to the server, as the server's user.
 * Defaults everywhere else, so it refuses what a default PgBouncer refuses.
 */
export interface RunningPgBouncer {
  /** The pooled URL of `database` on the server. */
  url(database: string): string;
  /** What PgBouncer has logged so far (it logs to stderr). */
  log(): string;
  stop(): Promise<void>;
}

/** Debian installs it in /usr/sbin, which is not on every user's PATH. */
export function pgBouncerBinary(): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin"];
  return dirs.map((dir) => path.join(dir, "pgbouncer")).find((file) => existsSync(file));
}

export async function startPgBouncer(options: { binary: string; serverUrl: string }): Promise<RunningPgBouncer> {
  const server = new URL(options.serverUrl);
  const port = await freePort();
  const workDir = await mkdtemp(path.join(os.tmpdir(), "pgbouncer-"));
  const target = {
    host: server.hostname.replace(/^\[|\]$/g, ""),
    port: server.port || "5432",
    user: decodeURIComponent(server.username) || "postgres",
    password: decodeURIComponent(server.password),
  };
  const connect = Object.entries(target)
    .filter(([, value]) => value !== "")
    .map(([key, value]) => `${key}=${quote(value)}`)
    .join(" ");
  const ini = path.join(workDir, "pgbouncer.ini");
  await writeFile(
    ini,
    [
      "[databases]",
      `* = ${connect}`,
      "",
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      // Clients are not authenticated (the server still is, as `user` above): a local test only.
      "auth_type = any",
      "pool_mode = transaction",
      // After a database restart the pooler logs in again after this many seconds (15 by
      // default, every request failing meanwhile): docs/database-connections.md.
      "server_login_retry = 1",
      // Foreground, logging to stderr: no log or pid file to clean up or to make writable.
      "logfile =",
      "pidfile =",
      "",
    ].join("\n"),
  );

  // PgBouncer refuses to run as root; -u drops to another user once the configuration is read.
  const asRoot = process.getuid?.() === 0;
  const child = spawn(options.binary, [...(asRoot ? ["-u", "nobody"] : []), ini], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (log += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);

  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await rm(workDir, { recursive: true, force: true });
  };

  const running: RunningPgBouncer = {
    url: (database) => `postgresql://${encodeURIComponent(target.user)}@127.0.0.1:${port}/${database}`,
    log: () => log,
    stop,
  };
  try {
    await waitUntilListening(running.url("postgres"), exited);
  } catch (error) {
    await stop();
    throw new Error(`PgBouncer did not start (${(error as Error).message}). Its log:\n${log}`);
  }
  return running;
}

/** A libpq connection string value, quoted. */
const quote = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

/** Until a query through it answers, for at most 10 s or until the process exits. */
async function waitUntilListening(url: string, exited: Promise<number | null>): Promise<void> {
  let gone: number | null | undefined;
  void exited.then((code) => (gone = code));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (gone !== undefined) throw new Error(`it exited with code ${gone}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
