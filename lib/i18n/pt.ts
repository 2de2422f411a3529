/**
 * Every sentence the shop shows, in Portuguese (Angola): the default language, and the shape
 * every other language's dictionary must have (`Dictionary`; the type checker enforces it, so a
 * missing translation fails the build). Composed of one file per area under ./pt/. Prices are not
 * here: they are always integer kwanza formatted for pt-AO (lib/money.ts). A new language is a
 * file like ./en.ts, with its parts, added to ./dictionaries.ts.
 */

import { adminTexts } from "./pt/admin";
import { adminActivityTexts } from "./pt/admin-activity";
import { adminCatalogTexts } from "./pt/admin-catalog";
import { adminCatalogCsvTexts } from "./pt/admin-catalog-csv";
import { adminDeliveryTexts } from "./pt/admin-delivery";
import { adminOrderTexts } from "./pt/admin-orders";
import { adminPromotionTexts } from "./pt/admin-promotions";
import { adminPeopleTexts } from "./pt/admin-people";
import { browseTexts } from "./pt/browse";
import { checkoutTexts } from "./pt/checkout";
import { accountTexts } from "./pt/account";
import { offlineTexts } from "./pt/offline";
import { orderTexts } from "./pt/orders";
import { receiptTexts } from "./pt/receipt";
import { refundNoteTexts } from "./pt/refund-note";
import { stateTexts } from "./pt/states";
import { storefrontTexts } from "./pt/storefront";
import { htmlLang } from "./languages";

export const pt = {
  /** The `<html lang>` of pages in this language; prices and dates follow it. */
  locale: htmlLang("pt"),
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

/** The shape of every language's dictionary: Portuguese's. */
export type Dictionary = typeof pt;
