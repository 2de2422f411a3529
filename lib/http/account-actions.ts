import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { adminAction, formBody, type ActionRefusal } from "./admin-action";
import { withQueryParameter } from "./return-path";
import { clearedCookie, revealCookie, TWO_FACTOR_SETUP_COOKIE, twoFactorSetupCookie } from "./admin-reveal";
import {
  ACCOUNT_PAGE,
  changeOwnPassword,
  changeOwnTwoFactor,
  type AccountDeps,
  type PasswordResult,
  type TwoFactorResult,
} from "../admin/account";
import { staffAuth } from "../admin/staff-auth";
import type { Actor } from "../admin/staff-events";
import { adminSessionCookie, adminSessionCookieName, staffSessionOf } from "../admin/staff-session";
import { db } from "../db/client";
import { getEnv } from "../env";
import type { FlashKeys } from "../flash";

/**
 * A person's own account (app/api/admin/account): the password, and two-factor sign-in, through
 * the one back-office action. The authenticator's secret waits for its first code in a sealed
 * cookie, the backup codes are shown once (./admin-reveal.ts); confirming the first code gives the
 * person a new session (better-auth opens one in place of the old), carried in their cookie.
 */

const MAX_ACCOUNT_BODY_BYTES = 8 * 1024;
const PASSWORD_FLASH: FlashKeys = { done: "done", error: "error", field: "field", hash: "#password" };
const TWO_FACTOR_FLASH: FlashKeys = { ...PASSWORD_FLASH, hash: "#two-factor" };
const NO_STORE = { "Cache-Control": "no-store" };

const sessionGone: ActionRefusal = {
  ok: false,
  status: 401,
  code: "unauthorized",
  message: "sign in to the back office first",
};

/** What an account's change needs of the request: the person's session, as the guard found it a moment ago. */
async function depsOf(request: NextRequest, actor: Actor): Promise<AccountDeps | undefined> {
  const auth = staffAuth()!;
  const cookie = request.cookies.get(adminSessionCookieName(getEnv().appUrl))?.value;
  const read = cookie ? await staffSessionOf(auth, cookie) : undefined;
  if (!cookie || !read || read.actor.id !== actor.id) return undefined;
  return { db: db(), auth, actor, session: { ...read.session, cookie } };
}

/** POST /api/admin/account: `{ currentPassword, newPassword }`; the person's other sessions end. */
export const accountPasswordAction = (request: NextRequest) =>
  adminAction<PasswordResult | ActionRefusal>(request, {
    changesShopPages: false,
    page: ACCOUNT_PAGE,
    flash: PASSWORD_FLASH,
    body: formBody(MAX_ACCOUNT_BODY_BYTES),
    action: async ({ fields }, { actor }) => {
      const deps = await depsOf(request, actor);
      return deps ? changeOwnPassword(fields, deps) : sessionGone;
    },
    json: (result) => ({ status: 200, body: { done: result.done, otherSessionsEnded: result.otherSessionsEnded } }),
  });

/**
 * POST /api/admin/account/two-factor: `{ action: "enable", password }` answers the authenticator's
 * otpauth:// address (a browser sees it on the page, with its secret to type); `{ action:
 * "confirm", code }` turns it on and answers the backup codes, once; `{ action: "disable",
 * password }` turns it off.
 */
export async function accountTwoFactorAction(request: NextRequest): Promise<Response> {
  const cookies: ReturnType<typeof adminSessionCookie>[] = [];
  let reveal: string | undefined;
  const response = await adminAction<TwoFactorResult | ActionRefusal>(request, {
    changesShopPages: false,
    page: ACCOUNT_PAGE,
    flash: TWO_FACTOR_FLASH,
    body: formBody(MAX_ACCOUNT_BODY_BYTES),
    action: async ({ fields }, { browser, actor }) => {
      const deps = await depsOf(request, actor);
      if (!deps) return sessionGone;
      const result = await changeOwnTwoFactor(fields, deps);
      if (!result.ok) return result;
      if (result.done === "two_factor_started") {
        if (browser) cookies.push(await twoFactorSetupCookie(actor.id, result.totpURI));
      } else {
        cookies.push(clearedCookie(TWO_FACTOR_SETUP_COOKIE));
      }
      if (result.done === "two_factor_on") {
        // The old session is gone: the cookie carries the one better-auth opened in its place.
        cookies.push(adminSessionCookie(result.sessionCookie, getEnv().appUrl));
        if (browser) {
          const revealed = await revealCookie(actor.id, { kind: "backup_codes", codes: result.backupCodes });
          cookies.push(revealed.cookie);
          reveal = revealed.id;
        }
      }
      return result;
    },
    donePage: () => (reveal ? withQueryParameter(ACCOUNT_PAGE, "reveal", reveal) : ACCOUNT_PAGE),
    json: (result) => ({
      status: 200,
      headers: NO_STORE,
      body:
        result.done === "two_factor_started"
          ? { done: result.done, totpURI: result.totpURI, secret: new URL(result.totpURI).searchParams.get("secret") }
          : result.done === "two_factor_on"
            ? { done: result.done, twoFactorEnabled: true, backupCodes: result.backupCodes }
            : { done: result.done, twoFactorEnabled: false },
    }),
  });
  if (response instanceof NextResponse) for (const cookie of cookies) response.cookies.set(cookie);
  return response;
}
