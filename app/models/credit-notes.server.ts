/**
 * Gutschrift (issue 30 item 2): a credit note for part of an issued invoice. It is a correction
 * of the invoice by the club that issued it (a kaufmännische Gutschrift or Rechnungskorrektur, not
 * the self-billing 'Gutschrift' of § 14 Abs. 2 Satz 2 UStG), a document of its own: numbered from
 * the same counter, naming the invoice's number and date, issued at once and frozen like every
 * issued invoice, one negative row with the tax case of the invoice's rows it credits (so the VAT
 * of that rate falls by exactly the credited tax, § 17 Abs. 1 UStG).
 *
 * It books into the payment journal as an entry 'Verrechnung' of the credited amount
 * ('creditnote:{form id}': the same form sent twice issues one credit note): it settles what is
 * open on the invoice, and what exceeds it (the invoice was paid already) is the person's credit,
 * to be refunded or used. Per tax case no more is credited than the invoice's rows of that case
 * less the credit notes before; a cancelled invoice gets none, and an invoice with a credit note
 * is corrected further by credit notes, not by a Storno (which would credit the whole invoice
 * again).
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import { render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { invoiceHeaders, invoiceRows, payments } from "~/db/schema";
import { formatMoney } from "~/lib/format";
import { TAX_CASES, TAX_CASE_SHORT, type TaxCase } from "~/lib/tax";
import type { Actor } from "./audit.server";
import { cancellationOf, getInvoiceHeader, issueStatements, type InvoiceHeaderRecord } from "./invoices.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { allocationStatements, isDuplicateEntry } from "./payments.server";
import { invoiceTemplateHas } from "./templates.server";

/** What is left to credit of one tax case of an invoice, and the dates of service of its rows. */
type CreditableCase = { taxCase: TaxCase; gross: number; credited: number; left: number; serviceFrom: string | null; serviceTo: string | null };

/** templateReady: the 'invoice' template tells a credit note from a Storno (migration 0036's default does). */
export type Creditable = { header: InvoiceHeaderRecord; cases: CreditableCase[]; cancelled: boolean; templateReady: boolean };

/** The invoice with, per tax case of its rows, what it billed, what credit notes took back and what is left. */
export async function creditableOf(db: Db, invoiceId: number): Promise<Creditable | undefined> {
  const header = await getInvoiceHeader(db, invoiceId);
  if (!header) return undefined;
  const [billed, credited, cancelled, templateReady] = await Promise.all([
    db
      .select({
        taxCase: invoiceRows.taxCase,
        gross: sql<number>`sum(${invoiceRows.amount})`.mapWith(Number),
        serviceFrom: sql<string | null>`min(${invoiceRows.serviceFrom})`,
        serviceTo: sql<string | null>`max(coalesce(${invoiceRows.serviceTo}, ${invoiceRows.serviceFrom}))`,
      })
      .from(invoiceRows)
      .where(eq(invoiceRows.invoiceId, invoiceId))
      .groupBy(invoiceRows.taxCase),
    db
      .select({ taxCase: invoiceRows.taxCase, credited: sql<number>`-sum(${invoiceRows.amount})`.mapWith(Number) })
      .from(invoiceRows)
      .innerJoin(invoiceHeaders, eq(invoiceHeaders.id, invoiceRows.invoiceId))
      .where(and(eq(invoiceHeaders.correctsInvoiceId, invoiceId), eq(invoiceHeaders.kind, "CREDIT_NOTE")))
      .groupBy(invoiceRows.taxCase),
    cancellationOf(db, invoiceId),
    invoiceTemplateHas(db, "{{#corrects.storno}}"),
  ]);
  const cases = TAX_CASES.flatMap((taxCase) => {
    const row = billed.find((entry) => entry.taxCase === taxCase);
    if (!row || row.gross <= 0) return [];
    const done = credited.find((entry) => entry.taxCase === taxCase)?.credited ?? 0;
    return [{ taxCase, gross: row.gross, credited: done, left: Math.max(0, row.gross - done), serviceFrom: row.serviceFrom, serviceTo: row.serviceTo }];
  });
  return { header, cases, cancelled: cancelled !== undefined, templateReady };
}

/** Why the invoice gets no credit note (German), or null. */
export function creditNoteRefusal({ header, cases, cancelled, templateReady }: Creditable): string | null {
  if (header.status !== "ISSUED") return "Eine Gutschrift gibt es nur zu einer ausgestellten Rechnung; ein Entwurf wird einfach geändert.";
  if (header.kind !== "INVOICE") return "Eine Gutschrift bezieht sich auf eine Rechnung, nicht auf eine Stornorechnung oder Gutschrift.";
  if (cancelled) return "Die Rechnung ist storniert: Es gibt nichts mehr gutzuschreiben.";
  if (cases.every((entry) => entry.left <= 0)) return "Die Rechnung ist schon vollständig gutgeschrieben.";
  if (!templateReady)
    return "Die eigene Vorlage „invoice“ unterscheidet eine Gutschrift noch nicht von einer Stornorechnung: Bitte zuerst die Vorlage ergänzen ({{#corrects.storno}} … {{/corrects.storno}}, wie in der Standardvorlage).";
  return null;
}

