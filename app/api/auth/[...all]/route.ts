import { handleShopperAuth } from "@/lib/http/shopper-auth-route";

// /api/auth/*: the shopper's sign-in by phone and session, better-auth's endpoints
// (lib/accounts/auth.ts), behind the shop's edge (lib/http/shopper-auth-route.ts).
export const dynamic = "force-dynamic";

export const GET = handleShopperAuth;
export const POST = handleShopperAuth;
