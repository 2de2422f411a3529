"use client";

import { useEffect, useState } from "react";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { referenceFileHref, referenceFileName } from "@/lib/orders/reference-slip";
import { whatsappShareLink } from "@/lib/whatsapp";

/**
 * "Share" and "Save" for a pending bank reference's slip. Both are plain links in the server's
 * HTML (WhatsApp with the text typed in; a text file to download), so they work without script;
 * where the browser has the Web Share API, "Share" becomes a button that opens the phone's own
 * share sheet, and falls back to the WhatsApp link if that fails.
 */
export function ReferenceActions({ t, text, orderNumber }: { t: Dictionary; text: string; orderNumber: string }) {
  const [canShare, setCanShare] = useState(false);
  const shareHref = whatsappShareLink(text);

  // Known only in the browser, after the first paint: the server's HTML always has the link.
  useEffect(() => setCanShare(typeof navigator.share === "function"), []);

  async function share() {
    try {
      await navigator.share({ title: t.order.slip.heading(t.shop.name), text });
    } catch (error) {
      // The shopper closed the share sheet: nothing to do.
      if (error instanceof DOMException && error.name === "AbortError") return;
      setCanShare(false);
      window.open(shareHref, "_blank", "noopener");
    }
  }

  const look = "rounded-md border border-stone-300 px-3 py-1.5 text-sm font-medium hover:bg-stone-100";
  return (
    <div className="flex flex-wrap gap-3">
      {canShare ? (
        <button type="button" onClick={share} aria-label={t.order.slip.shareName} className={look}>
          {t.order.slip.share}
        </button>
      ) : (
        <a
          href={shareHref}
          target="_blank"
          rel="noopener"
          aria-label={t.order.slip.shareName}
          data-testid="reference-share"
          className={look}
        >
          {t.order.slip.share}
        </a>
      )}
      <a
        href={referenceFileHref(text)}
        download={referenceFileName(orderNumber)}
        aria-label={t.order.slip.saveName}
        data-testid="reference-save"
        className={look}
      >
        {t.order.slip.save}
      </a>
    </div>
  );
}
