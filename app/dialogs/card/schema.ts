import { z } from "zod";
import { germanDate, id, optionalMoneyInCents } from "~/lib/form-fields";

/** 'Karte verkaufen': to whom, which product, from when it is valid, and the price (empty: the product's for the person's member type). */
export const cardSaleSchema = z.object({
  personId: id("Bitte eine Person wählen"),
  productId: id("Bitte ein Produkt wählen"),
  validFrom: germanDate("Bitte angeben, ab wann die Karte gilt"),
  price: optionalMoneyInCents(null),
});

export type CardSaleFormValues = z.infer<typeof cardSaleSchema>;
