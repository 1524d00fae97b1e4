import { z } from "zod";
import { BIC_MESSAGES, bicRequiredFor } from "~/lib/banking";
import { CLUB_TAX_STATUSES, compactVatId, isValidTaxNumber, isValidVatId } from "~/lib/tax";
import { optionalBic, optionalCreditorId, optionalIban } from "~/lib/bank-fields";
import { MAX_NOTICE_DAYS, MIN_NOTICE_DAYS } from "~/lib/debit-notice";
import { MAX_REMINDER_DAYS } from "~/lib/reminder-dates";
import { EXEMPTION_NOTICE_KINDS } from "~/lib/donations";

/** The longest an offer from a waiting list stands: two weeks. */
const MAX_OFFER_HOURS = 336;
import {
  checkbox,
  moneyInCents,
  optionalEmail,
  optionalGermanDate,
  optionalPhone,
  optionalText,
  optionalWholeNumber,
  optionalZip,
  rowVersion,
  taxCase,
  TOO_LONG,
  wholeNumber,
} from "~/lib/form-fields";

/** The Einstellungen form (spec 000 §2, §5): numbers are numbers, the test account an e-mail,
 *  money typed the German way (1.234,56 €) into exact cents. */
export const configurationSchema = z
  .object({
    rowVersion: rowVersion().optional(),
    hsvrmVereinName: optionalText(200),
    hsvrmKG: optionalWholeNumber("HSVRM KG"),
    hsvrmVereinNr: optionalWholeNumber("HSVRM Verein Nr"),
    smtpTestAccount: optionalEmail(),
    clubMembershipEnrollmentFee: moneyInCents(),
    clubMembershipPriceFull: moneyInCents(),
    clubMembershipPriceReduced1: moneyInCents(),
    clubMembershipPriceReduced2: moneyInCents(),
    lastInvoiceNumber: wholeNumber("Letzte Rechnungs Nr"),
    mollieIntegration: checkbox(),
    // The club on its invoices (§14 UStG), the account they ask to pay to (also the GiroCode's and
    // the direct debits' account) and the club as SEPA creditor.
    clubName: optionalText(200),
    clubStreet: optionalText(200),
    clubZip: optionalZip(),
    clubCity: optionalText(100),
    clubPhone: optionalPhone(),
    clubEmail: optionalEmail(),
    taxStatus: z.enum(CLUB_TAX_STATUSES, { error: "Bitte wählen, wie der Verein Umsatzsteuer berechnet" }),
    taxNumber: optionalText(50).refine((value) => value === null || isValidVatId(value) || isValidTaxNumber(value), {
      message: "Die Steuernummer bitte so eingeben, wie sie im Steuerbescheid steht (z. B. 21/815/08150)",
    }),
    vatId: optionalText(20)
      .refine((value) => value === null || isValidVatId(value), {
        message: "Die USt-IdNr. ist ungültig: DE und neun Ziffern, die letzte eine Prüfziffer (z. B. DE123456788)",
      })
      .transform((value) => value && compactVatId(value)),
    taxExemptionNote: optionalText(300),
    // Left out (a request without them): the settings keep what they have.
    taxCaseAnnual: taxCase().optional(),
    taxCaseEnrollment: taxCase().optional(),
    taxCaseCourse: taxCase().optional(),
    taxCaseOther: taxCase().optional(),
    bankAccountHolder: optionalText(200),
    iban: optionalIban(),
    bic: optionalBic(),
    bankName: optionalText(200),
    creditorId: optionalCreditorId(),
    mandateText: optionalText(4000),
    // Left out: kept. Shorter than the rulebook's 14 days only by agreement with the debtors.
    prenotificationDays: wholeNumber("Vorabankündigung", MAX_NOTICE_DAYS).min(MIN_NOTICE_DAYS, "Vorabankündigung: mindestens 1 Tag vor dem Einzug").optional(),
    // Left out: kept. The bank's actual charge (0,00: the club bears it).
    returnCharge: moneyInCents("Bitte die Rücklastschriftgebühr eingeben (0,00 für keine)").optional(),
    debitAutoSettle: checkbox(),
    defaultInterest: checkbox(),
    // Left out: kept. An hour at least, two weeks at most (a freed place must not stand empty for long).
    waitlistOfferHours: wholeNumber("Das Angebot aus der Warteliste", MAX_OFFER_HOURS)
      .min(1, "Das Angebot aus der Warteliste gilt mindestens 1 Stunde")
      .optional(),
    // Zuwendungsbestätigungen (issue 35 item 5): the tax office's notice that the club is steuerbegünstigt.
    exemptionNoticeKind: z
      .enum(EXEMPTION_NOTICE_KINDS, { error: "Bitte die Art des Bescheids wählen" })
      .optional()
      .transform((value) => value ?? null),
    exemptionTaxOffice: optionalText(100),
    exemptionNoticeDate: optionalGermanDate(),
    exemptionAssessmentPeriod: optionalText(30),
    exemptionPurposes: optionalText(300),
  })
  .superRefine((value, context) => {
    // A notice names its Finanzamt, date and the purposes (and a Freistellungsbescheid its
    // Veranlagungszeitraum): each stands on every Zuwendungsbestätigung (BMF-Muster, § 50 EStDV).
    if (value.exemptionNoticeKind) {
      const missing = (path: string, message: string) => context.addIssue({ code: "custom", path: [path], message });
      if (!value.exemptionTaxOffice) missing("exemptionTaxOffice", "Bitte das Finanzamt angeben, das den Bescheid erlassen hat");
      if (!value.exemptionNoticeDate) missing("exemptionNoticeDate", "Bitte das Datum des Bescheids angeben");
      if (!value.exemptionPurposes) missing("exemptionPurposes", "Bitte die steuerbegünstigten Zwecke nach der Satzung angeben");
      if (value.exemptionNoticeKind === "FREISTELLUNG" && !value.exemptionAssessmentPeriod) {
        missing("exemptionAssessmentPeriod", "Bitte den Veranlagungszeitraum des Freistellungsbescheids angeben (z. B. 2024)");
      }
      if (!value.taxNumber) missing("taxNumber", "Die Steuernummer steht auf jeder Zuwendungsbestätigung: bitte angeben");
    }
    if (bicRequiredFor(value.iban) && !value.bic) context.addIssue({ code: "custom", path: ["bic"], message: BIC_MESSAGES.required });
    // A USt-IdNr typed into the Steuernummer belongs into its own field.
    if (value.taxNumber && isValidVatId(value.taxNumber)) {
      context.addIssue({ code: "custom", path: ["taxNumber"], message: "Das ist eine USt-IdNr.: bitte ins Feld „USt-IdNr.“ eintragen" });
    }
    // Under Regelbesteuerung every invoice names the club's Steuernummer or USt-IdNr. (§ 14 Abs. 4 Satz 1 Nr. 2 UStG).
    if (value.taxStatus === "REGULAR" && !value.taxNumber && !value.vatId) {
      context.addIssue({
        code: "custom",
        path: ["taxNumber"],
        message: "Bei Regelbesteuerung steht die Steuernummer oder die USt-IdNr. auf jeder Rechnung (§ 14 Abs. 4 UStG): bitte eine davon angeben",
      });
    }
    // An exempt club names the legal reason on every invoice (§ 14 Abs. 4 Satz 1 Nr. 8 UStG).
    if (value.taxStatus === "EXEMPT" && !value.taxExemptionNote) {
      context.addIssue({
        code: "custom",
        path: ["taxExemptionNote"],
        message: "Bitte den Grund der Steuerbefreiung angeben (z. B. „Steuerfrei nach § 4 Nr. 22 Buchst. a UStG“): er steht auf jeder Rechnung",
      });
    }
  });

