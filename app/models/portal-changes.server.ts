/**
 * 'Änderungen aus dem Portal' (issue 32 item 2): what people changed themselves in Mein Wuff,
 * read from the change history (every portal write is recorded with the source 'Mein Wuff'), so
 * the staff see it without a list of its own to keep.
 */
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { PORTAL_SOURCE } from "~/lib/portal";

// A literal, not a parameter: only then may SQLite use the partial index change_history_portal_idx.
const PORTAL_SOURCE_SQL = sql.raw(`'${PORTAL_SOURCE}'`);

/** How far back the home page looks: two weeks of changes. */
export const PORTAL_CHANGES_DAYS = 14;

export type PortalChange = {
  id: number;
  changedOn: string;
  /** people, consents, dog_papers, course_memberships (a booking cancelled in Meine Kurse) */
  tableName: string;
  action: string;
  /** The changed columns (SQL names) of an update. */
  columns: string[];
  personId: number | null;
  personName: string | null;
  /** A booking's course and dog (course_memberships), else null. */
  booking: { courseName: string; dogName: string; courseId: number } | null;
  /** A cancelled booking has a course fee: staff decide whether to credit it (the portal never touches money). */
  bookingHasFee: boolean;
};

/**
 * The newest portal changes since `since` (an instant), at most `limit`; consents only when
 * `withConsents` (they are protected person data, shown to ADMIN and GDPR).
 */
export async function portalChanges(db: Db, input: { since: string; limit: number; withConsents: boolean }): Promise<PortalChange[]> {
  const rows = await db.all<{
    id: number;
    changedOn: string;
    tableName: string;
    action: string;
    changes: string | null;
    personId: number | null;
    personName: string | null;
    courseId: number | null;
    courseName: string | null;
    dogName: string | null;
    hasFee: number | null;
  }>(sql`SELECT h.id, h.changed_on AS changedOn, h.table_name AS tableName, h.action, h.changes, p.id AS personId, p.full_name AS personName,
      k.id AS courseId, k.name AS courseName, kd.common_name AS dogName,
      EXISTS (SELECT 1 FROM fees f WHERE f.course_membership_id = m.id) AS hasFee
    FROM change_history h
    LEFT JOIN consents c ON h.table_name = 'consents' AND c.id = h.record_id
    LEFT JOIN dog_papers d ON h.table_name = 'dog_papers' AND d.id = h.record_id
    LEFT JOIN dogs g ON g.id = d.dog_id
    LEFT JOIN course_memberships m ON h.table_name = 'course_memberships' AND m.id = h.record_id
    LEFT JOIN courses k ON k.id = m.course_id
    LEFT JOIN dogs kd ON kd.id = m.dog_id
    LEFT JOIN people p ON p.id = CASE h.table_name WHEN 'people' THEN h.record_id WHEN 'consents' THEN c.person_id WHEN 'dog_papers' THEN g.owner_id
      WHEN 'course_memberships' THEN m.person_id END
    WHERE h.source = ${PORTAL_SOURCE_SQL} AND h.changed_on >= ${input.since}
      AND (${input.withConsents ? 1 : 0} = 1 OR h.table_name <> 'consents')
    ORDER BY h.changed_on DESC, h.id DESC
    LIMIT ${input.limit}`);
  return rows.map(({ changes, courseId, courseName, dogName, hasFee, ...row }) => ({
    ...row,
    columns: changes ? Object.keys(JSON.parse(changes) as Record<string, unknown>) : [],
    booking: courseId !== null && courseName !== null ? { courseId, courseName, dogName: dogName ?? "" } : null,
    bookingHasFee: Boolean(hasFee),
  }));
}
