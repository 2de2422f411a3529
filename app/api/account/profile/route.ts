import { PROFILE_FLASH } from "@/lib/accounts/account-flash";
import { updateShopperProfile, type ShopperProfile } from "@/lib/accounts/shopper-profile";
import { db } from "@/lib/db/client";
import { ACCOUNT_PAGE, accountAction, MAX_ACCOUNT_FORM_BYTES } from "@/lib/http/account-requests";

// POST /api/account/profile: the signed-in shopper's name, e-mail and NIF
// (lib/accounts/shopper-profile.ts, the checkout's rules). The form on /account posts here; a
// JSON client gets the profile. A field left out stays as it is; an empty one is cleared.
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return accountAction<ShopperProfile>(request, {
    page: ACCOUNT_PAGE,
    flash: PROFILE_FLASH,
    done: "saved",
    maxBytes: MAX_ACCOUNT_FORM_BYTES,
    action: async (shopper, input) => {
      const result = await updateShopperProfile(db(), shopper.id, input);
      return result.ok ? { ok: true, value: result.profile } : result;
    },
    json: (profile) => ({ profile }),
  });
}
