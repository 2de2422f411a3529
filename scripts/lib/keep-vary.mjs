// What scripts/serve.mjs does to every response's `Vary` header. next.config.mjs's `headers` set
// `Vary: Save-Data` on the cached catalogue and product pages (each has a lighter form for a
// browser that sends `Save-Data: on`, docs/data-budget.md#saving-data), and Next then replaces a
// page's Vary with its own list (RSC, Next-Router-State-Tree, …): a cache between the shop and
// the shopper would keep one form for both. Here a Vary set over an earlier one adds to it.
// Plain JavaScript for plain `node`.

/** The names of both values, each once (case-insensitively), in their order: `a, b` + `B, c` → `a, b, c`. */
export function mergeVary(earlier, later) {
  const names = [earlier, later]
    .flat()
    .flatMap((value) => String(value ?? "").split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.includes("*")) return "*";
  return names
    .filter((name, i) => names.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === i)
    .join(", ");
}

/** Makes `response.setHeader("Vary", …)` keep the names an earlier Vary had. */
export function keepVary(response) {
  const setHeader = response.setHeader.bind(response);
  response.setHeader = (name, value) => {
    const earlier = String(name).toLowerCase() === "vary" ? response.getHeader("vary") : undefined;
    return setHeader(name, earlier === undefined ? value : mergeVary(earlier, value));
  };
  return response;
}
