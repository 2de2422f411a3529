/** A bound on how long the shop waits for a task that may never finish: {@link withTimeout}. */

/** What withTimeout rejects with when `ms` ran out (unless the caller names its own error). */
export class TimeoutError extends Error {
  override name = "TimeoutError";
}

/**
 * Rejects after `ms` and aborts the signal the task was given. A task cannot be killed, so one
 * that ignores the signal keeps running in the background; its result is ignored, and a late
 * failure is not an unhandled rejection.
 */
export async function withTimeout<T>(
  ms: number,
  task: (signal: AbortSignal) => Promise<T>,
  timeoutError: () => Error = () => new TimeoutError(`timed out after ${ms} ms`),
): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = timeoutError();
      controller.abort(error);
      reject(error);
    }, ms);
  });
  const running = task(controller.signal);
  running.catch(() => {});
  try {
    return await Promise.race([running, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
