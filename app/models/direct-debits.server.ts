/**
 * Lastschriftläufe (issue 15 item 3): the open fees billed directly (sendInvoice off) of people
 * with an active SEPA mandate are collected by a bulk run (jobs kind DIRECT_DEBIT, its items the
 * people). Each person's fees become items of the run and are marked collected (open amount 0,
 * paymentReference = the transaction's end-to-end id, a payment comment) in one batch, then the
 * person is sent the pre-notification (app/jobs/direct-debit-run.server.ts);
 * the finished run writes its pain.008.001.08 file to R2. A fee is in one item at most that is not
 * cancelled (partial unique index), so a retried message or a second run never collects it twice.
 * A run can be cancelled while PREPARED (its file not handed to the bank): its fees get back what
 * they had. 'An die Bank übergeben' (SUBMITTED) ends that.
 *
 * An item's cancelled_on means one of two things: its run was cancelled (the run is CANCELLED), or
 * its transaction came back as a returned debit (Rücklastschrift booked from a bank statement; the
 * run is not CANCELLED). Either way the item no longer holds the fee: after a cancelled run the
 * next run collects it again; after a return only when its reason allows (insufficient funds, once;
 * app/lib/return-reasons.ts), else the fee is stopped or its mandate blocked (FRST again when the
 * returned FRST was the mandate's only collection).
 *
 * One transaction per person and due date (a fee without due date is due on its date): the
 * person's fees due that day share the end-to-end id 'WUFF-{run}-{person}-{yyyymmdd}'. It is
 * collected on its due date (the next TARGET2 business day when TARGET2 is closed that day), at
 * the earliest on the run's earliest collection date: the pre-notification period from the run's
 * day (the run sends the notices as its first step, app/jobs/direct-debit-run.server.ts) and at
 * least the first TARGET2 day after it; fees due more than 12 months ahead wait (app/lib/debit-notice.ts).
 */
