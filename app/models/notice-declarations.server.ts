/**
 * 'Verträge hier kündigen' (§ 312k BGB, issue 34 item 2): a consumer who made a contract online
 * must be able to give notice there too, without an account. The public page takes the notice:
 * who, the address for the confirmation, which contract, ordinary or for cause (with the reason),
 * and the end wished (none: the earliest possible, § 312k Abs. 5). Wuff confirms its content, the
 * time of receipt and the end at once by mail (§ 312k Abs. 4).
 *
 * Signed in, the person picks one of their Abos: an ordinary notice is then applied at once (the
 * Abo ends, app/models/card-settlements.server.ts recordNotice) in the batch that records it.
 * Everything else (signed out, or for cause, which staff must judge) waits on the screen
 * 'Widerrufe' for staff, who apply it to an Abo of a person with its address, or close it with a
 * note.
 */
import { and, asc, count, desc, eq, or, sql } from "drizzle-orm";
import { inValues } from "~/db/columns";
import { ABORT_UNLESS_CHANGED, render, type Db } from "~/db/client.server";
import { cards, noticeDeclarations, people } from "~/db/schema";
import { noticeEnd, type NoticeKind } from "~/lib/cards";
import { berlinDateOf, formatDate, todayInBerlin } from "~/lib/format";
import { normalizeEmail } from "~/lib/portal";
import type { Actor } from "./audit.server";
import { recordNotice } from "./card-settlements.server";
import { declaredTooOften } from "./withdrawal-declarations.server";

type SubscriptionTerms = { validFrom: string; minTermMonths: number; noticeMonths: number };

export type RunningSubscription = {
  id: number;
  personId: number;
  personName: string;
  /** The person's address as Mein Wuff compares it. */
  email: string;
  name: string;
  validFrom: string;
  terms: SubscriptionTerms;
  /** The end an ordinary notice received today sets. */
  earliestEnd: string;
};

/** The Abos that run on without notice: of a person, of the people with the addresses, or the ones named. */
async function runningSubscriptions(
  db: Db,
  whose: { personId: number } | { emails: string[]; cardIds: number[] },
  today: string,
): Promise<RunningSubscription[]> {
  const rows = await db
    .select({
      id: cards.id,
      personId: cards.personId,
      personName: sql<string>`${people.fullName}`,
      email: sql<string>`coalesce(lower(trim(${people.email})), '')`,
      name: cards.name,
      validFrom: cards.validFrom,
      minTermMonths: cards.minTermMonths,
      noticeMonths: cards.noticeMonths,
    })
    .from(cards)
    .innerJoin(people, eq(people.id, cards.personId))
    .where(
      and(
        eq(cards.kind, "SUBSCRIPTION"),
        sql`${cards.noticeReceivedOn} IS NULL`,
        "personId" in whose
          ? eq(cards.personId, whose.personId)
          : or(inValues(sql`lower(trim(${people.email}))`, whose.emails), inValues(cards.id, whose.cardIds)),
      ),
    )
    .orderBy(asc(cards.validFrom), asc(cards.id));
  return rows.map(({ minTermMonths, noticeMonths, ...row }) => {
    const terms = { validFrom: row.validFrom, minTermMonths: minTermMonths ?? 0, noticeMonths: noticeMonths ?? 0 };
    return { ...row, terms, earliestEnd: noticeEnd(terms, { on: today, kind: "ORDINARY", wantedEnd: null }) };
  });
}

/** The person's Abos that can be given notice on the page 'Verträge hier kündigen'. */
export const subscriptionsToEnd = (db: Db, personId: number, today = todayInBerlin()) => runningSubscriptions(db, { personId }, today);

export type NoticeDeclaration = {
  name: string;
  email: string;
  /** The contract in the person's words (signed out), or the Abo chosen (signed in). */
  contract: string;
  kind: NoticeKind;
  reason: string | null;
  wantedEnd: string | null;
};

type NoticeReceived = { status: "received"; id: number; receivedOn: string; contract: string; email: string; end: string | null };
export type NoticeReceiveOutcome = NoticeReceived | { status: "limited" } | { status: "refused"; message: string };

export const NOTICE_UNKNOWN_SUBSCRIPTION = "Dieses Abo gibt es bei dir nicht (mehr) oder es ist schon gekündigt. Bitte wähle eines aus der Liste.";

