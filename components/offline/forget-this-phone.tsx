"use client";

import { useEffect, useRef, useState } from "react";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { forgetKeptPages, keepOfflinePageFiles } from "@/components/offline/clear-kept-pages";

/**
 * "Esquecer este telefone", on the offline page and the shopper's order pages: after a
 * confirmation, deletes every cache of the shop's service worker in this browser (the order
 * pages it kept, the built files: ./clear-kept-pages.ts), then asks the server to expire the
 * shopper and cart cookies (app/api/shopper/forget/route.ts), so that a shared phone no longer
 * opens, lists or holds this shopper's orders. The caches are deleted by the page itself, so it works with the worker or
 * without it, and offline (the cookies then wait for the connection, and the text says so). The
 * worker stays: it keeps an order page again only when this browser opens one.
 */

type ForgetTexts = Dictionary["offline"]["forget"];

const FORGET_PATH = "/api/shopper/forget";

type Outcome = "done" | "doneOffline" | "failed";

export function ForgetThisPhone({ texts }: { texts: ForgetTexts }) {
  const [step, setStep] = useState<"ask" | "confirm" | "busy" | Outcome>("ask");
  const yes = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (step === "confirm") yes.current?.focus();
  }, [step]);

  const forget = async () => {
    setStep("busy");
    setStep(await forgetThisPhone());
  };

  return (
    <section
      aria-labelledby="forget-this-phone"
      data-testid="forget-this-phone"
      className="flex flex-col items-start gap-3 rounded-xl border border-stone-200 bg-white p-4 text-sm"
    >
      <h2 id="forget-this-phone" className="text-lg font-semibold">
        {texts.title}
      </h2>
      <p className="text-stone-600">{texts.intro}</p>
      {step === "confirm" || step === "busy" ? (
        <div className="flex flex-col gap-2">
          <p className="font-medium">{texts.question}</p>
          <div className="flex flex-wrap gap-2">
            <button
              ref={yes}
              type="button"
              disabled={step === "busy"}
              onClick={() => void forget()}
              className="rounded-md bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800 disabled:opacity-60"
            >
              {texts.yes}
            </button>
            <button
              type="button"
              disabled={step === "busy"}
              onClick={() => setStep("ask")}
              className="rounded-md border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100 disabled:opacity-60"
            >
              {texts.no}
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          onClick={() => setStep("confirm")}
          className="rounded-md border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100"
        >
          {texts.button}
        </button>
      )}
      <p role="status" data-testid="forget-this-phone-status" className="text-stone-700">
        {step === "done" || step === "doneOffline" || step === "failed" ? texts[step] : ""}
      </p>
    </section>
  );
}

async function forgetThisPhone(): Promise<Outcome> {
  try {
    await forgetKeptPages();
  } catch {
    return "failed";
  }
  const [cookiesForgotten] = await Promise.all([
    fetch(FORGET_PATH, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }).then(
      (response) => response.ok,
      () => false,
    ),
    keepOfflinePageFiles(),
  ]);
  return cookiesForgotten ? "done" : "doneOffline";
}
