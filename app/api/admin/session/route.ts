import type { NextRequest } from "next/server";
import { signIn, signOut } from "@/lib/http/admin-sign-in";

// The back office's session (lib/admin): POST signs in (the sign-in form or JSON), DELETE signs out.
export const dynamic = "force-dynamic";

export const POST = (request: NextRequest) => signIn(request);
export const DELETE = (request: NextRequest) => signOut(request);