/**
 * Records a notice received now from `from`. With `subscription` (the signed-in person's Abo) an
 * ordinary notice is applied in the same batch; otherwise it waits for staff.
 */
export async function receiveNotice(
  db: Db,
  input: NoticeDeclaration & { from: string; subscription?: { personId: number; cardId: number } },
  actor: Actor,
  now = new Date(),
): Promise<NoticeReceiveOutcome> {
  const email = normalizeEmail(input.email);
  if (await declaredTooOften(db, noticeDeclarations, { email, from: input.from }, now)) return { status: "limited" };
  const receivedOn = now.toISOString();
  const today = todayInBerlin(now);
  let contract = input.contract;
  if (input.subscription) {
    const own = await subscriptionsToEnd(db, input.subscription.personId, today);
    const chosen = own.find((subscription) => subscription.id === input.subscription!.cardId);
    if (!chosen) return { status: "refused", message: NOTICE_UNKNOWN_SUBSCRIPTION };
    contract = `${chosen.name} (Abo seit ${formatDate(chosen.validFrom)})`;
  }
  const declared = (end: string | null) =>
    sql`INSERT INTO ${noticeDeclarations} (received_on, received_from, name, email, contract, kind, reason, wanted_end, status, card_id, end_on,
        settled_on, settled_by, created_by, created_on)
      VALUES (${receivedOn}, ${input.from}, ${input.name}, ${email}, ${contract}, ${input.kind}, ${input.reason}, ${input.wantedEnd}, ${end ? "APPLIED" : "OPEN"},
        ${input.subscription?.cardId ?? null}, ${end}, ${end ? receivedOn : null}, ${end ? actor.name : null}, ${`${input.name} (Verträge hier kündigen)`}, ${receivedOn})`;
  let end: string | null = null;
  if (input.subscription && input.kind === "ORDINARY") {
    const outcome = await recordNotice(
      db,
      input.subscription.cardId,
      { on: today, kind: "ORDINARY", wantedEnd: input.wantedEnd, also: (applied) => [render(declared(applied))] },
      actor,
      now,
    );
    if (outcome.status === "missing") return { status: "refused", message: NOTICE_UNKNOWN_SUBSCRIPTION };
    if (outcome.status === "refused") return outcome;
    end = outcome.end;
  } else {
    await db.run(declared(null));
  }
  const [row] = await db
    .select({ id: noticeDeclarations.id })
    .from(noticeDeclarations)
    .where(and(eq(noticeDeclarations.email, email), eq(noticeDeclarations.receivedOn, receivedOn)))
    .orderBy(desc(noticeDeclarations.id))
    .limit(1);
  return { status: "received", id: row.id, receivedOn, contract, email, end };
}

/** The confirmation of the notice went out (the screen shows the ones that did not). */
export async function noticeConfirmationSent(db: Db, id: number, now = new Date()): Promise<void> {
  await db.update(noticeDeclarations).set({ confirmationSentOn: now.toISOString() }).where(eq(noticeDeclarations.id, id));
}

export type OpenNotice = NoticeDeclaration & {
  id: number;
  rowVersion: number;
  receivedOn: string;
  confirmationSentOn: string | null;
  /** The Abos running on of the people with the notice's address (and the one chosen), each with the end applying it would set. */
  candidates: (RunningSubscription & { end: string })[];
};

/** The notices staff have not settled, the oldest first. */
export async function openNotices(db: Db): Promise<OpenNotice[]> {
  const rows = await db
    .select({
      id: noticeDeclarations.id,
      rowVersion: noticeDeclarations.rowVersion,
      receivedOn: noticeDeclarations.receivedOn,
      confirmationSentOn: noticeDeclarations.confirmationSentOn,
      name: noticeDeclarations.name,
      email: noticeDeclarations.email,
      contract: noticeDeclarations.contract,
      kind: noticeDeclarations.kind,
      reason: noticeDeclarations.reason,
      wantedEnd: noticeDeclarations.wantedEnd,
      cardId: noticeDeclarations.cardId,
    })
    .from(noticeDeclarations)
    .where(eq(noticeDeclarations.status, "OPEN"))
    .orderBy(asc(noticeDeclarations.receivedOn), asc(noticeDeclarations.id));
  if (rows.length === 0) return [];
  const running = await runningSubscriptions(
    db,
    { emails: [...new Set(rows.map((row) => row.email))], cardIds: rows.flatMap((row) => (row.cardId === null ? [] : [row.cardId])) },
    todayInBerlin(),
  );
  return rows.map(({ cardId, ...row }) => ({
    ...row,
    candidates: running
      .filter((subscription) => subscription.email === row.email || subscription.id === cardId)
      .map((subscription) => ({
        ...subscription,
        end: noticeEnd(subscription.terms, { on: berlinDateOf(row.receivedOn), kind: row.kind, wantedEnd: row.wantedEnd }),
      })),
  }));
}