export type CreditNoteInput = {
  text: string;
  amount: number;
  taxCase: TaxCase;
  key: string;
  /** What the credit note settles besides the invoice, in its batch (`creditNote`: SQL of its id). */
  also?: (creditNote: SQL) => Statement[];
};

export type CreditNoteOutcome =
  | { status: "issued"; id: number; invoiceNumber: number }
  | { status: "already" }
  | { status: "refused"; message: string; field?: "amount" | "taxCase" }
  | { status: "missing" };

/** Issues a credit note of `input.amount` (cents, > 0) of the invoice `invoiceId`, in one batch. */
export async function issueCreditNote(
  db: Db,
  invoiceId: number,
  input: CreditNoteInput,
  actor: Actor,
  today: string,
  now = new Date(),
): Promise<CreditNoteOutcome> {
  const entryKey = `creditnote:${input.key}`;
  if ((await db.$count(payments, eq(payments.entryKey, entryKey))) > 0) return { status: "already" };
  const creditable = await creditableOf(db, invoiceId);
  if (!creditable) return { status: "missing" };
  const refusal = creditNoteRefusal(creditable);
  if (refusal) return { status: "refused", message: refusal };
  const target = creditable.cases.find((entry) => entry.taxCase === input.taxCase);
  if (!target || target.left <= 0) {
    return { status: "refused", field: "taxCase", message: "Die Rechnung hat keine Zeilen mit dieser Umsatzsteuer, die noch gutzuschreiben wären." };
  }
  if (!(input.amount > 0)) return { status: "refused", field: "amount", message: "Der Betrag muss größer als 0,00 € sein." };
  if (input.amount > target.left) {
    return {
      status: "refused",
      field: "amount",
      message: `Gutgeschrieben werden höchstens ${formatMoney(target.left)} (die Zeilen mit ${TAX_CASE_SHORT[input.taxCase]}, abzüglich früherer Gutschriften).`,
    };
  }
  const { header } = creditable;
  const iso = now.toISOString();
  const creditNote = sql`(SELECT max(id) FROM ${invoiceHeaders} WHERE corrects_invoice_id = ${invoiceId} AND kind = 'CREDIT_NOTE')`;
  const settled = Math.min(input.amount, header.openAmount ?? 0);
  try {
    await runAtomically(db, [
      render(sql`INSERT INTO ${invoiceHeaders} (person_id, status, kind, corrects_invoice_id, date, due_date, amount, open_amount, created_by, created_on)
        VALUES (${header.personId}, 'DRAFT', 'CREDIT_NOTE', ${invoiceId}, ${today}, NULL, ${-input.amount}, 0, ${actor.name}, ${iso})`),
      render(sql`INSERT INTO ${invoiceRows} (invoice_id, line_number, text, amount, service_from, service_to, tax_case, created_by, created_on)
        VALUES (${creditNote}, 1, ${input.text}, ${-input.amount}, ${target.serviceFrom}, ${target.serviceTo}, ${input.taxCase}, ${actor.name}, ${iso})`),
      ...issueStatements(sql`(${creditNote})`, sql`h.id`, actor, now, today),
      ...(input.also?.(creditNote) ?? []),
      render(sql`INSERT INTO ${payments} (entry_key, person_id, date, amount, method, source, source_ref, text, created_by, created_on)
        SELECT ${entryKey}, person_id, date, -amount, 'OFFSET', 'CORRECTION', CAST(invoice_number AS TEXT),
          'Gutschrift ' || invoice_number || ${` zu Rechnung ${header.invoiceNumber}`}, ${actor.name}, ${iso}
        FROM ${invoiceHeaders} WHERE id = ${creditNote}`),
      ...(settled > 0
        ? allocationStatements(entryKey, { invoiceId, invoiceNumber: header.invoiceNumber!, amount: settled, expectedOpen: header.openAmount }, actor, iso)
        : []),
    ]);
  } catch (error) {
    if (isDuplicateEntry(error)) return { status: "already" };
    if (isAbortedAsUnchanged(error))
      return { status: "refused", message: "Der offene Betrag der Rechnung hat sich inzwischen geändert. Bitte noch einmal versuchen." };
    throw error;
  }
  const [created] = await db
    .select({ id: invoiceHeaders.id, invoiceNumber: invoiceHeaders.invoiceNumber })
    .from(invoiceHeaders)
    .innerJoin(payments, eq(payments.sourceRef, sql`CAST(${invoiceHeaders.invoiceNumber} AS TEXT)`))
    .where(and(eq(payments.entryKey, entryKey), eq(invoiceHeaders.kind, "CREDIT_NOTE")));
  return created?.invoiceNumber ? { status: "issued", id: created.id, invoiceNumber: created.invoiceNumber } : { status: "missing" };
}
