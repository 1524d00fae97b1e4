/**
 * Buying a 10er-Karte or an Abo in Mein Wuff (issue 34 item 2): the products on sale at the price
 * of the person's member type, bought with the button that obliges to pay (§ 312j Abs. 3 BGB).
 * The sale is the staff's (app/models/cards.server.ts sellCard: the card, its fee, the settling of
 * earlier attendance 'ohne Karte'), and the purchase's evidence goes into the same batch: when, from
 * where, which versions of the texts were accepted, and whether the buyer asked for the service to
 * begin before the withdrawal period ends (§ 356 Abs. 4, § 357a Abs. 2 BGB).
 *
 * A card bought online can be withdrawn from within 14 days (§ 355, § 312g Abs. 1 BGB): it is not a
 * leisure service at a fixed date (§ 312g Abs. 2 Nr. 9 BGB), since it is used on dates of the
 * buyer's choosing.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db } from "~/db/client.server";
import { coursePriceTierOf, qualified, tierPrice } from "~/db/columns";
import { cardFees, cardProducts, cardPurchases, cardRefunds, cards, courseMasters, courses, fees } from "~/db/schema";
import { cardValidUntil, WITHDRAWAL_DAYS, withdrawalValue, type CardKind, type SubscriptionPeriod } from "~/lib/cards";
import { addDaysToDate, berlinDateOf, formatMoney, todayInBerlin } from "~/lib/format";
import { PRODUCT_NOT_FOR_SALE, PURCHASE_TEXTS_MISSING } from "~/lib/portal";
import type { Actor } from "./audit.server";
import { sellCard } from "./cards.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { allocationStatements, entryInsert } from "./payments.server";
import { acceptedAreCurrent, contractTexts, TEXTS_CHANGED, type AcceptedTexts, type ContractTexts } from "./online-bookings.server";

export type ProductOnSale = {
  id: number;
  name: string;
  kind: CardKind;
  /** What this person pays (cents): a card once, an Abo per period. */
  price: number;
  units: number | null;
  validMonths: number | null;
  period: SubscriptionPeriod | null;
  minTermMonths: number | null;
  noticeMonths: number | null;
  unitsPerAttendance: number;
  /** The course types and open groups it is valid for, by name. */
  validFor: string[];
};

export type PurchasePage = { products: ProductOnSale[]; texts: ContractTexts | null };

/** The products the person can buy online: those on sale with a price for their member type, A to Z. */
async function productsOnSale(db: Db, personId: number): Promise<ProductOnSale[]> {
  const rows = await db
    .select({
      id: cardProducts.id,
      name: cardProducts.name,
      kind: cardProducts.kind,
      price:
        sql<number>`${tierPrice(coursePriceTierOf(personId), { FULL: cardProducts.priceFull, REDUCED1: cardProducts.priceReduced1, REDUCED2: cardProducts.priceReduced2 })}`.as(
          "tier_price",
        ),
      units: cardProducts.units,
      validMonths: cardProducts.validMonths,
      period: cardProducts.period,
      minTermMonths: cardProducts.minTermMonths,
      noticeMonths: cardProducts.noticeMonths,
      unitsPerAttendance: cardProducts.unitsPerAttendance,
      validFor: sql<string | null>`(SELECT group_concat(name, char(31)) FROM (SELECT coalesce(m.name, c.name) AS name FROM card_product_scopes s
        LEFT JOIN ${courseMasters} m ON m.id = s.course_master_id LEFT JOIN ${courses} c ON c.id = s.course_id
        WHERE s.product_id = ${qualified(cardProducts.id)} ORDER BY 1))`.as("valid_for"),
    })
    .from(cardProducts)
    .where(eq(cardProducts.isOffered, true))
    .orderBy(asc(cardProducts.nameKey), asc(cardProducts.id));
  // A product without a price for this member type is sold at the club only (a free card is a gift, not a purchase).
  return rows.filter((row) => row.price > 0).map((row) => ({ ...row, validFor: row.validFor ? row.validFor.split("\u001f") : [] }));
}

/** What the page 'Karte oder Abo kaufen' shows the person. */
export async function purchasePage(db: Db, personId: number): Promise<PurchasePage> {
  const [products, texts] = await Promise.all([productsOnSale(db, personId), contractTexts(db)]);
  return { products, texts };
}

export type PurchaseInput = {
  personId: number;
  productId: number;
  accepted: AcceptedTexts;
  /** The buyer asked that the card may be used before the withdrawal period ends. */
  earlyStart: boolean;
  /** The client's address (CF-Connecting-IP). */
  from: string;
};

