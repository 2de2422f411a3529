import type { NextRequest } from "next/server";
import { accountTwoFactorAction } from "@/lib/http/account-actions";

// Two-factor sign-in on /admin/account, or JSON: { action: "enable" | "confirm" | "disable", password | code }.
export const dynamic = "force-dynamic";

export function POST(request: NextRequest) {
  return accountTwoFactorAction(request);
}
