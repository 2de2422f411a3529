/**
 * The back office's own frame around its pages (components/admin/admin-shell.tsx): who is signed
 * in and in what role, the menu, and the page a role may not open. In Portuguese (Angola);
 * composed into ../back-office.ts.
 */

export const adminShellTexts = {
  shell: {
    /** Beside the shop's name: these pages are its management, not the shop. */
    backOffice: "Gestão",
    skipToContent: "Saltar para o conteúdo",
    /** The phone's menu, which opens the sections. */
    menu: "Menu",
    signedInAs: "Sessão de",
    roles: { owner: "Dono", staff: "Funcionário" },
    /** The link of the 403 and 404 pages back to the home. */
    home: "Voltar ao início da gestão",
    /** The sections whose words are not a title the dictionary already has. */
    nav: { people: "Pessoas", activity: "Actividade", account: "A minha conta" },
  },
  forbidden: {
    title: "Sem acesso a esta página",
    body: (role: string) =>
      `Quem tem a função «${role}» não pode abrir esta página. Se precisa dela, peça ao dono da loja.`,
  },
};
