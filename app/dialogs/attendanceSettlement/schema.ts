import { z } from "zod";
import { id, moneyInCents, requiredText } from "~/lib/form-fields";

/** 'Einzelstunde berechnen': the attendance, and what the single visit costs. */
export const chargeSchema = z.object({ id: id("Teilnahme fehlt"), amount: moneyInCents("Bitte den Preis der Einzelstunde eingeben") });
export type ChargeFormValues = z.infer<typeof chargeSchema>;

/** 'Erlassen': the attendance, and why nothing is charged (it stays on record). */
export const waiveSchema = z.object({ id: id("Teilnahme fehlt"), note: requiredText("Bitte einen Grund angeben", 200) });
export type WaiveFormValues = z.infer<typeof waiveSchema>;
