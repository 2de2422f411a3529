/**
 * Who may open what in the back office: the one table of every back-office page and API route
 * with the roles allowed, read by the guards on the server for every request
 * (lib/http/admin-guard.ts) and by the navigation, which shows only what the person may open. A
 * page or route the table does not name is refused to everyone, the owner included, so a new one
 * is closed until it is added here (tests/unit/admin-roles.test.ts walks app/ for them).
 */

export const ROLES = ["owner", "staff"] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

const OWNER: readonly Role[] = ["owner"];
const EVERYONE: readonly Role[] = ["owner", "staff"];

/**
 * A back-office address as app/ names it (`[id]` for a segment), without the language, with the
 * roles allowed and, for an API route, its methods. Staff: orders (list, open, fulfil, mark
 * delivered or collected, notes, message the customer), products and stock, categories, their own
 * account. Everything else (money figures, exports, promo codes, delivery, resolutions of money
 * matters, payment events, people, the activity record, settings) is the owner's.
 */
export interface Access {
  path: string;
  methods?: readonly string[];
  roles: readonly Role[];
  /** Why it is the owner's alone, when it is: the docs' table says it. */
  why?: string;
}

export const BACK_OFFICE_PAGES: readonly Access[] = [
  { path: "/admin", roles: EVERYONE },
  { path: "/admin/orders", roles: EVERYONE },
  { path: "/admin/orders/[externalTransactionId]", roles: EVERYONE },
  { path: "/admin/products", roles: EVERYONE },
  { path: "/admin/products/new", roles: EVERYONE },
  { path: "/admin/products/[id]", roles: EVERYONE },
  { path: "/admin/categories", roles: EVERYONE },
  { path: "/admin/categories/[id]", roles: EVERYONE },
  { path: "/admin/account", roles: EVERYONE },
  { path: "/admin/catalogue", roles: OWNER, why: "the catalogue's CSV: every product and price out, or in at once" },
  { path: "/admin/delivery", roles: OWNER, why: "delivery zones, fees and pickup points" },
  { path: "/admin/promo-codes", roles: OWNER, why: "promo codes" },
  { path: "/admin/webhooks/[id]", roles: OWNER, why: "the payment service's events" },
  { path: "/admin/people", roles: OWNER, why: "people and their roles" },
  { path: "/admin/activity", roles: OWNER, why: "who did what" },
];

export const BACK_OFFICE_ROUTES: readonly Access[] = [
  // Signing in is for anyone (its own limits); signing out for whoever holds a session.
  { path: "/api/admin/session", methods: ["POST", "DELETE"], roles: EVERYONE },
  { path: "/api/admin/session/two-factor", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/session/sign-out", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/session/sign-out-everywhere", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/account", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/account/two-factor", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/orders/[externalTransactionId]/fulfilment", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/orders/[externalTransactionId]/refresh", methods: ["POST"], roles: EVERYONE },
  {
    path: "/api/admin/orders/[externalTransactionId]/resolve",
    methods: ["POST"],
    roles: OWNER,
    why: "a resolution settles money (a payment after a cancellation)",
  },
  {
    path: "/api/admin/orders/[externalTransactionId]/refunds",
    methods: ["POST"],
    roles: OWNER,
    why: "a refund gives the shop's money back",
  },
  {
    path: "/api/admin/orders/[externalTransactionId]/refunds/[number]/correction",
    methods: ["POST"],
    roles: OWNER,
    why: "a refund's correcting entry",
  },
  {
    path: "/api/admin/orders/[externalTransactionId]/fulfil-after-cancel",
    methods: ["POST"],
    roles: OWNER,
    why: "fulfilling an order paid after its cancellation settles its money",
  },
  {
    path: "/api/admin/orders/[externalTransactionId]/jobs/[jobId]/resolve",
    methods: ["POST"],
    roles: OWNER,
    why: "a parked job's resolution",
  },
  {
    path: "/api/admin/orders/[externalTransactionId]/jobs/[jobId]/retry",
    methods: ["POST"],
    roles: OWNER,
    why: "a parked job's retry",
  },
  { path: "/api/admin/orders/export", methods: ["GET"], roles: OWNER, why: "every customer's name and phone" },
  { path: "/api/admin/refunds/export", methods: ["GET"], roles: OWNER, why: "the money given back" },
  { path: "/api/admin/products", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/archive", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/restore", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/stock", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/options", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/variants", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/variants/[variantId]/archive", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/variants/[variantId]/restore", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/gallery", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/gallery/[imageId]", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/gallery/[imageId]/move", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/products/[id]/gallery/[imageId]/delete", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/categories", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/categories/[id]", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/categories/[id]/delete", methods: ["POST"], roles: EVERYONE },
  { path: "/api/admin/catalogue/export", methods: ["GET"], roles: OWNER, why: "every product and price" },
  { path: "/api/admin/catalogue/import", methods: ["POST"], roles: OWNER, why: "every product and price at once" },
  { path: "/api/admin/dashboard/export", methods: ["GET"], roles: OWNER, why: "the money figures" },
  { path: "/api/admin/delivery-zones", methods: ["POST"], roles: OWNER, why: "delivery zones and fees" },
  { path: "/api/admin/delivery-zones/[id]", methods: ["POST"], roles: OWNER, why: "delivery zones and fees" },
  { path: "/api/admin/pickup-points", methods: ["POST"], roles: OWNER, why: "pickup points" },
  { path: "/api/admin/pickup-points/[id]", methods: ["POST"], roles: OWNER, why: "pickup points" },
  { path: "/api/admin/promo-codes", methods: ["POST"], roles: OWNER, why: "promo codes" },
  { path: "/api/admin/promo-codes/[id]", methods: ["POST"], roles: OWNER, why: "promo codes" },
  { path: "/api/admin/webhooks/[id]/resolve", methods: ["POST"], roles: OWNER, why: "the payment service's events" },
  { path: "/api/admin/people", methods: ["POST"], roles: OWNER, why: "people and their roles" },
  { path: "/api/admin/people/[id]", methods: ["POST"], roles: OWNER, why: "people and their roles" },
  { path: "/api/admin/activity/export", methods: ["GET"], roles: OWNER, why: "who did what" },
  { path: "/api/admin/settings", methods: ["POST"], roles: OWNER, why: "the back office's settings" },
];

/** Whether `path` (a real address, no query) is the table's `pattern`, `[x]` standing for one segment. */
function matches(pattern: string, path: string): boolean {
  const want = pattern.split("/");
  const got = path.replace(/\/+$/, "").split("/");
  return (
    want.length === got.length && want.every((part, i) => (/^\[[^\]]+\]$/.test(part) ? got[i] !== "" : part === got[i]))
  );
}

/** The entry of `table` for a request's path and method, or undefined (refused to everyone). */
export function accessOf(table: readonly Access[], path: string, method?: string): Access | undefined {
  return table.find(
    (entry) => matches(entry.path, path) && (!method || !entry.methods || entry.methods.includes(method.toUpperCase())),
  );
}

/** Whether `role` may open the back-office page `path` (a real address or the table's own pattern). */
export const mayOpenPage = (role: Role, path: string): boolean =>
  accessOf(BACK_OFFICE_PAGES, path)?.roles.includes(role) ?? false;

/** Whether `role` may call the back-office route `path` with `method`. */
export const mayCallRoute = (role: Role, path: string, method: string): boolean =>
  accessOf(BACK_OFFICE_ROUTES, path, method)?.roles.includes(role) ?? false;

/** Whether `role` sees the shop's money figures (the dashboard's revenue, the day's and month's takings). */
export const seesMoney = (role: Role): boolean => role === "owner";
