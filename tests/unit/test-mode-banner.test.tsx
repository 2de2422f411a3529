import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TestModeBanner } from "@/components/ui/test-mode-banner";
import { en, pt } from "@/lib/i18n/dictionaries";

// The banner app/layout.tsx puts above the site header on every page with a pk_test_ key.

describe("TestModeBanner", () => {
  it("says the shop is in test mode, in the shopper's language, as a status", () => {
    const html = renderToStaticMarkup(<TestModeBanner t={pt} mode="sandbox" />);
    expect(html).toContain('role="status"');
    expect(html).toContain("Modo de teste: nenhum pagamento é real");
    expect(renderToStaticMarkup(<TestModeBanner t={en} mode="sandbox" />)).toContain("Test mode: no payment is real");
  });

  it("uses no inline style, which the Content-Security-Policy would block", () => {
    expect(renderToStaticMarkup(<TestModeBanner t={pt} mode="sandbox" />)).not.toMatch(/style=|<script/);
  });

  it("is absent with a pk_live_ key", () => {
    expect(renderToStaticMarkup(<TestModeBanner t={pt} mode="production" />)).toBe("");
  });
});