export type ConfigurationFormValues = z.infer<typeof configurationSchema>;

/** One reminder level (Mahnwesen): when it becomes due, its fee, the new payment term, its templates. */
const reminderLevelSchema = z.object({
  level: z.number({ error: "Unbekannte Mahnstufe" }).int("Unbekannte Mahnstufe").min(1, "Unbekannte Mahnstufe").max(3, "Unbekannte Mahnstufe"),
  rowVersion: rowVersion(),
  enabled: checkbox(),
  days: wholeNumber("Tage bis zur Mahnung", MAX_REMINDER_DAYS).min(1, "Tage bis zur Mahnung: mindestens 1"),
  fee: moneyInCents("Bitte die Mahngebühr per Brief eingeben (0,00 für keine)"),
  mailFee: moneyInCents("Bitte die Mahngebühr per Mail eingeben (0,00 für keine)"),
  paymentTermDays: wholeNumber("Neue Zahlungsfrist", 365).min(1, "Neue Zahlungsfrist: mindestens 1 Tag"),
  mailTemplate: z.string({ error: "Bitte eine Mail-Vorlage wählen" }).trim().min(1, "Bitte eine Mail-Vorlage wählen").max(200, TOO_LONG(200)),
  letterTemplate: z.string({ error: "Bitte eine Brief-Vorlage wählen" }).trim().min(1, "Bitte eine Brief-Vorlage wählen").max(200, TOO_LONG(200)),
});

/** The Mahnwesen form of Einstellungen: all three levels at once. */
export const reminderLevelsSchema = z
  .object({
    levels: z.array(reminderLevelSchema, { error: "Die Mahnstufen fehlen" }).length(3, "Es sind genau drei Mahnstufen"),
  })
  .superRefine((value, context) => {
    const numbers = value.levels.map((level) => level.level).sort();
    if (numbers.join() !== "1,2,3") context.addIssue({ code: "custom", path: ["levels"], message: "Es sind genau die Mahnstufen 1, 2 und 3" });
  });

export type ReminderLevelsFormValues = z.infer<typeof reminderLevelsSchema>;

/** A half-year's base rate (Basiszinssatz, § 247 BGB) as the Bundesbank announced it. */
export const baseRateSchema = z.object({
  validFrom: z.enum(["01-01", "07-01"], { error: "Bitte das Halbjahr wählen: ab 1. Januar oder ab 1. Juli" }),
  year: z
    .number({ error: "Bitte das Jahr als Zahl eingeben (z. B. 2026)" })
    .int("Bitte das Jahr als ganze Zahl eingeben (z. B. 2026)")
    .min(2002, "Jahr: ab 2002 (seitdem gilt der Basiszinssatz nach § 247 BGB)")
    .max(2100, "Jahr: bis 2100"),
  rate: z
    .string({ error: "Bitte den Basiszinssatz in Prozent eingeben (z. B. 1,27 oder -0,88)" })
    .trim()
    .regex(/^-?\d{1,2}(,\d{1,2})?$/, "Bitte den Basiszinssatz in Prozent mit höchstens zwei Nachkommastellen eingeben (z. B. 1,27 oder -0,88)")
    .transform((value) => {
      const [whole, fraction = ""] = value.replace("-", "").split(",");
      const hundredths = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
      return value.startsWith("-") ? -hundredths : hundredths;
    })
    .refine((rate) => rate >= -2000 && rate <= 2000, "Der Basiszinssatz liegt zwischen -20,00 und 20,00 %"),
});
