/** A small busy indicator beside a text that says what is awaited (the text is what assistive tech reads). */
export function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="size-4 shrink-0 animate-spin rounded-full border-2 border-stone-300 border-t-brand-700"
    />
  );
}
