import { ADDRESSES_FLASH } from "@/lib/accounts/account-flash";
import { setDefaultAddress, type SavedAddress } from "@/lib/accounts/addresses";
import { db } from "@/lib/db/client";
import { ACCOUNT_PAGE, accountAction } from "@/lib/http/account-requests";

// POST /api/account/addresses/<id>/default: "Tornar principal", the signed-in shopper's address
// `id` becomes the one the checkout fills in (lib/accounts/addresses.ts); 404 for an address that
// is not theirs. The button on /account posts here and goes back to its list.
export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return accountAction<SavedAddress>(request, {
    page: ACCOUNT_PAGE,
    flash: ADDRESSES_FLASH,
    done: "made_default",
    action: async (shopper) => {
      const result = await setDefaultAddress(db(), shopper.id, id);
      return result.ok ? { ok: true, value: result.address } : result;
    },
    json: (address) => ({ address }),
  });
}
