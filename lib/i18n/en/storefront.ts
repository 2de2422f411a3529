/**
 * The shop's frame and catalogue pages: header, product cards, the product page and the cart's
 * notices: with ./states.ts, all that the catalogue's client components show
 * (../storefront-texts.ts). In English; composed into ../en.ts.
 */

import type { storefrontTexts as pt } from "../pt/storefront";

export const storefrontTexts: typeof pt = {
  shop: {
    name: "Loja Kwanza",
    description: "Demo shop: payments in kwanza (AOA) through the payment service.",
    mainNavigation: "Main navigation",
    cart: "Cart",
    myOrders: "Orders",
    /** The header's way into the account (components/cart/header-cart-count.tsx): signed out, then signed in. */
    signIn: "Sign in",
    myAccount: "My account",
    cartUnit: (count: number) => (count === 1 ? "item" : "items"),
    language: "Language",
    languageNames: { pt: "Português", en: "English" },
    switchTo: (name: string) => `Switch to ${name}`,
    testMode: "Test mode: no payment is real",
  },
  catalog: {
    title: "Products",
    empty: "No products yet. Run `npm run db:seed`.",
    inStock: "In stock",
    lowStock: (count: number) => `Only ${count} left`,
    soldOut: "Sold out",
    addToCart: "Add to cart",
    addNamedToCart: (name: string) => `Add to cart: ${name}`,
  },
  product: {
    backToCatalog: "← Back to products",
    price: "Price",
    availability: "Availability",
    quantity: "Quantity",
    quantityHint: (max: number) => `Between 1 and ${max}.`,
    sku: "SKU",
    options: "Product options",
    valueSoldOut: "sold out",
    valueMissing: "not available",
    combinationMissing: "This combination is not for sale",
    askOnWhatsapp: "Ask on WhatsApp",
    whatsappText: (name: string, url: string) => `Hello! I have a question about ${name}: ${url}`,
  },
  /** The outcome of a cart form, shown on the next page (lib/cart/cart-notices.ts). */
  cartNotices: {
    added: "Added to your cart.",
    updated: "Cart updated.",
    removed: "Item removed from your cart.",
    capped: (max: number) => `The quantity was limited to what is available (${max}).`,
    limited: (max: number) => `The quantity was limited to ${max}: the shop sells a limited number of units per order.`,
    invalid_input: "Invalid request: check the quantity (a whole number from 1).",
    unknown_product: "That product does not exist (or is no longer for sale).",
    unknown_variant: "That combination does not exist (or is no longer for sale). Choose another.",
    variant_required: "Choose the product's options (its size and colour, for example) before adding it.",
    out_of_stock: "That product is sold out.",
    too_many_lines: (max: number) => `A cart can hold at most ${max} different products.`,
    cart_full: "The cart already holds as many units as one order may. Remove some to add others.",
    cart_locked: "A payment is in progress for this cart: it cannot change until the payment ends or is cancelled.",
    no_cart: "There is no cart: add a product first.",
    line_not_found: "That item is no longer in your cart.",
  },
};
