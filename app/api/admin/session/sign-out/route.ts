import type { NextRequest } from "next/server";
import { signOut } from "@/lib/http/admin-sign-in";

// The sign-out button's form (HTML forms cannot send DELETE): clears the session, back to /admin.
export const dynamic = "force-dynamic";

export const POST = (request: NextRequest) => signOut(request);
