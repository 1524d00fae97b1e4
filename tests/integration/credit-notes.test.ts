/**
 * Gutschrift (issue 30 item 2): a credit note for part of an issued invoice, through the dialog's
 * route as the treasurer sends it. It is numbered from the same counter, names the invoice, credits
 * one tax case of it (never more than is left of that case), books an entry 'Verrechnung' into the
 * journal that settles what is open and leaves the rest as the person's credit, is issued once
 * however often the form is sent, and bars a later Storno. Its PDF says what it is.
 */
import { env } from "cloudflare:test";
import { and, eq, isNull } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { cancelInvoice, issueInvoice, saveInvoiceRow } from "~/models/invoices.server";
import { MAIL_SENT } from "~/lib/mail";
import { mailsTo, tinyPdf, useTestAccount } from "../support/mail-catcher";
import { personCredit } from "~/models/payments.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";
import { formatDate, todayInBerlin } from "~/lib/format";

const db = createDb(env.DB);
const actor = { name: "Fritz Finanz" };
// The day the app issues on (Berlin): the dialog issues with it.
const TODAY = todayInBerlin();
let personId: number;

beforeAll(async () => {
  await loadDemoData();
  await db.update(schema.configuration).set({ taxStatus: "REGULAR", taxNumber: "21/815/08150" }).where(eq(schema.configuration.id, 1));
  [{ id: personId }] = await db
    .insert(schema.people)
    .values({ firstName: "Gerda", lastName: "Gutschrift", memberTypeId: 1, streetNumber: "Weg 1", zip: "35390", city: "Gießen" })
    .returning({ id: schema.people.id });
});

/** An issued invoice of 119,00 € at 19 % and 60,00 € not taxable. */
async function invoice() {
  const [draft] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId, date: TODAY, dueDate: "2026-12-11", amount: 0, openAmount: 0, createdBy: "Test", createdOn: new Date().toISOString() })
    .returning({ id: schema.invoiceHeaders.id });
  await saveInvoiceRow(db, { invoiceId: draft.id }, { text: "Einzelstunde", amount: 11_900, taxCase: "STANDARD" }, actor);
  await saveInvoiceRow(db, { invoiceId: draft.id }, { text: "Jahresbeitrag", amount: 6_000, taxCase: "NOT_TAXABLE" }, actor);
  const issued = await issueInvoice(db, draft.id, actor, TODAY);
  if (issued.status !== "issued") throw new Error(JSON.stringify(issued));
  return { id: draft.id, invoiceNumber: issued.invoiceNumber };
}

const headerOf = async (id: number) => (await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, id)))[0];
const creditNotesOf = (id: number) =>
  db
    .select()
    .from(schema.invoiceHeaders)
    .where(and(eq(schema.invoiceHeaders.correctsInvoiceId, id), eq(schema.invoiceHeaders.kind, "CREDIT_NOTE")));

const credit = async (id: number, fields: Record<string, string>, who: "finance" | "staff" = "finance") =>
  postForm("/invoices", await loginCookie(who), {
    intent: "creditNote:create",
    id: String(id),
    text: "Gutschrift Einzelstunde ausgefallen",
    taxCase: "STANDARD",
    formKey: crypto.randomUUID(),
    ...fields,
  });

