/** Every sentence the shop shows, in English: the same shape as ./pt.ts, composed of the same parts under ./en/. */

import { adminTexts } from "./en/admin";
import { adminActivityTexts } from "./en/admin-activity";
import { adminCatalogTexts } from "./en/admin-catalog";
import { adminCatalogCsvTexts } from "./en/admin-catalog-csv";
import { adminDeliveryTexts } from "./en/admin-delivery";
import { adminOrderTexts } from "./en/admin-orders";
import { adminPromotionTexts } from "./en/admin-promotions";
import { adminPeopleTexts } from "./en/admin-people";
import { browseTexts } from "./en/browse";
import { checkoutTexts } from "./en/checkout";
import { accountTexts } from "./en/account";
import { offlineTexts } from "./en/offline";
import { orderTexts } from "./en/orders";
import { receiptTexts } from "./en/receipt";
import { refundNoteTexts } from "./en/refund-note";
import { stateTexts } from "./en/states";
import { storefrontTexts } from "./en/storefront";
import { htmlLang } from "./languages";
import type { Dictionary } from "./pt";

export const en: Dictionary = {
  locale: htmlLang("en"),
  ...storefrontTexts,
  ...browseTexts,
  ...stateTexts,
  ...checkoutTexts,
  ...orderTexts,
  ...receiptTexts,
  ...refundNoteTexts,
  ...offlineTexts,
  ...accountTexts,
  admin: {
    ...adminTexts,
    ...adminOrderTexts,
    ...adminCatalogTexts,
    ...adminCatalogCsvTexts,
    ...adminDeliveryTexts,
    ...adminPromotionTexts,
    ...adminPeopleTexts,
    ...adminActivityTexts,
  },
};
