import { ADDRESSES_FLASH } from "@/lib/accounts/account-flash";
import { saveAddress, type SavedAddress } from "@/lib/accounts/addresses";
import { db } from "@/lib/db/client";
import { withFlash } from "@/lib/flash";
import { accountAction, makesDefault, MAX_ACCOUNT_FORM_BYTES } from "@/lib/http/account-requests";

// POST /api/account/addresses: a new saved delivery address for the signed-in shopper
// (lib/accounts/addresses.ts: the checkout's address rules, at most ten, the first or a
// `makeDefault` one the default). The form of /account/addresses/new posts here and goes back to
// /account; a JSON client gets 201 and the address.
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return accountAction<SavedAddress>(request, {
    page: "/account/addresses/new",
    donePage: () => withFlash("/account", { [ADDRESSES_FLASH.done]: "saved" }, ADDRESSES_FLASH.hash),
    maxBytes: MAX_ACCOUNT_FORM_BYTES,
    action: async (shopper, input) => {
      const result = await saveAddress(db(), shopper.id, input, { makeDefault: makesDefault(input) });
      return result.ok ? { ok: true, value: result.address } : result;
    },
    json: (address) => ({ address }),
    jsonStatus: 201,
  });
}
