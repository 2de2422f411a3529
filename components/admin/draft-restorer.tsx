"use client";

import { useEffect, useState } from "react";

/**
 * Puts a draft (lib/http/admin-draft.ts: the text fields of a form refused because its session had
 * ended) back into the form on this page that posts to the same address, once: only when the
 * address names the draft (`?draft=<id>`, where the sign-in sends the owner back), which is then
 * taken out of the address, so a reload or a later visit leaves the form as the server sent it.
 * Hidden fields (what the page itself knows, such as the stock it showed) and files are left
 * alone. Says what it did, and what could not be kept.
 */
export function DraftRestorer({
  draft,
  notes,
}: {
  draft: { id: string; action: string; fields: [string, string][] };
  notes: string[];
}) {
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    const url = new URL(window.location.href);
    if (url.searchParams.get("draft") !== draft.id) return;
    url.searchParams.delete("draft");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
    // The attribute, not `form.action`, which a field named "action" would shadow.
    const form = Array.from(document.forms).find(
      (candidate) => new URL(candidate.getAttribute("action") ?? "", window.location.href).pathname === draft.action,
    );
    if (!form) return;
    fill(form, draft.fields);
    // Once, after the page's first paint: what the form shows changed, and the owner is told why.
    setRestored(true);
  }, [draft]);
  if (!restored) return null;
  return (
    <div
      role="status"
      data-testid="draft-restored"
      className="mb-6 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      {notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
    </div>
  );
}

const LEFT_ALONE = new Set(["hidden", "file", "password", "submit", "button", "reset", "image"]);

/** The draft's values into `form`'s fields of the same names, in order (a name the form has twice takes its values in turn). */
function fill(form: HTMLFormElement, fields: [string, string][]) {
  const values = new Map<string, string[]>();
  for (const [name, value] of fields) values.set(name, [...(values.get(name) ?? []), value]);
  const taken = new Map<string, number>();
  for (const element of Array.from(form.elements)) {
    if (!(
      element instanceof HTMLInputElement ||
      element instanceof HTMLTextAreaElement ||
      element instanceof HTMLSelectElement
    ))
      continue;
    const sent = values.get(element.name);
    if (!sent || (element instanceof HTMLInputElement && LEFT_ALONE.has(element.type))) continue;
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
      element.checked = sent.includes(element.value);
    } else if (element instanceof HTMLSelectElement && element.multiple) {
      for (const option of Array.from(element.options)) option.selected = sent.includes(option.value);
    } else {
      const index = taken.get(element.name) ?? 0;
      taken.set(element.name, index + 1);
      const value = sent[index];
      if (value !== undefined) element.value = value;
    }
  }
}
