import type { NextRequest } from "next/server";
import { accountPasswordAction } from "@/lib/http/account-actions";

// The password form of /admin/account, or JSON: { currentPassword, newPassword }.
export const dynamic = "force-dynamic";

export function POST(request: NextRequest) {
  return accountPasswordAction(request);
}
