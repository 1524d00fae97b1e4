/**
 * Settling 10er-Karten and subscriptions (issue 34 items 2, 3 and 5), each a record that is never
 * changed:
 * - the notice of a subscription: the day it was received and the end it sets (app/lib/cards.ts
 *   subscriptionEnd, § 309 Nr. 9 BGB);
 * - the refund of a card's unused units on request: a credit note on the invoice of its sale,
 *   booked in the payment journal (app/models/credit-notes.server.ts), and the units gone;
 * - an attendance 'ohne Karte' settled by a single visit charged as a fee, or waived with a reason
 *   (the third way, selling a card, is the sale's: app/models/cards.server.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import { coursePriceTierOf, tierPrice } from "~/db/columns";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import {
  attendances,
  attendanceSettlements,
  cardFees,
  cardRefunds,
  cards,
  courseDates,
  courseMemberships,
  courses,
  fees,
  invoiceHeaders,
  invoiceRows,
  payments,
  people,
} from "~/db/schema";
import { noticeEnd, type NoticeKind } from "~/lib/cards";
import { berlinDateOf, formatDate, formatMoney } from "~/lib/format";
import type { TaxCase } from "~/lib/tax";
import { paysByInvoice } from "./annual-fees.server";
import type { Actor } from "./audit.server";
import { cardBalanceSql, openUseOf, settledOtherwise } from "./cards.server";
import { issueCreditNote } from "./credit-notes.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { defaultTaxCaseOfFee } from "./tax.server";

// ---------------------------------------------------------------------------------------------
// Notice

export type NoticeOutcome = { status: "recorded"; end: string } | { status: "refused"; message: string } | { status: "missing" };

export type NoticeInput = {
  /** The day the notice was received. */
  on: string;
  kind: NoticeKind;
  /** The end wished, or null: the earliest possible. */
  wantedEnd: string | null;
  /** Further statements for the notice's batch, given the end it sets (the declaration that gave it). */
  also?: (end: string) => Statement[];
};

/** Records the notice of a subscription and the end it sets (app/lib/cards.ts noticeEnd), once. */
export async function recordNotice(db: Db, cardId: number, notice: NoticeInput, actor: Actor, now = new Date()): Promise<NoticeOutcome> {
  const [card] = await db.select().from(cards).where(eq(cards.id, cardId));
  if (!card) return { status: "missing" };
  if (card.kind !== "SUBSCRIPTION") return { status: "refused", message: "Kündigen lässt sich nur ein Abo; eine Karte endet mit ihrer Gültigkeit." };
  if (card.noticeReceivedOn) return { status: "refused", message: NOTICE_ALREADY(card.noticeReceivedOn) };
  if (notice.on < card.validFrom) return { status: "refused", message: "Die Kündigung kann nicht vor dem Beginn des Abos eingegangen sein." };
  const end = noticeEnd({ validFrom: card.validFrom, minTermMonths: card.minTermMonths ?? 0, noticeMonths: card.noticeMonths ?? 0 }, notice);
  try {
    await runAtomically(db, [
      render(sql`UPDATE ${cards} SET notice_received_on = ${notice.on}, valid_until = ${end}, last_modified_by = ${actor.name}, last_modified_on = ${now.toISOString()},
        row_version = row_version + 1 WHERE id = ${cardId} AND notice_received_on IS NULL`),
      ABORT_UNLESS_CHANGED,
      ...(notice.also?.(end) ?? []),
    ]);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return { status: "refused", message: "Die Kündigung wurde inzwischen schon eingetragen." };
    throw error;
  }
  return { status: "recorded", end };
}

const NOTICE_ALREADY = (receivedOn: string) => `Die Kündigung ist schon eingetragen: eingegangen am ${formatDate(receivedOn)}.`;

// ---------------------------------------------------------------------------------------------
// Refund of unused units

export type Refundable = {
  cardId: number;
  personName: string;
  name: string;
  units: number;
  balance: number;
  /** The unused units' share of the price. */
  amount: number;
  /** The issued invoice the card's sale is on, or null. */
  invoice: { id: number; number: number } | null;
  taxCase: TaxCase;
  refusal: string | null;
};

