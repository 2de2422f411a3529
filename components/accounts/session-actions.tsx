"use client";

import { useEffect, useRef, useState } from "react";
import { forgetKeptPages, keepOfflinePageFiles } from "@/components/offline/clear-kept-pages";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { AccountSection } from "@/components/accounts/account-section";

/**
 * The end of the account page: "Terminar sessão" here (POST /api/auth/sign-out) or on every
 * device (POST /api/auth/revoke-sessions), and "Apagar a minha conta" after a confirmation (POST
 * /api/account/delete). Each first deletes what the service worker kept in this browser (the
 * order pages, as "Esquecer este telefone" does: components/offline/clear-kept-pages.ts), so the
 * next person on this phone cannot read them offline, then asks the server, then goes to the
 * home page with a full navigation (the header then reads the ended session). A refusal or no
 * connection is said, and nothing else happens.
 */

type Texts = Pick<Dictionary["account"], "session" | "deletion">;
type Ending = "signOut" | "everywhere" | "delete";

const ENDPOINTS: Record<Ending, string> = {
  signOut: "/api/auth/sign-out",
  everywhere: "/api/auth/revoke-sessions",
  delete: "/api/account/delete",
};

async function end(ending: Ending): Promise<boolean> {
  try {
    await forgetKeptPages();
  } catch {
    // The browser refused to open its caches (a private window's quota, say): the session still ends.
  }
  const ended = await fetch(ENDPOINTS[ending], {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
    cache: "no-store",
  }).then(
    (response) => response.ok,
    () => false,
  );
  if (ended) await keepOfflinePageFiles();
  return ended;
}

export function SessionActions({ texts }: { texts: Texts }) {
  const [busy, setBusy] = useState<Ending | null>(null);
  const [failed, setFailed] = useState<Ending | null>(null);
  const [confirming, setConfirming] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) yes.current?.focus();
  }, [confirming]);

  async function run(ending: Ending) {
    setBusy(ending);
    setFailed(null);
    if (await end(ending)) {
      window.location.assign("/");
      return;
    }
    setBusy(null);
    setFailed(ending);
  }

  const button = "rounded-md border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100 disabled:opacity-60";
  return (
    <>
      <AccountSection id="session" title={texts.session.title} intro={texts.session.intro} look="card">
        <div className="flex flex-wrap gap-2">
          <button type="button" disabled={busy !== null} onClick={() => void run("signOut")} className={button}>
            {texts.session.signOut}
          </button>
          <button type="button" disabled={busy !== null} onClick={() => void run("everywhere")} className={button}>
            {texts.session.signOutEverywhere}
          </button>
        </div>
        <p role="status" data-testid="session-status" className="text-sm text-stone-700">
          {busy === "signOut" || busy === "everywhere"
            ? texts.session.working
            : failed === "signOut" || failed === "everywhere"
              ? texts.session.failed
              : ""}
        </p>
      </AccountSection>
      <AccountSection id="delete-account" title={texts.deletion.title} intro={texts.deletion.intro} look="danger">
        {confirming ? (
          <div className="flex flex-col gap-2">
            <p className="font-medium">{texts.deletion.question}</p>
            <div className="flex flex-wrap gap-2">
              <button
                ref={yes}
                type="button"
                disabled={busy !== null}
                onClick={() => void run("delete")}
                className="rounded-md bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800 disabled:opacity-60"
              >
                {texts.deletion.yes}
              </button>
              <button type="button" disabled={busy !== null} onClick={() => setConfirming(false)} className={button}>
                {texts.deletion.no}
              </button>
            </div>
          </div>
        ) : (
          <button type="button" disabled={busy !== null} onClick={() => setConfirming(true)} className={button}>
            {texts.deletion.button}
          </button>
        )}
        <p role="status" data-testid="delete-account-status" className="text-sm text-stone-700">
          {busy === "delete" ? texts.deletion.working : failed === "delete" ? texts.deletion.failed : ""}
        </p>
      </AccountSection>
    </>
  );
}
