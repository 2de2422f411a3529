/**
 * The contract gives the error passed to `onError` no shape (4.3, 6.2), so a popup the browser
 * blocked is recognised by its words, the way the sandbox's SDK and hosted-popup SDKs word it,
 * whether it comes as an Error, a plain `{ message }` or a string.
 */
export function isPopupBlockedError(error: unknown): boolean {
  const message =
    typeof error === "string"
      ? error
      : typeof error === "object" && error !== null && "message" in error && typeof error.message === "string"
        ? error.message
        : "";
  return /pop-?up/i.test(message) && /block/i.test(message);
}
