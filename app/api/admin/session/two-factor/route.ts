import type { NextRequest } from "next/server";
import { verifySignInCode } from "@/lib/http/admin-sign-in";

// The sign-in's second step for a person with two-factor on: the authenticator app's code.
export const dynamic = "force-dynamic";

export const POST = (request: NextRequest) => verifySignInCode(request);
