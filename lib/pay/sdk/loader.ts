import type { PayGlobal } from "./types";

/**
 * Loads the browser SDK (contract 4.3: a script tag from `PAY_SDK_URL`, exposing `window.Pay`)
 * with at most one `<script>` in the document, however many components, remounts, StrictMode
 * double effects and client-side navigations ask for it. Framework-free, browser-only.
 */

export const PAY_SDK_LOAD_TIMEOUT_MS = 15_000;

/**
 * Set on every SDK tag the loader inserts or reuses: "loading", then "loaded" or "failed" once
 * the browser says so. A tag's events fire once, so this is how a later caller (a remount, a
 * second copy of this module) tells a dead tag from one still on its way.
 */
export const PAY_SDK_STATE_ATTRIBUTE = "data-pay-sdk";

export interface LoadPaySdkOptions {
  /** CSP nonce for the script tag. */
  nonce?: string;
}

/** The one load of the page: every caller shares it until it fails. */
let currentLoad: { src: string; promise: Promise<PayGlobal> } | null = null;

/**
 * A tag whose load timed out. Removing a script element does not stop it from running when it
 * arrives, so a retry waits for this one instead of fetching a second copy of the SDK.
 */
let timedOutTag: HTMLScriptElement | null = null;

export function loadPaySdk(url: string, options: LoadPaySdkOptions = {}): Promise<PayGlobal> {
  if (typeof window === "undefined" || typeof document === "undefined")
    return Promise.reject(new Error(`the pay SDK (${url}) can only be loaded in a browser`));

  const src = new URL(url, document.baseURI).href;
  if (currentLoad) {
    // `window.Pay` is one global: a second SDK address cannot live next to the first.
    if (currentLoad.src !== src)
      return Promise.reject(new Error(`the pay SDK is already loaded from ${currentLoad.src}, not from ${src}`));
    return currentLoad.promise;
  }
  // Already there (the page's own tag, or a load that arrived after its timeout): no tag to add.
  if (typeof window.Pay === "function") return Promise.resolve(window.Pay);

  const promise = loadScript(src, options.nonce).catch((error: unknown) => {
    // Forget the failed load so that a later call inserts a fresh tag.
    if (currentLoad?.promise === promise) currentLoad = null;
    throw error;
  });
  currentLoad = { src, promise };
  return promise;
}

/** Tests only: forgets the page's load, as a fresh page would. */
export function resetPaySdkLoaderForTests(): void {
  currentLoad = null;
  timedOutTag = null;
}

function loadScript(src: string, nonce: string | undefined): Promise<PayGlobal> {
  const script = reusableTag(src) ?? newTag(src, nonce);
  return new Promise<PayGlobal>((resolve, reject) => {
    const timer = setTimeout(() => {
      settle();
      script.remove();
      timedOutTag = script;
      reject(new Error(`the pay SDK at ${src} did not load within ${PAY_SDK_LOAD_TIMEOUT_MS / 1000} s`));
    }, PAY_SDK_LOAD_TIMEOUT_MS);
    const settle = () => {
      clearTimeout(timer);
      script.removeEventListener("load", onLoad);
      script.removeEventListener("error", onError);
    };
    const fail = (message: string) => {
      settle();
      script.remove();
      reject(new Error(message));
    };
    const onLoad = () => {
      if (typeof window.Pay !== "function") return fail(`the pay SDK at ${src} loaded but did not define window.Pay`);
      settle();
      resolve(window.Pay);
    };
    const onError = () => fail(`the pay SDK could not be loaded from ${src}`);

    script.addEventListener("load", onLoad);
    script.addEventListener("error", onError);
    if (!script.isConnected) document.head.appendChild(script);
  });
}

/**
 * A tag worth waiting for: one that timed out but may still arrive, or one already on the page
 * (from the server's HTML or an earlier load) that has not finished. A tag that has finished
 * without defining `window.Pay` never fires again, so it is taken away for a fresh one.
 */
function reusableTag(src: string): HTMLScriptElement | null {
  const late = timedOutTag;
  timedOutTag = null;
  if (late?.src === src && late.getAttribute(PAY_SDK_STATE_ATTRIBUTE) === "loading") return late;

  const existing = Array.from(document.scripts).find((script) => script.src === src);
  if (!existing) return null;
  const state = existing.getAttribute(PAY_SDK_STATE_ATTRIBUTE);
  if (state === "loaded" || state === "failed") {
    existing.remove();
    return null;
  }
  // A tag the loader did not insert may have failed before anyone listened: it is waited for
  // up to the timeout, and not again after it.
  if (state === null) trackState(existing, "unknown");
  return existing;
}

function newTag(src: string, nonce: string | undefined): HTMLScriptElement {
  const script = document.createElement("script");
  script.src = src;
  script.async = true;
  if (nonce) script.setAttribute("nonce", nonce);
  trackState(script, "loading");
  return script;
}

function trackState(script: HTMLScriptElement, initial: "loading" | "unknown"): void {
  script.setAttribute(PAY_SDK_STATE_ATTRIBUTE, initial);
  script.addEventListener("load", () => script.setAttribute(PAY_SDK_STATE_ATTRIBUTE, "loaded"), { once: true });
  script.addEventListener("error", () => script.setAttribute(PAY_SDK_STATE_ATTRIBUTE, "failed"), { once: true });
}
