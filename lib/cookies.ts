/**
 * The one shape of the shop's cookies (cart, shopper, language): httpOnly, sent on top-level
 * navigations (lax), secure on an https shop. Framework-free, no Node modules: i18n imports it.
 */
export function shopCookie(name: string, value: string, appUrl: string, maxAgeSeconds: number) {
  return {
    name,
    value,
    httpOnly: true,
    sameSite: "lax" as const,
    secure: appUrl.startsWith("https://"),
    path: "/",
    maxAge: maxAgeSeconds,
  };
}
