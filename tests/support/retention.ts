import type { Db } from "~/db/client.server";
import { retentionCutoff, retentionList, type RetentionCandidate } from "~/models/gdpr.server";

/** Both retention lists `years` back from `today`, as the Datenschutz screen's grids load them. */
export async function retentionLists(
  db: Db,
  years: number,
  today: string,
): Promise<{ cutoff: string; left: RetentionCandidate[]; inactive: RetentionCandidate[] }> {
  const cutoff = await retentionCutoff(db, years, today);
  const [left, inactive] = [await retentionList(db, "left", cutoff, today), await retentionList(db, "inactive", cutoff, today)];
  return { cutoff, left: left.rows, inactive: inactive.rows };
}