/** What refunding the card would pay back, on which invoice, and why it cannot be done. */
export async function refundableOf(db: Db, cardId: number, today: string): Promise<Refundable | undefined> {
  const f = sql`f`;
  const [row] = await db.all<{
    name: string;
    personName: string;
    kind: string;
    units: number | null;
    price: number;
    validUntil: string | null;
    balance: number;
    refunded: number;
    invoiceId: number | null;
    invoiceNumber: number | null;
    taxCase: TaxCase | null;
  }>(sql`SELECT c.name, p.full_name AS personName, c.kind, c.units, c.price, c.valid_until AS validUntil,
      ${cardBalanceSql("c")} AS balance,
      EXISTS (SELECT 1 FROM ${cardRefunds} r WHERE r.card_id = c.id) AS refunded,
      (SELECT h.id FROM ${invoiceRows} ir JOIN ${invoiceHeaders} h ON h.id = ir.invoice_id
        WHERE ir.fee_id = cf.fee_id AND h.status = 'ISSUED' AND h.kind = 'INVOICE' ORDER BY h.id DESC LIMIT 1) AS invoiceId,
      (SELECT h.invoice_number FROM ${invoiceRows} ir JOIN ${invoiceHeaders} h ON h.id = ir.invoice_id
        WHERE ir.fee_id = cf.fee_id AND h.status = 'ISSUED' AND h.kind = 'INVOICE' ORDER BY h.id DESC LIMIT 1) AS invoiceNumber,
      (SELECT ${defaultTaxCaseOfFee(f)} FROM ${fees} f WHERE f.id = cf.fee_id) AS taxCase
    FROM ${cards} c JOIN ${people} p ON p.id = c.person_id LEFT JOIN ${cardFees} cf ON cf.card_id = c.id AND cf.period_start IS NULL
    WHERE c.id = ${cardId}`);
  if (!row) return undefined;
  if (row.kind !== "CARD" || row.units === null) return undefined;
  // The price less what the used units earned (shared as app/lib/cards.ts cardReport does): the
  // card's shares add up to its price to the cent.
  const amount = row.balance > 0 ? row.price - Math.round((row.price * (row.units - row.balance)) / row.units) : 0;
  const invoice = row.invoiceId && row.invoiceNumber ? { id: row.invoiceId, number: row.invoiceNumber } : null;
  const refusal = row.refunded
    ? "Diese Karte wurde schon erstattet."
    : row.validUntil !== null && row.validUntil < today
      ? "Die Karte ist abgelaufen: Abgelaufene Einheiten werden nicht erstattet."
      : row.balance <= 0
        ? "Auf der Karte sind keine Einheiten mehr übrig."
        : amount <= 0
          ? "Die Karte hat nichts gekostet: Es gibt nichts zu erstatten."
          : !invoice
            ? "Die Karte ist noch nicht mit einer ausgestellten Rechnung abgerechnet: Erstattet wird per Gutschrift zu dieser Rechnung. Bitte erst die Rechnung schreiben, oder den offenen Posten der Karte ändern."
            : null;
  return {
    cardId,
    personName: row.personName,
    name: row.name,
    units: row.units,
    balance: row.balance,
    amount,
    invoice,
    taxCase: row.taxCase ?? "STANDARD",
    refusal,
  };
}

const refundKey = (formKey: string) => `card-refund:${formKey}`;

export type RefundOutcome =
  | { status: "refunded"; units: number; amount: number; invoiceNumber: number }
  | { status: "refused"; message: string }
  | { status: "missing" }
  | { status: "already" };

/**
 * Refunds the card's unused units by a credit note on its sale's invoice, in one batch with the
 * refund record (the card's balance drops to 0). `key` makes a form sent twice refund once.
 */
