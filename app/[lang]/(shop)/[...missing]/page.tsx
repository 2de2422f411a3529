import { notFound } from "next/navigation";

// Any address no page answers (next.config.mjs rewrites every one into the shopper's language): the
// shop's localized 404 inside its layout. Rendered per request, so made-up addresses fill no cache.
export const dynamic = "force-dynamic";

export default function Missing(): never {
  notFound();
}