describe("a credit note for part of an invoice", () => {
  it("is issued with the next number, names the invoice, credits its 19 % rows and lowers what is open; sent twice, it is issued once", async () => {
    const original = await invoice();
    const formKey = crypto.randomUUID();
    const response = await credit(original.id, { amount: "23,80", formKey });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toMatch(/^Gutschrift \d+ über 23,80\s€ wurde ausgestellt$/);
    const [note] = await creditNotesOf(original.id);
    expect(note).toMatchObject({ status: "ISSUED", kind: "CREDIT_NOTE", amount: -2_380, openAmount: 0, issuedTaxStatus: "REGULAR", date: TODAY });
    expect(note.invoiceNumber).toBe(original.invoiceNumber + 1);
    const rows = await db.select().from(schema.invoiceRows).where(eq(schema.invoiceRows.invoiceId, note.id));
    expect(rows).toMatchObject([{ lineNumber: 1, text: "Gutschrift Einzelstunde ausgefallen", amount: -2_380, taxCase: "STANDARD", serviceFrom: TODAY }]);
    expect((await headerOf(original.id)).openAmount).toBe(17_900 - 2_380);
    const [entry] = await db
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.entryKey, `creditnote:${formKey}`));
    expect(entry).toMatchObject({ method: "OFFSET", source: "CORRECTION", amount: 2_380, personId });

    // The same form again: nothing more is issued or booked.
    const again = await credit(original.id, { amount: "23,80", formKey });
    expect(await again.text()).toContain("Diese Gutschrift ist schon ausgestellt (das Formular wurde zweimal gesendet).");
    expect(await creditNotesOf(original.id)).toHaveLength(1);
    expect((await headerOf(original.id)).openAmount).toBe(17_900 - 2_380);

    // Its PDF: headed 'Gutschrift', naming the invoice, the 19 % figures negated.
    expect((await postForm("/invoices", await loginCookie("finance"), { intent: "invoicePdf:create", id: note.id })).status).toBe(302);
    const stored = await env.INVOICES.get((await headerOf(note.id)).pdfFilePath!);
    const document = await getDocumentProxy(new Uint8Array(await stored!.arrayBuffer()));
    const text = ((await extractText(document, { mergePages: true })).text as string).replace(/\s+/g, " ");
    expect(text).toContain(`Gutschrift Nr. ${note.invoiceNumber}`);
    expect(text).toContain(`hiermit schreiben wir Ihnen zu unserer Rechnung Nr. ${original.invoiceNumber} vom ${formatDate(TODAY)} den folgenden Betrag gut`);
    expect(text).toMatch(/19 % -20,00 € -3,80 € -23,80 €/);
    expect(text).not.toContain("vollständig");
    expect(text).not.toContain("Bitte überweisen");
  });

  it("credits no more of a tax case than its rows less earlier credit notes; the refusal is German and changes nothing", async () => {
    const original = await invoice();
    expect((await credit(original.id, { amount: "100,00" })).status).toBe(302);
    const tooMuch = await credit(original.id, { amount: "19,01" });
    expect(tooMuch.status).toBe(400);
    expect((await tooMuch.text()).replaceAll("<!-- -->", "").replaceAll("\u00a0", " ")).toContain(
      "Gutgeschrieben werden höchstens 19,00 € (die Zeilen mit 19 %, abzüglich früherer Gutschriften).",
    );
    const otherCase = await credit(original.id, { amount: "60,01", taxCase: "NOT_TAXABLE" });
    expect(otherCase.status).toBe(400);
    const garbages: Record<string, string>[] = [
      { amount: "0" },
      { amount: "-5,00" },
      { amount: "abc" },
      { taxCase: "REDUCED" },
      { taxCase: "ZEHN" },
      { formKey: "x" },
      { text: "" },
    ];
    for (const garbage of garbages) {
      const response = await credit(original.id, { amount: "1,00", ...garbage });
      expect(response.status, JSON.stringify(garbage)).toBeGreaterThanOrEqual(400);
      expect(response.status, JSON.stringify(garbage)).toBeLessThan(500);
    }
    expect(await creditNotesOf(original.id)).toHaveLength(1);
    expect((await headerOf(original.id)).openAmount).toBe(17_900 - 10_000);
  });

  it("of a paid invoice becomes the person's credit; it bars a Storno, and STAFF cannot issue one", async () => {
    const original = await invoice();
    await db.batch([
      db.insert(schema.payments).values({
        entryKey: `test:${original.id}`,
        personId,
        date: TODAY,
        amount: 17_900,
        method: "TRANSFER",
        source: "MANUAL",
        text: "Test",
        createdBy: "Test",
        createdOn: new Date().toISOString(),
      }),
    ]);
    const [payment] = await db
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.entryKey, `test:${original.id}`));
    await db
      .insert(schema.paymentAllocations)
      .values({ paymentId: payment.id, invoiceId: original.id, amount: 17_900, createdBy: "Test", createdOn: new Date().toISOString() });
    const creditBefore = await personCredit(db, personId);
    expect((await credit(original.id, { amount: "10,00" })).status).toBe(302);
    expect(await personCredit(db, personId)).toBe(creditBefore + 1_000);
    expect((await headerOf(original.id)).openAmount).toBe(0);

    const storno = await postForm("/invoices", await loginCookie("finance"), { intent: "invoice:cancel", id: original.id });
    expect(await storno.text()).toContain("Zu dieser Rechnung gibt es schon eine Gutschrift");
    expect(await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.correctsInvoiceId, original.id))).toHaveLength(1);

    // STAFF is sent away (as from every screen of invoices) and nothing is issued.
    const staff = await credit(original.id, { amount: "1,00" }, "staff");
    expect(staff.status).toBe(302);
    expect(await creditNotesOf(original.id)).toHaveLength(1);
  });
});

