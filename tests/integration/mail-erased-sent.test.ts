/**
 * Issue 29/16 and 29/17: no 'Mail senden' to an erased person; the retention overview's last
 * activity is a past one, the next planned date stands apart; 'Mail senden' of an invoice sets
 * its 'Versendet am'; while a 'PDFs erzeugen' run makes the invoice's PDF, Senden says it waits.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { todayInBerlin } from "~/lib/format";
import { MAIL_SENT, PERSON_ERASED } from "~/lib/mail";
import { fetchApp, postForm, toastOf } from "../support/app";
import { mailsTo, tinyPdf, useTestAccount } from "../support/mail-catcher";
import { retentionLists } from "../support/retention";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";
import { ISSUED } from "../support/invoices";

const db = createDb(env.DB);
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

let erased: { id: number };
let erasedInvoice: { id: number };
let erasedFee: { id: number };
let person: { id: number };
let invoice: { id: number };

beforeAll(async () => {
  await loadDemoData();
  [erased] = await db
    .insert(schema.people)
    .values({ firstName: "Gelöschte", lastName: "Person", memberTypeId: 1, erasedOn: "2026-11-01", retainedUntil: "2036-12-31" })
    .returning({ id: schema.people.id });
  [erasedInvoice] = await db
    .insert(schema.invoiceHeaders)
    .values({
      personId: erased.id,
      invoiceNumber: 890_001,
      ...ISSUED,
      date: "2026-10-01",
      dueDate: "2026-10-31",
      amount: 4500,
      openAmount: 0,
      pdfFilePath: "x.pdf",
    })
    .returning({ id: schema.invoiceHeaders.id });
  [erasedFee] = await db
    .insert(schema.fees)
    .values({ personId: erased.id, date: "2026-10-01", text: "Alte Gebühr", amount: 4500, openAmount: 0 })
    .returning({ id: schema.fees.id });
  [person] = await db
    .insert(schema.people)
    .values({ firstName: "Sina", lastName: "Sendetest", email: "sina@example.org", memberTypeId: 1 })
    .returning({ id: schema.people.id });
  [invoice] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId: person.id, invoiceNumber: 890_002, ...ISSUED, date: "2026-11-01", dueDate: "2026-12-01", amount: 4500, openAmount: 4500 })
    .returning({ id: schema.invoiceHeaders.id });
});

const rowOf = (html: string, id: number) => html.match(new RegExp(`<tr[^>]*data-row-id="${id}"[\\s\\S]*?</tr>`))?.[0] ?? "";

describe("no mail to an erased person (issue 29/16)", () => {
  it("the invoice and the fee of an erased person offer no 'Mail senden'", async () => {
    const cookie = await loginCookie("admin");
    const invoices = await text(await fetchApp(`/invoices?status=all&q=890001`, { cookie }));
    expect(rowOf(invoices, erasedInvoice.id)).not.toBe("");
    expect(rowOf(invoices, erasedInvoice.id)).not.toContain("Mail senden");
    const fees = await text(await fetchApp(`/people/${erased.id}/fees`, { cookie }));
    expect(rowOf(fees, erasedFee.id)).not.toBe("");
    expect(rowOf(fees, erasedFee.id)).not.toContain("Mail senden");
    const ownInvoices = await text(await fetchApp(`/invoices?status=all&q=890002`, { cookie }));
    expect(rowOf(ownInvoices, invoice.id)).toContain("Mail senden");
  });

  it("the mail dialog opened by hand says why and Senden is refused, nothing sent", async () => {
    const cookie = await loginCookie("admin");
    const html = await text(await fetchApp(`/invoices/${erasedInvoice.id}/invoicerows?dialog=mail-invoice&dialogId=${erasedInvoice.id}`, { cookie }));
    expect(html).toContain(PERSON_ERASED);
    expect(html).toMatch(/<button type="submit" disabled=""[^>]*>Senden<\/button>/);
    const response = await postForm(`/invoices/${erasedInvoice.id}/invoicerows`, cookie, {
      intent: "mail:send",
      source: "invoice",
      id: erasedInvoice.id,
      subject: "Rechnung",
    });
    expect(await text(response)).toContain(PERSON_ERASED);
    expect(await db.select().from(schema.mailLog).where(eq(schema.mailLog.personId, erased.id))).toHaveLength(0);
  });
});

describe("the retention overview's last and next activity (issue 29/16)", () => {
  it("shows the last past activity, and a coming course date apart as 'Nächster Termin'", async () => {
    const [left] = await db
      .insert(schema.people)
      .values({
        firstName: "Lena",
        lastName: "Zukunft",
        memberTypeId: 1,
        memberSince: "2000-01-01",
        memberUntil: "2019-12-31",
        createdOn: "2000-01-01T00:00:00Z",
      })
      .returning({ id: schema.people.id });
    await db.insert(schema.fees).values({ personId: left.id, date: "2020-05-01", text: "Letzte Gebühr", amount: 100, openAmount: 0 });
    const [course] = await db
      .insert(schema.courses)
      .values({ name: "Kurs im Frühjahr", startYear: 2027, statusCode: "PLANNED", startDateTime: "2027-03-01T17:00:00.000Z" })
      .returning({ id: schema.courses.id });
    const [dog] = await db.insert(schema.dogs).values({ ownerId: left.id, commonName: "Zora", gender: 2 }).returning({ id: schema.dogs.id });
    await db
      .insert(schema.courseMemberships)
      .values({ courseId: course.id, personId: left.id, dogId: dog.id, statusId: 4, price: 0, amount: 0, createdOn: "2020-05-01T10:00:00.000Z" });
    await db.insert(schema.courseDates).values({ courseId: course.id, startDateTime: "2027-03-08T17:00:00.000Z" });

    const { left: leftList } = await retentionLists(db, 3, "2026-11-25");
    expect(leftList.find((row) => row.id === left.id)).toMatchObject({ lastActivity: "2020-05-01T10:00:00.000Z", nextPlanned: "2027-03-01T17:00:00.000Z" });
    const page = await text(await fetchApp("/gdpr", { cookie: await loginCookie("gdpr") }));
    const row = page.match(/<tr[^>]*>(?:(?!<\/tr>)[\s\S])*Zukunft(?:(?!<\/tr>)[\s\S])*<\/tr>/)?.[0] ?? "";
    expect(row).toContain("01.05.2020");
    expect(row).toContain("01.03.2027");
    expect(page).toContain("Nächster Termin");
  });

  it("someone with a coming course date is not listed as without activity", async () => {
    const [idle] = await db
      .insert(schema.people)
      .values({ firstName: "Ida", lastName: "Bald", memberTypeId: 1, createdOn: "2018-01-01T00:00:00Z" })
      .returning({ id: schema.people.id });
    await db
      .insert(schema.courses)
      .values({ name: "Kurs mit Trainerin", startYear: 2027, statusCode: "PLANNED", trainerId: idle.id, startDateTime: "2027-04-01T17:00:00.000Z" });
    const { inactive } = await retentionLists(db, 3, "2026-11-25");
    expect(inactive.map((row) => row.id)).not.toContain(idle.id);
  });
});

describe("Mail senden of an invoice (issue 29/17)", () => {
  it("while a 'PDFs erzeugen' run makes its PDF, Senden is disabled and says it waits; with the PDF it is enabled", async () => {
    const cookie = await loginCookie("finance");
    const [job] = await db
      .insert(schema.jobs)
      .values({ type: "PDFS", status: "RUNNING", total: 1, items: JSON.stringify([invoice.id]) })
      .returning({ id: schema.jobs.id });
    const path = `/invoices/${invoice.id}/invoicerows?dialog=mail-invoice&dialogId=${invoice.id}`;
    const waiting = await text(await fetchApp(path, { cookie }));
    expect(waiting).toContain("Senden wartet auf das PDF dieser Rechnung: es wird gerade im Hintergrund erzeugt");
    expect(waiting).toContain("Bitte lade die Seite in einer Minute neu");
    expect(waiting).toMatch(/<button type="submit" disabled=""[^>]*>Senden<\/button>/);
    await env.INVOICES.put("Rechnung_890002_Sendetest_2026.pdf", tinyPdf("Rechnung 890002"), { httpMetadata: { contentType: "application/pdf" } });
    await db.update(schema.invoiceHeaders).set({ pdfFilePath: "Rechnung_890002_Sendetest_2026.pdf" }).where(eq(schema.invoiceHeaders.id, invoice.id));
    await db.update(schema.jobs).set({ status: "DONE" }).where(eq(schema.jobs.id, job.id));
    const ready = await text(await fetchApp(path, { cookie }));
    expect(ready).not.toContain("Senden wartet");
    expect(ready).toMatch(/<button type="submit" class="[^"]*"[^>]*>Senden<\/button>/);
  });

  it("sending sets 'Versendet am' to today; a second mail keeps the first date", async () => {
    const account = await useTestAccount("sent-date");
    const cookie = await loginCookie("finance");
    const send = () =>
      postForm(`/invoices/${invoice.id}/invoicerows`, cookie, { intent: "mail:send", source: "invoice", id: invoice.id, subject: "Rechnung 890002" });
    expect(toastOf(await send())?.message).toBe(MAIL_SENT);
    expect(await mailsTo(account)).toHaveLength(1);
    const [sent] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, invoice.id));
    expect(sent.sentDate).toBe(todayInBerlin());
    await db.update(schema.invoiceHeaders).set({ sentDate: "2026-11-02" }).where(eq(schema.invoiceHeaders.id, invoice.id));
    expect(toastOf(await send())?.message).toBe(MAIL_SENT);
    const [again] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, invoice.id));
    expect(again.sentDate).toBe("2026-11-02");
  });
});
