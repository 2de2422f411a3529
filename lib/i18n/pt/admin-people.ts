/**
 * The back office's people (/admin/people, the owner's) and each person's own account
 * (/admin/account). In Portuguese (Angola); composed into ../pt.ts.
 */

export const adminPeopleTexts = {
  /** /admin/people (lib/admin/people.ts, lib/admin/settings.ts). */
  people: {
    title: "Pessoas",
    hint: "Cada pessoa entra com o seu e-mail e a sua palavra-passe. Desativar uma pessoa, mudar o seu papel ou a sua palavra-passe termina já todas as sessões dela.",
    roleHint:
      "Dono: tudo. Equipa: encomendas (lista, abrir, preparar, marcar entregues ou levantadas, notas, mensagens ao cliente), produtos, stock e categorias; não vê os valores do painel, as exportações, os códigos promocionais, a entrega, os reembolsos, as pessoas nem as definições.",
    listTitle: "Quem trabalha na loja",
    name: "Nome",
    email: "E-mail",
    role: "Papel",
    status: "Estado",
    twoFactor: "Dois passos",
    actions: "Gerir",
    roles: { owner: "Dono", staff: "Equipa" },
    active: "Ativa",
    disabled: "Desativada",
    on: "Ligada",
    off: "Desligada",
    you: "(você)",
    manage: (name: string) => `Gerir: ${name}`,
    saveRole: "Mudar o papel",
    disable: "Desativar",
    enable: "Ativar",
    disableHint: "Desativar termina já todas as sessões desta pessoa; ela deixa de poder entrar.",
    newPassword: "Nova palavra-passe (opcional)",
    resetHint: "Pelo menos 12 caracteres. Vazio: a loja cria uma, mostrada uma só vez.",
    resetPassword: "Mudar a palavra-passe",
    newPerson: "Adicionar uma pessoa",
    password: "Palavra-passe (opcional)",
    passwordHint: "Pelo menos 12 caracteres. Vazio: a loja cria uma, mostrada uma só vez.",
    add: "Adicionar",
    revealTitle: "Palavra-passe criada",
    revealHint: (name: string) =>
      `Dê esta palavra-passe a ${name} em pessoa ou por um canal seguro. Não volta a ser mostrada: se a perder, crie outra.`,
    settingsTitle: "Definições",
    requireTwoFactor: "Exigir a entrada em dois passos a todos",
    requireTwoFactorHint:
      "Com esta opção ligada, quem ainda não tem uma aplicação autenticadora só pode abrir a sua conta (para a ligar) e sair. Ligue primeiro a sua, em A minha conta.",
    saveSettings: "Guardar definições",
    done: {
      added: "Pessoa adicionada.",
      saved: "Alterações guardadas.",
      settings_saved: "Definições guardadas.",
    },
    errors: {
      invalid_input: "Um campo é inválido. Corrija-o e tente de novo.",
      email_taken: "Já existe outra pessoa com este e-mail.",
      last_owner:
        "A loja precisa de pelo menos um dono ativo: torne outra pessoa dona antes de desativar ou mudar este.",
      own_two_factor_off: "Ligue primeiro a sua própria entrada em dois passos, em A minha conta.",
    },
    fieldError: (field: string) => `Verifique o campo: ${field}.`,
  },
  /** /admin/account (lib/admin/account.ts). */
  account: {
    title: "A minha conta",
    name: "Nome",
    email: "E-mail",
    role: "Papel",
    passwordTitle: "Palavra-passe",
    currentPassword: "Palavra-passe atual",
    newPassword: "Nova palavra-passe",
    newPasswordHint: "Pelo menos 12 caracteres. As suas outras sessões terminam; esta continua.",
    changePassword: "Mudar a palavra-passe",
    twoFactorTitle: "Entrada em dois passos",
    twoFactorOn: "Ligada: ao entrar, a loja pede também o código da sua aplicação autenticadora.",
    twoFactorOff:
      "Desligada. Com uma aplicação autenticadora (Google Authenticator, Microsoft Authenticator, 2FAS…), ao entrar a loja pede também o código que a aplicação mostra.",
    password: "Palavra-passe",
    enableHint: "Escreva a sua palavra-passe para ligar.",
    enable: "Ligar",
    qrLabel: "Código QR para a aplicação autenticadora",
    setupTitle: "Acrescente a loja à aplicação",
    setupHint:
      "Na aplicação autenticadora, acrescente uma conta com esta chave (ou abra o endereço otpauth neste telemóvel). Depois escreva o código de 6 dígitos que a aplicação mostra.",
    secret: "Chave",
    uri: "Endereço otpauth",
    code: "Código de 6 dígitos",
    confirm: "Confirmar e ligar",
    backupTitle: "Códigos de recuperação",
    backupHint:
      "Guarde estes códigos num lugar seguro: cada um serve uma vez para entrar sem a aplicação. Não voltam a ser mostrados.",
    disableHint: "Escreva a sua palavra-passe para desligar.",
    disable: "Desligar",
    requiredByOwner: "O dono da loja exige a entrada em dois passos a todos: não pode ser desligada.",
    notice: {
      two_factor_required:
        "O dono da loja exige a entrada em dois passos. Ligue-a aqui para poder abrir as outras páginas.",
    },
    done: {
      password_changed: "Palavra-passe mudada. As suas outras sessões terminaram.",
      two_factor_started: "Falta um passo: acrescente a loja à aplicação e escreva o primeiro código.",
      two_factor_on: "Entrada em dois passos ligada.",
      two_factor_off: "Entrada em dois passos desligada.",
    },
    errors: {
      invalid_input: "Um campo é inválido. Corrija-o e tente de novo.",
      wrong_password: "A palavra-passe não está certa.",
      wrong_code: "Código errado ou expirado: escreva os 6 dígitos que a aplicação mostra agora.",
      two_factor_on_already: "A entrada em dois passos já está ligada.",
      two_factor_not_started: "Ligue primeiro com a sua palavra-passe; a chave expira ao fim de 10 minutos.",
      two_factor_required: "O dono da loja exige a entrada em dois passos a todos: não pode ser desligada.",
      rate_limited: "Demasiadas tentativas. Espere um minuto e tente de novo.",
      unavailable: "As tentativas não podem ser contadas agora. Tente de novo dentro de momentos.",
    },
    fieldError: (field: string) => `Verifique o campo: ${field}.`,
  },
};
