/**
 * Start-up and shut-down for scripts that start servers and scratch databases (the e2e
 * server, the benchmarks): whatever ends the process (the work finishing, a failure, SIGINT
 * or SIGTERM) runs every cleanup once, newest first, so what started last stops first
 * (Next before the database it uses), then exits.
 */
export interface ProcessLifetime {
  onStop(cleanup: () => Promise<void>): void;
  /** True once stopping has begun, so slow start-up steps can give up early. */
  readonly stopping: boolean;
  stop(exitCode: number): Promise<void>;
}

export function manageProcessLifetime(options: { name: string; exitCodeOnSignal: number }): ProcessLifetime {
  const cleanups: (() => Promise<void>)[] = [];
  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    for (const cleanup of [...cleanups].reverse()) {
      await cleanup().catch((error: unknown) => console.error(`[${options.name}] while stopping:`, error));
    }
    process.exit(exitCode);
  };
  process.once("SIGINT", () => void stop(options.exitCodeOnSignal));
  process.once("SIGTERM", () => void stop(options.exitCodeOnSignal));
  return {
    onStop: (cleanup) => void cleanups.push(cleanup),
    get stopping() {
      return stopping;
    },
    stop,
  };
}

/**
 * Runs `main`. When it returns an exit code, stops with it; when it returns nothing, what it
 * started keeps running until a signal. A failure prints its message and stops with 1.
 */
export function runUntilStopped(lifetime: ProcessLifetime, name: string, main: () => Promise<number | void>): void {
  main().then(
    (exitCode) => (exitCode === undefined ? undefined : lifetime.stop(exitCode)),
    async (error: unknown) => {
      console.error(`[${name}] ${error instanceof Error ? error.message : String(error)}`);
      await lifetime.stop(1);
    },
  );
}
