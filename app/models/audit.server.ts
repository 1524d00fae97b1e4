/**
 * Audit fields and optimistic concurrency, the same for every editable entity.
 */
import { sql, type AnyColumn } from "drizzle-orm";
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
