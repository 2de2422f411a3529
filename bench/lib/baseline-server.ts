import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ShopSettings } from "./scenario";

export interface RunningBaseline {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

const BASELINE_PROCESS = fileURLToPath(new URL("./baseline-process.ts", import.meta.url));

/**
 * Starts the baseline server (baseline-process.ts) in a child process, with as many database
 * connections as the app's pool, so both sides have the same database capacity.
 */
export function startBaselineServer(options: {
  databaseUrl: string;
  poolMax: number;
  scenarioNames: string[];
  shop: ShopSettings;
}): Promise<RunningBaseline> {
  // fork() passes on this process's execArgv: tsx's loader, so the child runs TypeScript too.
  const child = fork(BASELINE_PROCESS, [], {
    env: {
      ...process.env,
      BASELINE_DATABASE_URL: options.databaseUrl,
      BASELINE_POOL_MAX: String(options.poolMax),
      // The webhook secret and the sandbox's credentials, as the app has them in its environment.
      BASELINE_SHOP: JSON.stringify(options.shop),
      BENCH_SCENARIOS: options.scenarioNames.join(","),
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    void exited.then(() => reject(new Error("the baseline server exited before it was listening")));
    child.once("message", (message) => {
      const { port } = message as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid: child.pid,
        async stop() {
          if (child.connected) child.disconnect();
          await exited;
        },
      });
    });
  });
}
