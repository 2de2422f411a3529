/** The back office's delivery methods: delivery zones and pickup points. In English; composed into ../en.ts. */

import type { adminDeliveryTexts as pt } from "../pt/admin-delivery";

export const adminDeliveryTexts: typeof pt = {
  /** Delivery methods on /admin/delivery (lib/delivery/zones-admin.ts): delivery zones and pickup points. */
  deliveryMethods: {
    title: "Delivery",
    hint: "The active delivery zones and pickup points are the ones the shop offers (GET /api/delivery-options). The checkout offers them; a zone that lists municipalities delivers only to those.",
    zonesTitle: "Delivery zones",
    zonesHint:
      "Each zone has a fee in kwanza, and may be free from a subtotal on. By position (0 first), then by name.",
    pointsTitle: "Pickup points",
    pointsHint: "Collecting an order at a pickup point is free. By position (0 first), then by name.",
    noZones: "No delivery zones yet.",
    noPoints: "No pickup points yet.",
    newZone: "New delivery zone",
    newPoint: "New pickup point",
    name: "Name",
    feeAoa: "Fee (Kz)",
    feeHint: "A whole number of kwanza; 0 for a free delivery.",
    freeFromAoa: "Free from (Kz, optional)",
    freeFromHint: "The subtotal from which the delivery is free. Empty: never.",
    estimatedDays: "Estimated time (days, optional)",
    municipalities: "Municipalities served",
    municipalitiesHint:
      "One a line, as an address names it (accents and capitals do not matter). The checkout takes the zone from the customer's municipality; a municipality belongs to one zone only. Empty: not yet restricted, the zone takes any address it is chosen for.",
    notRestricted: "Not yet restricted: any address",
    address: "Address",
    hours: "Opening hours",
    hoursHint: "As the customer should read them, for example: Mon–Fri 9am–6pm, Sat 9am–1pm.",
    active: "Active (offered to customers)",
    activePoint: "Active (offered to customers)",
    position: "Position",
    status: "Status",
    on: "Active",
    off: "Inactive",
    onPoint: "Active",
    offPoint: "Inactive",
    never: "—",
    days: (days: number) => (days === 1 ? "1 day" : `${days} days`),
    edit: (name: string) => `Edit: ${name}`,
    actions: "Edit",
    create: "Create",
    save: "Save",
    done: {
      created: "Created.",
      saved: "Changes saved.",
    },
    errors: {
      invalid_input: "A field is invalid. Correct it and try again.",
      name_taken: "Another one already has this name.",
      municipality_served:
        "A municipality you listed is already served by another zone (see the list): remove it there first.",
    },
    fieldError: (field: string) => `Check the field: ${field}.`,
  },
};
