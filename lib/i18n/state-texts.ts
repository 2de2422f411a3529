import { stateTexts as en } from "./en/states";
import type { Lang } from "./languages";
import { stateTexts as pt } from "./pt/states";

/**
 * The not-found and error pages' part of each language's dictionary (./pt/states.ts,
 * ./en/states.ts), for those pages' client components (app/[lang]/(shop)/not-found.tsx,
 * app/[lang]/(shop)/error.tsx, app/global-error.tsx). Next loads their code on every page, each in its
 * own chunk, so they take only these few sentences, not the storefront's (./storefront-texts.ts).
 */
export type StateTexts = typeof pt;

export const STATE_TEXTS = { pt, en } as const satisfies Record<Lang, StateTexts>;

export function stateTexts(lang: Lang): StateTexts {
  return STATE_TEXTS[lang];
}
