/**
 * The tax case an invoice row is written with (issue 30 item 3, app/lib/tax.ts): the default of its
 * fee's kind in Einstellungen, for a course fee the course type's own case where it has one. The
 * row keeps it; the user may change it while the invoice is a draft.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { configuration } from "~/db/schema";
import { DEFAULT_TAX_CASES, TAX_DEFAULT_OF_KIND, type TaxCase, type TaxDefault } from "~/lib/tax";

/** A default of Einstellungen in SQL; without settings, the schema's default. */
const setting = (name: TaxDefault) => sql.raw(`coalesce((SELECT tax_case_${name} FROM configuration WHERE id = 1), '${DEFAULT_TAX_CASES[name]}')`);

/** The default case of a row without a fee (written by hand). */
export const DEFAULT_TAX_CASE_OF_OTHER = setting("other");

/**
 * The default case of the row billing a fee; `fee` names the fees table or its alias in the query.
 * A fee of a 10er-Karte or Abo (issue 34) takes its product's case: it was sold under it.
 */
export function defaultTaxCaseOfFee(fee: SQL): SQL<string> {
  const courseType = sql`(SELECT cm.tax_case FROM course_memberships m JOIN courses c ON c.id = m.course_id JOIN course_masters cm ON cm.id = c.course_master_id WHERE m.id = ${fee}.course_membership_id)`;
  const cardProduct = sql`(SELECT p.tax_case FROM card_fees cf JOIN cards c ON c.id = cf.card_id JOIN card_products p ON p.id = c.product_id WHERE cf.fee_id = ${fee}.id)`;
  // A single visit charged for an attendance 'ohne Karte': its course type's case.
  const singleVisit = sql`(SELECT cm.tax_case FROM attendance_settlements s JOIN attendances a ON a.id = s.attendance_id
    JOIN course_memberships m ON m.id = a.course_membership_id JOIN courses c ON c.id = m.course_id JOIN course_masters cm ON cm.id = c.course_master_id
    WHERE s.fee_id = ${fee}.id)`;
  const byKind = Object.entries(TAX_DEFAULT_OF_KIND).map(
    ([kind, name]) => sql`WHEN ${sql.raw(`'${kind}'`)} THEN ${name === "course" ? sql`coalesce(${courseType}, ${setting(name)})` : setting(name)}`,
  );
  return sql<string>`CASE ${fee}.kind ${sql.join(byKind, sql` `)} ELSE coalesce(${cardProduct}, ${singleVisit}, ${DEFAULT_TAX_CASE_OF_OTHER}) END `;
}

/** The case a row written by hand starts with (the dialog's default). */
export async function defaultTaxCaseOfNewRow(db: Db): Promise<TaxCase> {
  const [row] = await db.select({ taxCase: configuration.taxCaseOther }).from(configuration).where(eq(configuration.id, 1));
  return row?.taxCase ?? DEFAULT_TAX_CASES.other;
}
