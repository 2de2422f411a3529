import { NextResponse, type NextRequest } from "next/server";
import { nodeEnv } from "@/lib/env";
import { contentSecurityPolicy, newNonce } from "@/lib/security/csp";

// A fresh nonce and the Content-Security-Policy for every page. Next reads the nonce from the
// request's policy header and puts it on its scripts; pages read it from `x-nonce`.
export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const policy = contentSecurityPolicy({ nonce, development: nodeEnv() === "development" });
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Pages only: API routes (the webhook above all), static files, the sitemap and robots.txt do not pay for it.
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|products/.+\\.svg$|icon\\.svg$|sitemap\\.xml$|robots\\.txt$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
