/**
 * What a page shows instead of itself: not found, on its way (the loading.tsx files), failed
 * (app/[lang]/(shop)/error.tsx, app/global-error.tsx). In Portuguese (Angola); composed into ../pt.ts, and
 * loaded by the browser on its own (../state-texts.ts): every page carries the error pages' code.
 */

export const stateTexts = {
  notFound: {
    title: "Página não encontrada",
    body: "O endereço não existe ou já não está disponível.",
    home: "Ir para os produtos",
  },
  /** A page on its way (the loading.tsx files), and app/error.tsx and app/global-error.tsx. */
  states: {
    loading: "A carregar…",
    errorTitle: "Algo correu mal",
    errorBody: "Não foi possível mostrar esta página. Tente de novo daqui a pouco.",
    tryAgain: "Tentar de novo",
    home: "Ir para os produtos",
    /** The error's digest, which the shop's logs carry, for whoever the shopper contacts. */
    errorCode: (digest: string) => `Código do erro: ${digest}`,
  },
};
