/**
 * Mein Wuff, my money (issue 32 item 4): what a person owes, was invoiced and paid, read for that
 * person only, and online payments of several open items at once (portal_checkouts). A checkout
 * names the items; the Mollie payment of its link is booked through the payment journal like every
 * payment (entry 'mollie:{paymentId}', so the webhook called twice books once), allocated to the
 * items in their order up to what is open when the money arrives. What is left is the person's
 * credit, never a change of an item's amount.
 */
import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { inValues } from "~/db/columns";
import { render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { directDebitItems, fees, invoiceHeaders, invoiceRows, payments, portalCheckoutItems, portalCheckouts } from "~/db/schema";
import type { PaymentMethod } from "~/db/schema";
import type { Actor } from "./audit.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { MOLLIE_ACTOR } from "./mollie-payments.server";
import { appendPaymentComment } from "./payment-bookings.server";
import { allocationStatements, entryInsert, isDuplicateEntry, paymentReferenceOf, type Allocation } from "./payments.server";

/** An open item as the portal shows it: an issued invoice or a fee not billed by one. */
export type OpenItem = {
  /** 'R12' (invoice) or 'P34' (fee): the form's value for it. */
  key: string;
  type: "INVOICE" | "FEE";
  id: number;
  text: string;
  date: string;
  dueDate: string | null;
  amount: number;
  openAmount: number;
  /** The Verwendungszweck for a transfer. */
  reference: string;
  /** Collected by a direct-debit run already (its collection date): not payable online. */
  collectionDate: string | null;
};

export type OwnInvoice = {
  id: number;
  invoiceNumber: number;
  kind: "INVOICE" | "STORNO" | "CREDIT_NOTE";
  date: string;
  amount: number;
  openAmount: number;
  hasPdf: boolean;
};

export type OwnPayment = { id: number; date: string; amount: number; method: PaymentMethod; text: string };

const itemKey = (type: OpenItem["type"], id: number) => `${type === "INVOICE" ? "R" : "P"}${id}`;

/** The collection date of a fee's direct debit that is not cancelled (a fee is in one at most). */
const collectionDateOf = sql<string | null>`(SELECT d.collection_date FROM ${directDebitItems} d WHERE d.fee_id = "fees"."id" AND d.cancelled_on IS NULL)`;

/** A fee still on an invoice (a draft's row; an issued invoice settles its fees). */
const onInvoice = sql`EXISTS (SELECT 1 FROM ${invoiceRows} r WHERE r.fee_id = "fees"."id" AND r.fee_released = 0)`;

/**
 * The person's open items, oldest first: issued invoices with something open, and open fees that
 * no invoice bills (those are paid through their invoice).
 */
export async function ownOpenItems(db: Db, personId: number): Promise<OpenItem[]> {
  const [invoices, openFees] = await db.batch([
    db
      .select({
        id: invoiceHeaders.id,
        invoiceNumber: invoiceHeaders.invoiceNumber,
        date: invoiceHeaders.date,
        dueDate: invoiceHeaders.dueDate,
        amount: invoiceHeaders.amount,
        openAmount: invoiceHeaders.openAmount,
      })
      .from(invoiceHeaders)
      .where(
        and(eq(invoiceHeaders.personId, personId), eq(invoiceHeaders.status, "ISSUED"), eq(invoiceHeaders.kind, "INVOICE"), gt(invoiceHeaders.openAmount, 0)),
      )
      .orderBy(asc(invoiceHeaders.date), asc(invoiceHeaders.id)),
    db
      .select({
        id: fees.id,
        text: fees.text,
        date: fees.date,
        dueDate: fees.dueDate,
        amount: fees.amount,
        openAmount: fees.openAmount,
        paymentReference: fees.paymentReference,
        collectionDate: collectionDateOf,
      })
      .from(fees)
      .where(and(eq(fees.personId, personId), gt(fees.openAmount, 0), sql`NOT ${onInvoice}`))
      .orderBy(asc(fees.date), asc(fees.id)),
  ]);
  const items: OpenItem[] = [
    ...invoices.map((row) => ({
      key: itemKey("INVOICE", row.id),
      type: "INVOICE" as const,
      id: row.id,
      text: `Rechnung ${row.invoiceNumber}`,
      date: row.date,
      dueDate: row.dueDate,
      amount: row.amount,
      openAmount: row.openAmount,
      reference: paymentReferenceOf(row.invoiceNumber ?? 0),
      collectionDate: null,
    })),
    ...openFees.map((row) => ({
      key: itemKey("FEE", row.id),
      type: "FEE" as const,
      id: row.id,
      text: row.text,
      date: row.date,
      dueDate: row.dueDate,
      amount: row.amount,
      openAmount: row.openAmount,
      reference: `Posten ${row.id}`,
      collectionDate: row.collectionDate,
    })),
  ];
  return items.sort((a, b) => a.date.localeCompare(b.date) || a.key.localeCompare(b.key));
}

/** The person's issued invoices, Storno and Gutschriften included, newest first. */
export async function ownInvoices(db: Db, personId: number): Promise<OwnInvoice[]> {
  const rows = await db
    .select({
      id: invoiceHeaders.id,
      invoiceNumber: invoiceHeaders.invoiceNumber,
      kind: invoiceHeaders.kind,
      date: invoiceHeaders.date,
      amount: invoiceHeaders.amount,
      openAmount: invoiceHeaders.openAmount,
      pdfFilePath: invoiceHeaders.pdfFilePath,
    })
    .from(invoiceHeaders)
    .where(and(eq(invoiceHeaders.personId, personId), eq(invoiceHeaders.status, "ISSUED")))
    .orderBy(desc(invoiceHeaders.date), desc(invoiceHeaders.id));
  return rows.map(({ pdfFilePath, invoiceNumber, ...row }) => ({ ...row, invoiceNumber: invoiceNumber ?? 0, hasPdf: pdfFilePath !== null }));
}

/** Whether the invoice is the person's own and issued: the condition for its PDF in the portal. */
export async function isOwnIssuedInvoice(db: Db, personId: number, invoiceId: number): Promise<boolean> {
  const count = await db.$count(
    invoiceHeaders,
    and(eq(invoiceHeaders.id, invoiceId), eq(invoiceHeaders.personId, personId), eq(invoiceHeaders.status, "ISSUED")),
  );
  return count > 0;
}

/** The person's journal entries (payments in, refunds out, their counter-entries), newest first. */
export async function ownPayments(db: Db, personId: number, limit = 50): Promise<OwnPayment[]> {
  return db
    .select({ id: payments.id, date: payments.date, amount: payments.amount, method: payments.method, text: payments.text })
    .from(payments)
    .where(eq(payments.personId, personId))
    .orderBy(desc(payments.date), desc(payments.id))
    .limit(limit);
}

// ---------------------------------------------------------------------------------------------
// Online payment of open items

export const NOTHING_CHOSEN = "Bitte wähle mindestens einen offenen Posten aus.";
export const ITEM_NOT_PAYABLE = "Mindestens ein gewählter Posten ist nicht mehr offen oder nicht online zu bezahlen. Bitte wähle neu.";

export type Checkout = { id: number; amount: number; linkUrl: string | null; description: string };
export type CheckoutOutcome = { status: "ok"; checkout: Checkout; created: boolean } | { status: "refused"; message: string };

/** A checkout made again for the same items within this time is the same one (a double click, a
 *  reload): it keeps its link, so nobody pays twice by accident. */
const REUSE_WITHIN_MS = 60 * 60 * 1000;

/**
 * A checkout for the chosen items of the person: each must be the person's own, open and payable
 * online (not collected by a direct debit). Their open amounts now are what the link asks for.
 */
export async function startCheckout(db: Db, personId: number, keys: readonly string[], actor: Actor, now = new Date()): Promise<CheckoutOutcome> {
  const wanted = [...new Set(keys)];
  if (wanted.length === 0) return { status: "refused", message: NOTHING_CHOSEN };
  const open = new Map((await ownOpenItems(db, personId)).map((item) => [item.key, item]));
  const chosen = wanted.map((key) => open.get(key));
  if (chosen.some((item) => !item || item.collectionDate !== null)) return { status: "refused", message: ITEM_NOT_PAYABLE };
  const items = chosen as OpenItem[];
  const amount = items.reduce((sum, item) => sum + item.openAmount, 0);
  const description = checkoutDescription(items);
  const signature = itemsSignature(items.map((item) => ({ key: item.key, amount: item.openAmount })));
  const since = new Date(now.getTime() - REUSE_WITHIN_MS).toISOString();
  for (const recent of await recentUnpaidCheckouts(db, personId, since)) {
    if (recent.signature === signature) return { status: "ok", checkout: { ...recent.checkout, description }, created: false };
  }
  const nowIso = now.toISOString();
  // One batch: the checkout and its items; the items name it as the person's newest checkout
  // (ids only grow), which within the batch is the one just written.
  const newest = sql`(SELECT max(id) FROM ${portalCheckouts} WHERE person_id = ${personId})`;
  const [[inserted]] = await db.batch([
    db.insert(portalCheckouts).values({ personId, amount, createdBy: actor.name, createdOn: nowIso }).returning({ id: portalCheckouts.id }),
    ...items.map((item) =>
      db.insert(portalCheckoutItems).values({
        checkoutId: newest,
        invoiceId: item.type === "INVOICE" ? item.id : null,
        feeId: item.type === "FEE" ? item.id : null,
        amount: item.openAmount,
      }),
    ),
  ]);
  return { status: "ok", checkout: { id: inserted.id, amount, linkUrl: null, description }, created: true };
}

const itemsSignature = (items: { key: string; amount: number }[]) =>
  items
    .map((item) => `${item.key}:${item.amount}`)
    .sort()
    .join(",");

/** 'Mein Wuff: Rechnung 2026001, Jahresbeitrag 2026', within Mollie's 255 characters. */
function checkoutDescription(items: readonly { text: string }[]): string {
  const text = `Mein Wuff: ${items.map((item) => item.text).join(", ")}`;
  return text.length > 255 ? `${text.slice(0, 254)}…` : text;
}

async function recentUnpaidCheckouts(db: Db, personId: number, since: string) {
  const rows = await db
    .select({
      id: portalCheckouts.id,
      amount: portalCheckouts.amount,
      linkUrl: portalCheckouts.linkUrl,
      invoiceId: portalCheckoutItems.invoiceId,
      feeId: portalCheckoutItems.feeId,
      itemAmount: portalCheckoutItems.amount,
    })
    .from(portalCheckouts)
    .innerJoin(portalCheckoutItems, eq(portalCheckoutItems.checkoutId, portalCheckouts.id))
    .where(and(eq(portalCheckouts.personId, personId), isNull(portalCheckouts.paymentId), sql`${portalCheckouts.createdOn} >= ${since}`));
  const byCheckout = new Map<number, { checkout: Omit<Checkout, "description">; items: { key: string; amount: number }[] }>();
  for (const row of rows) {
    const entry = byCheckout.get(row.id) ?? {
      checkout: { id: row.id, amount: row.amount, linkUrl: row.linkUrl },
      items: [],
    };
    entry.items.push({ key: row.invoiceId !== null ? itemKey("INVOICE", row.invoiceId) : itemKey("FEE", row.feeId ?? 0), amount: row.itemAmount });
    byCheckout.set(row.id, entry);
  }
  return [...byCheckout.values()].map((entry) => ({ checkout: entry.checkout, signature: itemsSignature(entry.items) }));
}

/** Stores the checkout's payment link (once: a link already there stays). */
export async function storeCheckoutLink(db: Db, checkoutId: number, link: { id: string; url: string }): Promise<void> {
  await db
    .update(portalCheckouts)
    .set({ linkId: link.id, linkUrl: link.url })
    .where(and(eq(portalCheckouts.id, checkoutId), isNull(portalCheckouts.linkId)));
}

/** The person's own checkout (for the page Mollie sends them back to), or undefined. */
export async function ownCheckout(db: Db, personId: number, checkoutId: number) {
  const [row] = await db
    .select({ id: portalCheckouts.id, amount: portalCheckouts.amount, paymentId: portalCheckouts.paymentId, paidOn: portalCheckouts.paidOn })
    .from(portalCheckouts)
    .where(and(eq(portalCheckouts.id, checkoutId), eq(portalCheckouts.personId, personId)));
  return row;
}

export type CheckoutBookingInput = {
  paymentId: string;
  checkoutId: number;
  amount: number;
  paidOn: string;
  comment: string;
  now?: Date;
};

export type CheckoutBookingOutcome = { status: "booked"; applied: number; credit: number } | { status: "already" } | { status: "missing" };

/**
 * Books a paid Mollie payment of a checkout: one journal entry of what was paid, allocated to the
 * checkout's items in order up to what each has open now (an item paid otherwise meanwhile, or
 * taken into a direct-debit run, gets nothing); the rest is the person's credit. The fees and
 * invoices get the payment comment. One atomic batch with the checkout's payment id; a second
 * call (or two at once) finds the entry or fails on its key and changes nothing.
 */
export async function bookCheckoutPayment(db: Db, input: CheckoutBookingInput): Promise<CheckoutBookingOutcome> {
  const entryKey = `mollie:${input.paymentId}`;
  if ((await db.$count(payments, eq(payments.entryKey, entryKey))) > 0) return { status: "already" };
  const [checkout] = await db.select({ personId: portalCheckouts.personId }).from(portalCheckouts).where(eq(portalCheckouts.id, input.checkoutId));
  if (!checkout) return { status: "missing" };
  const targets = await checkoutTargets(db, input.checkoutId);
  const nowIso = (input.now ?? new Date()).toISOString();
  let left = input.amount;
  const statements: Statement[] = [
    entryInsert(
      {
        entryKey,
        personId: checkout.personId,
        date: input.paidOn,
        amount: input.amount,
        method: "MOLLIE",
        source: "MOLLIE",
        sourceRef: input.paymentId,
        text: input.comment,
      },
      MOLLIE_ACTOR,
      nowIso,
    ),
  ];
  for (const target of targets) {
    if (left <= 0 || target.openAmount <= 0 || target.inCollection || target.personId !== checkout.personId) continue;
    const amount = Math.min(left, target.openAmount);
    left -= amount;
    const allocation: Allocation =
      target.type === "INVOICE"
        ? { invoiceId: target.id, invoiceNumber: target.invoiceNumber ?? 0, amount, expectedOpen: target.openAmount }
        : { feeId: target.id, amount, expectedOpen: target.openAmount };
    statements.push(...allocationStatements(entryKey, allocation, MOLLIE_ACTOR, nowIso));
    const table = target.type === "INVOICE" ? invoiceHeaders : fees;
    statements.push(render(sql`UPDATE ${table} SET ${appendPaymentComment(input.comment)} WHERE id = ${target.id}`));
  }
  statements.push(
    render(sql`UPDATE ${portalCheckouts} SET payment_id = ${input.paymentId}, paid_on = ${input.paidOn} WHERE id = ${input.checkoutId} AND payment_id IS NULL`),
  );
  try {
    await runAtomically(db, statements);
  } catch (error) {
    if (isDuplicateEntry(error)) return { status: "already" };
    // An item's open amount changed between reading and booking: Mollie calls again.
    if (isAbortedAsUnchanged(error)) throw new Error("Mollie-Zahlung: Ein Posten hat sich beim Buchen geändert.", { cause: error });
    throw error;
  }
  return { status: "booked", applied: input.amount - left, credit: left };
}

type CheckoutTarget = { type: "INVOICE" | "FEE"; id: number; personId: number; openAmount: number; invoiceNumber: number | null; inCollection: boolean };

/** The checkout's items as they are now, in the order chosen. */
async function checkoutTargets(db: Db, checkoutId: number): Promise<CheckoutTarget[]> {
  const items = await db
    .select({ invoiceId: portalCheckoutItems.invoiceId, feeId: portalCheckoutItems.feeId })
    .from(portalCheckoutItems)
    .where(eq(portalCheckoutItems.checkoutId, checkoutId))
    .orderBy(asc(portalCheckoutItems.id));
  const invoiceIds = items.flatMap((item) => (item.invoiceId !== null ? [item.invoiceId] : []));
  const feeIds = items.flatMap((item) => (item.feeId !== null ? [item.feeId] : []));
  const [invoiceRowsNow, feeRowsNow] = await db.batch([
    db
      .select({
        id: invoiceHeaders.id,
        personId: invoiceHeaders.personId,
        openAmount: invoiceHeaders.openAmount,
        invoiceNumber: invoiceHeaders.invoiceNumber,
        payable: sql<number>`${invoiceHeaders.status} = 'ISSUED' AND ${invoiceHeaders.kind} = 'INVOICE'`,
      })
      .from(invoiceHeaders)
      .where(inValues(invoiceHeaders.id, invoiceIds)),
    db
      .select({
        id: fees.id,
        personId: fees.personId,
        openAmount: fees.openAmount,
        inCollection: sql<number>`${collectionDateOf} IS NOT NULL OR ${onInvoice}`,
      })
      .from(fees)
      .where(inValues(fees.id, feeIds)),
  ]);
  const invoicesById = new Map(invoiceRowsNow.map((row) => [row.id, row]));
  const feesById = new Map(feeRowsNow.map((row) => [row.id, row]));
  return items.flatMap((item): CheckoutTarget[] => {
    if (item.invoiceId !== null) {
      const row = invoicesById.get(item.invoiceId);
      return row
        ? [{ type: "INVOICE", id: row.id, personId: row.personId, openAmount: row.openAmount, invoiceNumber: row.invoiceNumber, inCollection: !row.payable }]
        : [];
    }
    const row = item.feeId !== null ? feesById.get(item.feeId) : undefined;
    return row
      ? [{ type: "FEE", id: row.id, personId: row.personId, openAmount: row.openAmount, invoiceNumber: null, inCollection: Boolean(row.inCollection) }]
      : [];
  });
}
