import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { CARD_KIND_LABELS } from "~/lib/cards";
import { todayInBerlin } from "~/lib/format";
import { listCards, pageOfCard, type CardQuery, type CardRow } from "~/models/cards.server";

const cardQuery = (query: Pick<ListQuery, "sort" | "parent">): CardQuery => ({
  personId: query.parent?.type === "PERSON" ? query.parent.id : undefined,
  sort: query.sort,
  today: todayInBerlin(),
});

/**
 * Karten & Abos sold (issue 34 items 2 and 4), declared once: all of them, and the tab of a person
 * with what is left on each card (units − uses + returns), its time and how often it was used.
 * 'Karte verkaufen' (the add dialog) sells one with its fee (ADMIN, FINANCE: the Kontenblatt's); a
 * subscription's notice and a card's refund are the rows' actions.
 */
export const cardsGrid = defineGrid<CardRow>({
  id: "cards",
  entity: "card",
  area: "cards",
  selectable: false,
  mounts: {
    PARENT: { title: "Karten & Abos" },
    PERSON: { title: (person) => `Karten & Abos von ${person.name}`, prefix: "card" },
  },
  columns: [
    { id: "id", header: "Nr.", value: (c) => c.id, type: "number", hidden: true },
    { id: "personName", header: "Person", value: (c) => c.personName, link: (c) => ({ to: `/people/${c.personId}/cards` }), omitUnder: ["PERSON"] },
    { id: "name", header: "Karte oder Abo", value: (c) => c.name },
    { id: "kind", header: "Art", value: (c) => CARD_KIND_LABELS[c.kind], sortable: false },
    { id: "balance", header: "Rest", value: (c) => (c.kind === "CARD" ? `${c.balance} von ${c.units}` : "–"), sortable: false },
    { id: "uses", header: "Genutzt", value: (c) => c.uses, type: "number", sortable: false },
    { id: "validFrom", header: "Gültig ab", value: (c) => c.validFrom, type: "date" },
    { id: "validUntil", header: "Gültig bis", value: (c) => c.validUntil, type: "date" },
    { id: "state", header: "Status", value: (c) => c.state, sortable: false },
    { id: "price", header: "Preis", value: (c) => c.price, type: "money" },
  ],
  defaultSort: { id: "validFrom", descending: true },
  dialogs: { add: true, edit: false, delete: false },
  rowActions: [
    { label: "Kündigung eintragen …", view: "notice", when: (c) => c.kind === "SUBSCRIPTION" && c.noticeReceivedOn === null },
    { label: "Restguthaben erstatten …", view: "refund", when: (c) => c.kind === "CARD" && !c.refunded && (c.balance ?? 0) > 0 },
  ],
  commandColumn: true,
  screenLinks: [
    { label: "Teilnahmen ohne Karte", to: "/cards/withoutCard", area: "cards", mounts: ["PARENT"] },
    { label: "Auswertung je Monat", to: "/cards/report", area: "cards", mounts: ["PARENT"] },
  ],
  model: {
    list: (db, query) => listCards(db, { ...cardQuery(query), page: query.page, pageSize: query.pageSize }),
    pageOf: (db, id, query) => pageOfCard(db, id, cardQuery(query), query.pageSize),
  },
  emptyText: "Noch keine Karten oder Abos",
});
