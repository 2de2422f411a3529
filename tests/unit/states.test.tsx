// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import ErrorPage from "@/app/[lang]/(shop)/error";
import GlobalError from "@/app/global-error";
import { PageLoading } from "@/components/ui/page-loading";
import { en, pt } from "@/lib/i18n/dictionaries";

// The shop's own error and loading states (app/error.tsx, app/global-error.tsx, the loading.tsx
// files): in the shopper's language, with a way back, and nothing inline for the CSP to block.

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });

const DIGEST = "2938475610";
const serverError = () =>
  Object.assign(new Error("An error occurred in the Server Components render."), { digest: DIGEST });

type Element = { type: unknown; props: Record<string, unknown> & { children?: unknown } };

/** Every element of a rendered tree of host elements, arrays and hook-free components. */
function elementsOf(node: unknown): Element[] {
  if (Array.isArray(node)) return node.flatMap(elementsOf);
  if (typeof node !== "object" || node === null || !("props" in node)) return [];
  const element = node as Element;
  // A component without hooks (ErrorState) is expanded by calling it, as React would render it.
  if (typeof element.type === "function")
    return [element, ...elementsOf((element.type as (props: unknown) => unknown)(element.props))];
  return [element, ...elementsOf(element.props.children)];
}

let root: Root | undefined;
afterEach(() => {
  if (root) act(() => root!.unmount());
  root = undefined;
  document.documentElement.removeAttribute("lang");
  document.body.replaceChildren();
});

/** app/error.tsx in the browser, on a page whose root layout wrote `<html lang>`. */
function showErrorPage(htmlLang: string | null, retry = vi.fn()) {
  if (htmlLang === null) document.documentElement.removeAttribute("lang");
  else document.documentElement.lang = htmlLang;
  const host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(<ErrorPage error={serverError()} retry={retry} />));
  return { host, retry };
}

describe("app/error.tsx", () => {
  it("speaks Portuguese on a Portuguese page: what happened, the error's code, try again and a way home", () => {
    const { host, retry } = showErrorPage("pt-AO");
    expect(host.querySelector("h1")?.textContent).toBe(pt.states.errorTitle);
    expect(host.textContent).toContain(pt.states.errorBody);
    expect(host.textContent).toContain(`Código do erro: ${DIGEST}`);
    const button = host.querySelector("button")!;
    expect(button.textContent).toBe("Tentar de novo");
    act(() => button.click());
    expect(retry).toHaveBeenCalledTimes(1);
    const home = host.querySelector("a")!;
    expect(home.getAttribute("href")).toBe("/");
    expect(home.textContent).toBe(pt.states.home);
  });

  it("speaks English on an English page", () => {
    const { host, retry } = showErrorPage("en");
    expect(host.querySelector("h1")?.textContent).toBe("Something went wrong");
    expect(host.textContent).toContain(en.states.errorBody);
    expect(host.textContent).toContain(`Error code: ${DIGEST}`);
    const button = host.querySelector("button")!;
    expect(button.textContent).toBe("Try again");
    act(() => button.click());
    expect(retry).toHaveBeenCalledTimes(1);
    expect(host.querySelector('a[href="/"]')?.textContent).toBe("Go to the products");
  });

  it("falls back to Portuguese when the page's language is missing or unknown", () => {
    for (const lang of [null, "", "fr", "EN"]) {
      const { host } = showErrorPage(lang);
      expect(host.querySelector("h1")?.textContent, String(lang)).toBe(pt.states.errorTitle);
      act(() => root!.unmount());
      root = undefined;
    }
  });

  it("says no code for an error without a digest (thrown in the browser)", () => {
    document.documentElement.lang = "en";
    const host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    act(() => root!.render(<ErrorPage error="not even an Error" retry={() => {}} />));
    expect(host.querySelector("h1")?.textContent).toBe(en.states.errorTitle);
    expect(host.textContent).not.toContain("Error code");
  });

  it("renders on the server in the default language, with no inline style or script", () => {
    const html = renderToString(<ErrorPage error={serverError()} retry={() => {}} />);
    expect(html).toContain(pt.states.errorTitle);
    expect(html).not.toMatch(/style=|<script/);
  });
});

describe("app/global-error.tsx", () => {
  const html = () => renderToStaticMarkup(<GlobalError error={serverError()} retry={() => {}} />);

  it("is a whole document of its own: <html lang> and <body>, as it replaces the root layout", () => {
    expect(html()).toMatch(/^<html lang="pt-AO"><head><title>[^<]*<\/title><\/head><body [^>]*>/);
    expect(html()).toMatch(/<\/body><\/html>$/);
    expect(html()).toContain(`<title>${pt.states.errorTitle} · ${en.states.errorTitle}</title>`);
  });

  it("says it in Portuguese, then in English marked as English, each with try again and a way home", () => {
    const page = html();
    expect(page.indexOf(pt.states.errorBody)).toBeGreaterThan(-1);
    expect(page.indexOf(en.states.errorBody)).toBeGreaterThan(page.indexOf(pt.states.errorBody));
    expect(page).toContain('<section lang="en"');
    for (const t of [pt, en]) {
      expect(page).toContain(t.states.errorTitle);
      expect(page).toContain(`>${t.states.tryAgain}</button>`);
      expect(page).toContain(`<a href="/" class="text-brand-700 hover:underline">${t.states.home}</a>`);
      expect(page).toContain(t.states.errorCode(DIGEST));
    }
    // One main heading.
    expect(page.match(/<h1/g)).toHaveLength(1);
  });

  it("uses no inline style or script, which the Content-Security-Policy would weigh", () => {
    expect(html()).not.toMatch(/style=|<style|<script/);
  });

  it("tries again with either language's button", () => {
    // No hooks: the element tree it returns shows what each button does without a document to mount on.
    const retry = vi.fn();
    const buttons = elementsOf(GlobalError({ error: serverError(), retry })).filter(({ type }) => type === "button");
    expect(buttons.map(({ props }) => props.children)).toEqual([pt.states.tryAgain, en.states.tryAgain]);
    for (const { props } of buttons) expect(props.onClick).toBe(retry);
  });
});

describe("PageLoading (the loading.tsx files)", () => {
  it("is a status in the shopper's language; the skeleton is hidden from assistive tech", () => {
    for (const t of [pt, en]) {
      const html = renderToStaticMarkup(<PageLoading t={t} />);
      expect(html).toMatch(new RegExp(`<p role="status"[^>]*>.*${t.states.loading}</p>`));
      expect(html).toContain('<div aria-hidden="true"');
      expect(html).not.toMatch(/style=|<script/);
    }
    expect(pt.states.loading).toBe("A carregar…");
    expect(en.states.loading).toBe("Loading…");
  });
});
