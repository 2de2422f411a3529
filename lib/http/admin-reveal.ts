import "server-only";
import { randomUUID } from "node:crypto";
import { cookies } from "next/headers";
import { sealData, unsealData } from "iron-session";
import { z } from "zod";
import { getEnv } from "../env";
import { adminCookie, adminCookieName } from "../admin/staff-session";

/**
 * Secrets a back-office page shows after its form's redirect, never in an address: a password
 * the shop made up for a person, the backup codes of a new authenticator, the authenticator's
 * secret while it waits for its first code. Each travels in a cookie sealed (iron-session, under
 * ADMIN_SESSION_SECRET), httpOnly, SameSite=Strict, for the person who asked alone.
 *
 * A revealed secret is shown once: its cookie lives {@link REVEAL_SECONDS}, and the page shows it
 * only when its address names the cookie's random id (`?reveal=<id>`), which the page then takes
 * out of the address (components/admin/reveal-once.tsx): a reload, the back button or a link
 * shows nothing. The authenticator's secret stays for {@link TWO_FACTOR_SETUP_SECONDS}, so a
 * mistyped first code can be typed again.
 */

export const REVEAL_COOKIE = "admin_reveal";
/** Long enough for the redirect that follows the form, short enough not to linger. */
export const REVEAL_SECONDS = 120;
export const TWO_FACTOR_SETUP_COOKIE = "admin_two_factor_setup";
export const TWO_FACTOR_SETUP_SECONDS = 10 * 60;

const revealSchema = z.object({
  v: z.literal(1),
  id: z.uuid(),
  /** The person who asked: nobody else's page shows it. */
  for: z.string(),
  secret: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("password"), personId: z.string(), password: z.string() }),
    z.object({ kind: z.literal("backup_codes"), codes: z.array(z.string()) }),
  ]),
});
export type Revealed = z.infer<typeof revealSchema>["secret"];

const setupSchema = z.object({ v: z.literal(1), for: z.string(), totpURI: z.string().startsWith("otpauth://") });

const secretOf = () => getEnv().admin!.sessionSecret;

/** A cookie that reveals `secret` once to `actorId`, and the id the page's address names it by. */
export async function revealCookie(
  actorId: string,
  secret: Revealed,
): Promise<{ id: string; cookie: ReturnType<typeof adminCookie> }> {
  const id = randomUUID();
  const sealed = await sealData({ v: 1, id, for: actorId, secret }, { password: secretOf(), ttl: REVEAL_SECONDS });
  return { id, cookie: adminCookie(REVEAL_COOKIE, sealed, getEnv().appUrl, REVEAL_SECONDS) };
}

/** The authenticator's secret waiting for its first code, for `actorId`'s account page. */
export async function twoFactorSetupCookie(actorId: string, totpURI: string) {
  const sealed = await sealData(
    { v: 1, for: actorId, totpURI },
    { password: secretOf(), ttl: TWO_FACTOR_SETUP_SECONDS },
  );
  return adminCookie(TWO_FACTOR_SETUP_COOKIE, sealed, getEnv().appUrl, TWO_FACTOR_SETUP_SECONDS);
}

/** `name`'s cookie, emptied and expired. */
export const clearedCookie = (name: typeof REVEAL_COOKIE | typeof TWO_FACTOR_SETUP_COOKIE) => ({
  ...adminCookie(name, "", getEnv().appUrl, 0),
  maxAge: 0,
});

async function unsealed<T>(name: string, schema: z.ZodType<T>, ttl: number): Promise<T | undefined> {
  const admin = getEnv().admin;
  const value = (await cookies()).get(adminCookieName(name, getEnv().appUrl))?.value;
  if (!admin || !value) return undefined;
  const parsed = schema.safeParse(await unsealData(value, { password: admin.sessionSecret, ttl }));
  return parsed.success ? parsed.data : undefined;
}

/** For a page: the secret its address names (`?reveal=<id>`), when it was revealed to `actorId`. */
export async function revealedTo(actorId: string, id: unknown): Promise<Revealed | undefined> {
  if (typeof id !== "string") return undefined;
  const reveal = await unsealed(REVEAL_COOKIE, revealSchema, REVEAL_SECONDS);
  return reveal && reveal.id === id && reveal.for === actorId ? reveal.secret : undefined;
}

/** For the account page: the otpauth:// address of `actorId`'s authenticator waiting for its first code. */
export async function pendingTwoFactorSetup(actorId: string): Promise<string | undefined> {
  const setup = await unsealed(TWO_FACTOR_SETUP_COOKIE, setupSchema, TWO_FACTOR_SETUP_SECONDS);
  return setup && setup.for === actorId ? setup.totpURI : undefined;
}
