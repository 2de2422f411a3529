/**
 * The back office's delivery methods: delivery zones and pickup points. In Portuguese (Angola);
 * composed into ../pt.ts.
 */

export const adminDeliveryTexts = {
  /** Delivery methods on /admin/delivery (lib/delivery/zones-admin.ts): delivery zones and pickup points. */
  deliveryMethods: {
    title: "Entregas",
    hint: "As zonas de entrega e os pontos de levantamento ativos são os que a loja oferece (GET /api/delivery-options). O checkout oferece-os; uma zona com municípios listados só entrega nesses municípios.",
    zonesTitle: "Zonas de entrega",
    zonesHint:
      "Cada zona tem uma taxa em kwanzas, e pode ser grátis a partir de um subtotal. Por posição (0 primeiro), depois por nome.",
    pointsTitle: "Pontos de levantamento",
    pointsHint: "Levantar uma encomenda num ponto é grátis. Por posição (0 primeiro), depois por nome.",
    noZones: "Ainda não há zonas de entrega.",
    noPoints: "Ainda não há pontos de levantamento.",
    newZone: "Nova zona de entrega",
    newPoint: "Novo ponto de levantamento",
    name: "Nome",
    feeAoa: "Taxa (Kz)",
    feeHint: "Um número inteiro de kwanzas; 0 para uma entrega grátis.",
    freeFromAoa: "Grátis a partir de (Kz, opcional)",
    freeFromHint: "O subtotal a partir do qual a entrega é grátis. Vazio: nunca.",
    estimatedDays: "Prazo estimado (dias, opcional)",
    municipalities: "Municípios servidos",
    municipalitiesHint:
      "Um por linha, como um endereço o escreve (acentos e maiúsculas não contam). O checkout escolhe a zona pelo município do cliente; um município pertence a uma só zona. Vazio: ainda sem restrição, a zona aceita qualquer endereço para que seja escolhida.",
    notRestricted: "Ainda sem restrição: qualquer endereço",
    address: "Morada",
    hours: "Horário",
    hoursHint: "Como o cliente o deve ler, por exemplo: Seg–Sex 9h–18h, Sáb 9h–13h.",
    active: "Ativa (oferecida aos clientes)",
    activePoint: "Ativo (oferecido aos clientes)",
    position: "Posição",
    status: "Estado",
    on: "Ativa",
    off: "Inativa",
    onPoint: "Ativo",
    offPoint: "Inativo",
    never: "—",
    days: (days: number) => (days === 1 ? "1 dia" : `${days} dias`),
    edit: (name: string) => `Editar: ${name}`,
    actions: "Editar",
    create: "Criar",
    save: "Guardar",
    done: {
      created: "Criado.",
      saved: "Alterações guardadas.",
    },
    errors: {
      invalid_input: "Um campo é inválido. Corrija-o e tente de novo.",
      name_taken: "Já existe outro com este nome.",
      municipality_served: "Um município da lista já é servido por outra zona (veja a lista): retire-o de lá primeiro.",
    },
    fieldError: (field: string) => `Verifique o campo: ${field}.`,
  },
};