describe("the mail of a correction", () => {
  it("sends a Gutschrift and a Stornorechnung with the Korrekturmail: the document named, what it corrects, no payment asked", async () => {
    const credited = await invoice();
    expect((await credit(credited.id, { amount: "23,80" })).status).toBe(302);
    const [note] = await creditNotesOf(credited.id);
    const cancelled = await invoice();
    const outcome = await cancelInvoice(db, cancelled.id, actor, TODAY);
    if (outcome.status !== "cancelled") throw new Error(outcome.status);
    await db.update(schema.people).set({ email: "gerda@gutschrift.example" }).where(eq(schema.people.id, personId));
    const cookie = await loginCookie("finance");
    const account = await useTestAccount("korrektur");
    const date = formatDate(TODAY);
    for (const [id, number, subject, says] of [
      [
        note.id,
        note.invoiceNumber!,
        "Gutschrift",
        `Gutschrift Nr. ${note.invoiceNumber} vom ${date} über 23,80 € zu unserer Rechnung Nr. ${credited.invoiceNumber} vom ${date}`,
      ],
      [
        outcome.stornoId,
        outcome.stornoNumber,
        "Stornorechnung",
        `Sie storniert unsere Rechnung Nr. ${cancelled.invoiceNumber} vom ${date} vollständig: Aus ihr ist nichts mehr zu zahlen.`,
      ],
    ] as const) {
      // Its PDF, as the background rendering stores it.
      const file = `${subject}_${number}_Gutschrift.pdf`;
      await env.INVOICES.put(file, tinyPdf(`${subject} ${number}`), { httpMetadata: { contentType: "application/pdf" } });
      await db
        .update(schema.invoiceHeaders)
        .set({ pdfFilePath: file })
        .where(and(eq(schema.invoiceHeaders.id, id), isNull(schema.invoiceHeaders.pdfFilePath)));
      const preview = (await (await fetchApp(`/invoices?dialog=mail-invoice&dialogId=${id}`, { cookie })).text()).replaceAll("<!-- -->", "");
      expect(preview).toContain(`${subject} ${number} von `);
      const response = await postForm("/invoices", cookie, { intent: "mail:send", source: "invoice", id, subject: `${subject} ${number}` });
      expect(toastOf(response)?.message).toBe(MAIL_SENT);
      const mail = (await mailsTo(account)).find((sent) => sent.subject === `${subject} ${number}`)!;
      // (\s also takes the no-break space before €.)
      expect(mail.text.replace(/\s+/g, " ")).toContain(says);
      expect(mail.text).not.toMatch(/fällig|überweisen|bezahlen/);
      // Its own PDF, and no GiroCode: nothing is to be paid.
      expect(mail.attachments?.map((attachment) => attachment.filename)).toEqual([file]);
    }
  });
});
