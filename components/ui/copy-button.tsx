"use client";

import { useEffect, useState } from "react";

/** Copies `value` to the clipboard and says so where it can be seen and heard. */
export function CopyButton({
  value,
  label,
  copiedText,
  failedText,
}: {
  value: string;
  /** The button's accessible name, e.g. "Copiar Referência". */
  label: string;
  copiedText: string;
  failedText: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), 2_500);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={copy}
        className="rounded-md border border-stone-300 px-3 py-1 text-sm font-medium hover:bg-stone-100"
      >
        {label}
      </button>
      {/* Space kept for the confirmation so nothing moves when it appears. */}
      <span aria-live="polite" className="min-w-16 text-sm text-emerald-700">
        {state === "copied" ? copiedText : state === "failed" ? failedText : ""}
      </span>
    </span>
  );
}
