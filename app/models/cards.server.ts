/**
 * 10er-Karten and subscriptions (issue 34): the products, the cards sold to people, and what
 * attendance takes from them. A card's balance is derived from its uses (never stored); a tick in
 * an open group takes from the person's valid card in the same batch as the tick (rules in
 * app/lib/cards.ts: a subscription first, else the card that runs out first), an un-tick gives it
 * back by a RETURN naming the use. Without a valid card the tick still counts and stays 'ohne Karte'.
 */
import { and, asc, count, desc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { coursePriceTierOf, tierPrice } from "~/db/columns";
import { ABORT_UNLESS_CHANGED, render, runAtomically, toSql, type Db, type Statement } from "~/db/client.server";
import {
  attendances,
  cardFees,
  cardProducts,
  cardProductScopes,
  cards,
  cardUses,
  courseDates,
  courseMasters,
  courseMemberships,
  courses,
  fees,
  people,
} from "~/db/schema";
import { cardReport, cardSaleText, cardValidUntil, isValidOn, subscriptionPeriodsDue, type CardKind, type SubscriptionPeriod } from "~/lib/cards";
import { berlinDateOf, formatDate, todayInBerlin } from "~/lib/format";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import type { TaxCase } from "~/lib/tax";
import { paysByInvoice } from "./annual-fees.server";
import { auditInsert, type Actor, type UpdateOutcome } from "./audit.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { pageOfPosition, positionInOrder, sortKey, type SortKey } from "./paging.server";
import type { DeleteOutcome } from "./people.server";
import { moveToBin } from "./recycle-bin.server";
import { periodFeeStatements } from "./subscription-fees.server";

/** A card's balance in SQL (`card` names the cards table or its alias): units − uses + returns − refunded; NULL for a subscription. */
export const cardBalanceSql = (card: string) =>
  sql.raw(`CASE WHEN ${card}.kind = 'CARD' THEN CASE WHEN ${isWithdrawn(card)} THEN 0 ELSE ${card}.units - coalesce((SELECT sum(CASE bu.kind WHEN 'USE' THEN bu.units ELSE -bu.units END)
    FROM card_uses bu WHERE bu.card_id = ${card}.id), 0) - coalesce((SELECT br.units FROM card_refunds br WHERE br.card_id = ${card}.id), 0) END END`);

/** Whether the card's online purchase was withdrawn (its units are gone with it). */
const isWithdrawn = (card: string) => `EXISTS (SELECT 1 FROM card_purchases bp WHERE bp.card_id = ${card}.id AND bp.withdrawn_on IS NOT NULL)`;

/** Whether a card's product is valid for a course (`course` names the courses table or its alias). */
const validForCourse = (card: string, course: string) =>
  sql.raw(`EXISTS (SELECT 1 FROM card_product_scopes s WHERE s.product_id = ${card}.product_id
    AND (s.course_id = ${course}.id OR s.course_master_id = ${course}.course_master_id))`);

/** Whether a card_uses row (`use` names it or its alias) is a use that no return has reversed. */
const isOpenUse = (use: string) => `${use}.kind = 'USE' AND NOT EXISTS (SELECT 1 FROM card_uses ur WHERE ur.reverses_id = ${use}.id)`;

/** A use of an attendance that no return has reversed (`attendanceId` names the attendance id in SQL). */
export const openUseOf = (attendanceId: string) =>
  sql.raw(`EXISTS (SELECT 1 FROM card_uses ou WHERE ou.attendance_id = ${attendanceId} AND ${isOpenUse("ou")})`);

/** Whether staff settled an attendance 'ohne Karte' otherwise (a single visit charged, or waived). */
export const settledOtherwise = (attendanceId: string) => sql.raw(`EXISTS (SELECT 1 FROM attendance_settlements st WHERE st.attendance_id = ${attendanceId})`);

/** How many uses of a card are open (`card` names the cards table or its alias). */
const openUseCount = (card: string) => sql.raw(`(SELECT count(*) FROM card_uses u WHERE u.card_id = ${card}.id AND ${isOpenUse("u")})`);

/** Whether a course counts its attendance by card: an open group that some product is valid for. */
const countsByCard = (course: string) =>
  sql.raw(`(${course}.duration_model = 'ONGOING' AND EXISTS (SELECT 1 FROM card_product_scopes cs
    WHERE cs.course_id = ${course}.id OR cs.course_master_id = ${course}.course_master_id))`);

/**
 * The statements that follow a tick or un-tick of one participant on one date, in its batch: a
 * present attendance without an open use takes from the card chosen by the rules (none: it stays
 * 'ohne Karte'); an absent one gives back what its open use took. Both are no-ops when there is
 * nothing to do, so a repeated tick never takes twice.
 */
export function cardUseStatements(input: { courseDateId: number; courseMembershipId: number; day: string }, actor: Actor, nowIso: string): Statement[] {
  const attendance = sql`a.course_date_id = ${input.courseDateId} AND a.course_membership_id = ${input.courseMembershipId}`;
  return [
    render(sql`INSERT INTO ${cardUses} (card_id, kind, units, attendance_id, used_on, created_by, created_on)
      SELECT c.id, 'USE', CASE WHEN c.kind = 'SUBSCRIPTION' THEN 0 ELSE c.units_per_attendance END, a.id, ${input.day}, ${actor.name}, ${nowIso}
      FROM ${attendances} a
      JOIN ${courseMemberships} m ON m.id = a.course_membership_id
      JOIN ${courses} co ON co.id = m.course_id
      JOIN ${cards} c ON c.person_id = m.person_id
      WHERE ${attendance} AND a.present = 1 AND co.duration_model = 'ONGOING' AND NOT ${openUseOf("a.id")}
        AND c.valid_from <= ${input.day} AND (c.valid_until IS NULL OR c.valid_until >= ${input.day})
        AND ${validForCourse("c", "co")}
        AND (c.kind = 'SUBSCRIPTION' OR ${cardBalanceSql("c")} >= c.units_per_attendance)
      ORDER BY c.kind = 'SUBSCRIPTION' DESC, coalesce(c.valid_until, '9999-12-31'), c.id
      LIMIT 1`),
    render(sql`INSERT INTO ${cardUses} (card_id, kind, units, attendance_id, used_on, reverses_id, created_by, created_on)
      SELECT u.card_id, 'RETURN', u.units, u.attendance_id, u.used_on, u.id, ${actor.name}, ${nowIso}
      FROM ${cardUses} u JOIN ${attendances} a ON a.id = u.attendance_id
      WHERE ${attendance} AND a.present = 0 AND ${sql.raw(isOpenUse("u"))}`),
  ];
}

// ---------------------------------------------------------------------------------------------
// Selling

export type SaleInput = {
  personId: number;
  productId: number;
  validFrom: string;
  price: number;
  /** Further statements for the sale's batch, given the new card's id (an online purchase's evidence). */
  also?: (card: SQL) => Statement[];
};
export type SaleOutcome = { status: "sold"; cardId: number; feeId: number | null; settled: number } | { status: "refused"; message: string };

const PRODUCT_NOT_OFFERED = "Dieses Produkt gibt es nicht oder es wird nicht mehr verkauft.";

/**
 * Sells a product to a person in one batch: the card with the product's terms as of now, its fee
 * (a card's price once; a subscription's first period, the later ones by the run 'Abo-Beiträge'), the link
 * between them, and the settling of the person's attendance 'ohne Karte' that the card is valid
 * for and that lies in its time, oldest first, as far as its units reach.
 */
export async function sellCard(db: Db, input: SaleInput, actor: Actor, now = new Date()): Promise<SaleOutcome> {
  const [[product], open] = await Promise.all([
    db
      .select()
      .from(cardProducts)
      .where(and(eq(cardProducts.id, input.productId), eq(cardProducts.isOffered, true))),
    withoutCardOf(db, input.personId, input.productId),
  ]);
  if (!product) return { status: "refused", message: PRODUCT_NOT_OFFERED };
  const nowIso = now.toISOString();
  const validUntil = product.kind === "CARD" ? cardValidUntil(input.validFrom, product.validMonths!) : null;
  const inTime = open.filter((attendance) => isValidOn({ validFrom: input.validFrom, validUntil }, attendance.day));
  const settled = product.kind === "CARD" ? inTime.slice(0, Math.floor(product.units! / product.unitsPerAttendance)) : inTime;
  const card = sql`(SELECT max(id) FROM ${cards} WHERE person_id = ${input.personId} AND created_on = ${nowIso})`;
  const fee = sql`(SELECT max(id) FROM ${fees} WHERE person_id = ${input.personId} AND created_on = ${nowIso})`;
  const units = product.kind === "CARD" ? product.unitsPerAttendance : 0;
  const cardBilled = product.kind === "CARD" && input.price > 0;
  // A subscription's sale bills the periods begun by today (the first, unless it starts later).
  const periods =
    product.kind === "SUBSCRIPTION" && input.price > 0
      ? subscriptionPeriodsDue({ validFrom: input.validFrom, validUntil: null, period: product.period!, price: input.price }, todayInBerlin(now))
      : [];
  const billed = cardBilled || periods.length > 0;
  const results = await runAtomically(db, [
    render(sql`INSERT INTO ${cards} (person_id, product_id, kind, name, units, units_per_attendance, price, valid_from, valid_until, period, min_term_months, notice_months, created_by, created_on)
      VALUES (${input.personId}, ${product.id}, ${product.kind}, ${product.name}, ${product.units}, ${product.unitsPerAttendance}, ${input.price}, ${input.validFrom},
        ${validUntil}, ${product.period}, ${product.minTermMonths}, ${product.noticeMonths}, ${actor.name}, ${nowIso})`),
    ...(cardBilled
      ? [
          render(sql`INSERT INTO ${fees} (person_id, date, text, amount, open_amount, send_invoice, kind, created_by, created_on)
            VALUES (${input.personId}, ${todayInBerlin(now)}, ${cardSaleText(product.name, input.validFrom, validUntil)}, ${input.price}, ${input.price},
              ${paysByInvoice(sql`${input.personId}`)}, 'OTHER', ${actor.name}, ${nowIso})`),
          render(sql`INSERT INTO ${cardFees} (card_id, fee_id, created_on) VALUES (${card}, ${fee}, ${nowIso})`),
        ]
      : []),
    ...periodFeeStatements(card, periods, null, actor, now),
    ...(input.also?.(card) ?? []),
    // Each only while no other use covers it (a tick in between): never twice.
    ...settled.map((attendance) =>
      render(sql`INSERT INTO ${cardUses} (card_id, kind, units, attendance_id, used_on, created_by, created_on)
        SELECT ${card}, 'USE', ${units}, ${attendance.attendanceId}, ${attendance.day}, ${actor.name}, ${nowIso} WHERE NOT ${openUseOf(String(attendance.attendanceId))}`),
    ),
    render(sql`SELECT ${card} AS card_id, ${billed ? fee : sql`NULL`} AS fee_id, (SELECT count(*) FROM ${cardUses} WHERE card_id = ${card}) AS settled`),
  ]);
  const [row] = results.at(-1)!.results as { card_id: number; fee_id: number | null; settled: number }[];
  return { status: "sold", cardId: row.card_id, feeId: row.fee_id, settled: row.settled };
}

/** The person's attendance 'ohne Karte' in courses the product is valid for, oldest first. */
async function withoutCardOf(db: Db, personId: number, productId: number): Promise<{ attendanceId: number; day: string }[]> {
  const rows = await db
    .select({ attendanceId: attendances.id, startDateTime: courseDates.startDateTime })
    .from(attendances)
    .innerJoin(courseMemberships, eq(courseMemberships.id, attendances.courseMembershipId))
    .innerJoin(courses, eq(courses.id, courseMemberships.courseId))
    .innerJoin(courseDates, eq(courseDates.id, attendances.courseDateId))
    .where(
      and(
        eq(courseMemberships.personId, personId),
        eq(attendances.present, true),
        eq(courses.durationModel, "ONGOING"),
        sql`EXISTS (SELECT 1 FROM card_product_scopes s WHERE s.product_id = ${productId} AND (s.course_id = ${courses.id} OR s.course_master_id = ${courses.courseMasterId}))`,
        sql`NOT ${openUseOf(`"attendances"."id"`)}`,
        sql`NOT ${settledOtherwise(`"attendances"."id"`)}`,
      ),
    )
    .orderBy(asc(courseDates.startDateTime), asc(attendances.id));
  return rows.map((row) => ({ attendanceId: row.attendanceId, day: berlinDateOf(row.startDateTime) }));
}

// ---------------------------------------------------------------------------------------------
// Reading

export type PersonCard = {
  id: number;
  kind: "CARD" | "SUBSCRIPTION";
  name: string;
  units: number | null;
  balance: number | null;
  validFrom: string;
  validUntil: string | null;
  uses: number;
  price: number;
  unitsPerAttendance: number;
};

/** What a card shows wherever it is listed (the person's tab, all cards, the rules' checks). */
const personCardColumns = {
  id: cards.id,
  kind: cards.kind,
  name: cards.name,
  units: cards.units,
  balance: sql<number | null>`${cardBalanceSql("cards")}`.as("card_balance"),
  validFrom: cards.validFrom,
  validUntil: cards.validUntil,
  // cards.id spelled out: a one-table select writes its columns bare, and "id" would be u.id.
  uses: sql<number>`${openUseCount("cards")}`.as("use_count"),
  price: cards.price,
  unitsPerAttendance: cards.unitsPerAttendance,
};

/** One card as sold, with its holder's name (the dialogs' heading). */
export async function cardOf(db: Db, id: number) {
  const [row] = await db
    .select({ ...getTableColumns(cards), personName: sql<string>`coalesce(${people.fullName}, '')` })
    .from(cards)
    .innerJoin(people, eq(people.id, cards.personId))
    .where(eq(cards.id, id));
  return row;
}

/** The person's cards and subscriptions with what is left, the newest first. */
export async function cardsOfPerson(db: Db, personId: number): Promise<PersonCard[]> {
  return db.select(personCardColumns).from(cards).where(eq(cards.personId, personId)).orderBy(desc(cards.validFrom), desc(cards.id));
}

export type OwnCardUse = { id: number; cardId: number; day: string; units: number; courseName: string };

/** Mein Wuff: what the person's attendance took from their cards, the newest first (not un-ticked). */
export async function ownCardUses(db: Db, personId: number, limit = 30): Promise<OwnCardUse[]> {
  return db.all<OwnCardUse>(sql`SELECT u.id, u.card_id AS cardId, u.used_on AS day, u.units, co.name AS courseName
    FROM ${cardUses} u JOIN ${cards} c ON c.id = u.card_id JOIN ${attendances} a ON a.id = u.attendance_id
      JOIN ${courseMemberships} m ON m.id = a.course_membership_id JOIN ${courses} co ON co.id = m.course_id
    WHERE c.person_id = ${personId} AND ${sql.raw(isOpenUse("u"))}
    ORDER BY u.used_on DESC, u.id DESC LIMIT ${limit}`);
}

export type WithoutCard = { attendanceId: number; personId: number; personName: string; courseName: string; day: string };

/**
 * Attendance in open groups counted by card that no card covers ('ohne Karte'), oldest first.
 * The courses counted by card come first, then their participants and ticks by index (CROSS JOIN
 * keeps that order in SQLite): the cost follows the open groups, not every tick of the club.
 */
export async function attendanceWithoutCard(db: Db, limit = 100): Promise<WithoutCard[]> {
  const rows = await db
    .select({
      attendanceId: attendances.id,
      personId: courseMemberships.personId,
      personName: sql<string>`${people.fullName}`.as("person_name"),
      courseName: sql<string>`${courses.name}`.as("course_name"),
      startDateTime: courseDates.startDateTime,
    })
    .from(courses)
    .crossJoin(courseMemberships)
    .crossJoin(attendances)
    .innerJoin(courseDates, eq(courseDates.id, attendances.courseDateId))
    .innerJoin(people, eq(people.id, courseMemberships.personId))
    .where(
      and(
        sql`${countsByCard("courses")}`,
        eq(courseMemberships.courseId, courses.id),
        eq(attendances.courseMembershipId, courseMemberships.id),
        eq(attendances.present, true),
        sql`NOT ${openUseOf(`"attendances"."id"`)}`,
        sql`NOT ${settledOtherwise(`"attendances"."id"`)}`,
      ),
    )
    .orderBy(asc(courseDates.startDateTime), asc(attendances.id))
    .limit(limit);
  return rows.map(({ startDateTime, ...row }) => ({ ...row, day: berlinDateOf(startDateTime) }));
}

// ---------------------------------------------------------------------------------------------
// The products (Einstellungen → Karten & Abos, ADMIN)

export type CardProductRow = {
  id: number;
  name: string;
  kind: CardKind;
  units: number | null;
  validMonths: number | null;
  period: SubscriptionPeriod | null;
  minTermMonths: number | null;
  noticeMonths: number | null;
  priceFull: number;
  priceReduced1: number;
  priceReduced2: number;
  taxCase: TaxCase;
  unitsPerAttendance: number;
  isOffered: boolean;
  /** What it is valid for: the course types' and courses' names. */
  scopeNames: string;
  soldCount: number;
};

const PRODUCT_SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${cardProducts.id}`),
  name: sortKey(sql`${cardProducts.nameKey}`),
  kind: sortKey(sql`${cardProducts.kind}`),
  priceFull: sortKey(sql`${cardProducts.priceFull}`),
  isOffered: sortKey(sql`${cardProducts.isOffered}`),
  soldCount: sortKey(sql`sold_count`),
};

const productColumns = {
  id: cardProducts.id,
  name: cardProducts.name,
  kind: cardProducts.kind,
  units: cardProducts.units,
  validMonths: cardProducts.validMonths,
  period: cardProducts.period,
  minTermMonths: cardProducts.minTermMonths,
  noticeMonths: cardProducts.noticeMonths,
  priceFull: cardProducts.priceFull,
  priceReduced1: cardProducts.priceReduced1,
  priceReduced2: cardProducts.priceReduced2,
  taxCase: cardProducts.taxCase,
  unitsPerAttendance: cardProducts.unitsPerAttendance,
  isOffered: cardProducts.isOffered,
  // card_products.id spelled out: a bare "id" in a subquery would be the inner table's.
  scopeNames: sql<string>`coalesce((SELECT group_concat(coalesce(cm.name, c.name), ', ') FROM card_product_scopes s
    LEFT JOIN course_masters cm ON cm.id = s.course_master_id LEFT JOIN courses c ON c.id = s.course_id WHERE s.product_id = card_products.id), '')`.as(
    "scope_names",
  ),
  soldCount: sql<number>`(SELECT count(*) FROM cards sc WHERE sc.product_id = card_products.id)`.as("sold_count"),
};

export async function listCardProducts(db: Db, { sort, page, pageSize = PAGE_SIZE }: { sort: SortSpec; page: number; pageSize?: number }) {
  const [rows, [{ total }]] = await db.batch([
    db
      .select(productColumns)
      .from(cardProducts)
      .orderBy((PRODUCT_SORTS[sort.id] ?? PRODUCT_SORTS.name)(sort.descending), asc(cardProducts.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(cardProducts),
  ]);
  return { rows: rows as CardProductRow[], total };
}

export async function pageOfCardProduct(db: Db, id: number, sort: SortSpec, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({
      id: cardProducts.id,
      position: positionInOrder([(PRODUCT_SORTS[sort.id === "soldCount" ? "name" : sort.id] ?? PRODUCT_SORTS.name)(sort.descending), asc(cardProducts.id)]),
    })
    .from(cardProducts)
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

export type CardProductRecord = typeof cardProducts.$inferSelect & { courseMasterIds: number[]; courseIds: number[] };

export async function getCardProductRecord(db: Db, id: number): Promise<CardProductRecord | undefined> {
  const [[product], scopes] = await db.batch([
    db.select().from(cardProducts).where(eq(cardProducts.id, id)),
    db.select().from(cardProductScopes).where(eq(cardProductScopes.productId, id)),
  ]);
  if (!product) return undefined;
  return {
    ...product,
    courseMasterIds: scopes.flatMap((scope) => (scope.courseMasterId === null ? [] : [scope.courseMasterId])),
    courseIds: scopes.flatMap((scope) => (scope.courseId === null ? [] : [scope.courseId])),
  };
}

export type CardProductInput = Omit<
  typeof cardProducts.$inferInsert,
  "id" | "nameKey" | "createdBy" | "createdOn" | "lastModifiedBy" | "lastModifiedOn" | "rowVersion"
> & {
  courseMasterIds: number[];
  courseIds: number[];
};

/** Whether another product has the name (names are unique). */
export async function cardProductNameTaken(db: Db, name: string, exceptId: number | null): Promise<boolean> {
  const [row] = await db
    .select({ id: cardProducts.id })
    .from(cardProducts)
    .where(and(sql`lower(${cardProducts.name}) = lower(${name})`, exceptId === null ? undefined : sql`${cardProducts.id} <> ${exceptId}`));
  return Boolean(row);
}

/** The statements that set a product's scopes to those given (`product`: SQL of its id). */
function scopeStatements(product: SQL, input: Pick<CardProductInput, "courseMasterIds" | "courseIds">): Statement[] {
  return [
    render(sql`DELETE FROM ${cardProductScopes} WHERE product_id = ${product}`),
    ...input.courseMasterIds.map((masterId) =>
      render(sql`INSERT INTO ${cardProductScopes} (product_id, course_master_id) SELECT ${product}, id FROM ${courseMasters} WHERE id = ${masterId}`),
    ),
    ...input.courseIds.map((courseId) =>
      render(sql`INSERT INTO ${cardProductScopes} (product_id, course_id) SELECT ${product}, id FROM ${courses} WHERE id = ${courseId}`),
    ),
  ];
}

export async function insertCardProduct(db: Db, input: CardProductInput, actor: Actor, now = new Date()): Promise<number> {
  const { courseMasterIds, courseIds, ...values } = input;
  const product = sql`(SELECT id FROM ${cardProducts} WHERE name = ${values.name})`;
  const results = await runAtomically(db, [
    toSql(db.insert(cardProducts).values({ ...values, ...auditInsert(actor, now) })),
    ...scopeStatements(product, { courseMasterIds, courseIds }),
    render(sql`SELECT ${product} AS id`),
  ]);
  return (results.at(-1)!.results[0] as { id: number }).id;
}

/** Saves a product quoting its rowVersion, its scopes in the same batch. Cards sold keep their terms. */
export async function updateCardProduct(
  db: Db,
  id: number,
  rowVersion: number,
  input: CardProductInput,
  actor: Actor,
  now = new Date(),
): Promise<UpdateOutcome<CardProductRecord>> {
  const { courseMasterIds, courseIds, ...values } = input;
  try {
    await runAtomically(db, [
      toSql(
        db
          .update(cardProducts)
          .set({ ...values, lastModifiedBy: actor.name, lastModifiedOn: now.toISOString(), rowVersion: sql`${cardProducts.rowVersion} + 1` })
          .where(and(eq(cardProducts.id, id), eq(cardProducts.rowVersion, rowVersion))),
      ),
      ABORT_UNLESS_CHANGED,
      ...scopeStatements(sql`${id}`, { courseMasterIds, courseIds }),
    ]);
    return { status: "updated" };
  } catch (error) {
    if (!isAbortedAsUnchanged(error)) throw error;
    const current = await getCardProductRecord(db, id);
    return current ? { status: "conflict", current } : { status: "missing" };
  }
}

/** Deletes a product never sold into the Papierkorb, with its scopes; one sold is set 'nicht mehr im Verkauf' instead. */
export async function deleteCardProduct(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  const [[product], [{ sold }]] = await db.batch([
    db.select({ id: cardProducts.id }).from(cardProducts).where(eq(cardProducts.id, id)),
    db.select({ sold: count() }).from(cards).where(eq(cards.productId, id)),
  ]);
  if (!product) return { status: "missing" };
  if (sold > 0) {
    return {
      status: "refused",
      message: `Das Produkt kann nicht gelöscht werden: Es wurde ${sold}-mal verkauft. Nimm stattdessen den Haken „Im Verkauf“ heraus.`,
    };
  }
  const transactionId = await moveToBin(db, {
    main: { table: cardProducts, where: eq(cardProducts.id, id), identifiers: [sql`${cardProducts.name}`] },
    dependents: [
      {
        table: cardProductScopes,
        where: eq(cardProductScopes.productId, id),
        identifiers: [sql`(SELECT name FROM course_masters WHERE id = course_master_id)`, sql`(SELECT name FROM courses WHERE id = course_id)`],
      },
    ],
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}

/** What the product dialog offers as scopes: the course types, and the open groups not finished. */
export async function cardScopeOptions(db: Db) {
  const [masters, groups] = await db.batch([
    db.select({ id: courseMasters.id, name: courseMasters.name }).from(courseMasters).orderBy(asc(courseMasters.name), asc(courseMasters.id)),
    db
      .select({ id: courses.id, name: courses.name })
      .from(courses)
      .where(and(eq(courses.durationModel, "ONGOING"), sql`${courses.statusCode} <> 'FINISHED'`))
      .orderBy(asc(courses.name), asc(courses.id)),
  ]);
  return { masters, groups };
}

// ---------------------------------------------------------------------------------------------
// The cards sold (Karten & Abos: a person's tab, and all of them)

export type CardRow = PersonCard & {
  personId: number;
  personName: string;
  state: string;
  noticeReceivedOn: string | null;
  refunded: boolean;
  withdrawn: boolean;
};

const CARD_SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${cards.id}`),
  personName: sortKey(sql`${people.lastNameKey}`, sql`${people.firstNameKey}`),
  name: sortKey(sql`${cards.name}`),
  validFrom: sortKey(sql`${cards.validFrom}`),
  validUntil: sortKey(sql`coalesce(${cards.validUntil}, '9999-12-31')`),
  balance: sortKey(sql`card_balance`),
  price: sortKey(sql`${cards.price}`),
};