/** How many notices wait for staff (the home page). */
export async function openNoticeCount(db: Db): Promise<number> {
  const [row] = await db.select({ count: count() }).from(noticeDeclarations).where(eq(noticeDeclarations.status, "OPEN"));
  return row.count;
}

export type NoticeSettleOutcome =
  | {
      status: "applied";
      end: string;
      name: string;
      email: string;
      receivedOn: string;
      contract: string;
      kind: NoticeKind;
      reason: string | null;
      wantedEnd: string | null;
    }
  | { status: "settled" }
  | { status: "refused"; message: string }
  | { status: "changed" }
  | { status: "missing" };

const settled = (input: { id: number; rowVersion: number }, actor: Actor, now: Date, extra: { cardId: number; end: string } | { note: string }) =>
  sql`UPDATE ${noticeDeclarations} SET status = ${"note" in extra ? "CLOSED" : "APPLIED"}, card_id = coalesce(${"cardId" in extra ? extra.cardId : null}, card_id),
      end_on = ${"end" in extra ? extra.end : null}, settle_note = ${"note" in extra ? extra.note : null}, settled_on = ${now.toISOString()}, settled_by = ${actor.name},
      last_modified_by = ${actor.name}, last_modified_on = ${now.toISOString()}, row_version = row_version + 1
    WHERE id = ${input.id} AND status = 'OPEN' AND row_version = ${input.rowVersion}`;

/**
 * Applies the notice to one of the Abos it may name: the Abo ends as the notice sets, counted from
 * its receipt (a notice takes effect when it is received, § 130 BGB), and the notice is settled,
 * in one batch.
 */
export async function applyNotice(
  db: Db,
  input: { id: number; rowVersion: number; cardId: number },
  actor: Actor,
  now = new Date(),
): Promise<NoticeSettleOutcome> {
  const [notice] = (await openNotices(db)).filter((candidate) => candidate.id === input.id);
  if (!notice) return (await noticeExists(db, input.id)) ? { status: "changed" } : { status: "missing" };
  if (notice.rowVersion !== input.rowVersion) return { status: "changed" };
  if (!notice.candidates.some((candidate) => candidate.id === input.cardId)) return { status: "refused", message: NOTICE_UNKNOWN_SUBSCRIPTION };
  const outcome = await recordNotice(
    db,
    input.cardId,
    {
      on: berlinDateOf(notice.receivedOn),
      kind: notice.kind,
      wantedEnd: notice.wantedEnd,
      also: (end) => [render(settled(input, actor, now, { cardId: input.cardId, end })), ABORT_UNLESS_CHANGED],
    },
    actor,
    now,
  );
  if (outcome.status !== "recorded") return outcome;
  const { candidates: _candidates, ...declaration } = notice;
  return { status: "applied", end: outcome.end, ...declaration };
}

/** Closes the notice without an Abo (none online, settled otherwise), with a note why. */
export async function closeNotice(
  db: Db,
  input: { id: number; rowVersion: number; note: string },
  actor: Actor,
  now = new Date(),
): Promise<NoticeSettleOutcome> {
  const closed = await db.all<{ id: number }>(sql`${settled(input, actor, now, { note: input.note })} RETURNING id`);
  if (closed.length === 1) return { status: "settled" };
  return (await noticeExists(db, input.id)) ? { status: "changed" } : { status: "missing" };
}

async function noticeExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: noticeDeclarations.id }).from(noticeDeclarations).where(eq(noticeDeclarations.id, id));
  return Boolean(row);
}
