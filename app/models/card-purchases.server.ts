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
import { asc, eq, sql } from "drizzle-orm";
import { render, type Db } from "~/db/client.server";
import { coursePriceTierOf, qualified, tierPrice } from "~/db/columns";
import { cardProducts, cardPurchases, courseMasters, courses } from "~/db/schema";
import { cardValidUntil, type CardKind, type SubscriptionPeriod } from "~/lib/cards";
import { todayInBerlin } from "~/lib/format";
import { PRODUCT_NOT_FOR_SALE, PURCHASE_TEXTS_MISSING } from "~/lib/portal";
import type { Actor } from "./audit.server";
import { sellCard } from "./cards.server";
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
