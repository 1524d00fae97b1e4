/**
 * Withdrawals declared without signing in (issue 33 item 4, § 356a BGB): the public page
 * 'Vertrag widerrufen' takes a declaration from anyone (name, e-mail address, the contract in their
 * words), Wuff confirms its receipt by mail at once, and staff settle it on the screen 'Widerrufe':
 * applied to the online booking it names (the booking ends and its fee is cancelled as by the
 * portal's withdrawal, timed by the declaration's receipt) or closed with a note.
 */
import { asc, count, eq, sql } from "drizzle-orm";
import { render, type Db } from "~/db/client.server";
import { noticeDeclarations, withdrawalDeclarations } from "~/db/schema";
import { todayInBerlin } from "~/lib/format";
import { normalizeEmail } from "~/lib/portal";
import type { Actor } from "./audit.server";
import { declaredWithdrawalCandidates, withdrawDeclaredBooking, type CancelOutcome, type DeclaredCandidate } from "./portal-courses.server";

/** Declarations a day per address and per client address: enough for a family's bookings, not
 *  enough to use the confirmation mail to flood someone's inbox. */
const DECLARATIONS_PER_ADDRESS = 5;
const DECLARATIONS_PER_CLIENT = 10;
/** Settled declarations are kept until the end of the third year after (§ 195, § 199 BGB: the
 *  regular limitation period of claims arising from the withdrawal). */
const DECLARATION_RETENTION_YEARS = 3;

export type Declaration = { name: string; email: string; contract: string };

export type ReceiveOutcome = { status: "limited" } | { status: "received"; id: number; receivedOn: string };

/** Whether the address or the client has declared too often in the last 24 hours (a withdrawal, or a notice in its own table). */
export async function declaredTooOften(
  db: Db,
  table: typeof withdrawalDeclarations | typeof noticeDeclarations,
  input: { email: string; from: string },
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - 24 * 3600 * 1000).toISOString();
  const [{ perAddress, perClient }] = await db.all<{ perAddress: number; perClient: number }>(sql`SELECT
      (SELECT count(*) FROM ${table} WHERE email = ${input.email} AND received_on > ${since}) AS perAddress,
      (SELECT count(*) FROM ${table} WHERE received_from = ${input.from} AND received_on > ${since}) AS perClient`);
  return perAddress >= DECLARATIONS_PER_ADDRESS || perClient >= DECLARATIONS_PER_CLIENT;
}

/** Records a declaration received now from `from`, unless the address or the client has declared too often today. */
export async function receiveWithdrawal(db: Db, input: Declaration & { from: string }, now = new Date()): Promise<ReceiveOutcome> {
  const email = normalizeEmail(input.email);
  if (await declaredTooOften(db, withdrawalDeclarations, { email, from: input.from }, now)) return { status: "limited" };
  const receivedOn = now.toISOString();
  const [row] = await db
    .insert(withdrawalDeclarations)
    .values({
      receivedOn,
      receivedFrom: input.from,
      name: input.name,
      email,
      contract: input.contract,
      createdBy: `${input.name} (Vertrag widerrufen)`,
      createdOn: receivedOn,
    })
    .returning({ id: withdrawalDeclarations.id });
  return { status: "received", id: row.id, receivedOn };
}

/** The confirmation of the declaration went out (the screen shows the ones that did not). */
export async function confirmationSent(db: Db, id: number, now = new Date()): Promise<void> {
  await db.update(withdrawalDeclarations).set({ confirmationSentOn: now.toISOString() }).where(eq(withdrawalDeclarations.id, id));
}

export type OpenDeclaration = Declaration & {
  id: number;
  rowVersion: number;
  receivedOn: string;
  confirmationSentOn: string | null;
  /** The online bookings of the people with the declaration's address, newest first. */
  candidates: DeclaredCandidate[];
};

/** The declarations staff have not settled, the oldest first, each with the bookings it may name. */
export async function openDeclarations(db: Db): Promise<OpenDeclaration[]> {
  const rows = await db
    .select({
      id: withdrawalDeclarations.id,
      rowVersion: withdrawalDeclarations.rowVersion,
      receivedOn: withdrawalDeclarations.receivedOn,
      confirmationSentOn: withdrawalDeclarations.confirmationSentOn,
      name: withdrawalDeclarations.name,
      email: withdrawalDeclarations.email,
      contract: withdrawalDeclarations.contract,
    })
    .from(withdrawalDeclarations)
    .where(eq(withdrawalDeclarations.status, "OPEN"))
    .orderBy(asc(withdrawalDeclarations.receivedOn), asc(withdrawalDeclarations.id));
  const receivedOnByEmail = new Map<string, string[]>();
  for (const row of rows) receivedOnByEmail.set(row.email, [...(receivedOnByEmail.get(row.email) ?? []), row.receivedOn]);
  const candidates = await declaredWithdrawalCandidates(db, receivedOnByEmail);
  return rows.map((row) => ({
    ...row,
    candidates: candidates
      .filter((candidate) => candidate.email === row.email)
      .map(({ withdrawableAt, ...candidate }) => ({ ...candidate, withdrawable: withdrawableAt.includes(row.receivedOn) })),
  }));
}

