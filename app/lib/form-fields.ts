/**
 * zod building blocks for German forms: the same schema validates in the browser (conform) and
 * in the action, with the spec's messages. Conform sends empty inputs as undefined.
 */
import { z } from "zod";
import { formatNumber, parseGermanDate, parseGermanDateTime, parseMoney } from "./format";
import { MAX_ID } from "./ids";
import { SPHERES } from "./ledger";
import { TAX_CASES } from "./tax";
import { installGermanZodMessages } from "./zod-german";

installGermanZodMessages();

export const TOO_LONG = (max: number) => `Höchstens ${max} Zeichen`;

export const requiredText = (message: string, max = 200) => z.string({ error: message }).trim().min(1, message).max(max, TOO_LONG(max));

/** Optional free text: empty becomes null. */
export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, TOO_LONG(max))
    .optional()
    .transform((value) => value || null);

/** dd.MM.yyyy typed by the user -> 'YYYY-MM-DD'; empty becomes null. */
export const optionalGermanDate = () =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value?.trim()) return null;
      const parsed = parseGermanDate(value);
      if (parsed.success) return parsed.value;
      context.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    });

/** A required dd.MM.yyyy date -> 'YYYY-MM-DD'. */
export const germanDate = (message: string) =>
  z.string({ error: message }).transform((value, context) => {
    if (!value.trim()) {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    const parsed = parseGermanDate(value);
    if (parsed.success) return parsed.value;
    context.addIssue({ code: "custom", message: parsed.error });
    return z.NEVER;
  });

/** 1.234,56 (€) typed by the user -> cents. */
export const moneyInCents = (message = "Bitte einen Betrag eingeben") =>
  z.string({ error: message }).transform((value, context) => {
    const parsed = parseMoney(value);
    if (parsed.success) return parsed.value;
    context.addIssue({ code: "custom", message: parsed.error });
    return z.NEVER;
  });

/**
 * An optional amount typed by the user (1.234,56 €) -> cents; empty becomes `empty` (null, or 0
 * for the money columns that are NOT NULL DEFAULT 0, such as the prices of courses).
 */
export const optionalMoneyInCents = <Empty extends number | null = null>(empty: Empty = null as Empty) =>
  z
    .string()
    .optional()
    .transform((value, context): number | Empty => {
      if (!value?.trim()) return empty;
      const parsed = parseMoney(value);
      if (parsed.success) return parsed.value;
      context.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    });

/** 'dd.MM.yyyy HH:mm' typed by the user (Berlin time) -> UTC ISO instant; empty becomes null. */
export const optionalGermanDateTime = () =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value?.trim()) return null;
      const parsed = parseGermanDateTime(value);
      if (parsed.success) return parsed.value;
      context.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    });

/** A whole number from 0 to `max`, with German messages that name the field. */
export const wholeNumber = (label: string, max = MAX_ID) =>
  z
    .number({ error: `${label} muss eine Zahl sein` })
    .int(`${label} muss eine ganze Zahl sein`)
    .min(0, `${label} darf nicht negativ sein`)
    .max(max, max === MAX_ID ? `${label} ist zu groß` : `${label} darf höchstens ${formatNumber(max)} sein`);

/** An optional whole number from 0 to `max`: empty becomes null. */
export const optionalWholeNumber = (label: string, max = MAX_ID) =>
  wholeNumber(label, max)
    .optional()
    .transform((value) => value ?? null);

export const optionalEmail = () =>
  z
    .email({ error: "Bitte eine gültige E-Mail-Adresse eingeben" })
    .max(200, TOO_LONG(200))
    .optional()
    .transform((value) => value ?? null);

/** A German postcode (PLZ): five digits; empty becomes null. The one rule of people and Einstellungen. */
export const ZIP_MESSAGE = "Bitte eine PLZ aus 5 Ziffern eingeben (z. B. 35037)";
export const optionalZip = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => value || null)
    .refine((value) => value === null || /^\d{5}$/.test(value), ZIP_MESSAGE);

