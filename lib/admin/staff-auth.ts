import "server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { admin } from "better-auth/plugins/admin";
import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";
import { twoFactor } from "better-auth/plugins/two-factor";
import { db, type Database } from "../db/client";
import { getEnv } from "../env";
import { dictionary } from "../i18n/dictionaries";

/**
 * The back office's people, by better-auth (its Prisma adapter, admin and two-factor plugins):
 * an account each, signed in by e-mail and password (and an authenticator's code when the person
 * or the owner asks for it), sessions as rows for eight hours. It is another instance than the
 * shoppers' (lib/accounts/auth.ts): its own tables, secret (ADMIN_SESSION_SECRET) and cookie.
 * Nothing of it is mounted as HTTP: the back office's own routes (lib/http/admin-sign-in.ts) call
 * its API on the server, under the shop's limits, refusals and logs, and carry its session in the
 * back office's `__Host-` cookie (lib/admin/staff-session.ts); the roles' table is lib/admin/roles.ts.
 */

/** A working day: the session's life, not extended by use. */
export const STAFF_SESSION_SECONDS = 8 * 3600;
/** The shortest password a person may be given (the owner's from ADMIN_PASSWORD follows lib/env-rules.ts). */
export const MIN_STAFF_PASSWORD_LENGTH = 12;
export const MAX_STAFF_PASSWORD_LENGTH = 1024;
/** Not a route: better-auth needs a base path for the URLs it would build. */
const STAFF_AUTH_BASE_PATH = "/api/admin/auth";

// The admin plugin's permissions for the two roles; what each may open in the shop is lib/admin/roles.ts.
const ac = createAccessControl(defaultStatements);
const roles = { owner: ac.newRole(adminAc.statements), staff: ac.newRole({ user: [], session: [] }) };

export interface StaffAuthOptions {
  db: Database;
  secret: string;
  appUrl: string;
  /** The issuer an authenticator app shows beside the code: the shop's name. */
  issuer: string;
}

export function createStaffAuth(options: StaffAuthOptions) {
  return betterAuth({
    appName: options.issuer,
    baseURL: options.appUrl,
    basePath: STAFF_AUTH_BASE_PATH,
    secret: options.secret,
    trustedOrigins: [new URL(options.appUrl).origin],
    telemetry: { enabled: false },
    database: prismaAdapter(options.db, { provider: "postgresql" }),
    user: { modelName: "staff" },
    session: {
      modelName: "staffSession",
      fields: { userId: "staffId" },
      expiresIn: STAFF_SESSION_SECONDS,
      // Never extended: a session ends eight hours after the sign-in, used or not.
      updateAge: STAFF_SESSION_SECONDS + 60,
      disableSessionRefresh: true,
      // Every request reads the row: disabling a person, a new role or password ends their
      // sessions at once, which a session cached in a cookie would outlive.
      cookieCache: { enabled: false },
    },
    account: { modelName: "staffLogin", fields: { userId: "staffId" } },
    verification: { modelName: "staffVerification" },
    emailAndPassword: {
      enabled: true,
      // People are added by the owner (lib/admin/people.ts), never by signing up.
      disableSignUp: true,
      minPasswordLength: 1,
      maxPasswordLength: MAX_STAFF_PASSWORD_LENGTH,
    },
    rateLimit: { enabled: true, storage: "database", modelName: "authRateLimit", window: 60, max: 60 },
    advanced: {
      cookiePrefix: "shop-admin",
      // The names better-auth reads and writes stay on the server: the browser gets the back
      // office's own `__Host-` cookie (lib/admin/staff-session.ts).
      useSecureCookies: false,
      disableOriginCheck: false,
      disableCSRFCheck: false,
    },
    logger: { disabled: true },
    onAPIError: { throw: true },
    plugins: [
      admin({ ac, roles, defaultRole: "staff", adminRoles: ["owner"], bannedUserMessage: "this person is disabled" }),
      twoFactor({
        issuer: options.issuer,
        // The app's first code confirms it before two-factor is on.
        skipVerificationOnEnable: false,
        schema: { twoFactor: { modelName: "staffTwoFactor", fields: { userId: "staffId" } } },
      }),
    ],
  });
}

export type StaffAuth = ReturnType<typeof createStaffAuth>;

let shared: StaffAuth | null | undefined;

/** The app's one back-office auth; undefined while the back office is off (no ADMIN_PASSWORD). */
export function staffAuth(): StaffAuth | undefined {
  if (shared === undefined) {
    const env = getEnv();
    shared = env.admin
      ? createStaffAuth({
          db: db(),
          secret: env.admin.sessionSecret,
          appUrl: env.appUrl,
          issuer: dictionary("pt").shop.name,
        })
      : null;
  }
  return shared ?? undefined;
}
