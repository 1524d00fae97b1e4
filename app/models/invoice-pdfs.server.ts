/**
 * The queries and writes of invoice PDFs (spec 001 §4 PDF creation, §7 pdfs): what an invoice
 * document is made of (header, rows, person, the club's settings, the template 'invoice'), which
 * invoices have no PDF yet, and the header's pdfFilePath, set only after the upload and only while
 * it is still empty (the header is the one truth about which stored PDF belongs to an invoice).
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { inValues } from "~/db/columns";
import { render, runAtomically, type Db, type Statement } from "~/db/client.server";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { configuration, invoiceHeaders, type SALUTATIONS, invoiceRows, jobs, people, templates } from "~/db/schema";
import { INVOICE_TEMPLATE_NAME, type InvoiceDocumentSource } from "~/lib/invoice-document";
import type { Actor } from "./audit.server";

export type InvoiceDocument = InvoiceDocumentSource & {
  id: number;
  /** Only an issued invoice has a PDF (issue 30): a draft is still being written. */
  issued: boolean;
  pdfFilePath: string | null;
  /** When the invoice last changed (a stored PDF older than that shows an old state). */
  changedOn: string | null;
  /** The template 'invoice' (HTML), or null when there is none. */
  template: string | null;
  /** The recipient in Wuff: number, e-mail and whether an Unternehmer (their PDF carries the
   *  e-invoice, issue 35 item 6). */
  recipient: { id: number; email: string | null; isBusiness: boolean };
};

/** The recipient's field as the invoice was issued (copied onto the header when the person was
 *  erased), else the person's current one. */
const issued = <T>(copy: AnySQLiteColumn, current: AnySQLiteColumn) =>
  sql<T>`CASE WHEN ${invoiceHeaders.issuedLastName} IS NOT NULL THEN ${copy} ELSE ${current} END`;

