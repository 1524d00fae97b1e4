/**
 * Audit fields and optimistic concurrency, the same for every editable entity.
 */
import { and, eq, sql, type AnyColumn } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import type { User } from "~/lib/access";

/** Who writes: the logged-in user, recorded by name in the audit fields and the recycle bin. */
export type Actor = Pick<User, "name">;

export function auditInsert(actor: Actor, now = new Date()) {
  return { createdBy: actor.name, createdOn: now.toISOString() };
}

/** lastModifiedBy/On, and the rowVersion counted up so a stale form can be recognised. */
export function auditUpdate(actor: Actor, rowVersion: AnyColumn, now = new Date()) {
  return { lastModifiedBy: actor.name, lastModifiedOn: now.toISOString(), rowVersion: sql`${rowVersion} + 1` };
}

/** An update quoting the rowVersion it was based on: applied, refused as stale, or the record
 *  is gone. */
export type UpdateOutcome<Current> = { status: "updated" } | { status: "conflict"; current: Current } | { status: "missing" };

/** A table of editable records: an id and a rowVersion. */
type VersionedTable = SQLiteTable & { id: SQLiteColumn; rowVersion: SQLiteColumn };

/**
 * Updates a record only if it still has the rowVersion the form was based on; otherwise reports
 * the current record (read by `current`) or that it is gone.
 */
export async function updateVersioned<Current>(
  db: Db,
  table: VersionedTable,
  { id, rowVersion }: { id: number; rowVersion: number },
  values: Record<string, unknown>,
  actor: Actor,
  current: () => Promise<Current | undefined>,
): Promise<UpdateOutcome<Current>> {
  const updated = await db
    .update(table)
    .set({ ...values, ...auditUpdate(actor, table.rowVersion) } as never)
    .where(and(eq(table.id, id), eq(table.rowVersion, rowVersion)))
    .returning({ id: table.id });
  if (updated.length === 1) return { status: "updated" };
  const found = await current();
  return found ? { status: "conflict", current: found } : { status: "missing" };
}

/** Who writes, how, and as what (app/db/client.server.ts): for the Änderungsverlauf's triggers. */
export { setWriteActor, setWriteSource } from "~/db/client.server";
