/**
 * The addresses a page's own markup names for the browser to load: the `src` of its `<script>`
 * start tags and the `href` of its stylesheet and preload `<link>`s, read the way the browser's
 * HTML tokenizer reads them, so that text (a shopper's address shown on the page, the JSON
 * inside Next's inline scripts, a textarea's content, a comment) never counts as a tag. Pure, for
 * the service worker (app/sw.ts), which has no DOMParser.
 *
 * Hand-written rather than a parser library: the worker is installed on a shopper's phone on a
 * metered connection, and a full HTML parser with its table of named character references would
 * weigh several times the worker itself, for a page the shop's own server rendered. Where this
 * reader and a browser could disagree it errs on the side of seeing fewer tags, never more: a
 * script whose content opens `<!--` (where the browser's end of a script moves) or a `<plaintext>`
 * ends the reading; `<![CDATA[` is skipped to `]]>`; an attribute value with a character reference
 * other than the few React writes is dropped; a tag cut off by the end of the text is no tag.
 */

/** Elements whose content is text up to their own end tag: no tag inside them is one. */
const TEXT_ONLY = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"]);

/** What links may ask the browser to load a file of the page with. */
const LOADING_RELS = new Set(["stylesheet", "preload", "modulepreload"]);

const WHITESPACE = /[\t\n\f\r ]/;
const LETTER = /[A-Za-z]/;

/** A start tag: its name and its attributes, lower case; a value that could not be read is null. */
interface StartTag {
  name: string;
  attributes: Map<string, string | null>;
}

/**
 * The `src` of every `<script>` and the `href` of every `<link rel="stylesheet|preload|modulepreload">`
 * in `html`, their character references decoded, in document order, each as written (not resolved).
 */
export function linkedFilesOf(html: string): string[] {
  const files: string[] = [];
  for (const tag of startTagsOf(html)) {
    if (tag.name === "script") {
      const src = tag.attributes.get("src");
      if (src) files.push(src);
    } else if (tag.name === "link") {
      const rels = (tag.attributes.get("rel") ?? "").toLowerCase().split(/[\t\n\f\r ]+/);
      const href = tag.attributes.get("href");
      if (href && rels.some((rel) => LOADING_RELS.has(rel))) files.push(href);
    }
  }
  return files;
}

/** The start tags of `html`, outside comments and the content of text-only elements. */
export function startTagsOf(html: string): StartTag[] {
  const tags: StartTag[] = [];
  let at = 0;
  for (;;) {
    const open = html.indexOf("<", at);
    if (open < 0) return tags;
    const next = html[open + 1] ?? "";
    if (LETTER.test(next)) {
      const read = readTag(html, open + 1);
      if (!read) return tags;
      tags.push(read.tag);
      at = read.end;
      if (read.tag.name === "plaintext") return tags;
      if (TEXT_ONLY.has(read.tag.name)) {
        const close = endTagAt(html, read.tag.name, at);
        // Inside a script, `<!--` changes where the browser ends it: stop rather than guess.
        if (read.tag.name === "script" && html.slice(at, close < 0 ? html.length : close).includes("<!--")) return tags;
        if (close < 0) return tags;
        at = close;
      }
    } else if (next === "/" && LETTER.test(html[open + 2] ?? "")) {
      // An end tag: read like a start tag (a quoted `>` does not end it), and not kept.
      const read = readTag(html, open + 2);
      if (!read) return tags;
      at = read.end;
    } else if (html.startsWith("<!--", open)) {
      const end = commentEnd(html, open + 4);
      if (end < 0) return tags;
      at = end;
    } else if (html.startsWith("<![CDATA[", open)) {
      const end = html.indexOf("]]>", open + 9);
      if (end < 0) return tags;
      at = end + 3;
    } else if (next === "!" || next === "?" || next === "/") {
      // A doctype, or a bogus comment: up to the next `>`.
      const end = html.indexOf(">", open + 2);
      if (end < 0) return tags;
      at = end + 1;
    } else {
      at = open + 1;
    }
  }
}

/** Where a comment whose content starts at `from` ends (after its `-->`), or -1. */
function commentEnd(html: string, from: number): number {
  // `<!-->` and `<!--->` are whole (empty) comments.
  if (html[from] === ">") return from + 1;
  if (html.startsWith("->", from)) return from + 2;
  const dashes = html.indexOf("-->", from);
  const bang = html.indexOf("--!>", from);
  if (dashes < 0 && bang < 0) return -1;
  if (bang < 0 || (dashes >= 0 && dashes < bang)) return dashes + 3;
  return bang + 4;
}

/** Where the end tag `</name` of a text-only element starts, searching from `from`, or -1. */
function endTagAt(html: string, name: string, from: number): number {
  const endTag = new RegExp(`</${name}(?=[\\t\\n\\f\\r />]|$)`, "gi");
  endTag.lastIndex = from;
  return endTag.exec(html)?.index ?? -1;
}

/**
 * The tag whose name starts at `from` (just after `<` or `</`) and where the text after it
 * starts; null when the text ends inside it (the browser drops such a tag).
 */
function readTag(html: string, from: number): { tag: StartTag; end: number } | null {
  let at = from;
  while (at < html.length && !WHITESPACE.test(html[at]!) && html[at] !== "/" && html[at] !== ">") at++;
  const tag: StartTag = { name: html.slice(from, at).toLowerCase(), attributes: new Map() };
  for (;;) {
    while (at < html.length && (WHITESPACE.test(html[at]!) || html[at] === "/")) at++;
    if (at >= html.length) return null;
    if (html[at] === ">") return { tag, end: at + 1 };
    // The name: a first `=` belongs to it; then up to a space, `/`, `>` or `=`.
    const nameStart = at++;
    while (at < html.length && !WHITESPACE.test(html[at]!) && !"/>=".includes(html[at]!)) at++;
    const name = html.slice(nameStart, at).toLowerCase();
    while (at < html.length && WHITESPACE.test(html[at]!)) at++;
    let value: string | null = "";
    if (html[at] === "=") {
      at++;
      while (at < html.length && WHITESPACE.test(html[at]!)) at++;
      const quote = html[at];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, at + 1);
        if (close < 0) return null;
        value = decodeReferences(html.slice(at + 1, close));
        at = close + 1;
      } else if (quote !== ">") {
        const start = at;
        while (at < html.length && !WHITESPACE.test(html[at]!) && html[at] !== ">") at++;
        value = decodeReferences(html.slice(start, at));
      }
    }
    // The first of two attributes of the same name is the one the browser keeps.
    if (!tag.attributes.has(name)) tag.attributes.set(name, value);
  }
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/**
 * An attribute value with its character references decoded: the five named ones React writes and
 * the numeric ones, each with its `;`. Null for any other `&`, whose meaning this does not carry
 * the table for: the value is then not used.
 */
function decodeReferences(value: string): string | null {
  let undecodable = false;
  const decoded = value.replace(/&([^;]*);?/g, (whole: string, body: string) => {
    const code = /^#[xX]([0-9A-Fa-f]{1,6})$/.exec(body)?.[1] ?? /^#([0-9]{1,7})$/.exec(body)?.[1];
    if (whole.endsWith(";")) {
      if (Object.hasOwn(NAMED, body)) return NAMED[body]!;
      if (code !== undefined) {
        const point = parseInt(code, body[1] === "x" || body[1] === "X" ? 16 : 10);
        if (point > 0 && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff)) return String.fromCodePoint(point);
      }
    }
    undecodable = true;
    return whole;
  });
  return undecodable ? null : decoded;
}
