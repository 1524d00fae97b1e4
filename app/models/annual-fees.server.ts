/**
 * Jahresbeiträge (spec 001 §1 'mark annual membership fees due'; ARCHITECTURE 'Price tiers'):
 * every member of the year whose member type carries an annual fee gets one ANNUAL fee for the
 * year at the configured price (Standard, Reduziert 1 or Reduziert 2), billed by invoice. Members
 * who joined since the start of the previous year and have no Aufnahmegebühr yet get it once.
 *
 * A unique index allows one ANNUAL fee per person and year and one ENROLLMENT fee per person, and
 * the inserts skip what exists: a run twice, or a redelivered slice, adds nothing.
 */
import { sql, type SQL } from "drizzle-orm";
import { tierPrice, valuesOf } from "~/db/columns";
import { render, type Db, type Statement } from "~/db/client.server";
import { configuration, fees, memberTypes, people, sepaMandates, type PriceTier } from "~/db/schema";
import { formatCount } from "~/lib/format";
import type { Actor } from "./audit.server";

/** People per queue message. */
export const ANNUAL_FEE_SLICE_SIZE = 100;

const ENROLLMENT_FEE_TEXT = "Aufnahmegebühr";
const annualFeeText = (year: number) => `Jahresbeitrag ${year}`;

/** The configuration's price fields by tier, with their labels in Einstellungen. */
const PRICE_FIELDS: Record<PriceTier, { label: string }> = {
  FULL: { label: "Jahresbeitrag (Standard)" },
  REDUCED1: { label: "Jahresbeitrag (Reduziert 1)" },
  REDUCED2: { label: "Jahresbeitrag (Reduziert 2)" },
};

export type AnnualFeeParams = { year: number; date: string; prices: Record<PriceTier, number>; enrollmentFee: number };

/** A member in the year: marked as member, joined by its end and not left before its start. */
const memberIn = (person: SQL, year: number) =>
  sql`${person}.is_member = 1 AND (${person}.member_since IS NULL OR ${person}.member_since <= ${`${year}-12-31`})
    AND (${person}.member_until IS NULL OR ${person}.member_until >= ${`${year}-01-01`})`;

/** Whether a new fee of the person (`person`: SQL of their id) is billed by invoice: not with an
 *  active SEPA mandate (then the Lastschriftlauf collects it). */
export const paysByInvoice = (person: SQL) => sql`NOT EXISTS (SELECT 1 FROM ${sepaMandates} sm WHERE sm.person_id = ${person} AND sm.is_active = 1)`;

/** Joined since the start of the previous year (a late joiner of last year is still new). */
const newMemberIn = (person: SQL, year: number) => sql`${person}.member_since >= ${`${year - 1}-01-01`}`;

const hasAnnualFee = (person: SQL, year: number) =>
  sql`EXISTS (SELECT 1 FROM ${fees} af WHERE af.person_id = ${person}.id AND af.kind = 'ANNUAL' AND af.period_year = ${year})`;
const hasEnrollmentFee = (person: SQL) => sql`EXISTS (SELECT 1 FROM ${fees} ef WHERE ef.person_id = ${person}.id AND ef.kind = 'ENROLLMENT')`;

export type AnnualFeePreview = {
  year: number;
  members: number;
  alreadyCharged: number;
  annualFees: number;
  enrollmentFees: number;
  total: number;
  problem: string | null;
  /** The prices the run will charge (from Einstellungen), or null when never saved. */
  configured: Omit<AnnualFeeParams, "year" | "date"> | null;
};

/** The prices of the configuration, or null when the settings were never saved. */
export async function annualFeePrices(db: Db): Promise<Omit<AnnualFeeParams, "year" | "date"> | null> {
  const [row] = await db
    .select()
    .from(configuration)
    .where(sql`id = 1`);
  if (!row) return null;
  return {
    prices: { FULL: row.clubMembershipPriceFull, REDUCED1: row.clubMembershipPriceReduced1, REDUCED2: row.clubMembershipPriceReduced2 },
    enrollmentFee: row.clubMembershipEnrollmentFee,
  };
}

