import { expiredSessionCookies } from "@/lib/accounts/current-shopper";
import { deleteShopper } from "@/lib/accounts/shopper-profile";
import { db } from "@/lib/db/client";
import { ACCOUNT_PAGE, accountAction } from "@/lib/http/account-requests";

// POST /api/account/delete: "Apagar a minha conta" (lib/accounts/shopper-profile.ts deleteShopper):
// the account, its saved addresses and every session of it are gone, and this browser's session
// cookie is expired. The orders its phone placed stay, as the shop's records. The account page
// asks first, then clears this browser's kept order pages itself (components/accounts/session-actions.tsx).
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return accountAction<null>(request, {
    page: ACCOUNT_PAGE,
    donePage: () => "/",
    action: async (shopper) => {
      const result = await deleteShopper(db(), shopper.id);
      if (!result.ok) return result;
      return { ok: true, value: null, cookies: await expiredSessionCookies() };
    },
    json: () => ({ deleted: true }),
  });
}