/** How many declarations wait for staff (the home page). */
export async function openDeclarationCount(db: Db): Promise<number> {
  const [row] = await db.select({ count: count() }).from(withdrawalDeclarations).where(eq(withdrawalDeclarations.status, "OPEN"));
  return row.count;
}

export type SettleOutcome = CancelOutcome | { status: "settled" };

const settleStatementSql = (
  input: { id: number; rowVersion: number },
  status: "APPLIED" | "CLOSED",
  actor: Actor,
  now: Date,
  extra: { membershipId?: number; note?: string },
) =>
  sql`UPDATE ${withdrawalDeclarations} SET status = ${status}, course_membership_id = ${extra.membershipId ?? null},
      settle_note = ${extra.note ?? null}, settled_on = ${now.toISOString()}, settled_by = ${actor.name},
      last_modified_by = ${actor.name}, last_modified_on = ${now.toISOString()}, row_version = row_version + 1
    WHERE id = ${input.id} AND status = 'OPEN' AND row_version = ${input.rowVersion}`;

/**
 * Applies the declaration to one online booking with a right of withdrawal of a person with its
 * address: the booking ends and its open fee is cancelled in full, as the portal's withdrawal does,
 * and the declaration is settled, all in one batch. The period counts to the declaration's receipt
 * (§ 355 Abs. 1 Satz 5 BGB: sending it in time is enough).
 */
export async function applyDeclaration(
  db: Db,
  input: { id: number; rowVersion: number; membershipId: number; membershipVersion: number },
  actor: Actor,
  now = new Date(),
): Promise<SettleOutcome> {
  const [declaration] = await db
    .select({
      email: withdrawalDeclarations.email,
      status: withdrawalDeclarations.status,
      receivedOn: withdrawalDeclarations.receivedOn,
      receivedFrom: withdrawalDeclarations.receivedFrom,
    })
    .from(withdrawalDeclarations)
    .where(eq(withdrawalDeclarations.id, input.id));
  if (!declaration) return { status: "missing" };
  if (declaration.status !== "OPEN") return { status: "changed" };
  return withdrawDeclaredBooking(
    db,
    {
      email: declaration.email,
      membershipId: input.membershipId,
      rowVersion: input.membershipVersion,
      receivedOn: declaration.receivedOn,
      from: declaration.receivedFrom,
      settle: render(settleStatementSql(input, "APPLIED", actor, now, { membershipId: input.membershipId })),
    },
    actor,
    now,
  );
}

/** Closes the declaration without a booking (none online, or settled otherwise), with a note why. */
export async function closeDeclaration(
  db: Db,
  input: { id: number; rowVersion: number; note: string },
  actor: Actor,
  now = new Date(),
): Promise<SettleOutcome> {
  const closed = await db.all<{ id: number }>(sql`${settleStatementSql(input, "CLOSED", actor, now, { note: input.note })} RETURNING id`);
  if (closed.length === 1) return { status: "settled" };
  const [exists] = await db.select({ id: withdrawalDeclarations.id }).from(withdrawalDeclarations).where(eq(withdrawalDeclarations.id, input.id));
  return exists ? { status: "changed" } : { status: "missing" };
}

/** Deletes the declarations settled before the start of the retention's last year: withdrawals and notices ('Verträge hier kündigen'). */
export async function deleteExpiredDeclarations(db: Db, now = new Date()): Promise<number> {
  const keepFrom = `${Number(todayInBerlin(now).slice(0, 4)) - DECLARATION_RETENTION_YEARS}-01-01`;
  const [withdrawals, notices] = await db.batch([
    db
      .delete(withdrawalDeclarations)
      .where(sql`${withdrawalDeclarations.status} <> 'OPEN' AND ${withdrawalDeclarations.settledOn} < ${keepFrom}`)
      .returning({ id: withdrawalDeclarations.id }),
    db
      .delete(noticeDeclarations)
      .where(sql`${noticeDeclarations.status} <> 'OPEN' AND ${noticeDeclarations.settledOn} < ${keepFrom}`)
      .returning({ id: noticeDeclarations.id }),
  ]);
  return withdrawals.length + notices.length;
}
