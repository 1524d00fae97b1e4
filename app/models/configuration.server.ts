/**
 * The club's settings (a single row, id 1).
 */
import type { ExemptionNoticeKind } from "~/lib/donations";
import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { configuration, invoiceHeaders } from "~/db/schema";
import type { ClubInvoiceData } from "~/lib/invoice-document";
import type { TaxCase } from "~/lib/tax";
import { auditInsert, auditUpdate, type Actor } from "./audit.server";
import { errorText } from "./constraints.server";
import { invoiceTemplateHas } from "./templates.server";

export type ConfigurationRecord = typeof configuration.$inferSelect;

export type ConfigurationInput = {
  hsvrmVereinName: string | null;
  hsvrmKG: number | null;
  hsvrmVereinNr: number | null;
  smtpTestAccount: string | null;
  clubMembershipEnrollmentFee: number;
  clubMembershipPriceFull: number;
  clubMembershipPriceReduced1: number;
  clubMembershipPriceReduced2: number;
  lastInvoiceNumber: number;
  mollieIntegration: boolean;
  /** The club as SEPA creditor (Gläubiger-ID) and the text of its mandate form. */
  creditorId: string | null;
  mandateText: string | null;
  /** Days between a direct debit's pre-notification and its collection; left out: kept. */
  prenotificationDays?: number;
  /** The bank's charge for a return the debtor caused, passed on as a fee (cents, 0: not); left out: kept. */
  returnCharge?: number;
  /** Direct debits count as paid two TARGET2 business days after collection (debit-settlements.server.ts). */
  debitAutoSettle?: boolean;
  /** Reminders after default charge default interest (issue 31 item 5, default-interest.server.ts). */
  defaultInterest?: boolean;
  /** How long a freed place is offered from a waiting list (hours; issue 33 item 3); left out: kept. */
  waitlistOfferHours?: number;
  /** The default tax case of an invoice row per fee kind (app/models/tax.server.ts); left out: kept. */
  taxCaseAnnual?: TaxCase;
  taxCaseEnrollment?: TaxCase;
  taxCaseCourse?: TaxCase;
  taxCaseOther?: TaxCase;
  /** The tax office's notice for Zuwendungsbestätigungen (issue 35 item 5, app/lib/donations.ts). */
  exemptionNoticeKind: ExemptionNoticeKind | null;
  exemptionTaxOffice: string | null;
  exemptionNoticeDate: string | null;
  exemptionAssessmentPeriod: string | null;
  exemptionPurposes: string | null;
} & ClubInvoiceData;

export async function getConfiguration(db: Db): Promise<ConfigurationRecord | undefined> {
  const [row] = await db.select().from(configuration).where(eq(configuration.id, 1));
  return row;
}

export type SaveOutcome =
  { status: "created" } | { status: "updated" } | { status: "conflict"; current: ConfigurationRecord } | { status: "refused"; message: string };

/** Why the counter is fixed once an invoice was issued (issue 30: numbers without gaps, GoBD). */
const COUNTER_LOCKED =
  "Die Rechnungsnummern werden beim Ausstellen lückenlos vergeben: Nach der ersten ausgestellten Rechnung lässt sich die „Letzte Rechnungs Nr“ nicht mehr ändern.";

/** Whether any invoice was issued: from then on the invoice counter is Wuff's alone. */
export async function hasIssuedInvoices(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: invoiceHeaders.id }).from(invoiceHeaders).where(eq(invoiceHeaders.status, "ISSUED")).limit(1);
  return row !== undefined;
}

/** Regelbesteuerung needs the VAT on every invoice (§ 14 Abs. 4 Satz 1 Nr. 7, 8 UStG): a club's own
 *  invoice template from before issue 30 does not show it. */
const TEMPLATE_WITHOUT_TAX =
  "Bei Regelbesteuerung muss jede Rechnung die Umsatzsteuer je Steuersatz ausweisen, die Vorlage „invoice“ tut das nicht: Bitte zuerst die Vorlage ergänzen ({{#taxLines}} … {{/taxLines}}, wie in der Standardvorlage).";

/** Update when the settings exist (quoting the rowVersion the form was based on), else insert. */
export async function saveConfiguration(db: Db, input: ConfigurationInput, rowVersion: number | null, actor: Actor): Promise<SaveOutcome> {
  if (input.taxStatus === "REGULAR" && !(await invoiceTemplateHas(db, "{{#taxLines}}"))) return { status: "refused", message: TEMPLATE_WITHOUT_TAX };
  const current = await getConfiguration(db);
  if (!current) {
    // Two first saves at once: the second finds the row there and is a conflict, not an error.
    const created = await db
      .insert(configuration)
      .values({ id: 1, ...input, ...auditInsert(actor) })
      .onConflictDoNothing()
      .returning({ id: configuration.id });
    if (created.length === 1) return { status: "created" };
    return { status: "conflict", current: (await getConfiguration(db))! };
  }
  // The counter is set once, before the first invoice is issued (the start of a club's numbers);
  // afterwards only issuing moves it, so its numbers follow on without gaps.
  if (input.lastInvoiceNumber !== current.lastInvoiceNumber && (await hasIssuedInvoices(db))) {
    return { status: "refused", message: COUNTER_LOCKED };
  }
  const updated = await db
    .update(configuration)
    .set({ ...input, ...auditUpdate(actor, configuration.rowVersion) })
    .where(and(eq(configuration.id, 1), eq(configuration.rowVersion, rowVersion ?? -1)))
    .returning({ id: configuration.id });
  if (updated.length === 1) return { status: "updated" };
  return { status: "conflict", current: (await getConfiguration(db))! };
}

/** Whether saving failed on a value the database refuses (a check rule, NOT NULL, a unique value): the input's fault, not the server's. */
export const isRefusedValue = (error: unknown) => /(CHECK|NOT NULL|UNIQUE) constraint failed/i.test(errorText(error));
