import type { NextRequest } from "next/server";
import { settingsAction } from "@/lib/http/people-actions";

// The owner's settings of the back office (on /admin/people), or JSON: { requireTwoFactor }.
export const dynamic = "force-dynamic";

export function POST(request: NextRequest) {
  return settingsAction(request);
}
