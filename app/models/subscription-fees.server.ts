/**
 * Abo-Beiträge (issue 34 item 2): a subscription's fee per period. Its sale bills the first period;
 * the run 'Abo-Beiträge' (Tasks) bills every period that has begun by its day and is not billed
 * yet, so a run twice in a month bills once, and a run after a pause bills what was missed. A
 * period the subscription's end cuts short costs its share by days (app/lib/cards.ts).
 *
 * Each fee is linked to its card and period in card_fees (unique per card and period start): the
 * fee goes in only while no link exists, and the link only when the fee went in, in one batch. The
 * last run can be undone while none of its fees has been invoiced, paid or collected.
 */
import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { inValues } from "~/db/columns";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { cardFees, cards, directDebitItems, fees, invoiceRows, jobs, paymentAllocations, people } from "~/db/schema";
import { subscriptionPeriodsDue, type SubscriptionPeriod, type SubscriptionPeriodFee } from "~/lib/cards";
import { formatCount, formatDate } from "~/lib/format";
import { paysByInvoice } from "./annual-fees.server";
import type { Actor } from "./audit.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { getJob, paramsOfJob, type JobRecord } from "./jobs.server";

/** Subscriptions per queue message. */
export const SUBSCRIPTION_FEE_SLICE_SIZE = 50;

/** '01.12.2026 bis 31.12.2026': the period as the fee's text names it after the product. */
const periodText = (period: SubscriptionPeriodFee) => `, ${formatDate(period.start)} bis ${formatDate(period.end)}`;

/**
 * The statements that bill `periods` of the subscription `card` (SQL of its id): a fee per period
 * (paid by direct debit when the person has an active mandate, else by invoice, as the annual
 * fees), then its link, written only when the fee was (changes() of the insert just before).
 */
export function periodFeeStatements(card: SQL, periods: readonly SubscriptionPeriodFee[], jobId: number | null, actor: Actor, now: Date): Statement[] {
  const iso = now.toISOString();
  return periods.flatMap((period) => [
    render(sql`INSERT INTO ${fees} (person_id, date, text, amount, open_amount, send_invoice, kind, job_id, created_by, created_on)
      SELECT c.person_id, ${period.start}, c.name || ${periodText(period)}, ${period.amount}, ${period.amount}, ${paysByInvoice(sql`c.person_id`)}, 'OTHER',
        ${jobId}, ${actor.name}, ${iso}
      FROM ${cards} c
      WHERE c.id = ${card} AND c.kind = 'SUBSCRIPTION' AND NOT EXISTS (SELECT 1 FROM ${cardFees} cf WHERE cf.card_id = c.id AND cf.period_start = ${period.start})`),
    render(sql`INSERT INTO ${cardFees} (card_id, fee_id, period_start, job_id, created_on)
      SELECT ${card}, last_insert_rowid(), ${period.start}, ${jobId}, ${iso} WHERE changes() = 1`),
  ]);
}

/** A subscription with the periods it owes by a day. */
export type SubscriptionDue = { cardId: number; personId: number; periods: SubscriptionPeriodFee[] };

/** The subscriptions with periods begun by `through` and not billed, in card order. */
export async function subscriptionsDue(db: Db, through: string): Promise<SubscriptionDue[]> {
  const rows = await db
    .select({
      cardId: cards.id,
      personId: cards.personId,
      validFrom: cards.validFrom,
      validUntil: cards.validUntil,
      period: sql<SubscriptionPeriod>`${cards.period}`,
      price: cards.price,
      billed: sql<string | null>`(SELECT group_concat(cf.period_start) FROM ${cardFees} cf WHERE cf.card_id = cards.id AND cf.period_start IS NOT NULL)`,
    })
    .from(cards)
    .where(and(eq(cards.kind, "SUBSCRIPTION"), sql`${cards.validFrom} <= ${through}`, sql`${cards.price} > 0`))
    .orderBy(cards.id);
  return rows.flatMap((row) => {
    const periods = subscriptionPeriodsDue(row, through, new Set(row.billed?.split(",") ?? [])).filter((period) => period.amount > 0);
    return periods.length > 0 ? [{ cardId: row.cardId, personId: row.personId, periods }] : [];
  });
}

export type SubscriptionFeePreview = { through: string; subscriptions: number; periods: number; total: number };

/** What a run on `through` would bill. */
export async function previewSubscriptionFees(db: Db, through: string): Promise<SubscriptionFeePreview> {
  const due = await subscriptionsDue(db, through);
  const periods = due.flatMap((subscription) => subscription.periods);
  return { through, subscriptions: due.length, periods: periods.length, total: periods.reduce((sum, period) => sum + period.amount, 0) };
}

/** The run's parameters: its day, and the periods each subscription owes (items are card ids). */
export type SubscriptionFeeParams = { through: string; periods: Record<string, SubscriptionPeriodFee[]> };

export function subscriptionFeeSliceStatements(job: JobRecord, cardIds: readonly number[], actor: Actor, now: Date): Statement[] {
  const { periods } = paramsOfJob<SubscriptionFeeParams>(job);
  return cardIds.flatMap((cardId) => periodFeeStatements(sql`${cardId}`, periods[String(cardId)] ?? [], job.id, actor, now));
}