/** Everything an invoice's PDF is made of, in one round trip; undefined when the invoice is gone. */
export async function getInvoiceDocument(db: Db, id: number): Promise<InvoiceDocument | undefined> {
  const [headerRows, rows, [club], [template]] = await db.batch([
    db
      .select({
        id: invoiceHeaders.id,
        invoiceNumber: sql<number>`coalesce(${invoiceHeaders.invoiceNumber}, 0)`.mapWith(Number),
        status: invoiceHeaders.status,
        kind: invoiceHeaders.kind,
        correctsNumber: sql<number | null>`(SELECT c.invoice_number FROM ${invoiceHeaders} c WHERE c.id = "invoice_headers"."corrects_invoice_id")`,
        correctsDate: sql<string | null>`(SELECT c.date FROM ${invoiceHeaders} c WHERE c.id = "invoice_headers"."corrects_invoice_id")`,
        date: invoiceHeaders.date,
        dueDate: invoiceHeaders.dueDate,
        amount: invoiceHeaders.amount,
        openAmount: invoiceHeaders.openAmount,
        issuedTaxStatus: invoiceHeaders.issuedTaxStatus,
        pdfFilePath: invoiceHeaders.pdfFilePath,
        personId: invoiceHeaders.personId,
        email: people.email,
        isBusiness: people.isBusiness,
        changedOn: sql<string | null>`coalesce(${invoiceHeaders.lastModifiedOn}, ${invoiceHeaders.createdOn})`,
        // An erased person's invoice keeps the name and address it was issued to (GDPR erasure).
        salutation: issued<(typeof SALUTATIONS)[number] | null>(invoiceHeaders.issuedSalutation, people.salutation),
        title: issued<string | null>(invoiceHeaders.issuedTitle, people.title),
        firstName: issued<string>(invoiceHeaders.issuedFirstName, people.firstName),
        lastName: issued<string>(invoiceHeaders.issuedLastName, people.lastName),
        streetNumber: issued<string | null>(invoiceHeaders.issuedStreetNumber, people.streetNumber),
        zip: issued<string | null>(invoiceHeaders.issuedZip, people.zip),
        city: issued<string | null>(invoiceHeaders.issuedCity, people.city),
      })
      .from(invoiceHeaders)
      .innerJoin(people, eq(people.id, invoiceHeaders.personId))
      .where(eq(invoiceHeaders.id, id)),
    db
      .select({
        lineNumber: invoiceRows.lineNumber,
        text: invoiceRows.text,
        amount: invoiceRows.amount,
        serviceFrom: invoiceRows.serviceFrom,
        serviceTo: invoiceRows.serviceTo,
        taxCase: invoiceRows.taxCase,
      })
      .from(invoiceRows)
      .where(eq(invoiceRows.invoiceId, id))
      .orderBy(asc(invoiceRows.lineNumber), asc(invoiceRows.id)),
    db
      .select({
        clubName: configuration.clubName,
        clubStreet: configuration.clubStreet,
        clubZip: configuration.clubZip,
        clubCity: configuration.clubCity,
        clubPhone: configuration.clubPhone,
        clubEmail: configuration.clubEmail,
        taxStatus: configuration.taxStatus,
        taxNumber: configuration.taxNumber,
        vatId: configuration.vatId,
        taxExemptionNote: configuration.taxExemptionNote,
        bankAccountHolder: configuration.bankAccountHolder,
        iban: configuration.iban,
        bic: configuration.bic,
        bankName: configuration.bankName,
      })
      .from(configuration)
      .where(eq(configuration.id, 1)),
    db.select({ html: templates.html }).from(templates).where(eq(templates.name, INVOICE_TEMPLATE_NAME)),
  ]);
  const [header] = headerRows;
  if (!header) return undefined;
  return {
    id: header.id,
    issued: header.status === "ISSUED",
    pdfFilePath: header.pdfFilePath,
    changedOn: header.changedOn,
    template: template?.html ?? null,
    recipient: { id: header.personId, email: header.email, isBusiness: Boolean(header.isBusiness) },
    header: {
      invoiceNumber: header.invoiceNumber,
      date: header.date,
      dueDate: header.dueDate,
      amount: header.amount,
      openAmount: header.openAmount,
      kind: header.kind,
      taxStatus: header.issuedTaxStatus,
      corrects: header.correctsNumber !== null && header.correctsDate !== null ? { invoiceNumber: header.correctsNumber, date: header.correctsDate } : null,
    },
    rows,
    person: {
      salutation: header.salutation,
      title: header.title,
      firstName: header.firstName,
      lastName: header.lastName,
      streetNumber: header.streetNumber,
      zip: header.zip,
      city: header.city,
    },
    club: club ?? null,
  };
}

/** The PDF path stored on an invoice (null: 'PDF not yet created'); undefined when the invoice is gone. */
export async function pdfPathOf(db: Db, id: number): Promise<string | null | undefined> {
  const [row] = await db.select({ pdfFilePath: invoiceHeaders.pdfFilePath }).from(invoiceHeaders).where(eq(invoiceHeaders.id, id));
  return row ? row.pdfFilePath : undefined;
}

/** The issued invoices without a PDF (spec 001 §7: headers with pdfFilePath=NULL), by number. */
export async function invoicesWithoutPdf(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: invoiceHeaders.id })
    .from(invoiceHeaders)
    .where(and(isNull(invoiceHeaders.pdfFilePath), eq(invoiceHeaders.status, "ISSUED")))
    .orderBy(asc(invoiceHeaders.invoiceNumber));
  return rows.map((row) => row.id);
}

export async function countInvoicesWithoutPdf(db: Db): Promise<{ withoutPdf: number; total: number }> {
  const [row] = await db
    .select({ withoutPdf: sql<number>`coalesce(sum(${invoiceHeaders.pdfFilePath} IS NULL), 0)`.mapWith(Number), total: sql<number>`count(*)`.mapWith(Number) })
    .from(invoiceHeaders)
    .where(eq(invoiceHeaders.status, "ISSUED"));
  return row;
}

