import { ADDRESSES_FLASH } from "@/lib/accounts/account-flash";
import { saveAddress, type SavedAddress } from "@/lib/accounts/addresses";
import { db } from "@/lib/db/client";
import { withFlash } from "@/lib/flash";
import { accountAction, addressPage, makesDefault, MAX_ACCOUNT_FORM_BYTES } from "@/lib/http/account-requests";

// POST /api/account/addresses/<id>: the signed-in shopper's saved address `id` changed
// (lib/accounts/addresses.ts); 404 for an address that is not theirs. The form of
// /account/addresses/<id> posts here and goes back to /account; a JSON client gets the address.
export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return accountAction<SavedAddress>(request, {
    page: addressPage(id),
    donePage: () => withFlash("/account", { [ADDRESSES_FLASH.done]: "saved" }, ADDRESSES_FLASH.hash),
    maxBytes: MAX_ACCOUNT_FORM_BYTES,
    action: async (shopper, input) => {
      const result = await saveAddress(db(), shopper.id, input, { id, makeDefault: makesDefault(input) });
      return result.ok ? { ok: true, value: result.address } : result;
    },
    json: (address) => ({ address }),
  });
}
