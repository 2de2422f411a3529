import { z } from "zod";

/**
 * Settings the control API may change while the sandbox runs (`POST /__sandbox/settings`),
 * and that startSandbox takes as initial values. One schema validates both, so a value the
 * control API refuses cannot sneak in through code either.
 */

export const SIGNATURE_ENCODINGS = ["hex", "base64"] as const;

export const settingsSchema = z.strictObject({
  /** Upper bound of the lifetime of issued tokens, in seconds. */
  tokenLifetimeSeconds: z
    .int()
    .min(1)
    .max(365 * 24 * 3600),
  /** The one webhook URL of the account (contract 4.2 B); null records notifications as dropped. */
  webhookUrl: z.url({ protocol: /^https?$/, error: "webhookUrl must be an http(s) URL or null" }).nullable(),
  /** How the HMAC-SHA256 digest is written in x-pay-content-token (the contract does not say, 5.2). */
  signatureEncoding: z.enum(SIGNATURE_ENCODINGS),
  /** Whether the digest is preceded by `sha256=`. */
  signaturePrefix: z.boolean(),
  /** A reply later than this is a failed attempt (contract 6.1: 200 within 5 seconds). */
  webhookTimeoutMs: z.int().min(1).max(60_000),
  /** The wait before the second attempt; it doubles before each later one. */
  webhookRetryBaseMs: z.int().min(1).max(3_600_000),
  /** Attempts of one delivery, the first included, before it is `failed`. */
  webhookMaxAttempts: z.int().min(1).max(20),
});

export type SandboxSettings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Readonly<SandboxSettings> = {
  tokenLifetimeSeconds: 3600,
  webhookUrl: null,
  signatureEncoding: "hex",
  signaturePrefix: false,
  webhookTimeoutMs: 5000,
  webhookRetryBaseMs: 1000,
  webhookMaxAttempts: 6,
};

/** A change of some settings, as the control API accepts it. */
export const settingsChangeSchema = settingsSchema.partial();

/** The defaults with `given` applied; a RangeError naming every bad value otherwise. */
export function resolveSettings(given: Partial<SandboxSettings>): SandboxSettings {
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  const parsed = settingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...defined });
  if (parsed.success) return parsed.data;
  throw new RangeError(
    `invalid sandbox settings: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
  );
}
