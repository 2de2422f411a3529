import type { MetadataRoute } from "next";
import { pt } from "@/lib/i18n/dictionaries";
import { THEME_COLOR } from "@/lib/seo/seo";

// /manifest.webmanifest: what a phone needs to add the shop to its home screen. Portuguese, the
// shop's default language; the icons are app/icon.svg drawn at the sizes phones ask for (the
// maskable one keeps the mark inside the central safe zone, on the brand colour to the edges).
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: pt.shop.name,
    short_name: pt.shop.name,
    description: pt.shop.description,
    lang: "pt",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: THEME_COLOR,
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
