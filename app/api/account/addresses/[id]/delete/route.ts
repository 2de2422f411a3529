import { ADDRESSES_FLASH } from "@/lib/accounts/account-flash";
import { deleteAddress } from "@/lib/accounts/addresses";
import { db } from "@/lib/db/client";
import { ACCOUNT_PAGE, accountAction } from "@/lib/http/account-requests";

// POST /api/account/addresses/<id>/delete: "Apagar", the signed-in shopper's address `id` deleted
// (lib/accounts/addresses.ts: a deleted default passes to the newest left); 404 for an address
// that is not theirs. The button on /account posts here and goes back to its list.
export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return accountAction<null>(request, {
    page: ACCOUNT_PAGE,
    flash: ADDRESSES_FLASH,
    done: "deleted",
    action: async (shopper) => {
      const result = await deleteAddress(db(), shopper.id, id);
      return result.ok ? { ok: true, value: null } : result;
    },
    json: () => ({ deleted: true }),
  });
}
