/**
 * Structured one-line logs. Callers pass explicit fields (ids, statuses, durations),
 * never headers or bodies: that is how secrets and tokens stay out of the logs.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;
export type Logger = (level: "info" | "warn" | "error", event: string, fields?: LogFields) => void;

export const consoleLogger: Logger = (level, event, fields = {}) => {
  const line = JSON.stringify({ level, event, ...fields });
  if (level === "info") console.log(line);
  else console[level](line);
};

/** What a log line may say about an unexpected error: its class, never its message (which can carry data). */
export const errorKind = (error: unknown) => (error instanceof Error ? error.name : "unknown");