/** What a run for `year` would do, and why it cannot start (a price it needs is not set). */
export async function previewAnnualFees(db: Db, year: number): Promise<AnnualFeePreview> {
  const configured = await annualFeePrices(db);
  const prices = configured?.prices ?? { FULL: 0, REDUCED1: 0, REDUCED2: 0 };
  const enrollmentFee = configured?.enrollmentFee ?? 0;
  const p = sql`p`;
  const rows = await db
    .select({
      tier: sql<PriceTier>`m.annual_fee_tier`,
      members: sql<number>`count(*)`,
      alreadyCharged: sql<number>`sum(${hasAnnualFee(p, year)})`,
      enrollments: sql<number>`sum(${newMemberIn(p, year)} AND NOT ${hasEnrollmentFee(p)})`,
    })
    .from(sql`${people} p JOIN ${memberTypes} m ON m.id = p.member_type_id`)
    .where(sql`m.annual_fee_tier <> 'NONE' AND ${memberIn(p, year)}`)
    .groupBy(sql`m.annual_fee_tier`);
  let members = 0;
  let alreadyCharged = 0;
  let annualFees = 0;
  let enrollmentFees = 0;
  let total = 0;
  const unpriced: string[] = [];
  for (const row of rows) {
    const charged = Number(row.alreadyCharged);
    const enrollments = enrollmentFee > 0 ? Number(row.enrollments) : 0;
    members += row.members;
    alreadyCharged += charged;
    annualFees += row.members - charged;
    enrollmentFees += enrollments;
    total += (row.members - charged) * prices[row.tier] + enrollments * enrollmentFee;
    if (row.members > charged && prices[row.tier] <= 0) unpriced.push(`„${PRICE_FIELDS[row.tier].label}“`);
  }
  const problem = !configured
    ? "Die Einstellungen sind noch nicht gespeichert: Ohne die Jahresbeiträge kann nichts eingestellt werden."
    : unpriced.length > 0
      ? `In den Einstellungen fehlt ${unpriced.join(" und ")}: Bitte erst den Betrag eintragen.`
      : null;
  return { year, members, alreadyCharged, annualFees, enrollmentFees, total, problem, configured };
}

/** The members of the year with an annual fee, in name order. */
export async function membersOwingAnnualFees(db: Db, year: number): Promise<number[]> {
  const rows = await db
    .select({ id: sql<number>`p.id` })
    .from(sql`${people} p JOIN ${memberTypes} m ON m.id = p.member_type_id`)
    .where(sql`m.annual_fee_tier <> 'NONE' AND ${memberIn(sql`p`, year)}`)
    .orderBy(sql`p.last_name_key, p.first_name_key, p.id`);
  return rows.map((row) => row.id);
}

/** The batch that charges one slice of members; what exists already is skipped. */
export function annualFeeSliceStatements(jobId: number, personIds: readonly number[], params: AnnualFeeParams, actor: Actor, now: Date): Statement[] {
  return annualFeeStatements(valuesOf(personIds), jobId, params, actor, now);
}

/**
 * The statements that charge the annual fee of the year (and the Aufnahmegebühr of a new member)
 * to the people `chosen` (a subquery of person ids) who owe them and have them not yet: the run's
 * slices, and the acceptance of a membership application (no run, jobId null).
 */
export function annualFeeStatements(chosen: SQL, jobId: number | null, params: AnnualFeeParams, actor: Actor, now: Date): Statement[] {
  const iso = now.toISOString();
  const { year } = params;
  const p = sql`p`;
  const members = sql`${people} p JOIN ${memberTypes} m ON m.id = p.member_type_id`;
  // A member with an active SEPA mandate pays by direct debit (the Lastschriftlauf collects the
  // fee); everybody else gets it on an invoice.
  const byInvoice = paysByInvoice(sql`p.id`);
  const statements: Statement[] = [
    render(sql`INSERT INTO ${fees} (person_id, date, text, amount, open_amount, send_invoice, kind, period_year, job_id, created_by, created_on)
      SELECT p.id, ${params.date}, ${annualFeeText(year)}, ${tierPrice(sql`m.annual_fee_tier`, params.prices)}, ${tierPrice(sql`m.annual_fee_tier`, params.prices)},
        ${byInvoice}, 'ANNUAL', ${year}, ${jobId}, ${actor.name}, ${iso}
      FROM ${members}
      WHERE p.id IN ${chosen} AND m.annual_fee_tier <> 'NONE' AND ${memberIn(p, year)} AND NOT ${hasAnnualFee(p, year)}
      ON CONFLICT DO NOTHING`),
  ];
  if (params.enrollmentFee > 0) {
    statements.push(
      render(sql`INSERT INTO ${fees} (person_id, date, text, amount, open_amount, send_invoice, kind, job_id, created_by, created_on)
        SELECT p.id, ${params.date}, ${ENROLLMENT_FEE_TEXT}, ${params.enrollmentFee}, ${params.enrollmentFee}, ${byInvoice}, 'ENROLLMENT', ${jobId}, ${actor.name}, ${iso}
        FROM ${members}
        WHERE p.id IN ${chosen} AND m.annual_fee_tier <> 'NONE' AND ${memberIn(p, year)} AND ${newMemberIn(p, year)} AND NOT ${hasEnrollmentFee(p)}
        ON CONFLICT DO NOTHING`),
    );
  }
  return statements;
}

/** '{n} offene Posten für Jahresbeiträge eingestellt' (spec 001 §8). */
export async function annualFeesMessage(db: Db, jobId: number): Promise<string> {
  const [{ created }] = await db
    .select({ created: sql<number>`count(*)` })
    .from(fees)
    .where(sql`job_id = ${jobId}`);
  return `${formatCount(created, "offener Posten", "offene Posten")} für Jahresbeiträge eingestellt`;
}