/** 'gültig', 'aufgebraucht', 'erstattet', 'widerrufen', 'abgelaufen', 'gekündigt zum …', 'beginnt am …' on `today`. */
function cardState(
  card: {
    kind: CardKind;
    validFrom: string;
    validUntil: string | null;
    balance: number | null;
    noticeReceivedOn: string | null;
    refunded: boolean;
    withdrawn: boolean;
  },
  today: string,
) {
  if (card.withdrawn) return "widerrufen";
  if (card.validFrom > today) return `beginnt am ${formatDate(card.validFrom)}`;
  if (card.validUntil !== null && card.validUntil < today) return card.kind === "CARD" ? "abgelaufen" : "beendet";
  if (card.kind === "CARD" && card.refunded) return "erstattet";
  if (card.kind === "CARD" && (card.balance ?? 0) <= 0) return "aufgebraucht";
  if (card.kind === "SUBSCRIPTION" && card.noticeReceivedOn) return `gekündigt zum ${formatDate(card.validUntil)}`;
  return "gültig";
}

const cardColumns = {
  ...personCardColumns,
  personId: cards.personId,
  personName: sql<string>`${people.fullName}`.as("person_name"),
  noticeReceivedOn: cards.noticeReceivedOn,
  refunded: sql<boolean>`EXISTS (SELECT 1 FROM card_refunds rf WHERE rf.card_id = cards.id)`.mapWith(Boolean).as("refunded"),
  withdrawn: sql<boolean>`${sql.raw(isWithdrawn("cards"))}`.mapWith(Boolean).as("withdrawn"),
};

