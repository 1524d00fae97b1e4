/**
 * Spenden and Zuwendungsbestätigungen (issue 35 item 5; § 10b EStG, § 50 EStDV, § 63 Abs. 5 AO).
 *
 * A donation is recorded with its donor and booked in one batch as a fee of its own (kind 'OTHER',
 * not invoiced) that its journal entry (Überweisung or Bar) pays at once: the books (DATEV, EÜR on
 * the account 'Spenden'), the Kasse and the person's account take it as any paid fee; money the
 * journal already holds as the donor's credit (a transfer the bank statement import could not
 * assign) can be taken instead. A wrong one is cancelled while no receipt names it: what its
 * entries paid on the fee becomes the person's credit again and a 'Verrechnung' settles the fee
 * (so it never shows as owed).
 *
 * Receipts: a single one per donation or a Sammelbestätigung per donor and year, numbered
 * 'ZB-2026-0001' per year of issue, each donation confirmed at most once (the Sammelbestätigung
 * promises that no other confirmation exists). The receipt keeps the donor's name and address and
 * the club's notice as issued, and its PDF is stored in R2 once: the Doppel (§ 50 Abs. 7 EStDV),
 * kept ten years (app/lib/retention.ts 'books').
 */
import { and, asc, between, count, desc, eq, isNull, sql, sum, type SQL } from "drizzle-orm";
import { valuesOf } from "~/db/columns";
import { ABORT_UNLESS_CHANGED, render, runAtomically, toSql, type Db, type Statement } from "~/db/client.server";
import { configuration, donationReceipts, donations, fees, paymentAllocations, payments, people } from "~/db/schema";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { issuerOf, receiptHtml, type DonationMethod, type DonationReceiptKind, type Issuer, type ReceiptDocument } from "~/lib/donations";
import { formatMoney } from "~/lib/format";
import { periodRange, type Period } from "~/lib/periods";
import { sha256Hex } from "~/lib/bytes";
import { auditInsert, type Actor } from "./audit.server";
import { cashBookRefusal } from "./cash-refusal.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { pageOfPosition, positionInOrder } from "./paging.server";
import { containsPattern } from "./search.server";
import { allocationStatements, dialogPaymentStatements, entryInsert, isDuplicateEntry, paidFromCreditStatements, personCredit } from "./payments.server";

// ---------------------------------------------------------------------------------------------
// Reading

const paymentOf = sql<string | null>`(SELECT y.method FROM ${payments} y JOIN ${paymentAllocations} a ON a.payment_id = y.id
  WHERE a.fee_id = "donations"."fee_id" AND y.source <> 'REVERSAL' AND y.method <> 'OFFSET' ORDER BY y.id LIMIT 1)`;

const columns = {
  id: donations.id,
  personId: donations.personId,
  personName: people.fullName,
  date: donations.date,
  amount: donations.amount,
  text: donations.text,
  method: paymentOf,
  receiptId: donations.receiptId,
  receiptNumber: donationReceipts.number,
  cancelledOn: donations.cancelledOn,
  cancelledBy: donations.cancelledBy,
  createdBy: donations.createdBy,
  createdOn: donations.createdOn,
};

export type DonationRow = {
  id: number;
  personId: number;
  personName: string | null;
  date: string;
  amount: number;
  text: string;
  method: string | null;
  receiptId: number | null;
  receiptNumber: string | null;
  cancelledOn: string | null;
  cancelledBy: string | null;
  createdBy: string;
  createdOn: string;
};

export type DonationQuery = { period: Period; search?: string; sort: SortSpec; today: string };
export const DONATION_DEFAULT_SORT: SortSpec = { id: "date", descending: true };

function donationWhere(query: Omit<DonationQuery, "sort">): SQL | undefined {
  const range = periodRange(query.period, query.today);
  const pattern = query.search ? containsPattern(query.search) : null;
  return and(
    range ? between(donations.date, range[0], range[1]) : undefined,
    pattern ? sql`(${people.fullName} LIKE ${pattern} OR ${donations.text} LIKE ${pattern} OR ${donationReceipts.number} LIKE ${pattern})` : undefined,
  );
}

const SORTABLE: Record<string, SQL> = { date: sql`${donations.date}`, amount: sql`${donations.amount}`, personName: sql`${people.fullName}` };
const donationOrder = (sort: SortSpec): SQL[] => {
  const column = SORTABLE[sort.id] ?? SORTABLE.date;
  return sort.descending ? [desc(column), desc(donations.id)] : [asc(column), asc(donations.id)];
};