export type PurchaseOutcome =
  | { status: "bought"; cardId: number; product: ProductOnSale; validFrom: string; validUntil: string | null; settled: number }
  | { status: "refused"; message: string };

/** Buys the product from today: the sale and its evidence in one batch, or nothing when anything is refused. */
export async function buyCard(db: Db, input: PurchaseInput, actor: Actor, now = new Date()): Promise<PurchaseOutcome> {
  const { products, texts } = await purchasePage(db, input.personId);
  if (!texts) return { status: "refused", message: PURCHASE_TEXTS_MISSING };
  if (!acceptedAreCurrent(texts, input.accepted)) return { status: "refused", message: TEXTS_CHANGED };
  const product = products.find((candidate) => candidate.id === input.productId);
  if (!product) return { status: "refused", message: PRODUCT_NOT_FOR_SALE };
  const validFrom = todayInBerlin(now);
  const nowIso = now.toISOString();
  const outcome = await sellCard(
    db,
    {
      personId: input.personId,
      productId: product.id,
      validFrom,
      price: product.price,
      also: (card) => [
        render(sql`INSERT INTO ${cardPurchases} (card_id, bought_on, bought_from, terms_text_id, withdrawal_text_id, privacy_text_id, early_start, created_by, created_on)
          VALUES (${card}, ${nowIso}, ${input.from}, ${input.accepted.TERMS}, ${input.accepted.WITHDRAWAL}, ${input.accepted.PRIVACY}, ${input.earlyStart ? 1 : 0},
            ${actor.name}, ${nowIso})`),
      ],
    },
    actor,
    now,
  );
  if (outcome.status === "refused") return { status: "refused", message: PRODUCT_NOT_FOR_SALE };
  const validUntil = product.kind === "CARD" ? cardValidUntil(validFrom, product.validMonths!) : null;
  return { status: "bought", cardId: outcome.cardId, product, validFrom, validUntil, settled: outcome.settled };
}

// ---------------------------------------------------------------------------------------------
// Withdrawal in Mein Wuff

/** A card of the person bought online that can still be withdrawn from, and until which day. */
export type WithdrawableCard = { cardId: number; until: string };

type PurchaseState = {
  cardId: number;
  name: string;
  kind: CardKind;
  price: number;
  units: number | null;
  validFrom: string;
  period: SubscriptionPeriod | null;
  boughtOn: string;
  earlyStart: boolean;
  usedUnits: number;
  refunded: boolean;
};

/** The person's cards bought online and not withdrawn, with what a withdrawal reads. */
async function openPurchases(db: Db, personId: number, cardId?: number): Promise<PurchaseState[]> {
  return db
    .select({
      cardId: cards.id,
      name: cards.name,
      kind: cards.kind,
      price: cards.price,
      units: cards.units,
      validFrom: cards.validFrom,
      period: cards.period,
      boughtOn: cardPurchases.boughtOn,
      earlyStart: cardPurchases.earlyStart,
      usedUnits:
        sql<number>`coalesce((SELECT sum(CASE u.kind WHEN 'USE' THEN u.units ELSE -u.units END) FROM card_uses u WHERE u.card_id = ${cards.id}), 0)`.as(
          "used_units",
        ),
      refunded: sql<boolean>`EXISTS (SELECT 1 FROM ${cardRefunds} r WHERE r.card_id = ${cards.id})`.mapWith(Boolean).as("refunded"),
    })
    .from(cardPurchases)
    .innerJoin(cards, eq(cards.id, cardPurchases.cardId))
    .where(and(eq(cards.personId, personId), isNull(cardPurchases.withdrawnOn), cardId === undefined ? undefined : eq(cards.id, cardId)));
}

/** The last day a purchase may be withdrawn from: 14 days after the day it was bought (§ 355 Abs. 2, § 187 Abs. 1 BGB). */
const withdrawableUntil = (boughtOn: string) => addDaysToDate(berlinDateOf(boughtOn), WITHDRAWAL_DAYS);

/** The person's cards and Abos bought online whose withdrawal period runs today. */
export async function withdrawableCards(db: Db, personId: number, now = new Date()): Promise<WithdrawableCard[]> {
  const today = todayInBerlin(now);
  return (await openPurchases(db, personId))
    .filter((purchase) => !purchase.refunded && today <= withdrawableUntil(purchase.boughtOn))
    .map((purchase) => ({ cardId: purchase.cardId, until: withdrawableUntil(purchase.boughtOn) }));
}

export type CardWithdrawalOutcome =
  | { status: "withdrawn"; name: string; boughtOn: string; receivedOn: string; moneyText: string }
  | { status: "refused"; message: string }
  | { status: "missing" };

