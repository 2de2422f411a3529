import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { BrowseForm } from "@/components/catalog/browse-form";
import { ProductCard } from "@/components/catalog/product-card";
import { ProductGallery } from "@/components/catalog/product-gallery";
import { ProductImage } from "@/components/catalog/product-image";
import type { CatalogProduct } from "@/lib/catalog/products";
import { en, pt } from "@/lib/i18n/dictionaries";

vi.mock("server-only", () => ({}));

// A listing's card of a product with options, and the option filters of the sort and filter form.

const tshirt: CatalogProduct = {
  id: "7d3c1e8e-0000-4000-8000-000000000001",
  slug: "t-shirt-kianda",
  name: "T-shirt Kianda",
  description: "Algodão.",
  priceAoa: 4500,
  pricesVary: true,
  hasOptions: true,
  image: "/products/x.svg",
  stock: 5,
};
const addToCart = async () => {};
const card = (product: CatalogProduct, t = pt) =>
  renderToStaticMarkup(<ProductCard product={product} t={t} addToCart={addToCart} lowStockThreshold={3} />);
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("ProductCard", () => {
  it("says 'desde' the lowest price when prices vary, and sends the shopper to choose the options", () => {
    const html = card(tshirt);
    expect(text(html)).toMatch(/desde 4\s500\sKz/u);
    expect(html).toContain('href="/products/t-shirt-kianda"');
    expect(html).toContain('aria-label="Escolher opções: T-shirt Kianda"');
    expect(text(html)).toContain("Escolher opções");
    expect(html).not.toContain("<form");
    expect(text(card(tshirt, en))).toMatch(/from 4.500/u);
    expect(card(tshirt, en)).toContain('aria-label="Choose options: T-shirt Kianda"');
  });

  it("keeps the price alone and the quick add to cart for a product without options", () => {
    const html = card({ ...tshirt, pricesVary: false, hasOptions: false });
    expect(text(html)).not.toContain("desde");
    expect(html).toContain("<form");
    expect(html).not.toContain("Escolher opções");
  });

  it("a product with options at one price: no 'desde', still chosen on its page", () => {
    const html = card({ ...tshirt, pricesVary: false });
    expect(text(html)).not.toContain("desde");
    expect(html).toContain("Escolher opções");
  });
});

describe("a product without an image", () => {
  const placeholder = /<div aria-hidden="true" data-testid="image-placeholder"[^>]*>/;

  it("has a placeholder on its card: decorative, the product's initial, no picture requested", () => {
    const html = card({ ...tshirt, image: null });
    expect(html).toMatch(placeholder);
    expect(html).not.toContain("<img");
    expect(html).toMatch(/>T<\/span>/);
    // The same box as a picture: the card keeps its shape.
    expect(html.match(placeholder)![0]).toContain("aspect-[4/3]");
    expect(card(tshirt)).not.toMatch(placeholder);
  });

  it("has one on its page in place of the gallery, and a small one in the cart", () => {
    const page = renderToStaticMarkup(<ProductGallery t={pt} images={[]} productId={tshirt.id} productName="água" />);
    expect(page).toMatch(placeholder);
    expect(page).not.toContain("<img");
    expect(page).not.toContain("<fieldset");
    expect(page).toMatch(/>Á<\/span>/);
    const line = renderToStaticMarkup(
      <ProductImage src={null} alt="" name="Mel" width={80} height={60} size="small" className="h-[60px] w-[80px]" />,
    );
    expect(line).toMatch(placeholder);
    expect(line).not.toContain("<svg");
    const pictured = renderToStaticMarkup(
      <ProductImage src="/products/x.svg" alt="Mel" name="Mel" width={80} height={60} className="w-20" />,
    );
    expect(pictured).toContain("<img");
    expect(pictured).toContain('alt="Mel"');
  });
});

describe("BrowseForm's option filters", () => {
  it("one fieldset per option, its legend the option's name, a labelled checkbox per value, chosen ones checked", () => {
    const html = renderToStaticMarkup(
      <BrowseForm
        t={pt}
        query={{
          category: "roupa",
          sort: "name",
          inStock: false,
          page: 1,
          options: [{ name: "Tamanho", values: ["M"] }],
        }}
        clearHref="/categories/roupa"
        facets={[
          {
            name: "Tamanho",
            values: [
              { value: "P", count: 1 },
              { value: "M", count: 2 },
            ],
          },
          { name: "Cor", values: [{ value: "Azul", count: 2 }] },
        ]}
      />,
    );
    expect(html).toContain('action="/search"');
    expect(html).toContain('name="category" value="roupa"');
    expect(html.match(/<fieldset/g)).toHaveLength(2);
    expect(html).toContain("<legend");
    expect(text(html)).toContain("Tamanho");
    expect(text(html)).toContain("M (2)");
    // Each checkbox inside its label, whose text is the value and its count.
    expect(html).toMatch(
      /<label[^>]*><input type="checkbox"[^>]*name="opt" checked="" value="Tamanho:M"\/>M \(2\)<\/label>/,
    );
    expect(html).toMatch(/<label[^>]*><input type="checkbox"[^>]*name="opt" value="Tamanho:P"\/>P \(1\)<\/label>/);
    expect(html).toContain('value="Cor:Azul"');
  });

  it("shows no option filters for a listing without options", () => {
    const html = renderToStaticMarkup(
      <BrowseForm t={pt} query={{ sort: "name", inStock: false, page: 1 }} clearHref="/" />,
    );
    expect(html).not.toContain("<fieldset");
  });
});
