import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { userPreferences } from "~/db/schema";

const gridKey = (gridId: string) => `grid:${gridId}:columns`;

/** The columns this user chose for a grid, or null for the grid's defaults. */
export async function getGridColumns(db: Db, userId: string, gridId: string): Promise<string[] | null> {
  const [row] = await db
    .select({ value: userPreferences.value })
    .from(userPreferences)
    .where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, gridKey(gridId))));
  if (!row) return null;
  const value: unknown = JSON.parse(row.value);
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : null;
}

export async function saveGridColumns(db: Db, userId: string, gridId: string, columnIds: string[]): Promise<void> {
  const value = JSON.stringify(columnIds);
  const updatedOn = new Date().toISOString();
  await db
    .insert(userPreferences)
    .values({ userId, key: gridKey(gridId), value, updatedOn })
    .onConflictDoUpdate({ target: [userPreferences.userId, userPreferences.key], set: { value, updatedOn } });
}
