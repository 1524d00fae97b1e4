/**
 * The tax case an invoice row is written with (issue 30 item 3, app/lib/tax.ts): the default of its
 * fee's kind in Einstellungen, for a course fee the course type's own case where it has one. The
 * row keeps it; the user may change it while the invoice is a draft.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { configuration } from "~/db/schema";
import type { TaxCase } from "~/lib/tax";

const setting = (column: string) => sql.raw(`(SELECT ${column} FROM configuration WHERE id = 1)`);

/** The default case of a row without a fee (written by hand). */
export const DEFAULT_TAX_CASE_OF_OTHER = setting("tax_case_other");

/** The default case of the row billing a fee; `fee` names the fees table or its alias in the query. */
export function defaultTaxCaseOfFee(fee: SQL): SQL<string> {
  const courseType = sql`(SELECT cm.tax_case FROM course_memberships m JOIN courses c ON c.id = m.course_id JOIN course_masters cm ON cm.id = c.course_master_id WHERE m.id = ${fee}.course_membership_id)`;
  return sql<string>`CASE ${fee}.kind
    WHEN 'ANNUAL' THEN ${setting("tax_case_annual")}
    WHEN 'ENROLLMENT' THEN ${setting("tax_case_enrollment")}
    WHEN 'COURSE' THEN coalesce(${courseType}, ${setting("tax_case_course")})
    ELSE ${DEFAULT_TAX_CASE_OF_OTHER} END `;
}

/** The case a row written by hand starts with (the dialog's default). */
export async function defaultTaxCaseOfNewRow(db: Db): Promise<TaxCase> {
  const [row] = await db.select({ taxCase: configuration.taxCaseOther }).from(configuration).where(eq(configuration.id, 1));
  return row?.taxCase ?? "STANDARD";
}
