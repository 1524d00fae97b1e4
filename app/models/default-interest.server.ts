/**
 * Default interest of the Mahnlauf (issue 31 item 5): the base rates entered in Einstellungen, and
 * for each item a run reminds what interest the reminder charges (app/lib/default-interest.ts says
 * which rules decide).
 *
 * An item bears interest once a reminder reached its debtor (sent, not cancelled) and that
 * reminder's new due date has passed; each later reminder charges the days since the previous one
 * charged (or since default began) up to its own date, so no day is charged twice.
 */
import { asc, sql } from "drizzle-orm";
import { valuesOf } from "~/db/columns";
import { type Db } from "~/db/client.server";
import { baseRates, reminders, type ReminderTargetType } from "~/db/schema";
import { BUSINESS_SURCHARGE, CONSUMER_SURCHARGE, defaultInterest, type BaseRate, type DatedPayment, type InterestOutcome } from "~/lib/default-interest";
import { addDaysToDate } from "~/lib/format";
import type { Actor } from "./audit.server";

export type BaseRateRecord = typeof baseRates.$inferSelect;

/** Every entered base rate, newest first. */
export async function listBaseRates(db: Db): Promise<BaseRateRecord[]> {
  return db
    .select()
    .from(baseRates)
    .orderBy(sql`${baseRates.validFrom} DESC`);
}

/** The rates as a run uses them (frozen into its params). */
export async function baseRatesForRun(db: Db): Promise<BaseRate[]> {
  return db.select({ validFrom: baseRates.validFrom, rate: baseRates.rate }).from(baseRates).orderBy(asc(baseRates.validFrom));
}

/**
 * Enters the base rate of a half-year, or corrects it (a reminder already written keeps the rate it
 * used, in its interest_basis). One statement: an upsert on the half-year; a new row is version 1.
 */
export async function saveBaseRate(db: Db, input: BaseRate, actor: Actor, now = new Date()): Promise<"created" | "updated"> {
  const iso = now.toISOString();
  const [saved] = await db
    .insert(baseRates)
    .values({ validFrom: input.validFrom, rate: input.rate, createdBy: actor.name, createdOn: iso })
    .onConflictDoUpdate({
      target: baseRates.validFrom,
      set: { rate: input.rate, lastModifiedBy: actor.name, lastModifiedOn: iso, rowVersion: sql`${baseRates.rowVersion} + 1` },
    })
    .returning({ rowVersion: baseRates.rowVersion });
  return saved.rowVersion === 1 ? "created" : "updated";
}

/** An item a run reminds. */
export type InterestItem = { targetType: ReminderTargetType; targetId: number };

/** What the reminder of an item charges, by `TYPE:id`. */
export type ItemInterest = InterestOutcome & InterestItem;

export const interestKey = (item: InterestItem) => `${item.targetType}:${item.targetId}`;

type ItemRow = {
  targetType: ReminderTargetType;
  targetId: number;
  openNow: number;
  isBusiness: number;
  defaultFrom: string | null;
  chargedTo: string | null;
};

/**
 * The interest the reminders of a run on `date` charge for `items` (those without interest are
 * left out): from the later of the day after the first sent reminder's new due date and the day
 * after the last interest charged, to `date`. Reads the items in one query and their payments in
 * another (json_each: any number of items).
 */
export async function interestOfItems(db: Db, date: string, rates: readonly BaseRate[], items: readonly InterestItem[]): Promise<Map<string, ItemInterest>> {
  const result = new Map<string, ItemInterest>();
  if (items.length === 0) return result;
  const keys = JSON.stringify(items.map(interestKey));
  const rows = await db.all<ItemRow>(sql`WITH wanted AS (
      SELECT substr(value, 1, instr(value, ':') - 1) AS target_type, CAST(substr(value, instr(value, ':') + 1) AS INTEGER) AS target_id FROM json_each(${keys}))
    SELECT w.target_type AS targetType, w.target_id AS targetId,
      coalesce(h.open_amount, f.open_amount, 0) AS openNow, coalesce(p.is_business, 0) AS isBusiness,
      (SELECT r.new_due_date FROM ${reminders} r WHERE r.target_type = w.target_type AND r.target_id = w.target_id AND r.status = 'SENT'
        ORDER BY r.level, r.id LIMIT 1) AS defaultFrom,
      (SELECT max(r.interest_to) FROM ${reminders} r WHERE r.target_type = w.target_type AND r.target_id = w.target_id AND r.status <> 'CANCELLED') AS chargedTo
    FROM wanted w
    LEFT JOIN invoice_headers h ON w.target_type = 'INVOICE' AND h.id = w.target_id
    LEFT JOIN fees f ON w.target_type = 'FEE' AND f.id = w.target_id
    LEFT JOIN people p ON p.id = coalesce(h.person_id, f.person_id)`);
  const bearing = rows
    .map((row) => {
      if (!row.defaultFrom) return null;
      const afterDefault = addDaysToDate(row.defaultFrom, 1);
      const afterCharged = row.chargedTo ? addDaysToDate(row.chargedTo, 1) : afterDefault;
      return { ...row, from: afterCharged > afterDefault ? afterCharged : afterDefault };
    })
    .filter((row): row is ItemRow & { from: string } => row !== null && row.from <= date && row.openNow > 0);
  if (bearing.length === 0) return result;
  const payments = await paymentsOfItems(db, bearing);
  for (const row of bearing) {
    const outcome = defaultInterest({
      from: row.from,
      to: date,
      openNow: row.openNow,
      payments: payments.get(interestKey(row)) ?? [],
      rates,
      surcharge: row.isBusiness ? BUSINESS_SURCHARGE : CONSUMER_SURCHARGE,
    });
    if (outcome.status !== "none") result.set(interestKey(row), { ...outcome, targetType: row.targetType, targetId: row.targetId });
  }
  return result;
}

/** The journal's allocations to the items, with the entry's date, from the earliest `from` on. */
async function paymentsOfItems(db: Db, items: readonly (InterestItem & { from: string })[]): Promise<Map<string, DatedPayment[]>> {
  const since = items.map((item) => item.from).sort()[0];
  const ids = (type: ReminderTargetType) => valuesOf(items.filter((item) => item.targetType === type).map((item) => item.targetId));
  const rows = await db.all<{ targetType: ReminderTargetType; targetId: number; date: string; amount: number }>(sql`
    SELECT CASE WHEN a.invoice_id IS NOT NULL THEN 'INVOICE' ELSE 'FEE' END AS targetType, coalesce(a.invoice_id, a.fee_id) AS targetId, p.date AS date, a.amount AS amount
    FROM payment_allocations a JOIN payments p ON p.id = a.payment_id
    WHERE (a.invoice_id IN ${ids("INVOICE")} OR a.fee_id IN ${ids("FEE")}) AND p.date >= ${since}`);
  const byItem = new Map<string, DatedPayment[]>();
  for (const row of rows) {
    const key = interestKey(row);
    const list = byItem.get(key) ?? [];
    list.push({ date: row.date, amount: row.amount });
    byItem.set(key, list);
  }
  return byItem;
}

/** The first half-year whose base rate is missing among the outcomes, or null. */
export const missingRateOf = (outcomes: Iterable<ItemInterest>) => {
  const missing = [...outcomes].filter((outcome) => outcome.status === "missingRate").map((outcome) => outcome.halfYear);
  return missing.sort()[0] ?? null;
};
