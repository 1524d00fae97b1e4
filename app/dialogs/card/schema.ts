import { z } from "zod";
import { formKey, germanDate, id, optionalMoneyInCents } from "~/lib/form-fields";

/** 'Karte verkaufen': to whom, which product, from when it is valid, and the price (empty: the product's for the person's member type). */
export const cardSaleSchema = z.object({
  personId: id("Bitte eine Person wählen"),
  productId: id("Bitte ein Produkt wählen"),
  validFrom: germanDate("Bitte angeben, ab wann die Karte gilt"),
  price: optionalMoneyInCents(null),
});

export type CardSaleFormValues = z.infer<typeof cardSaleSchema>;

/** 'Kündigung eintragen': the day the subscription's notice was received (not in the future). */
export const cardNoticeSchema = z.object({
  id: id("Abo fehlt"),
  noticeOn: germanDate("Bitte angeben, wann die Kündigung eingegangen ist"),
});

export type CardNoticeFormValues = z.infer<typeof cardNoticeSchema>;

/** 'Restguthaben erstatten': the card, and the form's own id (sent twice, it refunds once). */
export const cardRefundSchema = z.object({ id: id("Karte fehlt"), formKey: formKey() });
