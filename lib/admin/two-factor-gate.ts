/**
 * The owner's "two-factor for everyone" (lib/admin/settings.ts), as the guards apply it: while it
 * is on, a signed-in person whose authenticator is off may open their own account's page (to turn
 * it on) and sign out, and nothing else. Pure, so the guards of pages and of routes share it.
 */

/** Where a person without two-factor is sent while the owner requires it. */
export const TWO_FACTOR_PAGE = "/admin/account";

/** The pages such a person may still open, as lib/admin/roles.ts names them. */
export const PAGES_WITHOUT_TWO_FACTOR: readonly string[] = [TWO_FACTOR_PAGE];

/** The routes they may still call: their account (password, authenticator) and signing out. */
export const ROUTES_WITHOUT_TWO_FACTOR: readonly string[] = [
  "/api/admin/account",
  "/api/admin/account/two-factor",
  "/api/admin/session",
  "/api/admin/session/two-factor",
  "/api/admin/session/sign-out",
  "/api/admin/session/sign-out-everywhere",
];

export interface TwoFactorState {
  /** The owner's setting. */
  requireTwoFactor: boolean;
  /** The person's authenticator is on. */
  twoFactorEnabled: boolean;
}

/** Whether the setting keeps this person from a page (`kind: "page"`) or route at `path` (no trailing slash needed). */
export function blockedWithoutTwoFactor(state: TwoFactorState, kind: "page" | "route", path: string): boolean {
  if (!state.requireTwoFactor || state.twoFactorEnabled) return false;
  const open = kind === "page" ? PAGES_WITHOUT_TWO_FACTOR : ROUTES_WITHOUT_TWO_FACTOR;
  return !open.includes(path.replace(/\/+$/, "") || "/");
}
