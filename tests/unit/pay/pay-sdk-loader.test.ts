// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  loadPaySdk,
  PAY_SDK_LOAD_TIMEOUT_MS,
  PAY_SDK_STATE_ATTRIBUTE,
  resetPaySdkLoaderForTests,
} from "@/lib/pay/sdk/loader";
import type { PayGlobal } from "@/lib/pay/sdk/types";

// jsdom never fetches scripts: a test plays the browser by defining `window.Pay` and
// dispatching `load` or `error` on the tag the loader inserted.
const SDK_URL = "https://sdk.pay.test/sdks/v1/pay.js";
const fakePay: PayGlobal = () => ({ generateButton: () => ({ render: () => undefined }) });

const sdkScripts = () =>
  Array.from(document.querySelectorAll<HTMLScriptElement>("script")).filter((s) => s.src === SDK_URL);
function onlySdkScript(): HTMLScriptElement {
  const scripts = sdkScripts();
  expect(scripts).toHaveLength(1);
  return scripts[0]!;
}
function finishLoading(script: HTMLScriptElement) {
  window.Pay = fakePay;
  script.dispatchEvent(new Event("load"));
}
/** A tag already in the page's HTML, as the server or the shop's own markup would put it. */
function pageTag(state?: string): HTMLScriptElement {
  const tag = document.createElement("script");
  tag.src = SDK_URL;
  if (state) tag.setAttribute(PAY_SDK_STATE_ATTRIBUTE, state);
  document.body.append(tag);
  return tag;
}
/** Lets a load time out (fake timers) and returns its tag. */
async function timeOut(): Promise<HTMLScriptElement> {
  const load = loadPaySdk(SDK_URL);
  const rejection = expect(load).rejects.toThrow("did not load within");
  const tag = onlySdkScript();
  vi.advanceTimersByTime(PAY_SDK_LOAD_TIMEOUT_MS);
  await rejection;
  return tag;
}

beforeEach(() => {
  resetPaySdkLoaderForTests();
  document.head.replaceChildren();
  document.body.replaceChildren();
  delete window.Pay;
});
afterEach(() => vi.useRealTimers());