/** 'Erika Muster (Abo Spielgruppe)': how a failed item (a card) is named in the run's message. */
export async function nameSubscriptions(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: cards.id, name: sql<string>`coalesce(${people.fullName}, 'unbekannt') || ' (' || ${cards.name} || ')'` })
    .from(cards)
    .innerJoin(people, eq(people.id, cards.personId))
    .where(inValues(cards.id, ids))
    .orderBy(people.lastNameKey, people.firstNameKey);
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** How many fees the run billed. */
export const subscriptionRunFeeCount = (db: Db, jobId: number) => db.$count(cardFees, eq(cardFees.jobId, jobId));

/** 'n Abo-Beiträge eingestellt'. */
export async function subscriptionFeesMessage(db: Db, jobId: number): Promise<string> {
  const created = await subscriptionRunFeeCount(db, jobId);
  return `${formatCount(created, "Abo-Beitrag", "Abo-Beiträge")} eingestellt`;
}

// ---------------------------------------------------------------------------------------------
// Undo

/** A run that billed something (a run with nothing to do neither blocks nor offers an undo). */
const billedSomething = (job: SQL) => sql`EXISTS (SELECT 1 FROM ${cardFees} bf WHERE bf.job_id = ${job})`;

/** The newest run not undone that billed something. */
async function latestSubscriptionRun(db: Db): Promise<JobRecord | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.type, "SUBSCRIPTION_FEES"), isNull(jobs.undoneOn), billedSomething(sql`${jobs.id}`)))
    .orderBy(desc(jobs.id))
    .limit(1);
  return row;
}

/** Fees of the run that something has used since: invoiced (or on a draft), paid, collected. */
const usedFeesOf = (jobId: number) =>
  sql`(SELECT count(*) FROM ${fees} f WHERE f.job_id = ${jobId} AND f.id IN (SELECT fee_id FROM ${cardFees} WHERE job_id = ${jobId}) AND (
    f.is_invoiced = 1 OR f.open_amount <> f.amount
    OR EXISTS (SELECT 1 FROM ${invoiceRows} r WHERE r.fee_id = f.id)
    OR EXISTS (SELECT 1 FROM ${paymentAllocations} pa WHERE pa.fee_id = f.id)
    OR EXISTS (SELECT 1 FROM ${directDebitItems} d WHERE d.fee_id = f.id)))`;

const laterRunsOf = (jobId: number) =>
  sql`(SELECT count(*) FROM ${jobs} j WHERE j.type = 'SUBSCRIPTION_FEES' AND j.id > ${jobId} AND j.undone_on IS NULL AND ${billedSomething(sql`j.id`)})`;

/** Why the run cannot be undone (German), or null. */
export async function subscriptionRunUndoRefusal(db: Db, job: JobRecord | undefined): Promise<string | null> {
  if (!job || job.type !== "SUBSCRIPTION_FEES") return "Diesen Lauf gibt es nicht.";
  if (job.undoneOn) return "Dieser Lauf wurde bereits rückgängig gemacht.";
  if (job.status === "QUEUED" || job.status === "RUNNING") return "Der Lauf ist noch nicht fertig.";
  const [found] = await db.select({ used: usedFeesOf(job.id), later: laterRunsOf(job.id) }).from(sql`(SELECT 1)`);
  if (Number(found.later) > 0) return "Nur der letzte Lauf kann rückgängig gemacht werden.";
  if (Number(found.used) > 0) {
    return `${formatCount(Number(found.used), "Abo-Beitrag", "Abo-Beiträge")} dieses Laufs ${Number(found.used) === 1 ? "ist" : "sind"} schon abgerechnet, bezahlt oder eingezogen: Der Lauf lässt sich nicht mehr rückgängig machen. Einzelne Beiträge korrigiert eine Gutschrift.`;
  }
  return null;
}

/** The undo's state for the Tasks card: the last run, and why it cannot be undone. */
export async function subscriptionUndoState(db: Db) {
  const last = await latestSubscriptionRun(db);
  if (!last || last.status === "QUEUED" || last.status === "RUNNING") return null;
  return { jobId: last.id, refusal: await subscriptionRunUndoRefusal(db, last) };
}

export type SubscriptionUndoOutcome = { status: "undone"; removed: number } | { status: "refused"; message: string };

/** Takes the run's fees back (they were never invoiced, paid or collected), in one batch. */
export async function undoSubscriptionRun(db: Db, jobId: number, actor: Actor, now = new Date()): Promise<SubscriptionUndoOutcome> {
  const job = await getJob(db, jobId);
  const refusal = await subscriptionRunUndoRefusal(db, job);
  if (refusal) return { status: "refused", message: refusal };
  const removed = await subscriptionRunFeeCount(db, jobId);
  const iso = now.toISOString();
  try {
    await runAtomically(db, [
      // Nothing used since the check: else the batch stops here.
      render(sql`SELECT CASE WHEN (${usedFeesOf(jobId)}) + (${laterRunsOf(jobId)}) > 0 THEN json('blocked') END`),
      render(sql`DELETE FROM ${cardFees} WHERE job_id = ${jobId}`),
      render(sql`DELETE FROM ${fees} WHERE job_id = ${jobId} AND kind = 'OTHER'`),
      render(sql`UPDATE ${jobs} SET undone_on = ${iso}, undone_by = ${actor.name} WHERE id = ${jobId} AND undone_on IS NULL`),
      ABORT_UNLESS_CHANGED,
    ]);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) {
      return { status: "refused", message: (await subscriptionRunUndoRefusal(db, await getJob(db, jobId))) ?? "Der Lauf hat sich inzwischen geändert." };
    }
    throw error;
  }
  return { status: "undone", removed };
}