export async function refundCard(db: Db, cardId: number, key: string, actor: Actor, today: string, now = new Date()): Promise<RefundOutcome> {
  // The same form again (a reload, a double click): the refund it made stands.
  if ((await db.$count(payments, eq(payments.entryKey, `creditnote:${refundKey(key)}`))) > 0) return { status: "already" };
  const refundable = await refundableOf(db, cardId, today);
  if (!refundable) return { status: "missing" };
  if (refundable.refusal || !refundable.invoice) return { status: "refused", message: refundable.refusal ?? "Die Karte ist nicht abgerechnet." };
  const { balance, amount, invoice } = refundable;
  const outcome = await issueCreditNote(
    db,
    invoice.id,
    {
      text: `Erstattung ${refundable.name}: ${balance} nicht genutzte ${balance === 1 ? "Einheit" : "Einheiten"}`,
      amount,
      taxCase: refundable.taxCase,
      key: refundKey(key),
      // The units exactly as read: when a tick took one since, the batch fails on the check below.
      also: (creditNote) => [
        render(sql`INSERT INTO ${cardRefunds} (card_id, units, amount, credit_note_id, refunded_on, created_by, created_on)
          SELECT ${cardId}, ${balance}, ${amount}, ${creditNote}, ${today}, ${actor.name}, ${now.toISOString()}
          WHERE (SELECT ${cardBalanceSql("c")} FROM ${cards} c WHERE c.id = ${cardId}) = ${balance}`),
        ABORT_UNLESS_CHANGED,
      ],
    },
    actor,
    today,
    now,
  );
  if (outcome.status === "issued") return { status: "refunded", units: balance, amount, invoiceNumber: outcome.invoiceNumber };
  if (outcome.status === "refused") return { status: "refused", message: outcome.message };
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// Attendance 'ohne Karte': a single visit, or waived

export type WithoutCardAttendance = {
  attendanceId: number;
  personId: number;
  personName: string;
  courseName: string;
  day: string;
  /** The course's price of a session for the person's tier, when it is priced per session. */
  sessionPrice: number | null;
  settled: boolean;
  /** A card took it over since (sold afterwards, valid on its day). */
  covered: boolean;
};

/** One attendance as the settling dialog shows it. */
export async function withoutCardAttendance(db: Db, attendanceId: number): Promise<WithoutCardAttendance | undefined> {
  const [row] = await db
    .select({
      attendanceId: attendances.id,
      personId: courseMemberships.personId,
      personName: sql<string>`${people.fullName}`,
      courseName: courses.name,
      startDateTime: courseDates.startDateTime,
      sessionPrice: sql<number | null>`CASE WHEN ${courses.pricingModel} = 'PER_SESSION' THEN
        ${tierPrice(coursePriceTierOf(people.id), { FULL: courses.costFull, REDUCED1: courses.costReduced1, REDUCED2: courses.costReduced2 })} END`,
      settled: sql<number>`EXISTS (SELECT 1 FROM ${attendanceSettlements} s WHERE s.attendance_id = ${attendances.id})`,
      covered: sql<number>`${openUseOf("attendances.id")}`,
    })
    .from(attendances)
    .innerJoin(courseMemberships, eq(courseMemberships.id, attendances.courseMembershipId))
    .innerJoin(courses, eq(courses.id, courseMemberships.courseId))
    .innerJoin(courseDates, eq(courseDates.id, attendances.courseDateId))
    .innerJoin(people, eq(people.id, courseMemberships.personId))
    .where(and(eq(attendances.id, attendanceId), eq(attendances.present, true)));
  if (!row) return undefined;
  const { startDateTime, settled, covered, ...rest } = row;
  return { ...rest, day: berlinDateOf(startDateTime), settled: Boolean(settled), covered: Boolean(covered) };
}

export type Settlement = { kind: "FEE"; amount: number } | { kind: "WAIVED"; note: string };
export type SettleOutcome = { status: "settled" } | { status: "refused"; message: string } | { status: "missing" };

/**
 * Settles an attendance 'ohne Karte': charges the single visit as a fee ('Einzelstunde Social
 * Walk, 30.11.2026'; the course type's tax case) or waives it with the reason, in one batch, once.
 */
export async function settleWithoutCard(db: Db, attendanceId: number, settlement: Settlement, actor: Actor, now = new Date()): Promise<SettleOutcome> {
  const attendance = await withoutCardAttendance(db, attendanceId);
  if (!attendance) return { status: "missing" };
  if (attendance.settled) return { status: "refused", message: "Diese Teilnahme ist schon erledigt." };
  const iso = now.toISOString();
  // Only while no card has covered it meanwhile and nobody settled it: else nothing is written.
  const open = sql`NOT ${openUseOf(String(attendanceId))} AND NOT ${settledOtherwise(String(attendanceId))}`;
  const statements =
    settlement.kind === "FEE"
      ? [
          render(sql`INSERT INTO ${fees} (person_id, date, text, amount, open_amount, send_invoice, kind, created_by, created_on)
            SELECT ${attendance.personId}, ${attendance.day}, ${`Einzelstunde ${attendance.courseName}, ${formatDate(attendance.day)}`.slice(0, 100)},
              ${settlement.amount}, ${settlement.amount}, ${paysByInvoice(sql`${attendance.personId}`)}, 'OTHER', ${actor.name}, ${iso}
            WHERE ${open}`),
          render(sql`INSERT INTO ${attendanceSettlements} (attendance_id, kind, fee_id, created_by, created_on)
            SELECT ${attendanceId}, 'FEE', last_insert_rowid(), ${actor.name}, ${iso} WHERE changes() = 1`),
        ]
      : [
          render(sql`INSERT INTO ${attendanceSettlements} (attendance_id, kind, note, created_by, created_on)
            SELECT ${attendanceId}, 'WAIVED', ${settlement.note}, ${actor.name}, ${iso} WHERE ${open}`),
        ];
  const results = await runAtomically(db, statements);
  if (results.at(-1)!.meta.changes === 0) return { status: "refused", message: "Diese Teilnahme ist inzwischen mit einer Karte verrechnet oder erledigt." };
  return { status: "settled" };
}

/** 'Einzelstunde … berechnet (12,00 €)' / 'erlassen': the toast. */
export const settlementMessage = (settlement: Settlement) =>
  settlement.kind === "FEE" ? `Einzelstunde berechnet (${formatMoney(settlement.amount)}).` : "Teilnahme ohne Karte erlassen.";
