/** Course types (Kurs-Typen). */
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { courseMasters } from "~/db/schema";

export type CourseMasterRecord = typeof courseMasters.$inferSelect;

export async function getCourseMasterRecord(db: Db, id: number): Promise<CourseMasterRecord | undefined> {
  const [row] = await db.select().from(courseMasters).where(eq(courseMasters.id, id));
  return row;
}
