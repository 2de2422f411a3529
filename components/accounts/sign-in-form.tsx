"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { accountTexts, type AccountTexts } from "@/lib/i18n/account-texts";
import type { Lang } from "@/lib/i18n/languages";

/**
 * Signing in by phone (/account/sign-in): the phone, then the 6-digit code sent to it, each
 * posted as JSON to better-auth's endpoints of the shop's own origin (lib/accounts/auth.ts:
 * /api/auth/phone-number/send-otp, then /verify, which sets the session cookie). Every refusal is
 * said in the shopper's words; a code that can no longer work asks for a new one. Once signed in,
 * a full navigation to `next` (a path of the shop's, checked by the page), so every part of the
 * next page, the header's included, reads the new session. The endpoints take JSON only: the
 * buttons wait for this script, and a browser without it is told so.
 */

type Texts = AccountTexts["signIn"];
type ErrorKey = keyof Texts["errors"];

const SEND_CODE = "/api/auth/phone-number/send-otp";
const VERIFY = "/api/auth/phone-number/verify";
const CODE = /^[0-9]{6}$/;
/** The digits a phone has at the least (lib/phone.ts PHONE_DIGITS): fewer is not worth a request. */
const PHONE_MIN_DIGITS = 7;

/** What a refusal of send-otp means for the shopper (lib/http/shopper-auth-route.ts answers them). */
const SEND_REFUSALS: Record<string, ErrorKey> = {
  invalid_input: "phone",
  rate_limited: "rate_limited",
  messages_off: "off",
  accounts_off: "off",
  message_not_sent: "message_not_sent",
};

/** …and of verify. The last three mean the code can no longer work: a new one must be asked for. */
const VERIFY_REFUSALS: Record<string, ErrorKey> = {
  invalid_input: "code",
  invalid_otp: "invalid_otp",
  rate_limited: "rate_limited",
  accounts_off: "off",
  too_many_attempts: "too_many_attempts",
  otp_expired: "otp_expired",
  otp_not_found: "otp_not_found",
};
const DEAD_CODE: readonly ErrorKey[] = ["too_many_attempts", "otp_expired", "otp_not_found"];

/** POSTs `body` as JSON: null when it worked, else the refusal's code ("offline" when nothing answered). */
async function post(path: string, body: unknown): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    return "offline";
  }
  if (response.ok) return null;
  const answer = (await response.json().catch(() => null)) as { error?: { code?: unknown } } | null;
  return typeof answer?.error?.code === "string" ? answer.error.code : "unavailable";
}

