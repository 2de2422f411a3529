/**
 * The back office's frame: sign-in, the dashboard's figures, what needs attention, a received
 * notification, the navigation. In Portuguese (Angola); composed into ../pt.ts.
 */

export const adminTexts = {
  title: "Gestão da loja",
  offTitle: "A gestão da loja está desligada",
  off: "Defina ADMIN_PASSWORD (veja o README) e reinicie o servidor.",
  signInTitle: "Entrar na gestão da loja",
  email: "E-mail",
  emailHint: "O dono feito a partir de ADMIN_PASSWORD entra com ADMIN_EMAIL.",
  password: "Palavra-passe",
  twoFactorTitle: "Código da aplicação autenticadora",
  twoFactorHint: "Escreva os 6 dígitos que a aplicação mostra agora, ou um dos códigos de recuperação.",
  twoFactorCode: "Código",
  verifyCode: "Confirmar",
  signIn: "Entrar",
  signOut: "Sair",
  signOutEverywhere: "Sair em todos os dispositivos",
  signedOutEverywhere: "Saiu em todos os dispositivos: nenhuma sessão aberta continua válida.",
  sessionEnded: "A sua sessão terminou. Entre de novo para voltar à página onde estava.",
  errors: {
    wrong_password: "E-mail ou palavra-passe incorrectos, ou conta desactivada.",
    wrong_code: "Código errado ou expirado. Entre de novo se passaram mais de 10 minutos.",
    rate_limited: "Demasiadas tentativas. Espere um minuto e tente de novo.",
    unavailable:
      "Não é possível entrar agora, porque as tentativas não podem ser contadas. Tente de novo dentro de momentos.",
    invalid_request: "Escreva o e-mail e a palavra-passe.",
  },
  draft: {
    kept: "O texto que escreveu no formulário será reposto; os ficheiros terão de ser escolhidos de novo.",
    restored: "Entrou de novo: o que tinha escrito no formulário foi reposto. Verifique-o e envie de novo.",
    filesLost: "Os ficheiros escolhidos não puderam ser guardados: escolha-os de novo.",
    textLost: "Parte do texto era demasiado longa para ser guardada: verifique os campos.",
  },
  paidToday: "Pago hoje",
  paidThisMonth: "Pago este mês",
  pendingOrders: "Encomendas por pagar",
  periodNote: "Hoje e este mês na hora de Luanda; conta cada encomenda no dia em que o pagamento foi confirmado.",
  attention: {
    title: "Precisa de atenção",
    nothing: "Nada precisa de atenção.",
    shown: (shown: number, total: number) => `${shown} de ${total} (as mais recentes)`,
    raisedOrders: "Encomendas a rever",
    raisedOrdersHint: "Pagas depois de canceladas: envie a encomenda ou devolva o dinheiro.",
    failedCreations: "Criação falhada no serviço",
    failedCreationsHint: "O serviço falhou ao criar o pagamento; a encomenda foi cancelada aqui.",
    parkedJobs: "Tarefas paradas",
    parkedJobsHint: "Falharam todas as tentativas: tente de novo na página da encomenda ou marque como resolvida.",
    unmatchedDeliveries: "Notificações sem encomenda",
    unmatchedDeliveriesHint:
      "Notificações com assinatura válida que não correspondem a nenhuma encomenda ou não foram lidas.",
    noOrder: "sem encomenda",
  },
  delivery: {
    title: "Notificação do serviço",
    received: "Recebida",
    outcome: "Resultado",
    paymentStatus: "Estado do pagamento",
    externalTransactionId: "Encomenda indicada",
    order: "Encomenda",
    back: "Voltar ao início",
  },
  nav: { label: "Gestão", home: "Início", orders: "Encomendas" },
};
