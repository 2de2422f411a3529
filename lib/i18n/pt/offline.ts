/**
 * The offline page (app/[lang]/(shop)/offline/page.tsx), which the service worker shows for a page it
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
    /** "Esquecer este telefone" (components/offline/forget-this-phone.tsx), here and on the order pages. */
    forget: {
      title: "Neste telefone",
      intro:
        "Num telefone que outras pessoas usam, pode apagar o que este navegador guarda das suas encomendas: as páginas que abrem sem internet, a lista «As minhas encomendas» e o carrinho. As encomendas não são canceladas.",
      button: "Esquecer este telefone",
      question: "Apagar deste navegador as páginas guardadas, a lista «As minhas encomendas» e o carrinho?",
      yes: "Sim, esquecer",
      no: "Cancelar",
      done: "Feito: este navegador já não guarda as suas encomendas. Pode voltar a encontrá-las pelo número e pelo telefone.",
      doneOffline:
        "As páginas guardadas foram apagadas. A lista «As minhas encomendas» e o carrinho só podem ser esquecidos com internet: toque de novo quando a ligação voltar.",
      failed: "Não foi possível apagar as páginas guardadas neste navegador. Tente de novo.",
    },
  },
};