const fromDonations = (db: Db) =>
  db
    .select(columns)
    .from(donations)
    .innerJoin(people, eq(people.id, donations.personId))
    .leftJoin(donationReceipts, eq(donationReceipts.id, donations.receiptId));

export async function listDonations(db: Db, query: DonationQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [totals]] = await db.batch([
    fromDonations(db)
      .where(donationWhere(query))
      .orderBy(...donationOrder(query.sort))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db
      .select({ total: count(), amount: sum(sql`CASE WHEN ${donations.cancelledOn} IS NULL THEN ${donations.amount} ELSE 0 END `).mapWith(Number) })
      .from(donations)
      .innerJoin(people, eq(people.id, donations.personId))
      .leftJoin(donationReceipts, eq(donationReceipts.id, donations.receiptId))
      .where(donationWhere(query)),
  ]);
  return { rows: rows as DonationRow[], total: totals.total, sums: { amount: totals.amount ?? 0 } };
}

export async function allDonations(db: Db, query: DonationQuery): Promise<DonationRow[]> {
  return (await fromDonations(db)
    .where(donationWhere(query))
    .orderBy(...donationOrder(query.sort))) as DonationRow[];
}

export async function pageOfDonation(db: Db, id: number, query: DonationQuery, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({ id: donations.id, position: positionInOrder(donationOrder(query.sort)) })
    .from(donations)
    .innerJoin(people, eq(people.id, donations.personId))
    .leftJoin(donationReceipts, eq(donationReceipts.id, donations.receiptId))
    .where(donationWhere(query))
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

export async function getDonation(db: Db, id: number): Promise<DonationRow | undefined> {
  const [row] = await fromDonations(db).where(eq(donations.id, id));
  return row as DonationRow | undefined;
}

/** Why a donation cannot be cancelled (German), or null. */
export function donationCancelRefusal(donation: Pick<DonationRow, "receiptNumber" | "cancelledOn">): string | null {
  if (donation.cancelledOn) return "Diese Spende ist schon storniert.";
  if (donation.receiptNumber) {
    return `Die Spende ist mit der Zuwendungsbestätigung ${donation.receiptNumber} bestätigt: Sie wird nicht storniert. Ist die Bestätigung falsch, fordert der Verein sie vom Spender zurück.`;
  }
  return null;
}

/** Why no receipt can be issued for this donation alone (German), or null. */
export function singleReceiptRefusal(donation: Pick<DonationRow, "receiptNumber" | "cancelledOn">): string | null {
  if (donation.cancelledOn) return "Eine stornierte Spende wird nicht bestätigt.";
  if (donation.receiptNumber) return `Die Spende ist schon mit ${donation.receiptNumber} bestätigt.`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Recording and cancelling

export type DonationInput = { personId: number; date: string; amount: number; method: DonationMethod; text: string; key: string };

export type DonationOutcome = { status: "recorded"; id: number } | { status: "refused"; message: string; field?: string } | { status: "already" };

const newestFee = sql`(SELECT max(id) FROM ${fees})`;

/** Records a donation: its fee, the journal entry that pays it, and the donation, in one batch. */
export async function recordDonation(db: Db, input: DonationInput, actor: Actor, now = new Date()): Promise<DonationOutcome> {
  const [donor] = await db.select({ erasedOn: people.erasedOn }).from(people).where(eq(people.id, input.personId));
  if (!donor) return { status: "refused", field: "personId", message: "Diese Person gibt es nicht (mehr)." };
  if (donor.erasedOn)
    return { status: "refused", field: "personId", message: "Die Daten dieser Person sind gelöscht (DSGVO): Eine Spende wird ihr nicht zugeordnet." };
  const feeText = input.text ? `Spende: ${input.text}` : "Spende";
  const nowIso = now.toISOString();
  // The money: booked now as a journal entry (keyed by the form: sent twice, booked once), or taken
  // from the donor's credit (money the journal already holds, e.g. from the bank statement import).
  const money =
    input.method === "CREDIT"
      ? await paidFromCreditStatements(db, input.personId, input.amount, newestFee, actor, nowIso)
      : dialogPaymentStatements(
          { method: input.method, date: input.date, key: input.key },
          { personId: input.personId, amount: input.amount, text: "Spende" },
          { feeId: newestFee, amount: input.amount },
          actor,
          now,
        );
  if (!money) {
    return {
      status: "refused",
      field: "amount",
      message: `Das Guthaben der Person reicht nicht (${formatMoney(await personCredit(db, input.personId))}): Eine Spende aus dem Guthaben ist höchstens so hoch.`,
    };
  }
  const statements: Statement[] = [
    toSql(
      db.insert(fees).values({
        personId: input.personId,
        date: input.date,
        text: feeText.slice(0, 200),
        amount: input.amount,
        openAmount: input.amount,
        kind: "OTHER",
        sendInvoice: false,
        isInvoiced: false,
        ...auditInsert(actor, now),
      }),
    ),
    ...money,
    render(sql`INSERT INTO ${donations} (person_id, date, amount, fee_id, text, created_by, created_on)
      VALUES (${input.personId}, ${input.date}, ${input.amount}, ${newestFee}, ${input.text.slice(0, 200)}, ${actor.name}, ${nowIso})`),
  ];
  try {
    await runAtomically(db, statements);
  } catch (error) {
    if (isDuplicateEntry(error)) return { status: "already" };
    if (isAbortedAsUnchanged(error))
      return { status: "refused", field: "amount", message: "Das Guthaben der Person wurde inzwischen verrechnet: Bitte neu erfassen." };
    const cash = await cashBookRefusal(db, error);
    if (cash) return { status: "refused", field: "date", message: cash };
    throw error;
  }
  const [row] = await db.select({ id: donations.id }).from(donations).orderBy(desc(donations.id)).limit(1);
  return { status: "recorded", id: row.id };
}

export type CancelOutcome = { status: "cancelled" } | { status: "refused"; message: string } | { status: "missing" };

/**
 * 'Stornieren': a donation recorded by mistake (the money was no donation, or the wrong donor).
 * What its entries paid on its fee goes back to them, so the money is the person's credit again
 * (refunded or used under 'Zahlungen'); a 'Verrechnung' dated `date` settles the fee, so nothing
 * is owed (DATEV: 'Spenden an Debitor'). The journal's entries stay as booked; the donation stays,
 * marked cancelled. Refused once a receipt names it.
 */
export async function cancelDonation(db: Db, id: number, date: string, actor: Actor, now = new Date()): Promise<CancelOutcome> {
  const donation = await getDonation(db, id);
  if (!donation) return { status: "missing" };
  const refusal = donationCancelRefusal(donation);
  if (refusal) return { status: "refused", message: refusal };
  const [{ feeId }] = await db.select({ feeId: donations.feeId }).from(donations).where(eq(donations.id, id));
  const nowIso = now.toISOString();
  const entryKey = `donation-cancel:${id}`;
  const statements: Statement[] = [
    render(sql`UPDATE ${donations} SET cancelled_by = ${actor.name}, cancelled_on = ${nowIso}
      WHERE id = ${id} AND cancelled_on IS NULL AND receipt_id IS NULL`),
    ABORT_UNLESS_CHANGED,
    render(sql`INSERT INTO ${paymentAllocations} (payment_id, invoice_id, fee_id, amount, created_by, created_on)
      SELECT a.payment_id, NULL, a.fee_id, -sum(a.amount), ${actor.name}, ${nowIso}
      FROM ${paymentAllocations} a JOIN ${payments} y ON y.id = a.payment_id
      WHERE a.fee_id = ${feeId} AND y.method <> 'OFFSET' GROUP BY a.payment_id, a.fee_id HAVING sum(a.amount) <> 0`),
    entryInsert(
      {
        entryKey,
        personId: donation.personId,
        date,
        amount: donation.amount,
        method: "OFFSET",
        source: "CORRECTION",
        text: "Storno der Spende: Posten ausgeglichen, der Betrag ist Guthaben",
      },
      actor,
      nowIso,
    ),
    ...allocationStatements(entryKey, { feeId, amount: donation.amount }, actor, nowIso),
  ];
  try {
    await runAtomically(db, statements);
  } catch (error) {
    if (isAbortedAsUnchanged(error) || isDuplicateEntry(error))
      return { status: "refused", message: "Diese Spende ist schon storniert oder inzwischen bestätigt." };
    throw error;
  }
  return { status: "cancelled" };
}

/** Whether the fee is a donation's (changed only by cancelling the donation). */
export async function isDonationFee(db: Db, feeId: number): Promise<boolean> {
  return (await db.$count(donations, eq(donations.feeId, feeId))) > 0;
}

export const DONATION_FEE_FROZEN = "Dieser Posten ist eine Spende: Er wird nicht geändert. Eine falsch erfasste Spende wird unter „Spenden“ storniert.";

// ---------------------------------------------------------------------------------------------
// Receipts

async function issuerSettings(db: Db) {
  const [row] = await db
    .select({
      clubName: configuration.clubName,
      clubStreet: configuration.clubStreet,
      clubZip: configuration.clubZip,
      clubCity: configuration.clubCity,
      taxNumber: configuration.taxNumber,
      exemptionNoticeKind: configuration.exemptionNoticeKind,
      exemptionTaxOffice: configuration.exemptionTaxOffice,
      exemptionNoticeDate: configuration.exemptionNoticeDate,
      exemptionAssessmentPeriod: configuration.exemptionAssessmentPeriod,
      exemptionPurposes: configuration.exemptionPurposes,
    })
    .from(configuration)
    .where(eq(configuration.id, 1));
  return row;
}

/** The issuer of a receipt issued `today` as the Einstellungen say, or why none may be issued (German). */
async function currentIssuer(db: Db, today: string): Promise<{ issuer: Issuer } | { refusal: string }> {
  const settings = await issuerSettings(db);
  return settings ? issuerOf(settings, today) : { refusal: "Bitte zuerst die Einstellungen des Vereins speichern." };
}

/** Why no receipt may be issued today at all (German), or null. */
export async function receiptRefusal(db: Db, today: string): Promise<string | null> {
  const result = await currentIssuer(db, today);
  return "refusal" in result ? result.refusal : null;
}

type Unconfirmed = { id: number; personId: number; date: string; amount: number };

/** Donations not cancelled and not yet confirmed: one, or those of a year. */
async function unconfirmed(db: Db, scope: { donationId: number } | { year: number }): Promise<Unconfirmed[]> {
  const open = and(isNull(donations.receiptId), isNull(donations.cancelledOn));
  const where =
    "donationId" in scope ? and(open, eq(donations.id, scope.donationId)) : and(open, between(donations.date, `${scope.year}-01-01`, `${scope.year}-12-31`));
  return db
    .select({ id: donations.id, personId: donations.personId, date: donations.date, amount: donations.amount })
    .from(donations)
    .where(where)
    .orderBy(asc(donations.personId), asc(donations.date), asc(donations.id));
}

export type IssueOutcome =
  { status: "issued"; receipts: { id: number; number: string; personId: number }[]; skipped: string[] } | { status: "refused"; message: string };

/**
 * Issues receipts: `donationId` a single Bestätigung; `year` a Sammelbestätigung for each donor
 * with unconfirmed donations in that year (one batch per donor: a retry finds the donations of a
 * done donor confirmed and issues nothing twice). A donor without a postal address is skipped and
 * named. PDFs are made afterwards (`storeReceiptPdfs`).
 */
export async function issueReceipts(
  db: Db,
  scope: { donationId: number } | { year: number },
  today: string,
  actor: Actor,
  now = new Date(),
): Promise<IssueOutcome> {
  const checked = await currentIssuer(db, today);
  if ("refusal" in checked) return { status: "refused", message: checked.refusal };
  const found = await unconfirmed(db, scope);
  if (found.length === 0) {
    return {
      status: "refused",
      message: "donationId" in scope ? "Diese Spende ist storniert oder schon bestätigt." : `Im Jahr ${scope.year} gibt es keine Spenden ohne Bestätigung.`,
    };
  }
  const kind: DonationReceiptKind = "donationId" in scope ? "SINGLE" : "COLLECTIVE";
  const byDonor = new Map<number, Unconfirmed[]>();
  for (const donation of found) byDonor.set(donation.personId, [...(byDonor.get(donation.personId) ?? []), donation]);
  const issued: { id: number; number: string; personId: number }[] = [];
  const skipped: string[] = [];
  const year = Number(today.slice(0, 4));
  for (const [personId, list] of byDonor) {
    const [donor] = await db
      .select({ name: people.fullName, street: people.streetNumber, zip: people.zip, city: people.city, erasedOn: people.erasedOn })
      .from(people)
      .where(eq(people.id, personId));
    if (!donor || donor.erasedOn || !donor.street || !donor.zip || !donor.city) {
      skipped.push(donor?.name ?? `Person ${personId}`);
      continue;
    }
    const ids = valuesOf(list.map((donation) => donation.id));
    const amount = list.reduce((total, donation) => total + donation.amount, 0);
    const stillOpen = sql`(SELECT count(*) FROM ${donations} WHERE id IN ${ids} AND receipt_id IS NULL AND cancelled_on IS NULL)`;
    try {
      await runAtomically(db, [
        render(sql`INSERT INTO ${donationReceipts} (year, seq, kind, person_id, issued_on, period_from, period_to, amount, donor_name, donor_address, issuer, created_by, created_on)
          SELECT ${year}, coalesce((SELECT max(seq) FROM ${donationReceipts} WHERE year = ${year}), 0) + 1, ${kind}, ${personId}, ${today},
            ${list[0].date}, ${list[list.length - 1].date}, ${amount}, ${donor.name ?? ""}, ${`${donor.street}, ${donor.zip} ${donor.city}`},
            ${JSON.stringify(checked.issuer)}, ${actor.name}, ${now.toISOString()}
          WHERE ${stillOpen} = ${list.length}`),
        ABORT_UNLESS_CHANGED,
        render(sql`UPDATE ${donations} SET receipt_id = (SELECT max(id) FROM ${donationReceipts})
          WHERE id IN ${ids} AND receipt_id IS NULL AND cancelled_on IS NULL`),
      ]);
    } catch (error) {
      // Confirmed or cancelled in between (another run): nothing issued for this donor.
      if (isAbortedAsUnchanged(error)) continue;
      throw error;
    }
    const [receipt] = await db
      .select({ id: donationReceipts.id, number: donationReceipts.number })
      .from(donationReceipts)
      .where(eq(donationReceipts.personId, personId))
      .orderBy(desc(donationReceipts.id))
      .limit(1);
    issued.push({ id: receipt.id, number: receipt.number ?? "", personId });
  }
  return { status: "issued", receipts: issued, skipped };
}

/** Everything a receipt's PDF is made of (the receipt as issued and the donations it confirms). */
async function receiptDocument(db: Db, id: number): Promise<(ReceiptDocument & { id: number; pdfKey: string | null }) | undefined> {
  const [receipt] = await db.select().from(donationReceipts).where(eq(donationReceipts.id, id));
  if (!receipt) return undefined;
  const confirmed = await db
    .select({ date: donations.date, amount: donations.amount })
    .from(donations)
    .where(eq(donations.receiptId, id))
    .orderBy(asc(donations.date), asc(donations.id));
  return {
    id: receipt.id,
    pdfKey: receipt.pdfKey,
    kind: receipt.kind,
    number: receipt.number ?? "",
    issuedOn: receipt.issuedOn,
    donorName: receipt.donorName,
    donorAddress: receipt.donorAddress,
    periodFrom: receipt.periodFrom,
    periodTo: receipt.periodTo,
    amount: receipt.amount,
    issuer: JSON.parse(receipt.issuer) as Issuer,
    donations: confirmed,
  };
}

/** The R2 key of a receipt's PDF (bucket INVOICES). */
const receiptPdfKey = (number: string) => `donation-receipts/${number}.pdf`;

/**
 * The receipt's PDF: the stored Doppel, or (not stored yet: rendering failed when it was issued)
 * made now from the receipt as issued, stored, and recorded once.
 */
export async function receiptPdf(
  env: Pick<Env, "INVOICES">,
  db: Db,
  id: number,
  render: (html: string) => Promise<Uint8Array>,
): Promise<{ bytes: Uint8Array; number: string } | undefined> {
  const document = await receiptDocument(db, id);
  if (!document) return undefined;
  if (document.pdfKey) {
    const stored = await env.INVOICES.get(document.pdfKey);
    if (stored) return { bytes: new Uint8Array(await stored.arrayBuffer()), number: document.number };
  }
  const bytes = await render(receiptHtml(document));
  const key = receiptPdfKey(document.number);
  await env.INVOICES.put(key, bytes, { httpMetadata: { contentType: "application/pdf" } });
  await db
    .update(donationReceipts)
    .set({ pdfKey: key, pdfSha256: await sha256Hex(bytes) })
    .where(and(eq(donationReceipts.id, id), isNull(donationReceipts.pdfKey)));
  return { bytes, number: document.number };
}

export type ReceiptRow = {
  id: number;
  number: string;
  kind: DonationReceiptKind;
  personId: number;
  donorName: string;
  issuedOn: string;
  periodFrom: string;
  periodTo: string;
  amount: number;
  donations: number;
  stored: boolean;
  createdBy: string;
};

const receiptColumns = {
  id: donationReceipts.id,
  number: sql<string>`${donationReceipts.number}`,
  kind: donationReceipts.kind,
  personId: donationReceipts.personId,
  donorName: donationReceipts.donorName,
  issuedOn: donationReceipts.issuedOn,
  periodFrom: donationReceipts.periodFrom,
  periodTo: donationReceipts.periodTo,
  amount: donationReceipts.amount,
  donations: sql<number>`(SELECT count(*) FROM ${donations} d WHERE d.receipt_id = "donation_receipts"."id")`.mapWith(Number),
  stored: sql<boolean>`${donationReceipts.pdfKey} IS NOT NULL`.mapWith(Boolean),
  createdBy: donationReceipts.createdBy,
};

export type ReceiptQuery = { year: number | null; search?: string };

const receiptWhere = (query: ReceiptQuery) => {
  const pattern = query.search ? containsPattern(query.search) : null;
  return and(
    query.year === null ? undefined : eq(donationReceipts.year, query.year),
    pattern ? sql`(${donationReceipts.donorName} LIKE ${pattern} OR ${donationReceipts.number} LIKE ${pattern})` : undefined,
  );
};

const receiptOrder = [desc(donationReceipts.year), desc(donationReceipts.seq)];

export async function listReceipts(db: Db, query: ReceiptQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [totals]] = await db.batch([
    db
      .select(receiptColumns)
      .from(donationReceipts)
      .where(receiptWhere(query))
      .orderBy(...receiptOrder)
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db
      .select({ total: count(), amount: sum(donationReceipts.amount).mapWith(Number) })
      .from(donationReceipts)
      .where(receiptWhere(query)),
  ]);
  return { rows: rows as ReceiptRow[], total: totals.total, sums: { amount: totals.amount ?? 0 } };
}

export async function allReceipts(db: Db, query: ReceiptQuery): Promise<ReceiptRow[]> {
  return (await db
    .select(receiptColumns)
    .from(donationReceipts)
    .where(receiptWhere(query))
    .orderBy(...receiptOrder)) as ReceiptRow[];
}

export async function pageOfReceipt(db: Db, id: number, query: ReceiptQuery, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({ id: donationReceipts.id, position: positionInOrder(receiptOrder) })
    .from(donationReceipts)
    .where(receiptWhere(query))
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

/** 'Zuwendungsbestätigung ZB-2026-0001 ausgestellt' / '3 Sammelbestätigungen ausgestellt …'. */
export function issuedMessage(outcome: Extract<IssueOutcome, { status: "issued" }>, kind: DonationReceiptKind): string {
  const made =
    outcome.receipts.length === 0
      ? "Keine Zuwendungsbestätigung ausgestellt."
      : kind === "SINGLE"
        ? `Zuwendungsbestätigung ${outcome.receipts[0].number} ausgestellt.`
        : `${outcome.receipts.length} Sammelbestätigung${outcome.receipts.length === 1 ? "" : "en"} ausgestellt (${outcome.receipts[0].number}${outcome.receipts.length > 1 ? ` bis ${outcome.receipts[outcome.receipts.length - 1].number}` : ""}).`;
  const skipped = outcome.skipped.length > 0 ? ` Ohne Anschrift, daher nicht bestätigt: ${outcome.skipped.join(", ")}.` : "";
  return `${made}${skipped}`;
}

/** The years with donations no receipt names yet, newest first, and how many donors each. */
export async function yearsWithUnconfirmed(db: Db): Promise<{ year: number; donors: number }[]> {
  return db.all<{ year: number; donors: number }>(sql`SELECT CAST(substr(date, 1, 4) AS INTEGER) AS year, count(DISTINCT person_id) AS donors
    FROM ${donations} WHERE receipt_id IS NULL AND cancelled_on IS NULL GROUP BY 1 ORDER BY 1 DESC`);
}

/** The years receipts were issued in, newest first (always with this year). */
export async function receiptYears(db: Db): Promise<{ value: string; label: string }[]> {
  const rows = await db.selectDistinct({ year: donationReceipts.year }).from(donationReceipts).orderBy(desc(donationReceipts.year));
  return rows.map((row) => ({ value: String(row.year), label: String(row.year) }));
}
