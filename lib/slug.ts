/**
 * A product's or category's slug, the last part of its address: lower-case letters and digits
 * joined by single hyphens. Pure, so the browser may load it.
 */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
