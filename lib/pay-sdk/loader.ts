import type { PayGlobal } from "./types";

/**
 * Loads the browser SDK (contract 4.3: a script tag from `PAY_SDK_URL`, exposing `window.Pay`)
 * with at most one `<script>` in the document, however many components, remounts, StrictMode
 * double effects and client-side navigations ask for it. Framework-free, browser-only.
 */

export const PAY_SDK_LOAD_TIMEOUT_MS = 15_000;

export interface LoadPaySdkOptions {
  /** CSP nonce for the script tag. */
  nonce?: string;
}

/** The one load of the page: every caller shares it until it fails. */
let currentLoad: { src: string; promise: Promise<PayGlobal> } | null = null;

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
}

function loadScript(src: string, nonce: string | undefined): Promise<PayGlobal> {
  // A tag from the server's HTML or an earlier load is reused rather than doubled.
  const existing = Array.from(document.scripts).find((script) => script.src === src);
  if (existing && typeof window.Pay === "function") return Promise.resolve(window.Pay);

  const script = existing ?? document.createElement("script");
  return new Promise<PayGlobal>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(`the pay SDK at ${src} did not load within ${PAY_SDK_LOAD_TIMEOUT_MS / 1000} s`),
      PAY_SDK_LOAD_TIMEOUT_MS,
    );
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
    if (!existing) {
      script.src = src;
      script.async = true;
      if (nonce) script.setAttribute("nonce", nonce);
      document.head.appendChild(script);
    }
  });
}
