/**
 * `#id` as a CSS selector that matches exactly that id, whatever characters React's `useId`
 * uses (`:r1:`, `«r1»`, `_r_1_`). Hex escapes are valid for any character, so no `CSS.escape`
 * is needed (jsdom has none).
 */
export function idSelector(id: string): string {
  return "#" + id.replace(/^[0-9-]|[^a-zA-Z0-9_-]/gu, (char) => `\\${char.codePointAt(0)?.toString(16)} `);
}
