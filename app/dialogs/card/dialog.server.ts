/**
 * Karten & Abos (issue 34; ADMIN and FINANCE, as the fees they write). 'Karte verkaufen': a product on sale
 * to a person, valid from a day (default today), at the price of the person's member type unless
 * typed. The sale writes the card, its fee and the settling of the person's attendance 'ohne
 * Karte' in one batch (app/models/cards.server.ts). 'Kündigung eintragen' records when a
 * subscription's notice arrived and the end it sets; 'Restguthaben erstatten' refunds a card's
 * unused units by a credit note (app/models/card-settlements.server.ts).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatCount, formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { CARD_KIND_LABELS, cardValidUntil } from "~/lib/cards";
import { recordNotice, refundableOf, refundCard, type Refundable } from "~/models/card-settlements.server";
import { personName } from "~/models/people.server";
import { cardOf, productsForSale, sellCard } from "~/models/cards.server";
import { defineDialog, refusedOn, type DialogOutcome, type DialogViewContext } from "../define.server";
import { personLookup, type LookupOption } from "../lookup.server";
import { cardNoticeSchema, cardRefundSchema, cardSaleSchema } from "./schema";

export type CardSaleDialogData = {
  kind: "sale";
  people: LookupOption[];
  personSearch: string;
  personLocked: boolean;
  products: { value: number; label: string }[];
  defaults: { personId: number | null; validFrom: string };
};

async function saleData({ db, parent, search }: DialogViewContext): Promise<CardSaleDialogData> {
  const personId = parent?.type === "PERSON" ? parent.id : null;
  const person = personId ? await personName(db, personId) : undefined;
  const [lookup, products] = await Promise.all([personLookup(db, search, person), productsForSale(db, personId)]);
  return {
    kind: "sale",
    people: lookup.options,
    personSearch: lookup.term,
    personLocked: personId !== null,
    products: products.map((product) => ({ value: product.id, label: `${product.name} (${CARD_KIND_LABELS[product.kind]}, ${formatMoney(product.price)})` })),
    defaults: { personId, validFrom: formatDate(todayInBerlin()) },
  };
}

export type CardNoticeDialogData = {
  kind: "notice";
  card: { id: number; name: string; personName: string; validFrom: string; terms: string };
  values: { id: number; noticeOn: string };
  refusal: string | null;
};

export type CardRefundDialogData = { kind: "refund"; refundable: Refundable; formKey: string };

export type CardDialogData = CardSaleDialogData | CardNoticeDialogData | CardRefundDialogData;

/** 'Mindestlaufzeit 3 Monate (bis 28.02.2027), Kündigungsfrist 1 Monat'. */
function noticeTerms(card: { validFrom: string; minTermMonths: number | null; noticeMonths: number | null }) {
  const minimum = card.minTermMonths ?? 0;
  const notice = card.noticeMonths ?? 0;
  return [
    minimum > 0
      ? `Mindestlaufzeit ${formatCount(minimum, "Monat", "Monate")} (bis ${formatDate(cardValidUntil(card.validFrom, minimum))})`
      : "keine Mindestlaufzeit",
    notice > 0 ? `Kündigungsfrist ${formatCount(notice, "Monat", "Monate")} ab Eingang` : "ohne Kündigungsfrist",
  ].join(", ");
}

export const dialog = defineDialog({
  area: "cards",
  views: {
    add: (context) => saleData(context),
    notice: async ({ db, id }): Promise<CardNoticeDialogData | null> => {
      const card = id ? await cardOf(db, id) : undefined;
      if (!card || card.kind !== "SUBSCRIPTION") return null;
      return {
        kind: "notice",
        card: { id: card.id, name: card.name, personName: card.personName, validFrom: formatDate(card.validFrom), terms: noticeTerms(card) },
        values: { id: card.id, noticeOn: formatDate(todayInBerlin()) },
        refusal: card.noticeReceivedOn
          ? `Die Kündigung ist schon eingetragen: eingegangen am ${formatDate(card.noticeReceivedOn)}, Ende am ${formatDate(card.validUntil)}.`
          : null,
      };
    },
    refund: async ({ db, id }): Promise<CardRefundDialogData | null> => {
      const refundable = id ? await refundableOf(db, id, todayInBerlin()) : undefined;
      return refundable ? { kind: "refund", refundable, formKey: crypto.randomUUID() } : null;
    },
  },
  actions: {
    notice: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: cardNoticeSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const { id, noticeOn } = submission.value;
      if (noticeOn > todayInBerlin()) return refusedOn(submission.reply, "noticeOn", "Eine Kündigung kann nicht in der Zukunft eingegangen sein.");
      const outcome = await recordNotice(db, id, { on: noticeOn, kind: "ORDINARY", wantedEnd: null }, user);
      if (outcome.status === "missing") return outcome;
      if (outcome.status === "refused") return refusedOn(submission.reply, undefined, outcome.message);
      return { status: "saved", id, message: `Kündigung eingetragen: Das Abo endet am ${formatDate(outcome.end)}.` };
    },
    refund: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: cardRefundSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const outcome = await refundCard(db, submission.value.id, submission.value.formKey, user, todayInBerlin());
      switch (outcome.status) {
        case "refunded":
          return {
            status: "saved",
            id: submission.value.id,
            message: `${formatCount(outcome.units, "Einheit", "Einheiten")} erstattet: Gutschrift ${outcome.invoiceNumber} über ${formatMoney(outcome.amount)}.`,
          };
        case "already":
          return { status: "saved", id: submission.value.id, message: "Die Erstattung ist schon ausgestellt." };
        default:
          return outcome;
      }
    },
    save: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: cardSaleSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const value = submission.value;
      if (!(await personName(db, value.personId)))
        return { status: "invalid", result: submission.reply({ fieldErrors: { personId: ["Diese Person gibt es nicht (mehr)"] } }) };
      const offered = (await productsForSale(db, value.personId)).find((product) => product.id === value.productId);
      if (!offered) return { status: "invalid", result: submission.reply({ fieldErrors: { productId: ["Dieses Produkt wird nicht (mehr) verkauft"] } }) };
      const outcome = await sellCard(
        db,
        { personId: value.personId, productId: value.productId, validFrom: value.validFrom, price: value.price ?? offered.price },
        user,
      );
      if (outcome.status === "refused") return { status: "invalid", result: submission.reply({ formErrors: [outcome.message] }) };
      const settled =
        outcome.settled > 0 ? ` ${outcome.settled === 1 ? "Ein Termin ohne Karte ist" : `${outcome.settled} Termine ohne Karte sind`} damit verrechnet.` : "";
      return { status: "saved", id: outcome.cardId, message: `${offered.name} verkauft.${settled}` };
    },
  },
});
