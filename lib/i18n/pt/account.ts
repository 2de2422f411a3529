/**
 * The shopper's account ("A minha conta"): signing in by phone, the account's pages and the text
 * of the sign-in code's message. In Portuguese (Angola); composed into ../pt.ts.
 */

export const accountTexts = {
  account: {
    /** The WhatsApp or SMS that carries a sign-in code: short (one SMS), the code first. */
    codeMessage: (code: string, shop: string, minutes: number) =>
      `${code} é o seu código para entrar na ${shop}. Vale ${minutes} minutos. Não o partilhe com ninguém.`,
  },
};
