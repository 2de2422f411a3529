import type { Dictionary } from "@/lib/i18n/dictionaries";
import { luandaFormatter } from "@/lib/luanda-time";
import { formatAoa } from "@/lib/money";
import { receiptNumber, type Receipt, type ReceiptSeller } from "@/lib/orders/receipt";
import type { PrintFormat } from "./print-controls";

/**
 * A paid order's receipt as it prints: on A4 (a letterhead, a table of the lines) or on an 80 mm
 * thermal roll (one narrow column, each line's quantity and price under its name). No script: the
 * page's own print CSS (./print-controls.tsx) sets the paper.
 */

/** An instant as the shop's printed documents write it, `24/12/2026, 15:30` in Luanda's time, as a <time>. */
export function documentTime(locale: string) {
  const when = luandaFormatter(locale, {
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  return (instant: Date) => <time dateTime={instant.toISOString()}>{when.format(instant)}</time>;
}

export function ReceiptDocument({
  t,
  receipt,
  seller,
  format,
  testMode,
}: {
  t: Dictionary;
  receipt: Receipt;
  seller: ReceiptSeller;
  format: PrintFormat;
  /** The shop runs on the service's sandbox (a pk_test_ key): the receipt says it is worth nothing. */
  testMode: boolean;
}) {
  const text = t.receipt;
  const thermal = format === "80mm";
  const time = documentTime(t.locale);
  const number = receiptNumber(receipt.invoiceNumber);
  const totals: { label: string; value: string; testId: string }[] = [
    { label: text.subtotal, value: formatAoa(receipt.subtotalAoa), testId: "receipt-subtotal" },
    ...(receipt.discountAoa > 0
      ? [
          {
            label: text.discount(receipt.promoCode),
            value: `−${formatAoa(receipt.discountAoa)}`,
            testId: "receipt-discount",
          },
        ]
      : []),
    ...(receipt.delivery
      ? [
          {
            label:
              receipt.delivery.method === "pickup"
                ? text.pickup(receipt.delivery.place)
                : text.delivery(receipt.delivery.place),
            value: receipt.deliveryFeeAoa === 0 ? text.free : formatAoa(receipt.deliveryFeeAoa),
            testId: "receipt-delivery-fee",
          },
        ]
      : []),
  ];

  return (
    <article
      data-testid="receipt"
      data-format={format}
      aria-labelledby="receipt-heading"
      className={
        thermal
          ? "mx-auto flex w-[72mm] flex-col gap-3 bg-white p-3 text-xs text-black shadow-sm print:p-0 print:shadow-none"
          : "mx-auto flex max-w-3xl flex-col gap-6 rounded-xl border border-stone-200 bg-white p-4 text-sm text-black sm:p-8 print:max-w-none print:rounded-none print:border-0 print:p-0"
      }
    >
      <header className={thermal ? "flex flex-col gap-2 text-center" : "flex flex-wrap justify-between gap-6"}>
        <SellerDetails t={t} seller={seller} thermal={thermal} />
        <div className={thermal ? "flex flex-col gap-0.5" : "flex flex-col gap-0.5 sm:text-right print:text-right"}>
          <h1
            id="receipt-heading"
            className={thermal ? "text-base font-bold uppercase" : "text-2xl font-bold uppercase"}
          >
            {text.heading}
          </h1>
          <p>
            {text.number}{" "}
            <span data-testid="receipt-number" className="font-mono font-semibold">
              {number}
            </span>
          </p>
        </div>
      </header>

      {testMode && (
        <p className="border border-black px-2 py-1 text-center font-semibold" data-testid="receipt-test-mode">
          {text.testMode}
        </p>
      )}

      <dl
        className={
          thermal
            ? "grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5"
            : "grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr_auto_1fr]"
        }
      >
        <dt className="font-medium">{text.issuedAt}</dt>
        <dd>{time(receipt.issuedAt)}</dd>
        <dt className="font-medium">{text.order}</dt>
        <dd className="font-mono">{receipt.orderNumber}</dd>
        <dt className="font-medium">{text.orderedAt}</dt>
        <dd>{time(receipt.orderedAt)}</dd>
        {receipt.paidAt && (
          <>
            <dt className="font-medium">{text.paidAt}</dt>
            <dd>{time(receipt.paidAt)}</dd>
          </>
        )}
        <dt className="font-medium">{text.customer}</dt>
        <dd data-testid="receipt-customer">{receipt.customerName ?? text.noName}</dd>
        {receipt.customerNif && (
          <>
            <dt className="font-medium">{text.customerNif}</dt>
            <dd data-testid="receipt-customer-nif" className="font-mono">
              {receipt.customerNif}
            </dd>
          </>
        )}
      </dl>

      {thermal ? (
        <ul className="flex flex-col gap-1.5 border-y border-dashed border-black py-2">
          {receipt.lines.map((line, index) => (
            <li key={index} data-testid="receipt-line">
              <p className="font-medium">{line.productName}</p>
              {line.variantTitle && <p>{line.variantTitle}</p>}
              {line.sku && (
                <p>
                  {text.sku} {line.sku}
                </p>
              )}
              <p className="flex justify-between gap-2 tabular-nums">
                <span>
                  {line.quantity} × {formatAoa(line.unitPriceAoa)}
                </span>
                <span>{formatAoa(line.lineTotalAoa)}</span>
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <table className="w-full border-collapse">
          <thead>
            <tr className="border-b-2 border-black text-left">
              <th scope="col" className="py-1 pr-2 font-semibold">
                {text.item}
              </th>
              <th scope="col" className="py-1 px-2 text-right font-semibold">
                {text.quantity}
              </th>
              <th scope="col" className="py-1 px-2 text-right font-semibold">
                {text.unitPrice}
              </th>
              <th scope="col" className="py-1 pl-2 text-right font-semibold">
                {text.lineTotal}
              </th>
            </tr>
          </thead>
          <tbody>
            {receipt.lines.map((line, index) => (
              <tr key={index} data-testid="receipt-line" className="border-b border-stone-300 align-top">
                <td className="py-1.5 pr-2">
                  <span className="font-medium">{line.productName}</span>
                  {line.variantTitle && <span className="block">{line.variantTitle}</span>}
                  {line.sku && (
                    <span className="block font-mono text-xs">
                      {text.sku} {line.sku}
                    </span>
                  )}
                </td>
                <td className="py-1.5 px-2 text-right tabular-nums">{line.quantity}</td>
                <td className="py-1.5 px-2 text-right tabular-nums whitespace-nowrap">
                  {formatAoa(line.unitPriceAoa)}
                </td>
                <td className="py-1.5 pl-2 text-right tabular-nums whitespace-nowrap">
                  {formatAoa(line.lineTotalAoa)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <dl className={thermal ? "flex flex-col gap-0.5" : "ml-auto flex w-full max-w-xs flex-col gap-1"}>
        {totals.map((row) => (
          <div key={row.testId} className="flex justify-between gap-4">
            <dt>{row.label}</dt>
            <dd data-testid={row.testId} className="tabular-nums whitespace-nowrap">
              {row.value}
            </dd>
          </div>
        ))}
        <div
          className={`flex justify-between gap-4 border-t-2 border-black pt-1 font-bold ${thermal ? "text-sm" : "text-base"}`}
        >
          <dt>{text.total}</dt>
          <dd data-testid="receipt-total" className="tabular-nums whitespace-nowrap">
            {formatAoa(receipt.totalAoa)}
          </dd>
        </div>
      </dl>

      <footer className={thermal ? "flex flex-col gap-1 text-center" : "flex flex-col gap-1"}>
        <p data-testid="receipt-not-invoice" className="font-semibold">
          {text.notAnInvoice}
        </p>
        <p>{text.notCertified}</p>
        <p>{text.luandaTime}</p>
      </footer>
    </article>
  );
}

/** The seller as the shop's printed documents name it: legal and trading name, NIF, address. */
export function SellerDetails({ t, seller, thermal }: { t: Dictionary; seller: ReceiptSeller; thermal: boolean }) {
  return (
    <div data-testid="receipt-seller" className="flex flex-col gap-0.5">
      <p className={thermal ? "text-sm font-semibold" : "text-lg font-semibold"}>{seller.name}</p>
      {seller.tradingName && <p>{seller.tradingName}</p>}
      {seller.nif && (
        <p>
          {t.receipt.nif} <span className="font-mono">{seller.nif}</span>
        </p>
      )}
      {seller.addressLines.map((line, index) => (
        <p key={index}>{line}</p>
      ))}
    </div>
  );
}
