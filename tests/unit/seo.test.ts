import { describe, expect, it } from "vitest";
import {
  absoluteUrl,
  jsonForScript,
  productJsonLd,
  productMetadata,
  robotsRules,
  sitemapEntries,
  type SeoProduct,
} from "@/lib/seo";

const APP_URL = "https://loja.example.ao";

const cafe: SeoProduct = {
  slug: "cafe-de-angola-torrado-1kg",
  name: "Café de Angola torrado, 1 kg",
  description: "Café das terras altas do Amboim.",
  priceAoa: 8_500,
  image: "/products/cafe-de-angola-torrado-1kg.svg",
  stock: 3,
};

describe("absoluteUrl", () => {
  it("puts a root-relative path under the shop's address", () => {
    expect(absoluteUrl(APP_URL, "/api/images/abc")).toBe("https://loja.example.ao/api/images/abc");
    expect(absoluteUrl("http://127.0.0.1:3000", "/")).toBe("http://127.0.0.1:3000/");
  });
});

describe("productJsonLd", () => {
  it("describes the product with one offer in kwanza at its integer price", () => {
    expect(productJsonLd(cafe, APP_URL)).toEqual({
      "@context": "https://schema.org",
      "@type": "Product",
      name: cafe.name,
      description: cafe.description,
      image: ["https://loja.example.ao/products/cafe-de-angola-torrado-1kg.svg"],
      url: "https://loja.example.ao/products/cafe-de-angola-torrado-1kg",
      offers: {
        "@type": "Offer",
        url: "https://loja.example.ao/products/cafe-de-angola-torrado-1kg",
        priceCurrency: "AOA",
        price: 8500,
        availability: "https://schema.org/InStock",
      },
    });
  });

  it("says out of stock when no unit is left", () => {
    expect(productJsonLd({ ...cafe, stock: 0 }, APP_URL).offers.availability).toBe("https://schema.org/OutOfStock");
  });
});

describe("jsonForScript", () => {
  const hostile = { ...cafe, name: "</script><script>alert(1)</script><!-- & \u2028" };

  it("leaves no character that could end the script element or open a comment", () => {
    const text = jsonForScript(productJsonLd(hostile, APP_URL));
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text.toLowerCase()).not.toContain("</script");
    expect(text).toContain("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)");
  });

  it("is still the same JSON", () => {
    const value = productJsonLd(hostile, APP_URL);
    expect(JSON.parse(jsonForScript(value))).toEqual(value);
  });
});

describe("productMetadata", () => {
  it("gives the title, description, an absolute canonical URL and the product's image as the Open Graph image", () => {
    expect(productMetadata(cafe, APP_URL)).toEqual({
      title: cafe.name,
      description: cafe.description,
      alternates: { canonical: "https://loja.example.ao/products/cafe-de-angola-torrado-1kg" },
      openGraph: {
        type: "website",
        url: "https://loja.example.ao/products/cafe-de-angola-torrado-1kg",
        title: cafe.name,
        description: cafe.description,
        images: [{ url: "https://loja.example.ao/products/cafe-de-angola-torrado-1kg.svg", alt: cafe.name }],
      },
    });
  });
});

describe("sitemapEntries", () => {
  it("lists the catalogue page, then each product with its last change and image", () => {
    const older = new Date("2026-01-01T00:00:00Z");
    const newer = new Date("2026-03-01T00:00:00Z");
    const entries = sitemapEntries(
      [
        { slug: "a", image: "/products/a.svg", updatedAt: newer },
        { slug: "b", image: "/api/images/0b8e", updatedAt: older },
      ],
      APP_URL,
    );
    expect(entries).toEqual([
      { url: "https://loja.example.ao/", lastModified: newer },
      {
        url: "https://loja.example.ao/products/a",
        lastModified: newer,
        images: ["https://loja.example.ao/products/a.svg"],
      },
      {
        url: "https://loja.example.ao/products/b",
        lastModified: older,
        images: ["https://loja.example.ao/api/images/0b8e"],
      },
    ]);
  });

  it("lists only the catalogue page of a shop without products", () => {
    expect(sitemapEntries([], APP_URL)).toEqual([{ url: "https://loja.example.ao/" }]);
  });
});

describe("robotsRules", () => {
  it("keeps crawlers out of the back office, the API and each shopper's pages, and points to the sitemap", () => {
    const robots = robotsRules(APP_URL);
    expect(robots.sitemap).toBe("https://loja.example.ao/sitemap.xml");
    expect(robots.rules).toEqual({
      userAgent: "*",
      allow: ["/", "/api/images/"],
      disallow: ["/admin", "/api", "/checkout", "/cart", "/orders"],
    });
  });
});