describe("loadPaySdk", () => {
  it("inserts one async script tag for 10 concurrent calls, and all of them get window.Pay", async () => {
    const loads = Array.from({ length: 10 }, () => loadPaySdk(SDK_URL));
    const script = onlySdkScript();
    expect(script.async).toBe(true);
    expect(script.parentElement).toBe(document.head);
    finishLoading(script);
    for (const pay of await Promise.all(loads)) expect(pay).toBe(fakePay);
    await loadPaySdk(SDK_URL);
    expect(sdkScripts()).toHaveLength(1);
  });

  it("sets the CSP nonce on the tag", async () => {
    const load = loadPaySdk(SDK_URL, { nonce: "n0nce-123" });
    const script = onlySdkScript();
    expect(script.getAttribute("nonce")).toBe("n0nce-123");
    finishLoading(script);
    await load;
  });

  it("resolves at once with a window.Pay already defined, inserting no tag", async () => {
    window.Pay = fakePay;
    const load = loadPaySdk(SDK_URL);
    expect(sdkScripts()).toHaveLength(0);
    await expect(load).resolves.toBe(fakePay);
  });

  it.each(["failed", "loaded"])(
    "replaces a tag on the page that has %s without window.Pay with a fresh one, without waiting for the timeout",
    async (state) => {
      const deadTag = pageTag(state);
      const load = loadPaySdk(SDK_URL);
      const freshTag = onlySdkScript();
      expect(freshTag).not.toBe(deadTag);
      expect(deadTag.isConnected).toBe(false);
      finishLoading(freshTag);
      await expect(load).resolves.toBe(fakePay);
    },
  );

  it("marks its tag loading, then loaded or failed, for later callers to read", async () => {
    const first = loadPaySdk(SDK_URL);
    const failedTag = onlySdkScript();
    expect(failedTag.getAttribute(PAY_SDK_STATE_ATTRIBUTE)).toBe("loading");
    failedTag.dispatchEvent(new Event("error"));
    await expect(first).rejects.toThrow();
    expect(failedTag.getAttribute(PAY_SDK_STATE_ATTRIBUTE)).toBe("failed");

    const second = loadPaySdk(SDK_URL);
    const tag = onlySdkScript();
    finishLoading(tag);
    await second;
    expect(tag.getAttribute(PAY_SDK_STATE_ATTRIBUTE)).toBe("loaded");
  });

  it("reuses a tag already on the page that has loaded, resolving at once", async () => {
    const serverTag = document.createElement("script");
    serverTag.src = SDK_URL;
    document.body.append(serverTag);
    window.Pay = fakePay;
    await expect(loadPaySdk(SDK_URL)).resolves.toBe(fakePay);
    expect(onlySdkScript()).toBe(serverTag);
  });

  it("reuses a tag already on the page that is still loading, waiting for its load", async () => {
    const serverTag = document.createElement("script");
    serverTag.src = SDK_URL;
    document.body.append(serverTag);
    let settled = false;
    const load = loadPaySdk(SDK_URL).finally(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(onlySdkScript()).toBe(serverTag);
    finishLoading(serverTag);
    await expect(load).resolves.toBe(fakePay);
  });

  it("fails first, succeeds second: a load error rejects naming the URL, removes the tag, and the next call inserts a fresh one", async () => {
    const first = loadPaySdk(SDK_URL);
    const failedTag = onlySdkScript();
    failedTag.dispatchEvent(new Event("error"));
    await expect(first).rejects.toThrow(`the pay SDK could not be loaded from ${SDK_URL}`);
    expect(failedTag.isConnected).toBe(false);
    expect(sdkScripts()).toHaveLength(0);

    const second = loadPaySdk(SDK_URL);
    const freshTag = onlySdkScript();
    expect(freshTag).not.toBe(failedTag);
    finishLoading(freshTag);
    await expect(second).resolves.toBe(fakePay);
  });

  it("rejects every concurrent caller of a failed load", async () => {
    const loads = [loadPaySdk(SDK_URL), loadPaySdk(SDK_URL)];
    onlySdkScript().dispatchEvent(new Event("error"));
    for (const load of loads) await expect(load).rejects.toThrow(SDK_URL);
  });

  it("rejects with a clear message when the script loads without defining window.Pay, and can retry", async () => {
    const first = loadPaySdk(SDK_URL);
    const tag = onlySdkScript();
    tag.dispatchEvent(new Event("load"));
    await expect(first).rejects.toThrow(`the pay SDK at ${SDK_URL} loaded but did not define window.Pay`);
    expect(tag.isConnected).toBe(false);

    const second = loadPaySdk(SDK_URL);
    finishLoading(onlySdkScript());
    await expect(second).resolves.toBe(fakePay);
  });

  it(`rejects after ${PAY_SDK_LOAD_TIMEOUT_MS / 1000} s without load or error, removes the tag, and can retry`, async () => {
    vi.useFakeTimers();
    const first = loadPaySdk(SDK_URL);
    const rejection = expect(first).rejects.toThrow(`the pay SDK at ${SDK_URL} did not load within 15 s`);
    const tag = onlySdkScript();
    vi.advanceTimersByTime(PAY_SDK_LOAD_TIMEOUT_MS - 1);
    expect(tag.isConnected).toBe(true);
    vi.advanceTimersByTime(1);
    await rejection;
    expect(tag.isConnected).toBe(false);

    const second = loadPaySdk(SDK_URL);
    finishLoading(onlySdkScript());
    await expect(second).resolves.toBe(fakePay);
  });

  it("after a timeout, a script that arrives late is the SDK: the retry resolves at once, with no second tag", async () => {
    vi.useFakeTimers();
    const timedOut = await timeOut();
    // The browser runs a removed script that arrives after all.
    finishLoading(timedOut);
    const retry = loadPaySdk(SDK_URL);
    expect(sdkScripts()).toHaveLength(0);
    await expect(retry).resolves.toBe(fakePay);
  });

  it("a retry before the late script arrives waits for that same tag instead of fetching a second copy", async () => {
    vi.useFakeTimers();
    const timedOut = await timeOut();
    const retry = loadPaySdk(SDK_URL);
    expect(onlySdkScript()).toBe(timedOut);
    finishLoading(timedOut);
    await expect(retry).resolves.toBe(fakePay);
    expect(sdkScripts()).toHaveLength(1);
  });

  it("a timed-out tag that then fails is replaced by a fresh one on the retry", async () => {
    vi.useFakeTimers();
    const timedOut = await timeOut();
    timedOut.dispatchEvent(new Event("error"));
    const retry = loadPaySdk(SDK_URL);
    const freshTag = onlySdkScript();
    expect(freshTag).not.toBe(timedOut);
    finishLoading(freshTag);
    await expect(retry).resolves.toBe(fakePay);
  });

  it("a page's own tag that times out (it may have failed before anyone listened) is replaced on the retry", async () => {
    vi.useFakeTimers();
    const stale = pageTag();
    const first = loadPaySdk(SDK_URL);
    const rejection = expect(first).rejects.toThrow("did not load within");
    expect(onlySdkScript()).toBe(stale);
    vi.advanceTimersByTime(PAY_SDK_LOAD_TIMEOUT_MS);
    await rejection;

    const retry = loadPaySdk(SDK_URL);
    const freshTag = onlySdkScript();
    expect(freshTag).not.toBe(stale);
    finishLoading(freshTag);
    await expect(retry).resolves.toBe(fakePay);
  });

  it("does not time out a load that finished", async () => {
    vi.useFakeTimers();
    const load = loadPaySdk(SDK_URL);
    finishLoading(onlySdkScript());
    await load;
    vi.advanceTimersByTime(PAY_SDK_LOAD_TIMEOUT_MS * 2);
    expect(sdkScripts()).toHaveLength(1);
    await expect(loadPaySdk(SDK_URL)).resolves.toBe(fakePay);
  });

  it("refuses a second SDK address while the first is loaded: window.Pay is one global", async () => {
    const load = loadPaySdk(SDK_URL);
    finishLoading(onlySdkScript());
    await load;
    const otherUrl = "https://elsewhere.pay.test/sdks/v1/pay.js";
    await expect(loadPaySdk(otherUrl)).rejects.toThrow(`already loaded from ${SDK_URL}, not from ${otherUrl}`);
    expect(document.scripts).toHaveLength(1);
  });

  it("without window (server rendering) rejects and touches nothing", async () => {
    vi.stubGlobal("window", undefined);
    try {
      await expect(loadPaySdk(SDK_URL)).rejects.toThrow(`the pay SDK (${SDK_URL}) can only be loaded in a browser`);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(document.scripts).toHaveLength(0);
    // Nothing was remembered either: a browser call afterwards loads normally.
    const load = loadPaySdk(SDK_URL);
    finishLoading(onlySdkScript());
    await expect(load).resolves.toBe(fakePay);
  });
});