/**
 * Sets the header's pdfFilePath and the PDF's SHA-256 after the upload: only while both are empty
 * (once, issue 30), with the audit fields and rowVersion counted up as every invoice write does.
 * `alsoInBatch` goes in the same batch (the run's progress message). Says whether this call set it.
 */
export async function setPdfPath(
  db: Db,
  id: number,
  path: string,
  sha256: string,
  actor: Actor,
  alsoInBatch: Statement[] = [],
  now = new Date(),
): Promise<boolean> {
  const [update] = await runAtomically(db, [
    render(sql`UPDATE ${invoiceHeaders} SET pdf_file_path = ${path}, pdf_sha256 = ${sha256},
        last_modified_by = ${actor.name}, last_modified_on = ${now.toISOString()}, row_version = row_version + 1
      WHERE id = ${id} AND pdf_file_path IS NULL AND pdf_sha256 IS NULL AND status = 'ISSUED'`),
    ...alsoInBatch,
  ]);
  return (update.meta.changes ?? 0) > 0;
}

/** A run's progress message (while it runs; the finished run's summary is never overwritten). */
export const runProgressStatement = (jobId: number, message: string): Statement =>
  render(sql`UPDATE ${jobs} SET message = ${message} WHERE id = ${jobId} AND status IN ('QUEUED', 'RUNNING')`);

/** How many of these invoices have a PDF now (a PDF run's result: they had none at its start). */
export async function countWithPdf(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(invoiceHeaders)
    .where(and(inValues(invoiceHeaders.id, ids), sql`${invoiceHeaders.pdfFilePath} IS NOT NULL`));
  return row.n;
}

/** 'Rechnung 2026001 (Erika Muster)': how a PDF run names invoices that failed, by number. */
export async function nameInvoices(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: invoiceHeaders.id, invoiceNumber: invoiceHeaders.invoiceNumber, name: people.fullName })
    .from(invoiceHeaders)
    .innerJoin(people, eq(people.id, invoiceHeaders.personId))
    .where(inValues(invoiceHeaders.id, ids))
    .orderBy(asc(invoiceHeaders.invoiceNumber));
  return new Map(rows.map((row) => [row.id, `Rechnung ${row.invoiceNumber} (${row.name ?? "unbekannt"})`]));
}

/** Whether a 'PDFs erzeugen' run that is queued or running has this invoice among its items: its
 *  PDF is on the way (issue 29/17: the mail dialog says so and waits for it). */
export async function isPdfOnTheWay(db: Db, invoiceId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.type, "PDFS"),
        sql`${jobs.status} IN ('QUEUED', 'RUNNING')`,
        sql`EXISTS (SELECT 1 FROM json_each(coalesce(${jobs.items}, '[]')) WHERE value = ${invoiceId})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Issued invoices whose stored PDF has no SHA-256 yet (stored before issue 30), oldest first. */
export async function pdfsWithoutHash(db: Db, limit: number): Promise<{ id: number; path: string }[]> {
  const rows = await db
    .select({ id: invoiceHeaders.id, path: sql<string>`${invoiceHeaders.pdfFilePath}` })
    .from(invoiceHeaders)
    .where(and(eq(invoiceHeaders.status, "ISSUED"), sql`${invoiceHeaders.pdfFilePath} IS NOT NULL`, isNull(invoiceHeaders.pdfSha256)))
    .orderBy(asc(invoiceHeaders.id))
    .limit(limit);
  return rows;
}

/** Keeps the SHA-256 of the stored PDF the header names: once, and only for that very file. */
export async function setPdfHash(db: Db, id: number, path: string, sha256: string): Promise<void> {
  await db.run(sql`UPDATE ${invoiceHeaders} SET pdf_sha256 = ${sha256} WHERE id = ${id} AND pdf_file_path = ${path} AND pdf_sha256 IS NULL`);
}
