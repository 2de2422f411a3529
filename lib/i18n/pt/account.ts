/**
 * The shopper's account ("A minha conta"): signing in by phone, the account's pages and the text
 * of the sign-in code's message. In Portuguese (Angola); composed into ../pt.ts.
 */

const units = (count: number) => `${count} ${count === 1 ? "unidade" : "unidades"}`;

export const accountTexts = {
  account: {
    /** The WhatsApp or SMS that carries a sign-in code: short (one SMS), the code first. */
    codeMessage: (code: string, shop: string, minutes: number) =>
      `${code} é o seu código para entrar na ${shop}. Vale ${minutes} minutos. Não o partilhe com ninguém.`,
    /** /account/sign-in (components/accounts/sign-in-form.tsx). */
    signIn: {
      title: "Entrar",
      intro: "Entre com o seu telefone: enviamos-lhe um código por WhatsApp ou SMS. Não há palavra-passe.",
      firstTime:
        "A primeira vez que entra cria a sua conta: a loja guarda o seu telefone e, só se os indicar, o nome, o email, o NIF e as moradas de entrega.",
      phone: "Telefone",
      phoneHint: "Escreva-o como quiser: 923 456 789 ou +244 923 456 789.",
      sendCode: "Enviar o código",
      sending: "A enviar…",
      codeSent: (phone: string) => `Enviámos um código de 6 algarismos para ${phone}. Vale 5 minutos.`,
      anotherSent: (phone: string) => `Enviámos um novo código para ${phone}. Use o da última mensagem.`,
      code: "Código",
      codeHint: "Os 6 algarismos da mensagem.",
      verify: "Entrar",
      verifying: "A verificar…",
      sendAnother: "Enviar outro código",
      changeNumber: "Mudar de número",
      signedIn: "Entrou. A abrir a página…",
      noScript: "Para entrar com o telefone, este navegador precisa de ter o JavaScript ligado.",
      /** What each refusal of POST /api/auth/phone-number/send-otp and /verify means for the shopper. */
      errors: {
        phone: "Indique um número de telefone, por exemplo 923 456 789.",
        code: "O código tem 6 algarismos: escreva só os algarismos da mensagem.",
        invalid_otp:
          "Código errado. Verifique a mensagem e tente de novo: depois de 5 tentativas erradas o código deixa de servir.",
        too_many_attempts: "O código foi escrito errado demasiadas vezes e deixou de servir. Peça um novo código.",
        otp_expired: "O código expirou: vale 5 minutos. Peça um novo código.",
        otp_not_found: "Este código já não serve. Peça um novo código.",
        rate_limited: "Já pediu muitos códigos. Aguarde um pouco antes de pedir outro.",
        message_not_sent: "Não foi possível enviar o código para este telefone. Tente de novo dentro de momentos.",
        off: "Entrar com o telefone não está disponível de momento.",
        unavailable: "Não é possível entrar agora. Tente de novo dentro de momentos.",
        offline: "Sem ligação à internet. Verifique a ligação e tente de novo.",
      },
    },
    /** /account. */
    page: {
      title: "A minha conta",
      signedInAs: (phone: string) => `Entrou com o telefone ${phone}.`,
    },
    orders: {
      title: "As minhas encomendas",
      intro:
        "Todas as encomendas feitas com este telefone, também as feitas antes de ter conta, da mais recente para a mais antiga.",
      none: "Ainda não há encomendas feitas com este telefone.",
      placedOn: (date: string) => `Feita em ${date}`,
      items: (count: number) => `${count} ${count === 1 ? "artigo" : "artigos"}`,
      view: "Ver a encomenda",
      viewNamed: (order: string) => `Ver a encomenda ${order}`,
      receipt: "Recibo",
      receiptNamed: (order: string) => `Recibo da encomenda ${order}`,
      buyAgain: "Comprar de novo",
      buyAgainNamed: (order: string) => `Comprar de novo a encomenda ${order}`,
      referenceTitle: "Pagar por referência",
      more: "Ver mais encomendas",
      errors: {
        not_found: "Não encontrámos essa encomenda entre as deste telefone.",
        cart_locked:
          "Há um pagamento em curso para o seu carrinho: não pode ser alterado até o pagamento terminar ou ser cancelado.",
        invalid_input: "Pedido inválido. Tente de novo a partir desta página.",
        unavailable: "Não foi possível agora. Tente de novo dentro de momentos.",
      },
    },
    profile: {
      title: "Os meus dados",
      intro: "Opcionais: preenchem a compra por si.",
      save: "Guardar os dados",
      saved: "Dados guardados.",
      errors: {
        not_found: "A conta já não existe.",
        invalid_input: "Verifique os dados e tente de novo.",
        unavailable: "Não foi possível guardar agora. Tente de novo dentro de momentos.",
      },
    },
    addresses: {
      title: "Moradas de entrega",
      none: "Ainda não guardou nenhuma morada.",
      isDefault: "Principal",
      makeDefault: "Tornar principal",
      makeDefaultNamed: (street: string) => `Tornar principal: ${street}`,
      edit: "Alterar",
      editNamed: (street: string) => `Alterar: ${street}`,
      delete: "Apagar",
      deleteNamed: (street: string) => `Apagar: ${street}`,
      add: "Adicionar uma morada",
      max: (count: number) => `Pode guardar até ${count} moradas: apague uma para juntar outra.`,
      newTitle: "Nova morada",
      editTitle: "Alterar a morada",
      useAsDefault: "Usar como morada principal (a que a compra preenche)",
      save: "Guardar a morada",
      back: "Voltar à minha conta",
      otherMunicipality: "O município não está na lista? A loja só entrega nestes.",
      done: {
        saved: "Morada guardada.",
        made_default: "Morada principal alterada.",
        deleted: "Morada apagada.",
      },
      errors: {
        not_found: "Essa morada já não existe.",
        too_many_addresses: "Já tem o máximo de moradas guardadas: apague uma para juntar outra.",
        address_conflict: "As moradas mudaram noutro lado ao mesmo tempo. Tente de novo.",
        invalid_input: "Verifique a morada e tente de novo.",
        unavailable: "Não foi possível guardar agora. Tente de novo dentro de momentos.",
      },
    },
    session: {
      title: "Sessão",
      intro: "Ao sair, as páginas de encomendas guardadas neste navegador para ler sem internet são apagadas.",
      signOut: "Terminar sessão",
      signOutEverywhere: "Terminar sessão em todos os dispositivos",
      working: "A terminar a sessão…",
      failed: "Não foi possível terminar a sessão. Verifique a ligação e tente de novo.",
    },
    deletion: {
      title: "Apagar a minha conta",
      intro:
        "Apaga a conta, os seus dados e as moradas guardadas, e termina a sessão em todos os dispositivos. As encomendas feitas com este telefone ficam: são registos da loja.",
      button: "Apagar a minha conta",
      question: "Apagar a conta? Não é possível desfazer.",
      yes: "Sim, apagar a conta",
      no: "Não, manter a conta",
      working: "A apagar a conta…",
      failed: "Não foi possível apagar a conta. Verifique a ligação e tente de novo.",
    },
    /** What "Comprar de novo" did, on the cart page (lib/accounts/bought-again-notice.ts). */
    boughtAgain: {
      added: (count: number) =>
        count === 0
          ? "Nenhum artigo da encomenda voltou ao carrinho."
          : `${units(count)} da encomenda ${count === 1 ? "voltou" : "voltaram"} ao carrinho, ao preço de hoje.`,
      missingTitle: "O que não foi possível juntar:",
      reasons: {
        gone: (count: number) => `${units(count)}: já não está à venda.`,
        out_of_stock: (count: number) => `${units(count)}: esgotado.`,
        reduced: (count: number) => `${units(count)} a menos: não há stock suficiente.`,
        cart_full: (count: number) => `${units(count)}: não cabem no carrinho (limite por encomenda).`,
      },
      more: (count: number) => `E mais ${count} ${count === 1 ? "artigo" : "artigos"}.`,
    },
  },
};
