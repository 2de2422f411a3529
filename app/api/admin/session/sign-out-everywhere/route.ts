import type { NextRequest } from "next/server";
import { signOutEverywhere } from "@/lib/http/admin-sign-in";

// The home page's "sign out everywhere" form (lib/http/admin-sign-in.ts): ends every back-office session, back to /admin.
export const dynamic = "force-dynamic";

export const POST = (request: NextRequest) => signOutEverywhere(request);
