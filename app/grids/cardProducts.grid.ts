import { defineGrid } from "~/components/data-grid/declare";
import { CARD_KIND_LABELS, SUBSCRIPTION_PERIOD_LABELS } from "~/lib/cards";
import { listCardProducts, pageOfCardProduct, type CardProductRow } from "~/models/cards.server";

/** '10 Einheiten, 6 Monate gültig' or 'monatlich, Mindestlaufzeit 3 Monate, Kündigung 1 Monat'. */
function termsText(product: CardProductRow): string {
  if (product.kind === "CARD") return `${product.units} Einheiten, ${product.validMonths} Monate gültig`;
  const minimum = product.minTermMonths ? `, Mindestlaufzeit ${product.minTermMonths} Monate` : "";
  return `${SUBSCRIPTION_PERIOD_LABELS[product.period!]}${minimum}, Kündigungsfrist ${product.noticeMonths ? "1 Monat" : "keine"}`;
}

/**
 * Karten & Abos (issue 34 item 1), kept by ADMIN and reached from Einstellungen: the 10er-Karten
 * and subscriptions the club sells, with their terms, prices per tier and where they are valid.
 */
export const cardProductsGrid = defineGrid<CardProductRow>({
  id: "cardProducts",
  entity: "cardProduct",
  area: "cardProducts",
  mounts: { PARENT: { title: "Karten- und Abo-Produkte" } },
  columns: [
    { id: "id", header: "Id", value: (p) => p.id, type: "number", hidden: true },
    { id: "name", header: "Name", value: (p) => p.name },
    { id: "kind", header: "Art", value: (p) => CARD_KIND_LABELS[p.kind] },
    { id: "terms", header: "Bedingungen", value: termsText, sortable: false },
    {
      id: "unitsPerAttendance",
      header: "Einheiten je Termin",
      value: (p) => (p.kind === "CARD" ? p.unitsPerAttendance : null),
      type: "number",
      sortable: false,
    },
    { id: "priceFull", header: "Preis", value: (p) => p.priceFull, type: "money" },
    { id: "priceReduced1", header: "Ermäßigt 1", value: (p) => p.priceReduced1, type: "money", sortable: false },
    { id: "priceReduced2", header: "Ermäßigt 2", value: (p) => p.priceReduced2, type: "money", sortable: false },
    { id: "scopeNames", header: "Gilt für", value: (p) => p.scopeNames, sortable: false },
    { id: "isOffered", header: "Im Verkauf", value: (p) => p.isOffered, type: "checkbox" },
    { id: "soldCount", header: "Verkauft", value: (p) => p.soldCount, type: "number" },
  ],
  defaultSort: { id: "name", descending: false },
  model: {
    list: (db, query) => listCardProducts(db, query),
    pageOf: (db, id, query) => pageOfCardProduct(db, id, query.sort, query.pageSize),
  },
  emptyText: "Noch keine Karten oder Abos",
});
