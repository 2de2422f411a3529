import type { BoughtAgainNotice as Notice } from "@/lib/accounts/bought-again-notice";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * What "Comprar de novo" did, on the cart page it goes to (lib/accounts/bought-again-notice.ts):
 * how many units went back in, and each line of the order that did not, or not all of it, and why.
 */
export function BoughtAgainNotice({ t, notice }: { t: Dictionary; notice: Notice }) {
  const texts = t.account.boughtAgain;
  const short = notice.missing.length > 0 || notice.more > 0;
  return (
    <div
      role="status"
      data-testid="bought-again-notice"
      className={`flex flex-col gap-2 rounded-lg border px-4 py-3 text-sm ${
        short ? "border-amber-200 bg-amber-50 text-amber-900" : "border-emerald-200 bg-emerald-50 text-emerald-800"
      }`}
    >
      <p>{texts.added(notice.added)}</p>
      {short && (
        <>
          <p className="font-medium">{texts.missingTitle}</p>
          <ul className="list-disc pl-5">
            {notice.missing.map((line, index) => (
              <li key={index} data-testid="not-bought-again">
                <span className="font-medium">{line.name}</span> — {texts.reasons[line.reason](line.quantity)}
              </li>
            ))}
            {notice.more > 0 && <li>{texts.more(notice.more)}</li>}
          </ul>
        </>
      )}
    </div>
  );
}
