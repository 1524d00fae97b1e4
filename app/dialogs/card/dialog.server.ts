/**
 * 'Karte verkaufen' (issue 34 item 2; ADMIN and FINANCE, as the fee it writes): a product on sale
 * to a person, valid from a day (default today), at the price of the person's member type unless
 * typed. The sale writes the card, its fee and the settling of the person's attendance 'ohne
 * Karte' in one batch (app/models/cards.server.ts).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { CARD_KIND_LABELS } from "~/lib/cards";
import { searchOwners } from "~/models/dogs.server";
import { personName } from "~/models/people.server";
import { productsForSale, sellCard } from "~/models/cards.server";
import { defineDialog, type DialogOutcome, type DialogViewContext } from "../define.server";
import { lookupOptions, type LookupOption } from "../lookup.server";
import { cardSaleSchema } from "./schema";

export type CardSaleDialogData = {
  people: LookupOption[];
  personSearch: string;
  personLocked: boolean;
  products: { value: number; label: string }[];
  defaults: { personId: number | null; validFrom: string };
};

async function saleData({ db, parent, search }: DialogViewContext): Promise<CardSaleDialogData> {
  const personId = parent?.type === "PERSON" ? parent.id : null;
  const person = personId ? await personName(db, personId) : undefined;
  const [lookup, products] = await Promise.all([
    lookupOptions(search, "personId", (term) => searchOwners(db, term), person ? [{ id: person.id, label: person.fullName ?? String(person.id) }] : []),
    productsForSale(db, personId),
  ]);
  return {
    people: lookup.options,
    personSearch: lookup.term,
    personLocked: personId !== null,
    products: products.map((product) => ({ value: product.id, label: `${product.name} (${CARD_KIND_LABELS[product.kind]}, ${formatMoney(product.price)})` })),
    defaults: { personId, validFrom: formatDate(todayInBerlin()) },
  };
}

export const dialog = defineDialog({
  area: "cards",
  views: { add: (context) => saleData(context) },
  actions: {
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
