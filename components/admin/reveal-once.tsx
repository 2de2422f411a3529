"use client";

import { useEffect } from "react";

/**
 * A secret shown once (lib/http/admin-reveal.ts): the page shows it only while its address names
 * it (`?reveal=<id>`), so the address loses that name as soon as the page is on screen. A reload,
 * the back button or a copied link shows nothing more.
 */
export function RevealOnce() {
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has("reveal")) return;
    url.searchParams.delete("reveal");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, []);
  return null;
}
