import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time used by the processes on this machine during a run, from /proc (Linux only;
 * elsewhere every figure is undefined). It tells where a run's time went — the server under
 * test, the PostgreSQL backends, this process (load generator, sandbox, PGlite) — and how much
 * of the machine unrelated processes took, which makes a run's figures worth less.
 */

/** CPU milliseconds so far, and the parent, of every process. */
export type CpuSnapshot = Map<number, { command: string; parent: number; ms: number; title?: string }>;

/** /proc reports CPU time in USER_HZ ticks, 100 per second on Linux. */
const MS_PER_TICK = 10;

export function cpuSnapshot(): CpuSnapshot | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const snapshot: CpuSnapshot = new Map();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (command) state ppid … utime stime …": the command may contain spaces and parentheses.
      const close = stat.lastIndexOf(")");
      const fields = stat.slice(close + 2).split(" ");
      const command = stat.slice(stat.indexOf("(") + 1, close);
      snapshot.set(Number(entry), {
        command,
        parent: Number(fields[1]),
        ms: (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK,
        // A backend's title names its database: "postgres: 15/main: user dbname 127.0.0.1(port) idle".
        title: command === "postgres" ? readFileSync(`/proc/${entry}/cmdline`, "utf8") : undefined,
      });
    } catch {
      // The process ended while we were reading.
    }
  }
  return snapshot;
}

export interface CpuUse {
  /** The target's process and its children. */
  server: number;
  /**
   * PostgreSQL's backends for the bench's database and its shared processes (WAL writer,
   * checkpointer…); none with PGlite, which runs in the bench process.
   */
  database: number;
  /** The bench process: load generator, sandbox, and PGlite when DATABASE_URL is unset. */
  bench: number;
  /** Everything else: other people's work on a shared machine. */
  others: number;
  /** Wall-clock milliseconds between the snapshots. */
  wallMs: number;
}

/** CPU milliseconds each group used between two snapshots; processes started in between count whole. */
export function cpuUse(
  before: CpuSnapshot | undefined,
  after: CpuSnapshot | undefined,
  serverPid: number | undefined,
  /** The bench's database on a local PostgreSQL server; undefined with PGlite. */
  databaseName: string | undefined,
  wallMs: number,
): CpuUse | undefined {
  if (!before || !after || serverPid === undefined) return undefined;
  const within = (pid: number, root: number): boolean => {
    for (let current: number | undefined = pid, hops = 0; current && hops < 20; hops++) {
      if (current === root) return true;
      current = after.get(current)?.parent;
    }
    return false;
  };
  const use: CpuUse = { server: 0, database: 0, bench: 0, others: 0, wallMs };
  for (const [pid, process] of after) {
    const ms = process.ms - (before.get(pid)?.ms ?? 0);
    if (ms <= 0) continue;
    if (within(pid, serverPid)) use.server += ms;
    else if (process.command === "postgres" && databaseName && isOurs(process.title ?? "", databaseName))
      use.database += ms;
    else if (pid === globalThis.process.pid) use.bench += ms;
    else use.others += ms;
  }
  return use;
}

/** A backend of another database is someone else's work; a process serving none is shared. */
function isOurs(title: string, databaseName: string): boolean {
  const backend = /^postgres: [^:]+: \S+ (\S+) (?:\S+\(\d+\)|\[local\])/.exec(title.replace(/\0/g, " "));
  return !backend || backend[1] === databaseName;
}
