import type { Db } from "~/db/client.server";
import { retentionCutoff, retentionList, type RetentionCandidate } from "~/models/gdpr.server";

/** Both retention lists `years` back from `today`, as the Datenschutz screen's grids load them. */
export async function retentionLists(
  db: Db,
  years: number,
  today: string,
): Promise<{ cutoff: string; left: RetentionCandidate[]; inactive: RetentionCandidate[] }> {
  const cutoff = await retentionCutoff(db, years, today);
  return { cutoff, left: await retentionList(db, "left", cutoff, today), inactive: await retentionList(db, "inactive", cutoff, today) };
}
