/** The Karten- und Abo-Produkt dialogs (ADMIN, issue 34 item 1): add, edit, delete (refused once sold). */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatMoneyInput } from "~/lib/format";
import {
  cardProductNameTaken,
  cardScopeOptions,
  deleteCardProduct,
  getCardProductRecord,
  insertCardProduct,
  updateCardProduct,
  type CardProductRecord,
} from "~/models/cards.server";
import { cardProductsGrid } from "~/grids/cardProducts.grid";
import { auditText, defineDialog, deleteOutcome, postedId, saveVersioned, type ConfirmData } from "../define.server";
import { cardProductSchema, type CardProductFormValues } from "./schema";

/** The record as the form shows it: prices as 1.234,56. */
const present = (product: CardProductRecord) => ({
  ...product,
  priceFull: formatMoneyInput(product.priceFull),
  priceReduced1: formatMoneyInput(product.priceReduced1),
  priceReduced2: formatMoneyInput(product.priceReduced2),
  // The checkboxes compare as text.
  courseMasterIds: product.courseMasterIds.map(String),
  courseIds: product.courseIds.map(String),
  audit: auditText(product),
});
export type CardProductFormRecord = ReturnType<typeof present>;
export type CardProductDialogData = {
  product: CardProductFormRecord | null;
  masters: { value: number; label: string }[];
  groups: { value: number; label: string }[];
};

async function options(db: Parameters<typeof cardScopeOptions>[0]) {
  const { masters, groups } = await cardScopeOptions(db);
  return {
    masters: masters.map((master) => ({ value: master.id, label: master.name })),
    groups: groups.map((group) => ({ value: group.id, label: group.name })),
  };
}

/** The columns a product stores: a card's terms or a subscription's, never both (the database's rule). */
function stored({ id: _id, rowVersion: _rowVersion, ...value }: CardProductFormValues) {
  const card = value.kind === "CARD";
  return {
    ...value,
    units: card ? value.units : null,
    validMonths: card ? value.validMonths : null,
    period: card ? null : (value.period ?? null),
    minTermMonths: card ? null : (value.minTermMonths ?? 0),
    noticeMonths: card ? null : (value.noticeMonths ?? 0),
    comments: value.comments,
  };
}

export const dialog = defineDialog({
  area: "cardProducts",
  history: { table: "card_products", grid: cardProductsGrid },
  views: {
    add: async ({ db }): Promise<CardProductDialogData> => ({ product: null, ...(await options(db)) }),
    edit: async ({ db, id }): Promise<CardProductDialogData | null> => {
      const product = id ? await getCardProductRecord(db, id) : undefined;
      return product ? { product: present(product), ...(await options(db)) } : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const product = id ? await getCardProductRecord(db, id) : undefined;
      return product
        ? {
            confirm: {
              title: `Produkt ${product.name} löschen`,
              message: "Bist du sicher? Ein verkauftes Produkt kann nicht gelöscht werden.",
              intent: "cardProduct:delete",
              id: product.id,
              confirmLabel: "Löschen",
            },
          }
        : null;
    },
  },
  actions: {
    save: ({ db, user, form }) =>
      saveVersioned(parseWithZod(form, { schema: cardProductSchema }), {
        check: async ({ id, name }) => ((await cardProductNameTaken(db, name, id)) ? { name: ["Dieses Produkt gibt es schon"] } : null),
        insert: (value) => insertCardProduct(db, stored(value), user),
        update: (id, rowVersion, value) => updateCardProduct(db, id, rowVersion, stored(value), user),
        present,
        messages: { created: "Produkt wurde angelegt", saved: "Produkt wurde gespeichert" },
      }),
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteCardProduct(db, id, user), "Produkt wurde gelöscht"),
  },
});
