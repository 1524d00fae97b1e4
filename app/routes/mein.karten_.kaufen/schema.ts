import { z } from "zod";
import { ACCEPT_TEXTS } from "~/lib/portal";
import { id } from "~/lib/form-fields";

const CHOOSE_PRODUCT = "Bitte wähle eine Karte oder ein Abo";

/** The purchase form: the product, the wish to start at once, the accepted text versions. */
export const purchaseSchema = z.object({
  productId: id(CHOOSE_PRODUCT),
  earlyStart: z.literal("on").optional(),
  accept: z.literal("on", { error: ACCEPT_TEXTS }),
  termsId: id("Die AGB fehlen"),
  withdrawalId: id("Die Widerrufsbelehrung fehlt"),
  privacyId: id("Die Datenschutzhinweise fehlen"),
});
