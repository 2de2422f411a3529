/**
 * The soak's own PostgreSQL cluster: `initdb` into a temporary folder, started on a free port
 * with `pg_ctl`, so the soak can restart it (`pg_ctl restart -m fast`) without touching anyone
 * else's database. Run as the `postgres` user when the soak runs as root (initdb refuses root).
 * Stopping it deletes the folder.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../harness/free-port";

export interface ThrowAwayCluster {
  /** `postgresql://postgres@127.0.0.1:<port>/<database>`, trust authentication. */
  url(database: string): string;
  port: number;
  /** `pg_ctl restart -m fast`: every connection is cut, the server is back when it resolves. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const CANDIDATE_BIN_DIRS = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"];

/** The folder holding initdb and pg_ctl: POSTGRES_BIN_DIR, else the distribution's newest. */
export function postgresBinDir(): string {
  const dir = process.env.POSTGRES_BIN_DIR ?? CANDIDATE_BIN_DIRS.find((candidate) => existsSync(`${candidate}/initdb`));
  if (!dir || !existsSync(path.join(dir, "pg_ctl")))
    throw new Error("no initdb/pg_ctl found: set POSTGRES_BIN_DIR to the folder that holds them");
  return dir;
}

export async function startThrowAwayCluster(options: { log: (line: string) => void }): Promise<ThrowAwayCluster> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(os.tmpdir(), "soak-postgres-"));
  const data = path.join(dir, "data");
  if (asRoot) await chown(dir, ...(await idsOf("postgres")));
  const run = (file: string, args: string[]) =>
    command(
      asRoot ? "runuser" : path.join(bin, file),
      asRoot ? ["-u", "postgres", "--", path.join(bin, file), ...args] : args,
    );

  await run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  const port = await freePort();
  // fsync off: the soak's restarts are clean shutdowns, and its data is thrown away.
  const serverOptions = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c max_connections=200",
  ].join(" ");
  const pgCtl = (action: string, extra: string[] = []) =>
    run("pg_ctl", [action, "-D", data, "-w", "-t", "60", "-l", path.join(dir, "server.log"), ...extra]);
  await pgCtl("start", ["-o", serverOptions]);
  options.log(`postgres: a throw-away cluster on 127.0.0.1:${port} (${dir})`);
  let stopped = false;
  const killOnExit = () => {
    // A soak that dies without stopping leaves no server behind.
    if (!stopped)
      spawn(
        asRoot ? "runuser" : path.join(bin, "pg_ctl"),
        asRoot
          ? ["-u", "postgres", "--", path.join(bin, "pg_ctl"), "stop", "-D", data, "-m", "immediate"]
          : ["stop", "-D", data, "-m", "immediate"],
        { stdio: "ignore", detached: true },
      );
  };
  process.once("exit", killOnExit);
  return {
    port,
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    restart: async () => void (await pgCtl("restart", ["-m", "fast", "-o", serverOptions])),
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off("exit", killOnExit);
      await pgCtl("stop", ["-m", "fast"]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function idsOf(user: string): Promise<[number, number]> {
  const [uid, gid] = await Promise.all([command("id", ["-u", user]), command("id", ["-g", user])]);
  return [Number(uid.trim()), Number(gid.trim())];
}

/** Runs a command to its end; its output when it succeeds, an error with its output when not. */
function command(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve(output)
        : reject(
            new Error(
              `${path.basename(file === "runuser" ? (args[3] ?? file) : file)} failed (${code}): ${output.trim()}`,
            ),
          ),
    );
  });
}