const CARD_NOT_WITHDRAWABLE = "Dieser Kauf kann nicht (mehr) widerrufen werden: Die Frist von 14 Tagen ist abgelaufen oder er ist schon widerrufen.";
export const CARD_ALREADY_INVOICED =
  "Diese Karte ist schon in Rechnung gestellt. Bitte widerrufe über „Vertrag widerrufen“ unten auf der Seite: Der Verein erstattet dann per Gutschrift.";

/**
 * Withdraws from a card or Abo the person bought online, while the period runs (§ 355 BGB), in one
 * batch: the card ends on the day received, the withdrawal is kept with the purchase, and the card's
 * fees not invoiced are cancelled through the journal down to what a withdrawal still owes
 * (withdrawalValue, § 357a Abs. 2 BGB; key `card-withdrawal:{card}:{fee}`). Once a fee is on an
 * invoice, the withdrawal goes the way of a declaration (a Gutschrift is the club's).
 */
export async function withdrawOwnCard(
  db: Db,
  input: { personId: number; cardId: number; from: string },
  actor: Actor,
  now = new Date(),
): Promise<CardWithdrawalOutcome> {
  const [purchase] = await openPurchases(db, input.personId, input.cardId);
  if (!purchase) return { status: "missing" };
  const today = todayInBerlin(now);
  if (purchase.refunded || today > withdrawableUntil(purchase.boughtOn)) return { status: "refused", message: CARD_NOT_WITHDRAWABLE };
  const billed = await db
    .select({ id: fees.id, amount: fees.amount, openAmount: fees.openAmount, isInvoiced: fees.isInvoiced })
    .from(cardFees)
    .innerJoin(fees, eq(fees.id, cardFees.feeId))
    .where(eq(cardFees.cardId, purchase.cardId))
    .orderBy(asc(fees.id));
  if (billed.some((fee) => fee.isInvoiced)) return { status: "refused", message: CARD_ALREADY_INVOICED };
  const owed = withdrawalValue(purchase, { earlyStart: purchase.earlyStart, usedUnits: purchase.usedUnits, withdrawnOn: today });
  const total = billed.reduce((sum, fee) => sum + fee.amount, 0);
  const paid = billed.reduce((sum, fee) => sum + fee.amount - fee.openAmount, 0);
  const nowIso = now.toISOString();
  // Cancel what is open, the last fee first, until only what is owed stays.
  let toCancel = Math.max(0, total - Math.max(owed, paid));
  const cancellations = [...billed].reverse().flatMap((fee) => {
    const amount = Math.min(fee.openAmount, toCancel);
    toCancel -= amount;
    if (amount === 0) return [];
    const entryKey = `card-withdrawal:${purchase.cardId}:${fee.id}`;
    return [
      entryInsert(
        {
          entryKey,
          personId: input.personId,
          date: today,
          amount,
          method: "OFFSET",
          source: "CORRECTION",
          text: `Storno ${purchase.name}: Widerruf in Mein Wuff`,
        },
        actor,
        nowIso,
      ),
      ...allocationStatements(entryKey, { feeId: fee.id, amount, expectedOpen: fee.openAmount }, actor, nowIso),
    ];
  });
  try {
    await runAtomically(db, [
      render(
        sql`UPDATE ${cardPurchases} SET withdrawn_on = ${nowIso}, withdrawn_from = ${input.from} WHERE card_id = ${purchase.cardId} AND withdrawn_on IS NULL`,
      ),
      ABORT_UNLESS_CHANGED,
      // The card ends with the day the withdrawal came (a card that ends sooner keeps its day).
      render(sql`UPDATE ${cards} SET valid_until = CASE WHEN valid_until IS NOT NULL AND valid_until < ${today} THEN valid_until ELSE ${today} END,
        last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1 WHERE id = ${purchase.cardId}`),
      ...cancellations,
    ]);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return { status: "refused", message: CARD_NOT_WITHDRAWABLE };
    throw error;
  }
  const cancelled = total - Math.max(owed, paid);
  const parts = [];
  if (cancelled > 0) parts.push(`Die Gebühr ist über ${formatMoney(cancelled)} storniert.`);
  if (owed > 0) parts.push(`Für die Zeit bis zum Widerruf bleiben ${formatMoney(owed)} zu zahlen (Wertersatz).`);
  if (paid > owed) parts.push(`Zu viel Gezahltes (${formatMoney(paid - owed)}) erstattet der Verein.`);
  return { status: "withdrawn", name: purchase.name, boughtOn: purchase.boughtOn, receivedOn: nowIso, moneyText: parts.join(" ") };
}
