const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads `read` until it gives the same number twice in a row `intervalMs` apart: the server
 * has finished the requests it was still processing when the load generator hung up. Gives up
 * after `timeoutMs` and returns the last value with steady: false.
 */
export async function waitUntilSteady(
  read: () => Promise<number>,
  { intervalMs = 250, timeoutMs = 15_000 } = {},
): Promise<{ value: number; steady: boolean }> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  for (;;) {
    await sleep(intervalMs);
    const value = await read();
    if (value === last) return { value, steady: true };
    if (Date.now() > deadline) return { value, steady: false };
    last = value;
  }
}

/** Polls `done` until it is true or `timeoutMs` passes; how long it took (ms), or undefined if it never was. */
export async function waitFor(
  done: () => Promise<boolean>,
  { intervalMs = 100, timeoutMs = 120_000 } = {},
): Promise<number | undefined> {
  const started = Date.now();
  for (;;) {
    if (await done()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) return undefined;
    await sleep(intervalMs);
  }
}
