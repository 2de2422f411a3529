/**
 * Next.js runs `after()` tasks once the response has been sent, inside its request scope; a
 * route handler called directly by a test has no such scope, and Next's own `after` throws.
 * This stand-in keeps the one property the app relies on — the task runs later, never before
 * the handler has returned its response — and lets a test wait for the tasks to finish.
 * Installed for every test file by tests/setup/env.ts.
 */
const pending = new Set<Promise<void>>();
const failures: unknown[] = [];

export function emulatedAfter(task: Promise<unknown> | (() => unknown)): void {
  const run = new Promise<void>((resolve) => setTimeout(resolve, 0))
    .then(() => (typeof task === "function" ? task() : task))
    .then(
      () => {},
      (error: unknown) => {
        failures.push(error);
      },
    )
    .finally(() => pending.delete(run));
  pending.add(run);
}

/** Waits until every after() task (including ones they schedule) has finished; rethrows the first failure. */
export async function settleAfterTasks(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
  const failure = failures.shift();
  failures.length = 0;
  if (failure) throw failure;
}

export const pendingAfterTasks = () => pending.size;