export function SignInForm({ lang, next }: { lang: Lang; next: string }) {
  const texts: Texts = accountTexts(lang).signIn;
  const id = useId();
  const [ready, setReady] = useState(false);
  const [step, setStep] = useState<"phone" | "code">("phone");
  const [phone, setPhone] = useState("");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorKey | null>(null);
  const [info, setInfo] = useState("");
  const phoneInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  // The buttons work once this script runs (the endpoints take JSON, not a form).
  useEffect(() => setReady(true), []);
  // The focus follows the step, once the shopper has moved between them: not on arrival, where a
  // phone's keyboard would cover what the page says.
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current) (step === "code" ? codeInput : phoneInput).current?.focus();
    moved.current = true;
  }, [step]);

  const refused = (refusal: string, meanings: Record<string, ErrorKey>) =>
    setError(refusal === "offline" ? "offline" : (meanings[refusal] ?? "unavailable"));

  async function sendCode(again: boolean) {
    setError(null);
    setInfo("");
    if (phone.replace(/\D/g, "").length < PHONE_MIN_DIGITS) {
      setError("phone");
      phoneInput.current?.focus();
      return;
    }
    setBusy(true);
    const failed = await post(SEND_CODE, { phoneNumber: phone });
    setBusy(false);
    if (failed) {
      refused(failed, SEND_REFUSALS);
      // Asked again from the code's step: a refused phone is changed at its own step.
      if (again && SEND_REFUSALS[failed] === "phone") setStep("phone");
      return;
    }
    setCode("");
    setInfo(again ? texts.anotherSent(phone) : texts.codeSent(phone));
    setStep("code");
  }

  async function verify() {
    setError(null);
    const typed = code.replace(/\s/g, "");
    if (!CODE.test(typed)) {
      setError("code");
      codeInput.current?.focus();
      return;
    }
    setBusy(true);
    const failed = await post(VERIFY, { phoneNumber: phone, code: typed });
    if (failed) {
      setBusy(false);
      refused(failed, VERIFY_REFUSALS);
      codeInput.current?.select();
      return;
    }
    setInfo(texts.signedIn);
    // A full navigation: the next page, its header included, is rendered for the signed-in shopper.
    window.location.assign(next);
  }

  const submit = (event: FormEvent, action: () => Promise<void>) => {
    event.preventDefault();
    if (!busy) void action();
  };

  const deadCode = error !== null && DEAD_CODE.includes(error);
  const errorId = `${id}-error`;
  const button =
    "rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600 disabled:opacity-60 disabled:hover:bg-brand-700";
  const secondary = "rounded-md border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100 disabled:opacity-60";
  const input = "rounded-md border border-stone-300 px-3 py-2 text-base aria-invalid:border-red-600";

  return (
    <div className="flex flex-col gap-4">
      <noscript>
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">{texts.noScript}</p>
      </noscript>
      <p role="status" data-testid="sign-in-status" className="text-stone-700 empty:hidden">
        {info}
      </p>
      {step === "phone" ? (
        <form noValidate onSubmit={(event) => submit(event, () => sendCode(false))} className="flex flex-col gap-4">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-phone`} className="font-medium">
              {texts.phone}
            </label>
            <input
              ref={phoneInput}
              id={`${id}-phone`}
              name="phoneNumber"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              required
              maxLength={30}
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
              aria-invalid={error === "phone" ? true : undefined}
              aria-describedby={`${id}-phone-hint${error ? ` ${errorId}` : ""}`}
              className={input}
            />
            <span id={`${id}-phone-hint`} className="text-sm text-stone-600">
              {texts.phoneHint}
            </span>
          </div>
          <ErrorMessage id={errorId} text={error && texts.errors[error]} />
          <button type="submit" disabled={!ready || busy} className={`self-start ${button}`}>
            {busy ? texts.sending : texts.sendCode}
          </button>
        </form>
      ) : (
        <form noValidate onSubmit={(event) => submit(event, verify)} className="flex flex-col gap-4">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-code`} className="font-medium">
              {texts.code}
            </label>
            <input
              ref={codeInput}
              id={`${id}-code`}
              name="code"
              type="text"
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(event) => setCode(event.target.value)}
              aria-invalid={error === "code" || error === "invalid_otp" || deadCode ? true : undefined}
              aria-describedby={`${id}-code-hint${error ? ` ${errorId}` : ""}`}
              className={`w-40 font-mono text-lg tracking-widest ${input}`}
            />
            <span id={`${id}-code-hint`} className="text-sm text-stone-600">
              {texts.codeHint}
            </span>
          </div>
          <ErrorMessage id={errorId} text={error && texts.errors[error]} />
          <div className="flex flex-wrap gap-3">
            <button type="submit" disabled={!ready || busy} className={button}>
              {busy ? texts.verifying : texts.verify}
            </button>
            <button
              type="button"
              disabled={!ready || busy}
              onClick={() => void sendCode(true)}
              className={deadCode ? button : secondary}
            >
              {texts.sendAnother}
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                setError(null);
                setInfo("");
                setCode("");
                setStep("phone");
              }}
              className="rounded-md px-2 py-2 font-medium text-brand-700 hover:underline disabled:opacity-60"
            >
              {texts.changeNumber}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

function ErrorMessage({ id, text }: { id: string; text: string | null }) {
  return (
    <p
      id={id}
      role="alert"
      data-testid="sign-in-error"
      className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800 empty:hidden"
    >
      {text ?? ""}
    </p>
  );
}
