/**
 * The offline page (app/[lang]/offline/page.tsx), which the service worker shows for a page it
 * cannot load without the internet. In Portuguese (Angola); composed into ../pt.ts.
 */

export const offlineTexts = {
  offline: {
    title: "Sem ligação à internet",
    body: "Esta página precisa da internet e não está guardada neste aparelho. Quando a ligação voltar, tente de novo.",
    retry: "Tentar de novo",
    keptTitle: "O que pode abrir sem internet",
    keptIntro: (days: number) =>
      `As páginas das encomendas que abriu neste navegador nos últimos ${days} dias: a referência para pagar, a entidade, o montante e até quando, e o estado da encomenda quando as abriu.`,
    keptNone: "Ainda não há encomendas guardadas neste navegador.",
    /** What each kept page is (lib/offline/offline-rules.ts, OrderPageKind). */
    pageKinds: { pending: "Referência para pagar", success: "Confirmação do pagamento", order: "Página da encomenda" },
    /** When the kept copy was loaded, in Luanda time. */
    savedAt: (when: string) => `Guardada a ${when} (hora de Luanda)`,
  },
};