/**
 * A phone number as people write it: digits with spaces and + ( ) / - (`+49 (0) 170 123 45-67`,
 * `06421 / 98 76 5`), beginning with +, ( or a digit and holding 3 to 20 digits; a date, a word or
 * `-1` is refused. Empty becomes null. The one rule of people and Einstellungen.
 */
export const PHONE_MESSAGE = "Bitte eine Telefonnummer aus Ziffern eingeben (erlaubt sind auch Leerzeichen und + ( ) / -)";
export const optionalPhone = (max = 50) =>
  z
    .string()
    .trim()
    .max(max, TOO_LONG(max))
    .optional()
    .transform((value) => value || null)
    .refine((value) => value === null || isPhoneNumber(value), PHONE_MESSAGE);

function isPhoneNumber(value: string) {
  if (!/^[+(\d][\d ()/+-]*$/.test(value) || value.lastIndexOf("+") > 0) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 3 && digits <= 20;
}

/** A checkbox: present (on) is true, absent is false. */
export const checkbox = () =>
  z
    .boolean()
    .optional()
    .transform((value) => value ?? false);

/** A database id from a select or hidden input. */
export const id = (message: string) => z.number({ error: message }).int(message).positive(message).max(MAX_ID, message);
export const optionalId = () =>
  z
    .number()
    .int()
    .positive()
    .max(MAX_ID)
    .optional()
    .transform((value) => value ?? null);

/** The rowVersion an edit form was based on. */
export const rowVersion = () => z.number({ error: "Version fehlt" }).int().min(1).max(MAX_ID);

/** How a payment entered in a dialog came in (the payment journal, issue 30): the dialog books it as a journal entry. */
export const PAID_BY = ["TRANSFER", "CASH"] as const;

/** A form's own id, made when its dialog opens: what a server keys a write by, so that the same
 *  form sent twice writes once (a journal entry, a credit note). */
export const formKey = () =>
  z
    .string({ error: "Formular-Kennung fehlt: bitte den Dialog neu öffnen" })
    .regex(/^[A-Za-z0-9-]{8,64}$/, "Formular-Kennung ungültig: bitte den Dialog neu öffnen");

/**
 * The fields of a payment booked from a dialog (Zahlungsart, Gezahlt am) and the form's own id
 * (paymentKey, made when the dialog opens): the journal entry's key, so that sending the same form
 * twice books once. Spread into a dialog's schema.
 */
export const paymentFields = () => ({
  paidBy: z.enum(PAID_BY, { error: "Bitte eine Zahlungsart wählen" }).default("TRANSFER"),
  paidOn: optionalGermanDate(),
  paymentKey: formKey().optional(),
});

const TAX_CASE_MESSAGE = "Bitte wählen, wie die Umsatzsteuer berechnet wird";

/** A tax case (app/lib/tax.ts): of an invoice row, a default in Einstellungen. */
export const taxCase = () => z.enum(TAX_CASES, { error: TAX_CASE_MESSAGE });

/** A course type's own tax case, or none (empty: the default for courses in Einstellungen). */
export const optionalTaxCase = () =>
  z
    .enum(TAX_CASES, { error: TAX_CASE_MESSAGE })
    .optional()
    .transform((value) => value ?? null);

/** An account of the chart (DATEV: digits, at most nine, not starting with 0); empty: the default (issue 35). */
const optionalAccountNumber = () =>
  z
    .string()
    .trim()
    .regex(/^([1-9][0-9]{0,8})?$/, "Bitte eine Kontonummer aus Ziffern angeben (höchstens 9, nicht mit 0 beginnend)")
    .optional()
    .transform((value) => value || null);

/** A club's sphere (app/lib/ledger.ts); empty: the default. */
const optionalSphere = () =>
  z
    .enum(SPHERES, { error: "Bitte eine Sphäre wählen" })
    .optional()
    .transform((value) => value ?? null);

/** The account and sphere a course type, card product, fee or invoice row may set for the books. */
export const bookingOverrideFields = () => ({ accountNumber: optionalAccountNumber(), sphere: optionalSphere() });
