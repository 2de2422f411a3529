import { describe, expect, it } from "vitest";
import {
  absoluteUrl,
  catalogSitemapEntry,
  categorySitemapEntry,
  jsonForScript,
  productJsonLd,
  productMetadata,
  productSitemapEntry,
  robotsRules,
  SITEMAP_MAX_URLS,
  sitemapIds,
  sitemapPart,
  type SeoProduct,
  type SeoProductDetail,
  type SitemapCounts,
} from "@/lib/seo/seo";

const APP_URL = "https://loja.example.ao";

const cafe: SeoProduct = {
  slug: "cafe-de-angola-torrado-1kg",
  name: "Café de Angola torrado, 1 kg",
  description: "Café das terras altas do Amboim.",
  priceAoa: 8_500,
  pricesVary: false,
  hasOptions: false,
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

  const tshirt: SeoProductDetail = {
    slug: "t-shirt-kianda",
    name: "T-shirt Kianda",
    description: "Algodão de Angola.",
    priceAoa: 4_500,
    pricesVary: true,
    hasOptions: true,
    image: "/products/t-shirt.svg",
    stock: 2,
    options: [
      { name: "Tamanho", values: ["P", "M"] },
      { name: "Cor", values: ["Azul"] },
      { name: "Manga", values: ["Curta"] },
    ],
    variants: [
      { id: "v-1", sku: "TK-P-AZUL", title: "P, Azul, Curta", priceAoa: 4_500, stock: 2, image: "/api/images/abc" },
      { id: "v-2", sku: null, title: "M, Azul, Curta", priceAoa: 5_000, stock: 0, image: "/products/t-shirt.svg" },
    ],
  };

  it("describes a product with options as a ProductGroup whose variants each have an offer in kwanza", () => {
    const url = "https://loja.example.ao/products/t-shirt-kianda";
    expect(productJsonLd(tshirt, APP_URL)).toEqual({
      "@context": "https://schema.org",
      "@type": "ProductGroup",
      name: "T-shirt Kianda",
      description: "Algodão de Angola.",
      image: ["https://loja.example.ao/products/t-shirt.svg"],
      url,
      productGroupID: "t-shirt-kianda",
      variesBy: ["https://schema.org/size", "https://schema.org/color", "Manga"],
      hasVariant: [
        {
          "@type": "Product",
          name: "T-shirt Kianda, P, Azul, Curta",
          sku: "TK-P-AZUL",
          image: "https://loja.example.ao/api/images/abc",
          offers: {
            "@type": "Offer",
            url: `${url}?variant=v-1`,
            priceCurrency: "AOA",
            price: 4500,
            availability: "https://schema.org/InStock",
          },
        },
        {
          "@type": "Product",
          name: "T-shirt Kianda, M, Azul, Curta",
          image: "https://loja.example.ao/products/t-shirt.svg",
          offers: {
            "@type": "Offer",
            url: `${url}?variant=v-2`,
            priceCurrency: "AOA",
            price: 5000,
            availability: "https://schema.org/OutOfStock",
          },
        },
      ],
    });
  });

  it("maps the English option names too, and keeps the Product of a product page without options", () => {
    const english = {
      ...tshirt,
      options: [
        { name: "Size", values: ["S"] },
        { name: "Colour", values: ["Blue"] },
      ],
    };
    expect(productJsonLd(english, APP_URL)).toMatchObject({
      variesBy: ["https://schema.org/size", "https://schema.org/color"],
    });
    // A ProductDetail without options (its one default variant): today's Product.
    const single: SeoProductDetail = {
      ...cafe,
      options: [],
      variants: [{ id: "v-0", sku: null, title: "", priceAoa: 8_500, stock: 3, image: cafe.image }],
    };
    expect(productJsonLd(single, APP_URL)).toEqual(productJsonLd(cafe, APP_URL));
  });

  it("names no image for a product without one, nor for its variants: no placeholder is offered as its picture", () => {
    const bare = productJsonLd({ ...cafe, image: null }, APP_URL);
    expect(bare).not.toHaveProperty("image");
    expect(bare).toMatchObject({ "@type": "Product", name: cafe.name, offers: { price: 8500 } });
    const group = productJsonLd(
      { ...tshirt, image: null, variants: tshirt.variants.map((variant) => ({ ...variant, image: null })) },
      APP_URL,
    );
    expect(group).not.toHaveProperty("image");
    expect(group).toHaveProperty("hasVariant");
    for (const variant of "hasVariant" in group ? group.hasVariant : []) expect(variant).not.toHaveProperty("image");
  });

  it("keeps a hostile variant name inside the script element", () => {
    const hostile = {
      ...tshirt,
      variants: [{ ...tshirt.variants[0]!, title: "</script><script>alert(1)</script>" }],
    };
    expect(jsonForScript(productJsonLd(hostile, APP_URL))).not.toContain("</script>");
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
  it("gives the title, description, an absolute canonical URL and an Open Graph card", () => {
    expect(productMetadata(cafe, APP_URL)).toEqual({
      title: cafe.name,
      description: cafe.description,
      alternates: { canonical: "https://loja.example.ao/products/cafe-de-angola-torrado-1kg" },
      openGraph: {
        type: "website",
        url: "https://loja.example.ao/products/cafe-de-angola-torrado-1kg",
        title: cafe.name,
        description: cafe.description,
      },
    });
  });

  it("names no Open Graph image, which would replace the PNG of the page's opengraph-image.tsx", () => {
    expect(productMetadata(cafe, APP_URL).openGraph).not.toHaveProperty("images");
  });
});

describe("the sitemaps' split", () => {
  /** Every address of every sitemap, in order, as positions: 0 is the catalogue page, then `c<n>` and `p<n>`. */
  function laidOut(counts: SitemapCounts, maxUrls: number): string[][] {
    return sitemapIds(counts, maxUrls).map(({ id }) => {
      const part = sitemapPart(id, counts, maxUrls);
      const range = (prefix: string, { skip, take }: { skip: number; take: number }) =>
        Array.from({ length: take }, (_, i) => `${prefix}${skip + i}`);
      return [...(part.catalogue ? ["home"] : []), ...range("c", part.categories), ...range("p", part.products)];
    });
  }

  it("puts everything in one sitemap below SITEMAP_MAX_URLS (45 000, under the 50 000 a file may hold)", () => {
    expect(SITEMAP_MAX_URLS).toBe(45_000);
    expect(sitemapIds({ categories: 12, products: 44_987 })).toEqual([{ id: 0 }]);
    expect(sitemapIds({ categories: 12, products: 44_988 })).toEqual([{ id: 0 }, { id: 1 }]);
    expect(sitemapPart(0, { categories: 12, products: 10_000 })).toEqual({
      catalogue: true,
      categories: { skip: 0, take: 12 },
      products: { skip: 0, take: 10_000 },
    });
  });

  it("has one sitemap, with the catalogue page, for an empty shop", () => {
    expect(sitemapIds({ categories: 0, products: 0 })).toEqual([{ id: 0 }]);
    expect(laidOut({ categories: 0, products: 0 }, 4)).toEqual([["home"]]);
  });

  it("cuts the catalogue page, the categories and the products, end to end, every maxUrls addresses", () => {
    expect(laidOut({ categories: 5, products: 7 }, 4)).toEqual([
      ["home", "c0", "c1", "c2"],
      ["c3", "c4", "p0", "p1"],
      ["p2", "p3", "p4", "p5"],
      ["p6"],
    ]);
    expect(laidOut({ categories: 0, products: 3 }, 2)).toEqual([
      ["home", "p0"],
      ["p1", "p2"],
    ]);
    expect(laidOut({ categories: 3, products: 0 }, 2)).toEqual([
      ["home", "c0"],
      ["c1", "c2"],
    ]);
  });

  it("lists every address once, in order, whatever the sizes", () => {
    for (const categories of [0, 1, 3, 10]) {
      for (const products of [0, 1, 9, 25]) {
        for (const maxUrls of [1, 2, 3, 7, 50]) {
          const sitemaps = laidOut({ categories, products }, maxUrls);
          expect(sitemaps.flat()).toEqual([
            "home",
            ...Array.from({ length: categories }, (_, i) => `c${i}`),
            ...Array.from({ length: products }, (_, i) => `p${i}`),
          ]);
          for (const sitemap of sitemaps) expect(sitemap.length).toBeGreaterThan(0);
          for (const sitemap of sitemaps) expect(sitemap.length).toBeLessThanOrEqual(maxUrls);
        }
      }
    }
  });

  it("holds nothing past the last sitemap", () => {
    expect(sitemapPart(3, { categories: 1, products: 1 }, 2)).toEqual({
      catalogue: false,
      categories: { skip: 0, take: 0 },
      products: { skip: 0, take: 0 },
    });
  });
});

describe("the sitemaps' entries", () => {
  const changed = new Date("2026-03-01T00:00:00Z");

  it("give the catalogue page its last change, when the shop has products", () => {
    expect(catalogSitemapEntry(APP_URL, changed)).toEqual({ url: "https://loja.example.ao/", lastModified: changed });
    expect(catalogSitemapEntry(APP_URL, null)).toEqual({ url: "https://loja.example.ao/" });
  });

  it("give a category its page and last change", () => {
    expect(categorySitemapEntry({ slug: "mercearia", updatedAt: changed }, APP_URL)).toEqual({
      url: "https://loja.example.ao/categories/mercearia",
      lastModified: changed,
    });
  });

  it("give a product its page, last change and image", () => {
    expect(productSitemapEntry({ slug: "b", image: "/api/images/0b8e", updatedAt: changed }, APP_URL)).toEqual({
      url: "https://loja.example.ao/products/b",
      lastModified: changed,
      images: ["https://loja.example.ao/api/images/0b8e"],
    });
    expect(productSitemapEntry({ slug: "c", image: null, updatedAt: changed }, APP_URL)).toEqual({
      url: "https://loja.example.ao/products/c",
      lastModified: changed,
    });
  });
});

describe("robotsRules", () => {
  it("keeps crawlers out of the back office, the API and each shopper's pages, and names every sitemap", () => {
    const robots = robotsRules(APP_URL, [{ id: 0 }, { id: 1 }]);
    expect(robots.sitemap).toEqual(["https://loja.example.ao/sitemap/0.xml", "https://loja.example.ao/sitemap/1.xml"]);
    expect(robots.rules).toEqual({
      userAgent: "*",
      allow: ["/", "/api/images/"],
      disallow: ["/admin", "/api", "/checkout", "/cart", "/orders", "/account"],
    });
  });
});