export type CardQuery = { personId?: number; sort: SortSpec; today: string };

export async function listCards(db: Db, query: CardQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const where = query.personId === undefined ? undefined : eq(cards.personId, query.personId);
  const [rows, [{ total }]] = await db.batch([
    db
      .select(cardColumns)
      .from(cards)
      .innerJoin(people, eq(people.id, cards.personId))
      .where(where)
      .orderBy((CARD_SORTS[query.sort.id] ?? CARD_SORTS.validFrom)(query.sort.descending), desc(cards.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(cards).where(where),
  ]);
  return { rows: rows.map((row): CardRow => ({ ...row, state: cardState(row, query.today) })), total };
}

export async function pageOfCard(db: Db, id: number, query: CardQuery, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({
      id: cards.id,
      position: positionInOrder([
        (CARD_SORTS[query.sort.id === "balance" ? "validFrom" : query.sort.id] ?? CARD_SORTS.validFrom)(query.sort.descending),
        desc(cards.id),
      ]),
    })
    .from(cards)
    .innerJoin(people, eq(people.id, cards.personId))
    .where(query.personId === undefined ? undefined : eq(cards.personId, query.personId))
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

/** The products on sale, with the price the person pays (their member type's tier). */
export async function productsForSale(db: Db, personId: number | null) {
  const tier = personId ? coursePriceTierOf(personId) : sql`'FULL'`;
  return db
    .select({
      id: cardProducts.id,
      name: cardProducts.name,
      kind: cardProducts.kind,
      price: sql<number>`${tierPrice(tier, { FULL: cardProducts.priceFull, REDUCED1: cardProducts.priceReduced1, REDUCED2: cardProducts.priceReduced2 })}`.as(
        "tier_price",
      ),
    })
    .from(cardProducts)
    .where(eq(cardProducts.isOffered, true))
    .orderBy(asc(cardProducts.nameKey), asc(cardProducts.id));
}

export type ExpiringCard = { id: number; personId: number; personName: string; name: string; balance: number; units: number; validUntil: string };

/** Cards with units left that run out from `today` to `until` (the home page: 14 days), the soonest first. */
export async function cardsExpiring(db: Db, today: string, until: string, limit = 100): Promise<ExpiringCard[]> {
  const rows = await db
    .select({
      id: cards.id,
      personId: cards.personId,
      personName: sql<string>`${people.fullName}`.as("person_name"),
      name: cards.name,
      balance: sql<number>`${cardBalanceSql("cards")}`.as("card_balance"),
      units: sql<number>`${cards.units}`,
      validUntil: sql<string>`${cards.validUntil}`,
    })
    .from(cards)
    .innerJoin(people, eq(people.id, cards.personId))
    .where(and(eq(cards.kind, "CARD"), sql`${cards.validUntil} BETWEEN ${today} AND ${until}`, sql`card_balance > 0`))
    .orderBy(asc(cards.validUntil), asc(cards.id))
    .limit(limit);
  return rows;
}

/**
 * The monthly report of 10er-Karten for a year (Karten & Abos → Auswertung): the cards that were
 * sold, used, refunded or expired in it, with their uses per month (net of returns), for
 * app/lib/cards.ts cardReport.
 */
export async function cardReportOfYear(db: Db, year: number, today: string) {
  const first = `${year}-01-01`;
  const [rows, uses] = await db.batch([
    db
      .select({
        id: cards.id,
        units: sql<number>`${cards.units}`,
        price: cards.price,
        createdOn: cards.createdOn,
        validUntil: sql<string>`${cards.validUntil}`,
        refundedUnits: sql<number>`coalesce((SELECT r.units FROM card_refunds r WHERE r.card_id = cards.id), 0)`,
        refundedOn: sql<string | null>`(SELECT r.refunded_on FROM card_refunds r WHERE r.card_id = cards.id)`,
      })
      .from(cards)
      .where(and(eq(cards.kind, "CARD"), sql`${cards.validUntil} >= ${first}`, sql`${cards.createdOn} < ${`${year + 1}-01-02`}`)),
    db
      .select({
        cardId: cardUses.cardId,
        month: sql<string>`substr(${cardUses.usedOn}, 1, 7)`,
        units: sql<number>`sum(CASE ${cardUses.kind} WHEN 'USE' THEN ${cardUses.units} ELSE -${cardUses.units} END)`,
      })
      .from(cardUses)
      .innerJoin(cards, eq(cards.id, cardUses.cardId))
      .where(and(eq(cards.kind, "CARD"), sql`${cards.validUntil} >= ${first}`))
      .groupBy(cardUses.cardId, sql`substr(${cardUses.usedOn}, 1, 7)`),
  ]);
  const months = Array.from({ length: 12 }, (_, index) => `${year}-${String(index + 1).padStart(2, "0")}`);
  const sold = rows.map(({ createdOn, ...card }) => ({ ...card, soldOn: berlinDateOf(createdOn) }));
  return cardReport(sold, uses, months, today);
}

export type CardReminderKind = "LOW_BALANCE" | "EXPIRY";
export type CardReminderCandidate = { id: number; personId: number; name: string; balance: number; validUntil: string; kind: CardReminderKind };

/**
 * The cards whose reminder is due on `today` and was not mailed yet, of people with an address:
 * in use with at most one attendance left, or expiring by `until` with units left. A card due
 * for both gets the reminder of the one attendance left first, the other the next day.
 */
export async function cardReminderCandidates(db: Db, today: string, until: string): Promise<CardReminderCandidate[]> {
  const rows = await db.all<Omit<CardReminderCandidate, "kind"> & { low: number; lowMailed: string | null }>(sql`SELECT * FROM (
      SELECT c.id, c.person_id AS personId, c.name, c.valid_until AS validUntil, ${cardBalanceSql("c")} AS balance,
        c.low_balance_mailed_on AS lowMailed, c.expiry_mailed_on AS expiryMailed,
        ${cardBalanceSql("c")} <= c.units_per_attendance AS low
      FROM ${cards} c JOIN ${people} p ON p.id = c.person_id
      WHERE c.kind = 'CARD' AND c.valid_from <= ${today} AND c.valid_until >= ${today} AND length(trim(coalesce(p.email, ''))) > 0
        AND NOT EXISTS (SELECT 1 FROM card_refunds r WHERE r.card_id = c.id)
        AND (c.low_balance_mailed_on IS NULL OR c.expiry_mailed_on IS NULL))
    WHERE balance > 0 AND ((low AND lowMailed IS NULL) OR (validUntil <= ${until} AND expiryMailed IS NULL))
    ORDER BY id`);
  return rows.map((row) => ({
    id: row.id,
    personId: row.personId,
    name: row.name,
    balance: row.balance,
    validUntil: row.validUntil,
    kind: row.low && row.lowMailed === null ? "LOW_BALANCE" : "EXPIRY",
  }));
}

const REMINDER_COLUMNS: Record<CardReminderKind, string> = { LOW_BALANCE: "low_balance_mailed_on", EXPIRY: "expiry_mailed_on" };

/** Marks the card's reminder as mailed at `value` if it is not yet (true: this call marked it), or frees the mark (null). */
export async function markCardReminder(db: Db, cardId: number, kind: CardReminderKind, value: string | null): Promise<boolean> {
  const column = sql.raw(REMINDER_COLUMNS[kind]);
  const [result] = await runAtomically(db, [
    render(
      value === null
        ? sql`UPDATE ${cards} SET ${column} = NULL WHERE id = ${cardId}`
        : sql`UPDATE ${cards} SET ${column} = ${value} WHERE id = ${cardId} AND ${column} IS NULL`,
    ),
  ]);
  // Counted with the rows the history trigger writes: any change means this call set it.
  return result.meta.changes > 0;
}

/** A card of a participant that is valid for the participant's course (the handset's readout). */
export type ParticipantCard = { membershipId: number; kind: CardKind | null; validFrom: string | null; validUntil: string | null; balance: number | null };

/**
 * For a course counted by card (an open group a product is valid for): its participants' cards
 * that are valid for it, whatever their time (the page picks those of the date shown), and a row
 * without a card for a participant who has none; for any other course nothing, and the handset
 * shows nothing.
 */
export function cardsOfCourse(db: Db, courseId: number): Promise<ParticipantCard[]> {
  return db.all<ParticipantCard>(sql`SELECT m.id AS membershipId, c.kind, c.valid_from AS validFrom, c.valid_until AS validUntil, ${cardBalanceSql("c")} AS balance
    FROM ${courses} co JOIN ${courseMemberships} m ON m.course_id = co.id LEFT JOIN ${cards} c ON c.person_id = m.person_id AND ${validForCourse("c", "co")}
    WHERE co.id = ${courseId} AND ${countsByCard("co")}`);
}