import { and, asc, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { qualified, valuesOf } from "~/db/columns";
import {
  bankStatementEntries,
  configuration,
  directDebitItems,
  directDebitNotices,
  directDebitRuns,
  fees,
  jobs,
  payments,
  people,
  sepaMandates,
  type DirectDebitStatus,
  type NoticeChannel,
} from "~/db/schema";
import { earliestLastUseValidOn, isEndedByRevocation, MANDATE_EXPIRY_WARNING_MONTHS, MANDATE_UNUSED_MONTHS } from "~/lib/banking";
import { addMonthsToDate, formatCount, formatDate, formatMoney } from "~/lib/format";
import { DEFAULT_NOTICE_DAYS, earliestNotifiedCollection, latestCollection, type DebitNoticeSource, type NoticeCollection } from "~/lib/debit-notice";
import { DIRECT_DEBIT_STATUS_LABELS } from "~/lib/labels";
import { buildPain008, closedDaysFrom, paymentInstructions, runMessageId, type DirectDebitTransaction, type SequenceType } from "~/lib/pain008";
import type { Actor } from "./audit.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { paramsOfJob, type JobRecord, type RunSummary } from "./jobs.server";
import { appendPaymentComment } from "./payment-bookings.server";
import { itemPaidSql } from "./debit-settlements.server";
import { reversalStatements } from "./payments.server";

/** People per queue message: each gets a mail (the pre-notification), as in a mailshot's slice. */
export const DIRECT_DEBIT_SLICE_SIZE = 20;

export const NOTHING_TO_COLLECT = "Keine Lastschriften: Es gibt keine offenen Posten ohne Rechnung von Personen mit aktivem Mandat.";

/**
 * What the run's slices work with, fixed at its start (a retried message collects the same way):
 * its day, the earliest collection date (the one asked for, at least what the pre-notification
 * allows) and the latest (12 months ahead; runs from before issue 31 item 1 have none).
 */
export type DirectDebitParams = { date: string; earliest: string; latest?: string };

const NO_LATEST = "9999-12-31";

/** Where a run's file is kept in R2. */
const directDebitFileKey = (runId: number) => `lastschriften/Lastschrift_${runId}.xml`;
/** The name the download gets. */
const directDebitFileName = (runId: number, date: string) => `Lastschrift_Lauf_${runId}_${date}.xml`;

const directDebitComment = (runId: number, date: string) => `Lastschrift ${formatDate(date)}, Lauf ${runId}`;

/** The SQL of a fee's due day for the run: its due date, else its date. */
const dueOf = sql`coalesce(${fees.dueDate}, ${fees.date})`;
const collectable = sql`${fees.sendInvoice} = 0 AND ${fees.openAmount} > 0 AND ${fees.collectionStop} IS NULL
  AND NOT EXISTS (SELECT 1 FROM ${directDebitItems} WHERE ${directDebitItems.feeId} = ${fees.id} AND ${directDebitItems.cancelledOn} IS NULL)`;

/**
 * The day a fee is collected on in a run whose earliest collection day is `earliest`: its due day,
 * not before `earliest`, moved to the next TARGET2 business day when TARGET2 is closed. `due` is
 * the fee's due day as SQL.
 */
function collectionDateSql(due: SQL, earliest: string): SQL {
  const closed = JSON.stringify(closedDaysFrom(earliest));
  return sql`(CASE WHEN ${due} <= ${earliest} THEN ${earliest} ELSE coalesce(json_extract(${closed}, '$."' || ${due} || '"'), ${due}) END)`;
}

/**
 * The last day a mandate may be collected on: the day before its revocation takes effect, and
 * (SEPA Core rulebook: a mandate not used for 36 months expires) at the latest 36 months after its
 * last use, the latest of Wuff's collections under it in runs not cancelled (a collection that
 * came back counts as used), the last one before Wuff (previous_use_on) and its signature; a day
 * the month lacks is its last day (§ 188 Abs. 3 BGB, as mandateValidUntil in app/lib/banking.ts). `alias` names the mandate's row in the query.
 */
export function mandateValidUntilSql(alias: string): SQL {
  const m = sql.raw(alias);
  const wuffUse = sql`(SELECT max(vi.collection_date) FROM ${directDebitItems} vi JOIN ${directDebitRuns} vr ON vr.id = vi.run_id
      WHERE vi.mandate_id = ${m}.id AND vr.status <> 'CANCELLED')`;
  const lastUse = sql`max(coalesce(${wuffUse}, ${m}.mandate_date), coalesce(${m}.previous_use_on, ${m}.mandate_date), ${m}.mandate_date)`;
  const months = (n: number) => sql.raw(`'+${n} months'`);
  const expiry = sql`(CASE WHEN strftime('%d', ${lastUse}, ${months(MANDATE_UNUSED_MONTHS)}) = strftime('%d', ${lastUse})
      THEN date(${lastUse}, ${months(MANDATE_UNUSED_MONTHS)})
      ELSE date(${lastUse}, 'start of month', ${months(MANDATE_UNUSED_MONTHS + 1)}, '-1 day') END)`;
  // A revocation (Widerruf, § 675j Abs. 2 BGB) ends it the day before it takes effect.
  return sql`min(${expiry}, coalesce(date(${m}.revoked_on, '-1 day'), '9999-12-31'))`;
}

/**
 * Whether mandate `alias` may be collected on `day`: `mandateValidUntilSql(alias) >= day`, asked so
 * that SQLite answers it from the mandate's row and at most one index lookup of its collections
 * (direct_debit_items_mandate_idx) instead of computing the date, since lists test it for every
 * overdue fee (issue 29). Its revocation takes effect after `day` (it ends the day before), and a
 * use (signature, last use before Wuff, a collection in a run not cancelled) is recent enough.
 */
export function mandateValidOnSql(alias: string, day: string): SQL {
  const m = sql.raw(alias);
  const since = earliestLastUseValidOn(day);
  return sql`((${m}.revoked_on IS NULL OR ${m}.revoked_on > ${day})
    AND (${m}.mandate_date >= ${since} OR (${m}.previous_use_on IS NOT NULL AND ${m}.previous_use_on >= ${since})
      OR EXISTS (SELECT 1 FROM ${directDebitItems} vu JOIN ${directDebitRuns} vr ON vr.id = vu.run_id
        WHERE vu.mandate_id = ${m}.id AND vu.collection_date >= ${since} AND vr.status <> 'CANCELLED')))`;
}

/**
 * The IBAN the bank last saw under mandate `m` when it is not the mandate's IBAN now: the IBAN of
 * its latest collection in an earlier run not cancelled (a returned one was seen too). The next
 * file carries it as an amendment (buildPain008); after that collection the bank knows the new one.
 */
const originalIbanSql = (runId: number) =>
  sql`(SELECT nullif(pi.iban, m.iban) FROM ${directDebitItems} pi JOIN ${directDebitRuns} pr ON pr.id = pi.run_id
      WHERE pi.mandate_id = m.id AND pi.run_id <> ${runId} AND pr.status <> 'CANCELLED' ORDER BY pi.run_id DESC, pi.id DESC LIMIT 1)`;

/** A fee the run may collect under the person's active mandate (joined as `sepa_mandates`): not after the mandate expired. */
const withinMandate = (earliest: string) => sql`${collectionDateSql(dueOf, earliest)} <= ${mandateValidUntilSql("sepa_mandates")}`;
/** A fee the run may collect: due (as collected) no later than `latest`; later ones wait for a later run. */
const withinReach = (earliest: string, latest: string) => sql`${collectionDateSql(dueOf, earliest)} <= ${latest}`;

// ---------------------------------------------------------------------------------------------
// Preview

type MissingMandate = { personId: number; name: string; fees: number; total: number };
/** A person whose active mandate has expired (36 months unused) or been revoked for some of their fees. */
type ExpiredMandate = MissingMandate & { validUntil: string };
export type DirectDebitPreview = {
  date: string;
  /** The earliest collection date the pre-notification allows (the run's default) and the latest. */
  earliest: string;
  latest: string;
  noticeDays: number;
  /** Pre-notifications the run sends as its first step: people with an e-mail address get a mail,
   *  the others a letter in the run's print PDF (at most MISSING_SHOWN of them named). */
  notices: { mail: number; letter: number; withoutEmail: { personId: number; name: string }[] };
  transactions: number;
  fees: number;
  total: number;
  bySequence: Record<SequenceType, { transactions: number; total: number }>;
  /** People with open fees billed directly but without an active mandate (at most MISSING_SHOWN). */
  missing: MissingMandate[];
  missingCount: number;
  /** People whose mandate has expired by the collection day of some of their fees: not collected. */
  expired: ExpiredMandate[];
  /** People whose mandate is revoked (or blocked by a returned debit, with why) by the collection
   *  day of some of their fees: not collected. */
  revoked: (MissingMandate & { revokedOn: string; revocationReason: string | null })[];
  /** Active mandates that expire within two months unless collected from (staff are warned). */
  expiring: { personId: number; name: string; validUntil: string }[];
  problem: string | null;
};

const MISSING_SHOWN = 50;

function clubBankProblem(
  club: { iban: string | null; creditorId: string | null; bankAccountHolder: string | null; clubName: string | null } | undefined,
): string | null {
  const lacking = [
    ...(club?.iban ? [] : ["IBAN"]),
    ...(club?.creditorId ? [] : ["Gläubiger-ID"]),
    ...(club?.bankAccountHolder || club?.clubName ? [] : ["Kontoinhaber"]),
  ];
  return lacking.length
    ? `In den Einstellungen fehlen die Bankdaten des Vereins (${lacking.join(", ")}): Ohne sie kann keine Lastschriftdatei erstellt werden.`
    : null;
}

export async function previewDirectDebits(db: Db, today: string): Promise<DirectDebitPreview> {
  const [settings] = await db.select({ noticeDays: configuration.prenotificationDays }).from(configuration).where(eq(configuration.id, 1));
  const noticeDays = settings?.noticeDays ?? DEFAULT_NOTICE_DAYS;
  const earliest = earliestNotifiedCollection(today, noticeDays);
  const latest = latestCollection(today);
  const toCollect = sql`${collectable} AND ${withinMandate(earliest)} AND ${withinReach(earliest, latest)}`;
  const noEmail = sql`trim(coalesce(${people.email}, '')) = ''`;
  const [groups, missing, notCollected, expiring, [club], debtors, withoutEmail] = await db.batch([
    db
      .select({
        personId: fees.personId,
        due: sql<string>`${dueOf}`,
        fees: sql<number>`count(*)`,
        total: sql<number>`sum(${fees.openAmount})`,
        sequence: sql<SequenceType>`CASE WHEN ${sepaMandates.firstCollectionOn} IS NULL THEN 'FRST' ELSE 'RCUR' END`,
      })
      .from(fees)
      .innerJoin(sepaMandates, and(eq(sepaMandates.personId, fees.personId), eq(sepaMandates.isActive, true)))
      .where(toCollect)
      .groupBy(fees.personId, dueOf),
    db
      .select({
        personId: people.id,
        name: sql<string>`coalesce(${people.fullName}, '')`,
        fees: sql<number>`count(*)`,
        total: sql<number>`sum(${fees.openAmount})`,
      })
      .from(fees)
      .innerJoin(people, eq(people.id, fees.personId))
      .where(
        sql`${collectable} AND NOT EXISTS (SELECT 1 FROM ${sepaMandates} WHERE ${sepaMandates.personId} = ${fees.personId} AND ${sepaMandates.isActive} = 1)`,
      )
      .groupBy(people.id)
      .orderBy(asc(people.lastNameKey), asc(people.firstNameKey)),
    db
      .select({
        personId: people.id,
        name: sql<string>`coalesce(${people.fullName}, '')`,
        fees: sql<number>`count(*)`,
        total: sql<number>`sum(${fees.openAmount})`,
        validUntil: sql<string>`${mandateValidUntilSql("sepa_mandates")}`,
        revokedOn: sepaMandates.revokedOn,
        revocationReason: sepaMandates.revocationReason,
      })
      .from(fees)
      .innerJoin(people, eq(people.id, fees.personId))
      .innerJoin(sepaMandates, and(eq(sepaMandates.personId, fees.personId), eq(sepaMandates.isActive, true)))
      .where(sql`${collectable} AND NOT ${withinMandate(earliest)}`)
      .groupBy(people.id)
      .orderBy(asc(people.lastNameKey), asc(people.firstNameKey)),
    db
      .select({
        personId: people.id,
        name: sql<string>`coalesce(${people.fullName}, '')`,
        validUntil: sql<string>`${mandateValidUntilSql("sepa_mandates")}`.as("valid_until"),
      })
      .from(sepaMandates)
      .innerJoin(people, eq(people.id, sepaMandates.personId))
      .where(
        and(
          eq(sepaMandates.isActive, true),
          isNull(sepaMandates.revokedOn),
          sql`valid_until BETWEEN ${today} AND ${addMonthsToDate(today, MANDATE_EXPIRY_WARNING_MONTHS)}`,
        ),
      )
      .orderBy(sql`valid_until`, asc(people.lastNameKey))
      .limit(MISSING_SHOWN),
    db.select().from(configuration).where(eq(configuration.id, 1)),
    db
      .select({
        people: sql<number>`count(DISTINCT ${fees.personId})`,
        withoutEmail: sql<number>`count(DISTINCT CASE WHEN ${noEmail} THEN ${fees.personId} END)`,
      })
      .from(fees)
      .innerJoin(people, eq(people.id, fees.personId))
      .innerJoin(sepaMandates, and(eq(sepaMandates.personId, fees.personId), eq(sepaMandates.isActive, true)))
      .where(toCollect),
    db
      .selectDistinct({
        personId: people.id,
        name: sql<string>`coalesce(${people.fullName}, '')`,
        lastNameKey: people.lastNameKey,
        firstNameKey: people.firstNameKey,
      })
      .from(fees)
      .innerJoin(people, eq(people.id, fees.personId))
      .innerJoin(sepaMandates, and(eq(sepaMandates.personId, fees.personId), eq(sepaMandates.isActive, true)))
      .where(sql`${toCollect} AND ${noEmail}`)
      .orderBy(asc(people.lastNameKey), asc(people.firstNameKey))
      .limit(MISSING_SHOWN),
  ]);
  const bySequence: DirectDebitPreview["bySequence"] = { FRST: { transactions: 0, total: 0 }, RCUR: { transactions: 0, total: 0 } };
  for (const group of groups) {
    bySequence[group.sequence].transactions++;
    bySequence[group.sequence].total += group.total;
  }
  const problem = clubBankProblem(club) ?? (groups.length === 0 ? NOTHING_TO_COLLECT : null);
  const [counted] = debtors;
  return {
    date: today,
    earliest,
    latest,
    noticeDays,
    notices: {
      mail: (counted?.people ?? 0) - (counted?.withoutEmail ?? 0),
      letter: counted?.withoutEmail ?? 0,
      withoutEmail: withoutEmail.map(({ personId, name }) => ({ personId, name })),
    },
    transactions: groups.length,
    fees: groups.reduce((sum, group) => sum + group.fees, 0),
    total: groups.reduce((sum, group) => sum + group.total, 0),
    bySequence,
    missing: missing.slice(0, MISSING_SHOWN),
    missingCount: missing.length,
    expired: notCollected.filter((person) => !isEndedByRevocation(person)).map(({ revokedOn: _, revocationReason: __, ...person }) => person),
    revoked: notCollected.filter(isEndedByRevocation).map(({ validUntil: _, ...person }) => person),
    expiring,
    problem,
  };
}

/** The run's items: every person with something to collect (collection days from `earliest` to `latest`), in id order. */
export async function peopleToCollect(db: Db, earliest: string, latest = NO_LATEST): Promise<number[]> {
  const rows = await db
    .selectDistinct({ personId: fees.personId })
    .from(fees)
    .innerJoin(sepaMandates, and(eq(sepaMandates.personId, fees.personId), eq(sepaMandates.isActive, true)))
    .where(sql`${collectable} AND ${withinMandate(earliest)} AND ${withinReach(earliest, latest)}`)
    .orderBy(asc(fees.personId));
  return rows.map((row) => row.personId);
}

// ---------------------------------------------------------------------------------------------
// The run's slices

/**
 * A slice: the run's row (once), its people's collectable fees as items, their mandates' first
 * collection, and the fees marked as in collection (payment reference: the end-to-end id). The fees
 * stay open until the debit is paid (debit-settlements.server.ts). Set-based and idempotent: a fee
 * already in an item that is not cancelled is not taken again, a collected fee is not changed again.
 */
function directDebitSliceStatements(
  job: Pick<JobRecord, "id" | "createdBy" | "startedOn">,
  items: readonly number[],
  params: DirectDebitParams,
  now: Date,
): Statement[] {
  const runId = job.id;
  const iso = now.toISOString();
  const slice = valuesOf(items);
  const inSlice = sql`person_id IN ${slice}`;
  // Due dates on days TARGET2 is closed move to the next business day (collectionDateSql).
  const collectionDate = collectionDateSql(sql`coalesce(f.due_date, f.date)`, params.earliest);
  const ofSlice = sql`SELECT fee_id FROM ${directDebitItems} WHERE run_id = ${runId} AND cancelled_on IS NULL AND ${inSlice}`;
  const endToEndOfFee = sql`(SELECT end_to_end_id FROM ${directDebitItems} i WHERE i.fee_id = ${fees.id} AND i.run_id = ${runId} AND i.cancelled_on IS NULL)`;
  return [
    render(sql`INSERT INTO ${directDebitRuns} (id, status, message_id, created_by, created_on)
      VALUES (${runId}, 'PREPARED', ${runMessageId(runId)}, ${job.createdBy}, ${job.startedOn ?? iso}) ON CONFLICT DO NOTHING`),
    render(sql`INSERT INTO ${directDebitItems} (run_id, fee_id, person_id, mandate_id, mandate_reference, mandate_date, account_holder, iban, bic,
        original_iban, end_to_end_id, sequence_type, due_date, collection_date, amount, previous_payment_reference, previous_payment_comments)
      SELECT ${runId}, f.id, f.person_id, m.id, m.reference, m.mandate_date, m.account_holder, m.iban, m.bic,
        ${originalIbanSql(runId)},
        ${`WUFF-${runId}-`} || f.person_id || '-' || replace(coalesce(f.due_date, f.date), '-', ''),
        CASE WHEN m.first_collection_on IS NULL THEN 'FRST' ELSE 'RCUR' END,
        coalesce(f.due_date, f.date),
        ${collectionDate},
        f.open_amount, f.payment_reference, f.payment_comments
      FROM ${fees} f JOIN ${sepaMandates} m ON m.person_id = f.person_id AND m.is_active = 1
      WHERE f.person_id IN ${slice} AND f.send_invoice = 0 AND f.open_amount > 0 AND f.collection_stop IS NULL
        AND NOT EXISTS (SELECT 1 FROM ${directDebitItems} i WHERE i.fee_id = f.id AND i.cancelled_on IS NULL)
        AND ${collectionDate} <= ${mandateValidUntilSql("m")} AND ${collectionDate} <= ${params.latest ?? NO_LATEST}
      ON CONFLICT DO NOTHING`),
    render(sql`UPDATE ${sepaMandates} SET
        first_collection_on = (SELECT min(collection_date) FROM ${directDebitItems} i WHERE i.run_id = ${runId} AND i.mandate_id = ${sepaMandates.id} AND i.cancelled_on IS NULL),
        last_modified_by = ${job.createdBy}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE first_collection_on IS NULL
        AND id IN (SELECT mandate_id FROM ${directDebitItems} WHERE run_id = ${runId} AND cancelled_on IS NULL AND ${inSlice})`),
    // Once: a retried slice finds the payment reference set and appends no second comment.
    render(sql`UPDATE ${fees} SET
        payment_reference = ${endToEndOfFee},
        ${appendPaymentComment(directDebitComment(runId, params.date))},
        last_modified_by = ${job.createdBy}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE id IN (${ofSlice}) AND payment_reference IS NOT ${endToEndOfFee}`),
  ];
}

export const paramsOfDirectDebitJob = (job: Pick<JobRecord, "params">) => paramsOfJob<DirectDebitParams>(job);

/** A person's collections of the run, in one batch (idempotent: a retried item writes nothing twice). */
export async function collectFromPerson(db: Db, job: JobRecord, personId: number, now: Date): Promise<void> {
  await runAtomically(db, directDebitSliceStatements(job, [personId], paramsOfDirectDebitJob(job), now));
}

// ---------------------------------------------------------------------------------------------
// The file

type ItemRow = typeof directDebitItems.$inferSelect & { feeText: string };

async function itemsOfRun(db: Db, runId: number): Promise<ItemRow[]> {
  return db
    .select({ ...tableColumns, feeText: fees.text })
    .from(directDebitItems)
    .innerJoin(fees, eq(fees.id, directDebitItems.feeId))
    .where(and(eq(directDebitItems.runId, runId), isNull(directDebitItems.cancelledOn)))
    .orderBy(asc(directDebitItems.endToEndId), asc(directDebitItems.feeId));
}

const tableColumns = {
  id: directDebitItems.id,
  runId: directDebitItems.runId,
  feeId: directDebitItems.feeId,
  personId: directDebitItems.personId,
  mandateId: directDebitItems.mandateId,
  mandateReference: directDebitItems.mandateReference,
  mandateDate: directDebitItems.mandateDate,
  accountHolder: directDebitItems.accountHolder,
  iban: directDebitItems.iban,
  bic: directDebitItems.bic,
  originalIban: directDebitItems.originalIban,
  endToEndId: directDebitItems.endToEndId,
  sequenceType: directDebitItems.sequenceType,
  dueDate: directDebitItems.dueDate,
  collectionDate: directDebitItems.collectionDate,
  amount: directDebitItems.amount,
  previousPaymentReference: directDebitItems.previousPaymentReference,
  previousPaymentComments: directDebitItems.previousPaymentComments,
  cancelledOn: directDebitItems.cancelledOn,
};

/** The items as transactions: one per end-to-end id, its fees summed, their texts as the remittance. */
function transactionsOf(items: ItemRow[]): DirectDebitTransaction[] {
  const byId = new Map<string, DirectDebitTransaction>();
  for (const item of items) {
    const known = byId.get(item.endToEndId);
    if (known) {
      known.amount += item.amount;
      known.remittance = `${known.remittance}, ${item.feeText}`;
      continue;
    }
    byId.set(item.endToEndId, {
      endToEndId: item.endToEndId,
      amount: item.amount,
      mandateReference: item.mandateReference,
      mandateDate: item.mandateDate,
      debtorName: item.accountHolder,
      iban: item.iban,
      bic: item.bic,
      originalIban: item.originalIban,
      remittance: item.feeText,
      sequenceType: item.sequenceType,
      collectionDate: item.collectionDate,
    });
  }
  return [...byId.values()];
}

/**
 * The finished run: its pain.008 file from the items it recorded, stored in R2 (the same content
 * again when a redelivered last message finishes it twice), and its counts on the run's row.
 */
export async function summarizeDirectDebitRun(env: Pick<Env, "INVOICES">, db: Db, job: JobRecord): Promise<RunSummary> {
  const [run] = await db.select().from(directDebitRuns).where(eq(directDebitRuns.id, job.id));
  const items = run ? await itemsOfRun(db, job.id) : [];
  if (!run || items.length === 0) return { message: NOTHING_TO_COLLECT };
  const [club] = await db.select().from(configuration).where(eq(configuration.id, 1));
  const problem = clubBankProblem(club);
  if (problem || !club?.iban || !club.creditorId) throw new Error(problem ?? "Bankdaten fehlen");
  const transactions = transactionsOf(items);
  const total = transactions.reduce((sum, transaction) => sum + transaction.amount, 0);
  const xml = buildPain008({
    messageId: run.messageId,
    createdOn: run.createdOn,
    creditor: { name: club.bankAccountHolder || club.clubName || "", iban: club.iban, bic: club.bic, creditorId: club.creditorId },
    transactions,
  });
  const key = directDebitFileKey(job.id);
  await env.INVOICES.put(key, xml, { httpMetadata: { contentType: "application/xml; charset=utf-8" } });
  await db.update(directDebitRuns).set({ fileKey: key, transactions: transactions.length, fees: items.length, total }).where(eq(directDebitRuns.id, job.id));
  const blocks = paymentInstructions({ messageId: run.messageId, transactions });
  const notices = await db
    .select({ channel: directDebitNotices.channel, count: sql<number>`count(*)` })
    .from(directDebitNotices)
    .where(eq(directDebitNotices.runId, job.id))
    .groupBy(directDebitNotices.channel);
  const noticesBy = (channel: NoticeChannel) => notices.find((row) => row.channel === channel)?.count ?? 0;
  const letters = noticesBy("PRINT");
  return {
    message: `Fertig! ${formatCount(transactions.length, "Lastschrift", "Lastschriften")} über ${formatMoney(total)} (${formatCount(items.length, "Posten", "Posten")}, ${formatCount(blocks.length, "Sammler", "Sammler")}): Die Datei liegt zum Herunterladen bereit. Vorabankündigungen: ${noticesBy("MAIL")} per Mail${letters > 0 ? `, ${formatCount(letters, "Brief", "Briefe")} zum Drucken (bitte heute versenden)` : ""}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Runs on the screen

type DirectDebitRunRecord = typeof directDebitRuns.$inferSelect;

/** A run with whether its job has finished (its slices all settled): only then may it be cancelled;
 *  how many of its pre-notifications go by post (its print PDF), and what of it is paid (cents:
 *  its debits whose credit is booked, debit-settlements.server.ts). */
export type DirectDebitRunRow = DirectDebitRunRecord & { finished: boolean; letters: number; paid: number };

// Qualified: inside these subqueries an unqualified "id" would be the subquery table's own.
const runIdSql = qualified(directDebitRuns.id);
const lettersSql = sql<number>`(SELECT count(*) FROM ${directDebitNotices} n WHERE n.run_id = ${runIdSql} AND n.channel = 'PRINT')`;

const finishedSql = sql<number>`(SELECT j.status NOT IN ('QUEUED', 'RUNNING') FROM ${jobs} j WHERE j.id = ${runIdSql})`;
const paidSql = sql<number>`(SELECT coalesce(sum(pi.amount), 0) FROM ${directDebitItems} pi WHERE pi.run_id = ${runIdSql} AND ${itemPaidSql(sql`pi.id`)})`;

/** One page of the runs, newest first (the grid 'Bisherige Läufe'), and how many there are. */
export async function pageOfDirectDebitRuns(db: Db, page: number, pageSize: number): Promise<{ rows: DirectDebitRunRow[]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    db
      .select({ run: directDebitRuns, finished: finishedSql, letters: lettersSql, paid: paidSql })
      .from(directDebitRuns)
      .orderBy(desc(directDebitRuns.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: sql<number>`count(*)` }).from(directDebitRuns),
  ]);
  return { rows: rows.map(({ run, finished, letters, paid }) => ({ ...run, finished: Boolean(finished), letters, paid })), total: counted?.total ?? 0 };
}

async function getDirectDebitRun(db: Db, id: number): Promise<DirectDebitRunRecord | undefined> {
  const [row] = await db.select().from(directDebitRuns).where(eq(directDebitRuns.id, id));
  return row;
}

/** What the run's dialog shows: the run, its blocks (per sequence type and date), and whether it may be cancelled. */
export type DirectDebitRunView = {
  run: DirectDebitRunRecord;
  blocks: { sequenceType: SequenceType; collectionDate: string; count: number; sum: number }[];
  cancelRefusal: string | null;
};

export async function directDebitRunView(db: Db, id: number): Promise<DirectDebitRunView | null> {
  const run = await getDirectDebitRun(db, id);
  if (!run) return null;
  const items = await itemsOfRun(db, id);
  const blocks = paymentInstructions({ messageId: run.messageId, transactions: transactionsOf(items) }).map(({ sequenceType, collectionDate, count, sum }) => ({
    sequenceType,
    collectionDate,
    count,
    sum,
  }));
  return { run, blocks, cancelRefusal: await cancelRefusal(db, run) };
}

const STATUS_LABELS: Record<DirectDebitStatus, string> = DIRECT_DEBIT_STATUS_LABELS;

const NOT_FINISHED = "Der Lauf ist noch nicht fertig: bitte warten, bis die Datei erstellt ist.";

async function cancelRefusal(db: Db, run: DirectDebitRunRecord): Promise<string | null> {
  if (run.status === "SUBMITTED") return "Die Datei wurde schon an die Bank übergeben: Der Lauf kann nicht mehr storniert werden.";
  if (run.status === "CANCELLED") return "Der Lauf ist schon storniert.";
  // A run whose job has finished may be cancelled even without its file (e.g. writing it failed every retry).
  const [job] = await db.select({ finished: finishedSql }).from(directDebitRuns).where(eq(directDebitRuns.id, run.id));
  if (!job?.finished) return NOT_FINISHED;
  const [changed] = await db
    .select({ count: sql<number>`count(*)` })
    .from(directDebitItems)
    .leftJoin(fees, eq(fees.id, directDebitItems.feeId))
    // An item cancelled while its run is not: returned (a booked Rücklastschrift, see
    // bank-statements.server.ts); a paid one: its credit booked (debit-settlements.server.ts).
    .where(
      and(
        eq(directDebitItems.runId, run.id),
        sql`(${directDebitItems.cancelledOn} IS NOT NULL OR ${fees.paymentReference} IS NOT ${directDebitItems.endToEndId} OR ${itemPaidSql(qualified(directDebitItems.id))})`,
      ),
    );
  if (changed.count > 0) {
    return `${formatCount(changed.count, "Posten des Laufs wurde", "Posten des Laufs wurden")} seitdem geändert (z. B. gutgeschrieben oder eine Rücklastschrift gebucht): Der Lauf kann nicht mehr storniert werden.`;
  }
  const [later] = await db
    .select({ id: directDebitItems.runId })
    .from(directDebitItems)
    .where(
      sql`${directDebitItems.runId} > ${run.id} AND ${directDebitItems.cancelledOn} IS NULL
        AND ${directDebitItems.mandateId} IN (SELECT mandate_id FROM ${directDebitItems} WHERE run_id = ${run.id} AND sequence_type = 'FRST')`,
    )
    .limit(1);
  return later ? `Der spätere Lauf ${later.id} zieht schon von Mandaten dieses Laufs ein: bitte zuerst ihn stornieren.` : null;
}

export type RunChangeOutcome = { status: "done"; message: string } | { status: "refused"; message: string } | { status: "missing" };

/** 'An die Bank übergeben': from now on the run stays as it is. */
export async function submitDirectDebitRun(db: Db, id: number, actor: Actor, now = new Date()): Promise<RunChangeOutcome> {
  const run = await getDirectDebitRun(db, id);
  if (!run) return { status: "missing" };
  if (run.status !== "PREPARED") return { status: "refused", message: `Der Lauf ist ${STATUS_LABELS[run.status]}.` };
  if (!run.fileKey) return { status: "refused", message: NOT_FINISHED };
  const result = await db
    .update(directDebitRuns)
    .set({ status: "SUBMITTED", submittedBy: actor.name, submittedOn: now.toISOString() })
    .where(and(eq(directDebitRuns.id, id), eq(directDebitRuns.status, "PREPARED")))
    .returning({ id: directDebitRuns.id });
  if (result.length === 0) return { status: "refused", message: "Der Lauf wurde inzwischen geändert." };
  return { status: "done", message: `Lastschriftlauf ${id} als an die Bank übergeben markiert` };
}

/**
 * 'Lauf stornieren' (only while PREPARED): in one batch, counter-entries undo the run's journal
 * entries (every fee is open again by what was collected), the fees get back their payment
 * reference and payment comments, the mandates first used by it are FRST again,
 * its items are cancelled (so the fees are free for the next run) and the run is CANCELLED.
 * Guarded: a run changed meanwhile aborts the batch.
 */
export async function cancelDirectDebitRun(db: Db, id: number, actor: Actor, now = new Date()): Promise<RunChangeOutcome> {
  const run = await getDirectDebitRun(db, id);
  if (!run) return { status: "missing" };
  const refusal = await cancelRefusal(db, run);
  if (refusal) return { status: "refused", message: refusal };
  const iso = now.toISOString();
  const ofRun = sql`run_id = ${id} AND cancelled_on IS NULL`;
  const item = (column: string) =>
    sql`(SELECT ${sql.raw(column)} FROM ${directDebitItems} i WHERE i.fee_id = ${fees.id} AND i.run_id = ${id} AND i.cancelled_on IS NULL)`;
  const statements: Statement[] = [
    render(
      sql`UPDATE ${directDebitRuns} SET status = 'CANCELLED', cancelled_by = ${actor.name}, cancelled_on = ${iso} WHERE id = ${id} AND status = 'PREPARED'`,
    ),
    ABORT_UNLESS_CHANGED,
    // Counter-entries undo the run's journal entries: every fee is open again by what was collected.
    ...reversalStatements(
      sql`SELECT y.id FROM ${payments} y JOIN ${directDebitItems} i ON y.entry_key = 'debit:' || i.id WHERE i.run_id = ${id} AND i.cancelled_on IS NULL`,
      { date: iso.slice(0, 10), text: `Lastschriftlauf ${id} storniert` },
      actor,
      iso,
    ),
    render(sql`UPDATE ${fees} SET
        payment_reference = ${item("previous_payment_reference")},
        payment_comments = ${item("previous_payment_comments")},
        last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE id IN (SELECT fee_id FROM ${directDebitItems} WHERE ${ofRun})`),
    render(sql`UPDATE ${sepaMandates} SET first_collection_on = NULL, last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE id IN (SELECT mandate_id FROM ${directDebitItems} WHERE ${ofRun} AND sequence_type = 'FRST')
        AND first_collection_on IN (SELECT collection_date FROM ${directDebitItems} i WHERE i.run_id = ${id} AND i.mandate_id = ${sepaMandates.id})`),
    render(sql`UPDATE ${directDebitItems} SET cancelled_on = ${iso} WHERE ${ofRun}`),
  ];
  try {
    await runAtomically(db, statements);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return { status: "refused", message: "Der Lauf wurde inzwischen geändert." };
    throw error;
  }
  return {
    status: "done",
    message: `Lastschriftlauf ${id} storniert: ${formatCount(run.fees, "Posten ist", "Posten sind")} wieder frei für den nächsten Lauf`,
  };
}

/** The run's pain.008 file from R2, or null (no run, not finished, file gone). */
export async function directDebitFile(env: Pick<Env, "INVOICES">, db: Db, id: number): Promise<{ body: ReadableStream; name: string } | null> {
  const run = await getDirectDebitRun(db, id);
  if (!run?.fileKey) return null;
  const object = await env.INVOICES.get(run.fileKey);
  if (!object) return null;
  return { body: object.body, name: directDebitFileName(run.id, run.createdOn.slice(0, 10)) };
}

// ---------------------------------------------------------------------------------------------
// Rücklastschriften

/** A booked returned debit (Rücklastschrift) with what it led to (issue 31 item 3). */
export type ReturnedDebitRow = {
  id: number;
  day: string | null;
  personId: number;
  name: string;
  feeId: number;
  feeText: string;
  /** What is open on the fee now. */
  openAmount: number;
  amount: number;
  reason: string | null;
  /** Why no run collects the fee any more, if a return stopped it. */
  collectionStop: string | null;
  /** Why the person's mandate is blocked, if a return blocked it. */
  mandateBlock: string | null;
};

/** One page of the booked returned debits, newest first, and how many there are. */
export const pageOfReturnedDebits = (db: Db, page: number, pageSize: number) => pageOfReturnedDebitsWhere(db, undefined, page, pageSize);

async function pageOfReturnedDebitsWhere(db: Db, where: SQL | undefined, page = 1, pageSize = 1): Promise<{ rows: ReturnedDebitRow[]; total: number }> {
  const returned = and(eq(bankStatementEntries.isReturn, true), eq(bankStatementEntries.status, "BOOKED"), eq(bankStatementEntries.targetType, "FEE"), where);
  const [rows, [counted]] = await db.batch([
    db
      .select({
        id: bankStatementEntries.id,
        day: sql<string | null>`coalesce(${bankStatementEntries.bookingDate}, ${bankStatementEntries.valueDate})`,
        personId: fees.personId,
        name: sql<string>`coalesce(${people.fullName}, '')`,
        // Named apart: D1's batch answers by column name, and the entry's id is "id" too.
        feeId: sql<number>`${fees.id}`.as("returned_fee_id"),
        feeText: fees.text,
        openAmount: fees.openAmount,
        amount: bankStatementEntries.amount,
        reason: bankStatementEntries.returnReason,
        collectionStop: fees.collectionStop,
        mandateBlock: sql<string | null>`(SELECT m.revocation_reason FROM ${sepaMandates} m WHERE m.person_id = ${fees.personId} AND m.is_active = 1)`,
      })
      .from(bankStatementEntries)
      .innerJoin(fees, eq(fees.id, bankStatementEntries.targetId))
      .innerJoin(people, eq(people.id, fees.personId))
      .where(returned)
      .orderBy(desc(bankStatementEntries.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ total: sql<number>`count(*)` })
      .from(bankStatementEntries)
      .where(returned),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// Pre-notifications (issue 31 item 1, app/lib/debit-notice.ts)

/** Whether the person's notice of the run was recorded (then it is not sent again). */
export async function hasDebitNotice(db: Db, runId: number, personId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: directDebitNotices.id })
    .from(directDebitNotices)
    .where(and(eq(directDebitNotices.runId, runId), eq(directDebitNotices.personId, personId)));
  return row !== undefined;
}

/** Records the person's notice: once per run and person (a second record is ignored). */
export async function recordDebitNotice(
  db: Db,
  notice: { runId: number; personId: number; channel: NoticeChannel; mailProblem?: string | null },
  now = new Date(),
): Promise<void> {
  await db
    .insert(directDebitNotices)
    .values({ ...notice, mailProblem: notice.mailProblem ?? null, createdOn: now.toISOString() })
    .onConflictDoNothing();
}

/** What a person's notice of the run announces (their items, as transactions), with their address; null when the run collects nothing from them. */
export type DebitNoticeRecord = Omit<DebitNoticeSource, "club" | "date"> & { personId: number; email: string | null };

export async function debitNoticesOfRun(db: Db, runId: number, filter: { personId?: number; channel?: NoticeChannel } = {}): Promise<DebitNoticeRecord[]> {
  const rows = await db
    .select({
      personId: people.id,
      salutation: people.salutation,
      title: people.title,
      firstName: people.firstName,
      lastName: people.lastName,
      streetNumber: people.streetNumber,
      zip: people.zip,
      city: people.city,
      email: people.email,
      endToEndId: directDebitItems.endToEndId,
      collectionDate: directDebitItems.collectionDate,
      amount: directDebitItems.amount,
      text: fees.text,
      sequenceType: directDebitItems.sequenceType,
      mandateReference: directDebitItems.mandateReference,
      mandateDate: directDebitItems.mandateDate,
      iban: directDebitItems.iban,
    })
    .from(directDebitItems)
    .innerJoin(people, eq(people.id, directDebitItems.personId))
    .innerJoin(fees, eq(fees.id, directDebitItems.feeId))
    .where(
      and(
        eq(directDebitItems.runId, runId),
        isNull(directDebitItems.cancelledOn),
        filter.personId === undefined ? undefined : eq(directDebitItems.personId, filter.personId),
        filter.channel === undefined
          ? undefined
          : sql`EXISTS (SELECT 1 FROM ${directDebitNotices} n WHERE n.run_id = ${runId} AND n.person_id = ${directDebitItems.personId} AND n.channel = ${filter.channel})`,
      ),
    )
    .orderBy(asc(people.lastNameKey), asc(people.firstNameKey), asc(people.id), asc(directDebitItems.endToEndId), asc(directDebitItems.feeId));
  const byPerson = new Map<number, DebitNoticeRecord>();
  const byTransaction = new Map<string, NoticeCollection>();
  for (const row of rows) {
    let notice = byPerson.get(row.personId);
    if (!notice) {
      const { personId, email, mandateReference, mandateDate, iban } = row;
      const person = {
        salutation: row.salutation,
        title: row.title,
        firstName: row.firstName,
        lastName: row.lastName,
        streetNumber: row.streetNumber,
        zip: row.zip,
        city: row.city,
      };
      notice = { personId, email, person, creditorId: "", mandateReference, mandateDate, iban, collections: [] };
      byPerson.set(row.personId, notice);
    }
    // One transaction per end-to-end id: its fees summed, their texts joined (as in the file).
    const known = byTransaction.get(row.endToEndId);
    if (known) {
      known.amount += row.amount;
      known.text = `${known.text}, ${row.text}`;
      continue;
    }
    const collection = { collectionDate: row.collectionDate, amount: row.amount, text: row.text, sequenceType: row.sequenceType };
    byTransaction.set(row.endToEndId, collection);
    notice.collections.push(collection);
  }
  return [...byPerson.values()];
}

/**
 * 'Wieder einziehen': a fee whose return stopped its collection (a refund the debtor asked for,
 * an objection, an unclear reason) is given back to the runs, after staff agreed it with the
 * person. Not for a blocked mandate (that needs a new one) or a fee no longer open. `entryId`: the
 * booked return (a row of the Rücklastschriften).
 */
export type CollectAgainView = { entryId: number; name: string; feeText: string; openAmount: number; stop: string; refusal: string | null };

export async function collectAgainView(db: Db, entryId: number): Promise<CollectAgainView | null> {
  const { rows } = await pageOfReturnedDebitsWhere(db, eq(bankStatementEntries.id, entryId));
  const [row] = rows;
  if (!row) return null;
  const refusal = !row.collectionStop
    ? "Dieser Posten ist nicht gestoppt: Ein Lastschriftlauf zieht ihn ohnehin ein."
    : row.openAmount <= 0
      ? "Dieser Posten ist nicht mehr offen."
      : row.mandateBlock
        ? `Das Mandat ist gesperrt (${row.mandateBlock}): Für einen weiteren Einzug braucht es ein neues Mandat.`
        : null;
  return { entryId, name: row.name, feeText: row.feeText, openAmount: row.openAmount, stop: row.collectionStop ?? "", refusal };
}

export async function collectAgain(db: Db, entryId: number, actor: Actor, now = new Date()): Promise<RunChangeOutcome> {
  const view = await collectAgainView(db, entryId);
  if (!view) return { status: "missing" };
  if (view.refusal) return { status: "refused", message: view.refusal };
  const [entry] = await db.select({ feeId: bankStatementEntries.targetId }).from(bankStatementEntries).where(eq(bankStatementEntries.id, entryId));
  const note = `Einzug wieder freigegeben ${formatDate(now.toISOString().slice(0, 10))} von ${actor.name} (war: ${view.stop})`;
  const updated = await db
    .update(fees)
    .set({
      collectionStop: null,
      paymentComments: sql`CASE WHEN coalesce(${fees.paymentComments}, '') = '' THEN ${note} ELSE ${fees.paymentComments} || '; ' || ${note} END`,
      lastModifiedBy: actor.name,
      lastModifiedOn: now.toISOString(),
      rowVersion: sql`${fees.rowVersion} + 1`,
    })
    .where(and(eq(fees.id, entry!.feeId!), sql`${fees.collectionStop} IS NOT NULL`))
    .returning({ id: fees.id });
  if (updated.length === 0) return { status: "refused", message: "Der Posten wurde inzwischen geändert." };
  return { status: "done", message: `„${view.feeText}“ von ${view.name} wird vom nächsten Lastschriftlauf wieder eingezogen` };
}
