import type { AppLoadContext } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { userPreferences } from "~/db/schema";

const gridKey = (gridId: string) => `grid:${gridId}:columns`;

/** All of a user's preferences, loaded once per request for every grid on the page. */
function preferencesOf(context: AppLoadContext, userId: string): Promise<Map<string, string>> {
  const loaded = (context.userPreferences ??= new Map());
  let preferences = loaded.get(userId);
  if (!preferences) loaded.set(userId, (preferences = loadPreferences(context, userId)));
  return preferences;
}

function loadPreferences(context: AppLoadContext, userId: string): Promise<Map<string, string>> {
  return context.db
    .select({ key: userPreferences.key, value: userPreferences.value })
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId))
    .then((rows) => new Map(rows.map((row) => [row.key, row.value])));
}

/** The columns this user chose for a grid, or null for the grid's defaults. */
export async function getGridColumns(context: AppLoadContext, userId: string, gridId: string): Promise<string[] | null> {
  const stored = (await preferencesOf(context, userId)).get(gridKey(gridId));
  if (!stored) return null;
  const value: unknown = JSON.parse(stored);
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
