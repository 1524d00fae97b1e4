/**
 * Mahnlauf (issue 17): the preview, the run's reminders and reminder fees, idempotence (retried
 * messages, a second run on the same day), paid items never reminded, and who may start it.
 */
import { env } from "cloudflare:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb, runAtomically } from "~/db/client.server";
import * as schema from "~/db/schema";
import { startRun } from "~/jobs/start.server";
import { missingBaseRate, peopleToRemind, previewReminderRun, reminderRunParams, writeReminders, type ReminderRunParams } from "~/models/reminder-runs.server";
import { allocationStatements, entryInsert } from "~/models/payments.server";
import { deliver, type Sent } from "../support/jobs";
import { fetchApp, postForm, toastOf } from "../support/app";
import { attachmentOf, mailsTo, useTestAccount } from "../support/mail-catcher";
import { extractText, getDocumentProxy } from "unpdf";
import { reminderPrintPdf } from "~/jobs/reminder-run.server";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS, loginCookie } from "../support/sessions";
import { ISSUED } from "../support/invoices";

const db = createDb(env.DB);
const RUN_DATE = "2026-11-23"; // a Monday

let withMail: number;
let withoutMail: number;
let invoiceNumber = 880_000;

const invoice = async (personId: number, dueDate: string, openAmount = 5000) => {
  const [row] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId, invoiceNumber: invoiceNumber++, ...ISSUED, date: "2026-09-01", dueDate, amount: 5000, openAmount })
    .returning({ id: schema.invoiceHeaders.id });
  return row.id;
};
const fee = async (personId: number, dueDate: string, sendInvoice = false, openAmount = 2000) => {
  const [row] = await db
    .insert(schema.fees)
    .values({ personId, date: "2026-09-01", dueDate, text: "Kursgebühr Welpen", amount: 2000, openAmount, sendInvoice })
    .returning({ id: schema.fees.id });
  return row.id;
};

/** A run over `people` on `date` whose messages the test delivers itself. */
async function controlledRun(people: number[], params: ReminderRunParams) {
  const messages: Sent = [];
  const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
  const outcome = await startRun(collecting, db, { type: "REMINDERS", items: people, params, emptyMessage: "Keine Mahnung fällig" }, DEMO_USERS.finance);
  if (outcome.status !== "started") throw new Error(`Lauf nicht gestartet: ${outcome.status}`);
  return { jobId: outcome.job.id, messages };
}

const remindersOf = (people: number[]) =>
  db
    .select()
    .from(schema.reminders)
    .where(inArray(schema.reminders.personId, people))
    .orderBy(schema.reminders.targetType, schema.reminders.targetId, schema.reminders.level);
const reminderFeesOf = (people: number[]) =>
  db
    .select()
    .from(schema.fees)
    .where(sql`${schema.fees.kind} = 'REMINDER' AND ${inArray(schema.fees.personId, people)}`)
    .orderBy(schema.fees.id);

let testAccount: string;

async function pdfText(bytes: ArrayBuffer | Uint8Array) {
  const document = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(document, { mergePages: true })).text as string;
}

beforeAll(async () => {
  await loadDemoData();
  testAccount = await useTestAccount("mahnlauf");
  [{ id: withMail }, { id: withoutMail }] = await db
    .insert(schema.people)
    .values([
      { firstName: "Mara", lastName: "Mahnmail", email: "mara@wuff.example", memberTypeId: 1, hasGdpr: true },
      { firstName: "Paul", lastName: "Post", email: null, memberTypeId: 1 },
    ])
    .returning({ id: schema.people.id });
});

beforeEach(async () => {
  await db.update(schema.reminderLevels).set({ enabled: true, days: 14, paymentTermDays: 14 });
  // The same fee by mail and by letter, unless a test sets them apart.
  await db.update(schema.reminderLevels).set({ fee: 0, mailFee: 0 }).where(eq(schema.reminderLevels.level, 1));
  await db.update(schema.reminderLevels).set({ fee: 500, mailFee: 500 }).where(eq(schema.reminderLevels.level, 2));
  await db.update(schema.reminderLevels).set({ fee: 1000, mailFee: 1000 }).where(eq(schema.reminderLevels.level, 3));
});

describe("the reminder run", () => {
  it("reminds each due item once, with the level's fee, by mail or for print; retried messages and a second run change nothing", async () => {
    const overdueInvoice = await invoice(withMail, "2026-11-06"); // +14 = 20.11. -> due
    const notYet = await invoice(withMail, "2026-11-13"); // +14 = 27.11. -> not yet
    const paid = await invoice(withMail, "2026-10-01", 0);
    const directFee = await fee(withoutMail, "2026-10-31"); // Saturday -> 02.11., +14 = 16.11. -> due
    const billedFee = await fee(withoutMail, "2026-10-01", true); // billed by invoice: never on its own
    // An item already at level 1 whose new due date passed 14 days ago gets level 2.
    const second = await invoice(withoutMail, "2026-09-01");
    await db
      .insert(schema.reminders)
      .values({ targetType: "INVOICE", targetId: second, personId: withoutMail, level: 1, date: "2026-10-05", newDueDate: "2026-10-19", status: "SENT" });

    const params = await reminderRunParams(db, RUN_DATE);
    const preview = await previewReminderRun(db, params);
    const mine = (await peopleToRemind(db, params)).filter((id) => id === withMail || id === withoutMail);
    expect(mine).toEqual([withMail, withoutMail]);
    expect(preview.levels.map((level) => level.title)).toEqual(["Zahlungserinnerung", "1. Mahnung", "2. Mahnung"]);
    expect(preview.levels[0].newDueDate).toBe("2026-12-07");

    const { jobId, messages } = await controlledRun([withMail, withoutMail], params);
    await deliver(messages);
    await deliver(messages); // a redelivered message
    const reminders = await remindersOf([withMail, withoutMail]);
    expect(reminders.map((r) => [r.targetType, r.targetId, r.level, r.channel, r.status, r.date, r.newDueDate, r.openAmount])).toEqual([
      ["FEE", directFee, 1, "PRINT", "SENT", RUN_DATE, "2026-12-07", 2000],
      ["INVOICE", overdueInvoice, 1, "MAIL", "SENT", RUN_DATE, "2026-12-07", 5000],
      ["INVOICE", second, 1, null, "SENT", "2026-10-05", "2026-10-19", 0],
      ["INVOICE", second, 2, "PRINT", "SENT", RUN_DATE, "2026-12-07", 5000],
    ]);
    expect(reminders.some((r) => [notYet, paid].includes(r.targetId) && r.targetType === "INVOICE")).toBe(false);
    expect(reminders.some((r) => r.targetType === "FEE" && r.targetId === billedFee)).toBe(false);

    // Level 1 has no fee; level 2 one fee of 5,00 € for the invoice, billed by the reminder (its GiroCode), not by a later invoice.
    const fees = await reminderFeesOf([withMail, withoutMail]);
    expect(fees.map((f) => [f.personId, f.amount, f.openAmount, f.sendInvoice, f.remindedInvoiceId, f.remindedFeeId, f.dueDate, f.jobId, f.text])).toEqual([
      [withoutMail, 500, 500, false, second, null, "2026-12-07", jobId, `Mahngebühr 1. Mahnung: Rechnung ${invoiceNumber - 1}`],
    ]);
    expect(reminders.find((r) => r.level === 2)!.feeId).toBe(fees[0].id);
    const job = (await db.select().from(schema.jobs).where(eq(schema.jobs.id, jobId)))[0];
    expect(job).toMatchObject({ status: "DONE", done: 2, total: 2, message: "Fertig! 3 Mahnungen geschrieben (1 per Mail, 2 zum Drucken)" });

    // A second run on the same day: nothing of these people is due any more, and forced over them it writes nothing.
    expect((await peopleToRemind(db, params)).filter((id) => id === withMail || id === withoutMail)).toEqual([]);
    const again = await controlledRun([withMail, withoutMail], params);
    await deliver(again.messages);
    expect(await remindersOf([withMail, withoutMail])).toEqual(reminders);
    expect(await reminderFeesOf([withMail, withoutMail])).toEqual(fees);
  });

  it("a reminder fee of a direct-billing fee is collected directly too, and never reminded on its own", async () => {
    const [{ id: person }] = await db
      .insert(schema.people)
      .values({ firstName: "Dora", lastName: "Direkt", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    const direct = await fee(person, "2026-09-01");
    await db
      .insert(schema.reminders)
      .values({ targetType: "FEE", targetId: direct, personId: person, level: 1, date: "2026-09-20", newDueDate: "2026-10-01", status: "SENT" });
    const params = await reminderRunParams(db, RUN_DATE);
    const first = await controlledRun([person], params);
    await deliver(first.messages);
    const [reminderFee] = await reminderFeesOf([person]);
    expect(reminderFee).toMatchObject({
      amount: 500,
      sendInvoice: false,
      remindedFeeId: direct,
      remindedInvoiceId: null,
      text: "Mahngebühr 1. Mahnung: Kursgebühr Welpen",
    });
    // Months later: level 3 for the fee, nothing for the reminder fee itself.
    const later = await reminderRunParams(db, "2027-03-01");
    const next = await controlledRun([person], later);
    await deliver(next.messages);
    const reminders = await remindersOf([person]);
    expect(reminders.map((r) => [r.targetId, r.level])).toEqual([
      [direct, 1],
      [direct, 2],
      [direct, 3],
    ]);
  });

  it("mails everyone with an e-mail address, consent or not (a reminder is the contract's, Art. 6 (1) b GDPR); the preview says why not by mail", async () => {
    const [{ id: consenting }, { id: noConsent }, { id: noAddress }] = await db
      .insert(schema.people)
      .values([
        { firstName: "Erna", lastName: "Einverstanden", email: "erna@wuff.example", hasGdpr: true, memberTypeId: 1 },
        { firstName: "Olaf", lastName: "Ohnezustimmung", email: "olaf@wuff.example", hasGdpr: false, memberTypeId: 1 },
        { firstName: "Anna", lastName: "Adresslos", email: "  ", hasGdpr: true, memberTypeId: 1 },
      ])
      .returning({ id: schema.people.id });
    for (const person of [consenting, noConsent, noAddress]) await invoice(person, "2026-11-06");
    const params = await reminderRunParams(db, RUN_DATE);
    const preview = await previewReminderRun(db, params);
    const mine = preview.recipients.filter((recipient) => [consenting, noConsent, noAddress].includes(recipient.personId));
    expect(mine.map((recipient) => [recipient.name, recipient.channel, recipient.reason])).toEqual([
      ["Anna Adresslos", "PRINT", "keine E-Mail-Adresse"],
      ["Erna Einverstanden", "MAIL", null],
      ["Olaf Ohnezustimmung", "MAIL", null],
    ]);
    const html = (await (await fetchApp("/reminders?dialog=reminderRun-start", { cookie: await loginCookie("finance") })).text()).replaceAll("<!-- -->", "");
    expect(html).toMatch(/Anna Adresslos<\/th><td[^>]*>zum Drucken<\/td><td[^>]*>keine E-Mail-Adresse</);
    expect(html).toMatch(/Olaf Ohnezustimmung<\/th><td[^>]*>per Mail</);

    const { messages } = await controlledRun([consenting, noConsent, noAddress], params);
    await deliver(messages);
    const reminders = await remindersOf([consenting, noConsent, noAddress]);
    expect(new Map(reminders.map((r) => [r.personId, [r.channel, r.status, r.mailLogId === null]]))).toEqual(
      new Map([
        [consenting, ["MAIL", "SENT", false]],
        [noConsent, ["MAIL", "SENT", false]],
        [noAddress, ["PRINT", "SENT", true]],
      ]),
    );
    expect(
      await db
        .select()
        .from(schema.mailLog)
        .where(inArray(schema.mailLog.personId, [noAddress])),
    ).toEqual([]);
  });

  it("a reminder whose mail failed every retry is 'Versand fehlgeschlagen' with its reason, listed apart, sent again or printed by hand", async () => {
    const [{ id: first }, { id: second }] = await db
      .insert(schema.people)
      .values([
        { firstName: "Fritz", lastName: "Fehlversand", email: "fritz@wuff.example", memberTypeId: 1 },
        { firstName: "Paula", lastName: "Postweg", email: "paula@wuff.example", memberTypeId: 1 },
      ])
      .returning({ id: schema.people.id });
    for (const person of [first, second]) await invoice(person, "2026-11-06");
    const { jobId, messages } = await controlledRun([first, second], await reminderRunParams(db, RUN_DATE));
    // The mail server is down on every try; the queue gives up (dead-letter queue).
    const down = { ...env, SMTP_PORT: "9" };
    expect((await deliver(messages, "wuff-jobs", down)).retried).toHaveLength(messages.length);
    await deliver(messages, "wuff-jobs-dlq", down);
    const cookie = await loginCookie("finance");
    const failedOnly = await (await fetchApp("/reminders?show=failed", { cookie })).text();
    expect(failedOnly).toContain("Fritz Fehlversand");
    expect(failedOnly).toContain("Versand fehlgeschlagen");
    expect(failedOnly).toContain("Mailserver");
    // The home page lists them while there are any.
    const home = await (await fetchApp("/", { cookie })).text();
    expect(home).toContain("Mahnungen: Versand fehlgeschlagen");
    expect(home).toMatch(/Fritz Fehlversand[\s\S]*Zahlungserinnerung vom 23\.11\.2026/);
    const [fritz] = await remindersOf([first]);
    const [paula] = await remindersOf([second]);
    expect([fritz.status, paula.status]).toEqual(["PENDING", "PENDING"]);

    // 'Erneut senden' with the mail server up: mailed once, sent; the run's failure record is gone.
    const confirm = (await (await fetchApp(`/reminders?dialog=reminder-resend&dialogId=${fritz.id}`, { cookie })).text()).replaceAll("<!-- -->", "");
    expect(confirm).toContain("Zahlungserinnerung vom 23.11.2026 erneut senden");
    expect(confirm).toContain("Fehlgeschlagen: Mailserver");
    const mailsBefore = (await mailsTo(testAccount)).length;
    const resend = await postForm("/reminders", cookie, { intent: "reminder:resend", id: fritz.id });
    expect(toastOf(resend)?.message).toBe("Zahlungserinnerung an Fritz Fehlversand wurde per Mail versandt");
    expect((await remindersOf([first]))[0]).toMatchObject({ status: "SENT", channel: "MAIL" });
    expect(await mailsTo(testAccount)).toHaveLength(mailsBefore + 1);
    expect(
      await db
        .select()
        .from(schema.jobFailures)
        .where(and(eq(schema.jobFailures.jobId, jobId), eq(schema.jobFailures.itemId, first))),
    ).toEqual([]);
    // Done once, it is not offered again.
    const again = await postForm("/reminders", cookie, { intent: "reminder:resend", id: fritz.id });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("nicht mit fehlgeschlagenem Versand");

    // 'Als Brief drucken': sent by post, its letter downloadable; no mail.
    const mailsBeforePrint = (await mailsTo(testAccount)).length;
    const print = await postForm("/reminders", cookie, { intent: "reminder:print", id: paula.id });
    expect(toastOf(print)?.message).toBe("Zahlungserinnerung an Paula Postweg ist als Brief vermerkt: bitte drucken und versenden");
    expect((await remindersOf([second]))[0]).toMatchObject({ status: "SENT", channel: "PRINT" });
    expect(await mailsTo(testAccount)).toHaveLength(mailsBeforePrint);
    const letter = await fetchApp(`/reminders/letter/${paula.id}`, { cookie });
    expect(letter.status).toBe(200);
    expect(await pdfText(await letter.arrayBuffer())).toContain("Postweg");
    expect(await (await fetchApp("/reminders?show=failed", { cookie })).text()).toContain("Noch keine Mahnungen");
    expect(await (await fetchApp("/", { cookie })).text()).not.toContain("Mahnungen: Versand fehlgeschlagen");
    expect((await fetchApp("/reminders/letter/999999", { cookie })).status).toBe(404);
    expect((await fetchApp(`/reminders/letter/${paula.id}`, { cookie: await loginCookie("staff") })).status).not.toBe(200);
  });

  it("a mail server down on the first try gets the letter on the queue's retry: the failed claim is no mail sent", async () => {
    const [{ id: person }] = await db
      .insert(schema.people)
      .values({ firstName: "Rita", lastName: "Retry", email: "rita@wuff.example", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    await invoice(person, "2026-11-06");
    const { messages } = await controlledRun([person], await reminderRunParams(db, RUN_DATE));
    expect((await deliver(messages, "wuff-jobs", { ...env, SMTP_PORT: "9" })).retried).toEqual([0]);
    const [claim] = await db.select().from(schema.mailLog).where(eq(schema.mailLog.personId, person));
    expect(claim.status).toBe("FAILED");
    const mailsBefore = (await mailsTo(testAccount)).length;
    expect((await deliver(messages)).retried).toEqual([]);
    expect((await remindersOf([person]))[0]).toMatchObject({ status: "SENT", channel: "MAIL" });
    expect(await mailsTo(testAccount)).toHaveLength(mailsBefore + 1);
  });

  it("a paid item is never reminded, however late", async () => {
    const [{ id: person }] = await db
      .insert(schema.people)
      .values({ firstName: "Bea", lastName: "Bezahlt", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    const paidInvoice = await invoice(person, "2025-01-01", 0);
    const paidFee = await fee(person, "2025-01-01", false, 0);
    const params = await reminderRunParams(db, "2027-01-04");
    expect((await peopleToRemind(db, params)).includes(person)).toBe(false);
    const run = await controlledRun([person], params);
    await deliver(run.messages);
    expect(await remindersOf([person])).toEqual([]);
    // Paid after the preview, before the slice: the slice looks again.
    const open = await invoice(person, "2025-01-01");
    const late = await controlledRun([person], params);
    await db.update(schema.invoiceHeaders).set({ openAmount: 0 }).where(eq(schema.invoiceHeaders.id, open));
    await deliver(late.messages);
    expect(await remindersOf([person])).toEqual([]);
    expect([paidInvoice, paidFee].length).toBe(2);
  });
});

describe("what a reminder costs (issue 31)", () => {
  it("charges a level's letter fee for a reminder by post and its mail fee for one by mail, in the preview and in the run", async () => {
    await db.update(schema.reminderLevels).set({ fee: 150, mailFee: 0 }).where(eq(schema.reminderLevels.level, 1));
    const [{ id: byMail }, { id: byPost }] = await db
      .insert(schema.people)
      .values([
        { firstName: "Mia", lastName: "Mailkosten", email: "mia@wuff.example", memberTypeId: 1, hasGdpr: true },
        { firstName: "Bo", lastName: "Briefkosten", email: null, memberTypeId: 1 },
      ])
      .returning({ id: schema.people.id });
    await invoice(byMail, "2026-11-06");
    await invoice(byPost, "2026-11-06");
    const params = await reminderRunParams(db, RUN_DATE);
    const preview = await previewReminderRun(db, params);
    const { messages } = await controlledRun([byMail, byPost], params);
    await deliver(messages);
    const charged = await db
      .select({ personId: schema.fees.personId, amount: schema.fees.amount })
      .from(schema.fees)
      .where(and(eq(schema.fees.kind, "REMINDER"), inArray(schema.fees.personId, [byMail, byPost])));
    // By mail nothing (a fee of 0 is no fee), by post the letter's 1,50 €.
    expect(charged).toEqual([{ personId: byPost, amount: 150 }]);
    expect(preview.levels.find((level) => level.level === 1)?.fees).toBeGreaterThanOrEqual(150);
    expect((await remindersOf([byMail, byPost])).map((reminder) => [reminder.personId, reminder.channel, reminder.feeId !== null])).toEqual([
      [byMail, "MAIL", false],
      [byPost, "PRINT", true],
    ]);
  });
});

describe("default interest (issue 31 item 5)", () => {
  const actor = { name: "Test" };
  const bigInvoice = async (personId: number) => {
    const number = invoiceNumber++;
    const [row] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId, invoiceNumber: number, ...ISSUED, date: "2025-04-01", dueDate: "2025-05-01", amount: 100_000, openAmount: 100_000 })
      .returning({ id: schema.invoiceHeaders.id });
    return { id: row.id, number };
  };
  // The Zahlungserinnerung that put the debtor in default once its new due date (15.06.2025) passed.
  const remindedOnce = (personId: number, invoiceId: number) =>
    db
      .insert(schema.reminders)
      .values({ targetType: "INVOICE", targetId: invoiceId, personId, level: 1, date: "2025-06-01", newDueDate: "2025-06-15", status: "SENT" });

  it("charges interest from the day after the first reminder's deadline to the reminder's date, across a base-rate change, to the cent; shown in letter and mail", async () => {
    await db.update(schema.configuration).set({ defaultInterest: true }).where(eq(schema.configuration.id, 1));
    await db.update(schema.reminderLevels).set({ fee: 150, mailFee: 0 }).where(eq(schema.reminderLevels.level, 2));
    const [{ id: consumer }, { id: business }] = await db
      .insert(schema.people)
      .values([
        { firstName: "Zora", lastName: "Zinsen", email: "zora@wuff.example", memberTypeId: 1 },
        { firstName: "Bernd", lastName: "Betrieb", email: null, memberTypeId: 1, isBusiness: true },
      ])
      .returning({ id: schema.people.id });
    const ofConsumer = await bigInvoice(consumer);
    const ofBusiness = await bigInvoice(business);
    await remindedOnce(consumer, ofConsumer.id);
    await remindedOnce(business, ofBusiness.id);
    // The consumer paid 400,00 € on 05.07.2025: from 06.07. only 600,00 € bear interest.
    const iso = new Date().toISOString();
    await runAtomically(db, [
      entryInsert(
        { entryKey: "test:interest-part", personId: consumer, date: "2025-07-05", amount: 40_000, method: "TRANSFER", source: "MANUAL", text: "Teilzahlung" },
        actor,
        iso,
      ),
      ...allocationStatements("test:interest-part", { invoiceId: ofConsumer.id, invoiceNumber: ofConsumer.number, amount: 40_000 }, actor, iso),
    ]);

    const params = await reminderRunParams(db, "2025-07-21");
    expect(params.interest?.rates.find((rate) => rate.validFrom === "2025-07-01")).toEqual({ validFrom: "2025-07-01", rate: 127 });
    const preview = await previewReminderRun(db, params);
    expect(preview).toMatchObject({ interestOn: true, problem: null });
    expect(preview.levels[1].interest).toBeGreaterThanOrEqual(550 + 1054);
    const { jobId, messages } = await controlledRun([consumer, business], params);
    await deliver(messages);
    await deliver(messages); // redelivered: nothing twice

    // Consumer, 2,27/1,27 + 5 points: 16.06.-30.06. 15 days on 1.000,00 € at 7,27 %, 01.07.-05.07. 5 days on
    // 1.000,00 € at 6,27 %, 06.07.-21.07. 16 days on 600,00 € at 6,27 %:
    // (100000 x 727 x 15 + 100000 x 627 x 5 + 60000 x 627 x 16) / 3 650 000 = 549,57 cents -> 5,50 €.
    // Business, + 9 points: (100000 x 1127 x 15 + 100000 x 1027 x 21) / 3 650 000 = 1054,03 cents -> 10,54 €.
    const second = (await remindersOf([consumer, business])).filter((reminder) => reminder.level === 2);
    expect(second.map((r) => [r.personId, r.channel, r.interest, r.interestFrom, r.interestTo])).toEqual([
      [consumer, "MAIL", 550, "2025-06-16", "2025-07-21"],
      [business, "PRINT", 1054, "2025-06-16", "2025-07-21"],
    ]);
    expect(JSON.parse(second[0].interestBasis!)).toEqual({
      surcharge: 500,
      stretches: [
        { from: "2025-06-16", to: "2025-06-30", days: 15, principal: 100_000, rate: 727 },
        { from: "2025-07-01", to: "2025-07-05", days: 5, principal: 100_000, rate: 627 },
        { from: "2025-07-06", to: "2025-07-21", days: 16, principal: 60_000, rate: 627 },
      ],
    });
    // The reminder's fee: the actual costs (by mail nothing, by letter 1,50 €) and the interest.
    const fees = await reminderFeesOf([consumer, business]);
    expect(fees.map((f) => [f.personId, f.amount, f.text])).toEqual([
      [consumer, 550, `Verzugszinsen 1. Mahnung: Rechnung ${ofConsumer.number}`],
      [business, 1204, `Mahngebühr und Verzugszinsen 1. Mahnung: Rechnung ${ofBusiness.number}`],
    ]);
    expect(second.map((r) => r.feeId)).toEqual(fees.map((f) => f.id));

    // Shown: the mail names the interest beside the open amount, the letter its period and rate.
    const mail = (await mailsTo(testAccount)).find((each) => each.subject.includes(`Rechnung ${ofConsumer.number}`));
    expect(mail?.text.replace(/\s+/g, " ")).toContain("offen 600,00 €, zuzüglich Verzugszinsen 5,50 €, zusammen 605,50 €");
    const letter = await env.INVOICES.get(second[1].pdfKey!);
    const text = (await pdfText(await letter!.arrayBuffer())).replace(/\s+/g, " ");
    expect(text).toContain("Mahngebühr 1,50 €");
    expect(text).toContain(
      `Verzugszinsen Rechnung ${ofBusiness.number}: 16.06.2025 bis 21.07.2025, 9 Prozentpunkte über dem Basiszinssatz (11,27 %, dann 10,27 % p. a.) 10,54 €`,
    );
    expect(text).toContain("1.012,04 €");
    expect((await db.select().from(schema.jobs).where(eq(schema.jobs.id, jobId)))[0].status).toBe("DONE");

    // The 2. Mahnung charges only the days since: 22.07.-01.09.2025, 42 days on 600,00 € at 6,27 %
    // = 60000 x 627 x 42 / 3 650 000 = 432,89 cents -> 4,33 €.
    const later = await reminderRunParams(db, "2025-09-01");
    const next = await controlledRun([consumer], later);
    await deliver(next.messages);
    const third = (await remindersOf([consumer])).find((reminder) => reminder.level === 3);
    expect([third?.interest, third?.interestFrom, third?.interestTo]).toEqual([433, "2025-07-22", "2025-09-01"]);
    await db.update(schema.configuration).set({ defaultInterest: false }).where(eq(schema.configuration.id, 1));
  });

  it("refuses to start while a half-year's base rate is missing, and charges nothing while switched off", async () => {
    const [{ id: person }] = await db
      .insert(schema.people)
      .values({ firstName: "Hanna", lastName: "Halbjahr", email: null, memberTypeId: 1 })
      .returning({ id: schema.people.id });
    const [{ id: invoiceId }] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId: person, invoiceNumber: invoiceNumber++, ...ISSUED, date: "2026-05-01", dueDate: "2026-05-15", amount: 5000, openAmount: 5000 })
      .returning({ id: schema.invoiceHeaders.id });
    await db
      .insert(schema.reminders)
      .values({ targetType: "INVOICE", targetId: invoiceId, personId: person, level: 1, date: "2026-06-01", newDueDate: "2026-06-15", status: "SENT" });
    await db.update(schema.configuration).set({ defaultInterest: true }).where(eq(schema.configuration.id, 1));
    const preview = await previewReminderRun(db, await reminderRunParams(db, "2026-07-20"));
    expect(preview.problem).toBe(missingBaseRate("2026-07-01"));
    expect(preview.problem).toBe(
      "Für das 2. Halbjahr 2026 fehlt der Basiszinssatz: Bitte in den Einstellungen (Verzugszinsen) eintragen oder die Verzugszinsen ausschalten.",
    );
    // The page says it and offers no start.
    const html = (await (await fetchApp("/reminders?dialog=reminderRun-start", { cookie: await loginCookie("finance") })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Für das 2. Halbjahr 2026 fehlt der Basiszinssatz");

    await db.update(schema.configuration).set({ defaultInterest: false }).where(eq(schema.configuration.id, 1));
    const off = await reminderRunParams(db, "2026-07-20");
    expect(off.interest).toBeUndefined();
    expect((await previewReminderRun(db, off)).problem).toBeNull();
    const { messages } = await controlledRun([person], off);
    await deliver(messages);
    expect((await remindersOf([person])).map((r) => [r.level, r.interest, r.interestFrom])).toEqual([
      [1, 0, null],
      [2, 0, null],
    ]);
  });
});

describe("sending the letters", () => {
  it("one letter per person as a PDF in R2, mailed with the level's mail or kept for the run's print PDF; a redelivered message sends nothing twice", async () => {
    await db.update(schema.reminderLevels).set({ fee: 250, mailFee: 250 }).where(eq(schema.reminderLevels.level, 1));
    const [{ id: mailed }, { id: posted }] = await db
      .insert(schema.people)
      .values([
        {
          firstName: "Susi",
          lastName: "Säumig",
          email: "susi@wuff.example",
          streetNumber: "Hauptstr. 5",
          zip: "50667",
          city: "Köln",
          memberTypeId: 1,
          hasGdpr: true,
        },
        { firstName: "Piet", lastName: "Papier", email: null, streetNumber: "Nebenweg 2", zip: "50668", city: "Köln", memberTypeId: 1 },
      ])
      .returning({ id: schema.people.id });
    await invoice(mailed, "2026-11-06");
    const firstNumber = invoiceNumber - 1;
    await invoice(mailed, "2026-11-02", 1234);
    const secondNumber = invoiceNumber - 1;
    const postedFee = await fee(posted, "2026-10-31");
    const params = await reminderRunParams(db, RUN_DATE);
    const { jobId, messages } = await controlledRun([mailed, posted], params);
    await deliver(messages);
    await deliver(messages); // redelivered: no second mail, no second letter

    const sent = await remindersOf([mailed, posted]);
    expect(sent.map((r) => [r.personId, r.status, r.channel, r.sentBy])).toEqual([
      [posted, "SENT", "PRINT", "Fritz Finanz"],
      [mailed, "SENT", "MAIL", "Fritz Finanz"],
      [mailed, "SENT", "MAIL", "Fritz Finanz"],
    ]);
    const ofMailed = sent.filter((r) => r.personId === mailed);
    expect(new Set(ofMailed.map((r) => r.pdfKey)).size).toBe(1);
    expect(ofMailed[0].mailLogId).not.toBeNull();
    expect(ofMailed[0].sentOn).not.toBeNull();

    // The letter in R2: both items, their fees, the total and the new due date.
    const letter = await env.INVOICES.get(ofMailed[0].pdfKey!);
    expect(letter).not.toBeNull();
    const text = (await pdfText(await letter!.arrayBuffer())).replace(/\s+/g, " ");
    expect(text).toContain("Susi Säumig");
    expect(text).toContain("Hauptstr. 5");
    expect(text).toContain(`Rechnung ${firstNumber}`);
    expect(text).toContain(`Rechnung ${secondNumber}`);
    expect(text).toContain("50,00 €");
    expect(text).toContain("12,34 €");
    expect(text).toContain("Mahngebühr");
    expect(text).toContain("5,00 €"); // two reminder fees of 2,50 €
    expect(text).toContain("67,34 €"); // 50,00 + 12,34 + 5,00
    expect(text).toContain("07.12.2026");
    expect(text).toContain(`ReNr ${firstNumber}`);

    // One mail (to the test account), the letter attached; logged, and named on the reminders.
    const mails = (await mailsTo(testAccount)).filter((mail) => mail.subject.includes(`Rechnung ${firstNumber}`));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Zahlungserinnerung: Rechnung ${firstNumber}, Rechnung ${secondNumber}`);
    const mailText = mails[0].text.replace(/\s+/g, " ");
    expect(mailText).toContain("zuzüglich Mahngebühr 5,00 €, zusammen 67,34 €");
    expect(mailText).toContain("bis zum 07.12.2026 unter Angabe von ReNr");
    const pdfs = (mails[0].attachments ?? []).filter((file) => file.contentType === "application/pdf");
    expect(pdfs.map((file) => file.filename)).toEqual([ofMailed[0].pdfKey]);
    expect(await pdfText(await attachmentOf(mails[0], pdfs[0].generatedFileName))).toContain(`Rechnung ${firstNumber}`);
    const log = await db.select().from(schema.mailLog).where(eq(schema.mailLog.id, ofMailed[0].mailLogId!));
    expect(log[0]).toMatchObject({ kind: "REMINDER", status: "SENT", personId: mailed, jobId, intendedRecipient: "susi@wuff.example" });
    // The person's mail log names it in German.
    const mailTab = (await (await fetchApp(`/people/${mailed}/mails`, { cookie: await loginCookie("finance") })).text()).replaceAll("<!-- -->", "");
    expect(mailTab).toMatch(/<td[^>]*>Mahnung<\/td>/);

    // The person without an e-mail address: their letter in the run's print PDF.
    const print = await reminderPrintPdf(env, db, jobId);
    expect(print.status).toBe("found");
    const printed = await env.INVOICES.get(`Mahnlauf_${jobId}_Druck.pdf`);
    const printText = (await pdfText(await printed!.arrayBuffer())).replace(/\s+/g, " ");
    expect(printText).toContain("Piet Papier");
    expect(printText).toContain("Kursgebühr Welpen");
    expect(printText).toContain("22,50 €");
    expect(printText).not.toContain("Susi Säumig");
    expect(sent.find((r) => r.personId === posted)?.pdfKey).toMatch(/^Mahnung_\d+_\d+_Papier\.pdf$/);
    expect(postedFee).toBeGreaterThan(0);

    // Once more: nothing new is due, nothing is mailed again.
    await deliver(messages);
    expect((await mailsTo(testAccount)).filter((mail) => mail.subject.includes(`Rechnung ${firstNumber}`))).toHaveLength(1);

    // 'Druck-PDF herunterladen': FINANCE gets the run's print PDF; a run that does not exist is a German 404.
    const cookie = await loginCookie("finance");
    const screen = (await (await fetchApp("/reminders", { cookie })).text()).replaceAll("<!-- -->", "");
    expect(screen).toContain("Druck-PDF herunterladen");
    const download = await fetchApp(`/reminders/print/${jobId}`, { cookie });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/pdf");
    expect(await pdfText(await download.arrayBuffer())).toContain("Piet Papier");
    const missing = await fetchApp("/reminders/print/999999", { cookie });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("Diesen Mahnlauf gibt es nicht.");
  });

  it("an item paid after it was reminded, before its letter went out, is not in the letter: its reminder and fee are cancelled as it is sent", async () => {
    await db.update(schema.reminderLevels).set({ fee: 250, mailFee: 250 }).where(eq(schema.reminderLevels.level, 1));
    const [{ id: person }, { id: allPaid }] = await db
      .insert(schema.people)
      .values([
        { firstName: "Zoe", lastName: "Zahltdoch", email: "zoe@wuff.example", hasGdpr: true, memberTypeId: 1 },
        { firstName: "Alf", lastName: "Allesbezahlt", email: null, memberTypeId: 1 },
      ])
      .returning({ id: schema.people.id });
    const paidMeanwhile = await invoice(person, "2026-11-06");
    const paidNumber = invoiceNumber - 1;
    await invoice(person, "2026-11-06", 3000);
    const stillOpen = invoiceNumber - 1;
    const onlyItem = await fee(allPaid, "2026-10-31");
    const params = await reminderRunParams(db, RUN_DATE);
    const { jobId, messages } = await controlledRun([person, allPaid], params);
    // The reminders are written (as the queue item does first), then the items are paid.
    await writeReminders(db, jobId, [person, allPaid], params, DEMO_USERS.finance, new Date());
    await db.update(schema.invoiceHeaders).set({ openAmount: 0 }).where(eq(schema.invoiceHeaders.id, paidMeanwhile));
    await db.update(schema.fees).set({ openAmount: 0 }).where(eq(schema.fees.id, onlyItem));
    await deliver(messages);
    await deliver(messages); // redelivered: nothing changes
    const reminders = await remindersOf([person]);
    expect(reminders.map((r) => [r.targetId, r.status, r.cancelledBy])).toEqual([
      [paidMeanwhile, "CANCELLED", "Fritz Finanz"],
      [reminders[1].targetId, "SENT", null],
    ]);
    const [alone] = await remindersOf([allPaid]);
    expect(alone).toMatchObject({ targetId: onlyItem, status: "CANCELLED", pdfKey: null });
    // Their fees are kept with 0,00 € and '(storniert)'; the sent one's fee stays open. The paid
    // items count no level any more: the reminder is cancelled, not pending.
    const feesAfter = new Map((await reminderFeesOf([person, allPaid])).map((f) => [f.id, f]));
    for (const cancelled of [reminders[0], alone]) {
      expect(feesAfter.get(cancelled.feeId!)).toMatchObject({ amount: 0, openAmount: 0 });
      expect(feesAfter.get(cancelled.feeId!)!.text).toMatch(/\(storniert\)$/);
    }
    expect(feesAfter.get(reminders[1].feeId!)).toMatchObject({ amount: 250, openAmount: 250 });
    const text = await pdfText(await (await env.INVOICES.get(reminders[1].pdfKey!))!.arrayBuffer());
    expect(text).toContain(`Rechnung ${stillOpen}`);
    expect(text).not.toContain(`Rechnung ${paidNumber}`);
    const mails = (await mailsTo(testAccount)).filter((mail) => mail.subject.includes(`Rechnung ${stillOpen}`));
    expect(mails.map((mail) => mail.subject)).toEqual([`Zahlungserinnerung: Rechnung ${stillOpen}`]);
  });
});

describe("payment links in the letters", () => {
  it("while Mollie is on, a reminded fee's letter and mail carry its payment link (made once, the same on a retry); invoices and a run without Mollie none", async () => {
    const [{ id: person }, { id: withInvoice }] = await db
      .insert(schema.people)
      .values([
        { firstName: "Lina", lastName: "Linkzahlerin", email: "lina@wuff.example", hasGdpr: true, memberTypeId: 1 },
        { firstName: "Ingo", lastName: "Invoice", email: "ingo@wuff.example", hasGdpr: true, memberTypeId: 1 },
      ])
      .returning({ id: schema.people.id });
    const reminded = await fee(person, "2026-10-31");
    const invoiceId = await invoice(withInvoice, "2026-11-06");
    const linkOf = async () =>
      (
        await db
          .select({ id: schema.fees.paymentLinkId, url: schema.fees.paymentLinkUrl, amount: schema.fees.paymentLinkAmount })
          .from(schema.fees)
          .where(eq(schema.fees.id, reminded))
      )[0];
    await db.update(schema.configuration).set({ mollieIntegration: true }).where(eq(schema.configuration.id, 1));
    try {
      const params = await reminderRunParams(db, RUN_DATE);
      const { messages } = await controlledRun([person, withInvoice], params);
      await deliver(messages);
      const link = await linkOf();
      expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/payment\/[A-Za-z0-9]+$/);
      expect(link.amount).toBe(2000);
      // A redelivered message (and a letter rendered again) takes the same link: nothing new at Mollie.
      await db.update(schema.reminders).set({ status: "PENDING" }).where(eq(schema.reminders.personId, person));
      await deliver(messages);
      expect(await linkOf()).toEqual(link);

      const [sent] = await remindersOf([person]);
      const text = (await pdfText(await (await env.INVOICES.get(sent.pdfKey!))!.arrayBuffer())).replace(/\s+/g, "");
      expect(text).toContain(`Oderonlinebezahlen:${link.url}`);
      const mails = (await mailsTo(testAccount)).filter((mail) => mail.subject.includes("Kursgebühr Welpen") && mail.text.includes(link.url!));
      expect(mails.length).toBeGreaterThan(0);
      expect(mails[0].text).toContain(`Bequem online bezahlen: ${link.url}`);
      // An invoice has no payment link: neither its letter nor its mail shows one.
      const [ofInvoice] = await remindersOf([withInvoice]);
      expect(ofInvoice.targetId).toBe(invoiceId);
      expect((await pdfText(await (await env.INVOICES.get(ofInvoice.pdfKey!))!.arrayBuffer())).replace(/\s+/g, "")).not.toContain("Oderonlinebezahlen");
      const invoiceMails = (await mailsTo(testAccount)).filter((mail) => mail.subject === `Zahlungserinnerung: Rechnung ${invoiceNumber - 1}`);
      expect(invoiceMails).toHaveLength(1);
      expect(invoiceMails[0].text).not.toContain("online bezahlen");
    } finally {
      await db.update(schema.configuration).set({ mollieIntegration: false }).where(eq(schema.configuration.id, 1));
    }
    // Mollie off: a reminded fee gets no link.
    const [{ id: offline }] = await db
      .insert(schema.people)
      .values({ firstName: "Otto", lastName: "Ohnelink", email: null, memberTypeId: 1 })
      .returning({ id: schema.people.id });
    const unlinked = await fee(offline, "2026-10-31");
    const run = await controlledRun([offline], await reminderRunParams(db, RUN_DATE));
    await deliver(run.messages);
    expect((await db.select({ url: schema.fees.paymentLinkUrl }).from(schema.fees).where(eq(schema.fees.id, unlinked)))[0].url).toBeNull();
    const [printed] = await remindersOf([offline]);
    expect((await pdfText(await (await env.INVOICES.get(printed.pdfKey!))!.arrayBuffer())).replace(/\s+/g, "")).not.toContain("Oderonlinebezahlen");
  });
});

describe("cancelling a reminder", () => {
  it("cancels an unsent reminder and its fee (kept with 0,00 €), frees its level, refuses sent ones and settled fees", async () => {
    const [{ id: person }] = await db
      .insert(schema.people)
      .values({ firstName: "Stefan", lastName: "Storno", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    const item = await invoice(person, "2026-09-01");
    await db
      .insert(schema.reminders)
      .values({ targetType: "INVOICE", targetId: item, personId: person, level: 1, date: "2026-10-05", newDueDate: "2026-10-19", status: "SENT" });
    const params = await reminderRunParams(db, RUN_DATE);
    const run = await controlledRun([person], params);
    await deliver(run.messages);
    const [sent, pending] = await remindersOf([person]);
    expect(pending).toMatchObject({ level: 2, status: "SENT", channel: "PRINT" });
    // A letter not sent (e.g. its mail failed): only such a reminder can be cancelled.
    await db.update(schema.reminders).set({ status: "PENDING", sentOn: null }).where(eq(schema.reminders.id, pending.id));
    const cookie = await loginCookie("finance");
    const confirm = (await (await fetchApp(`/reminders?dialog=reminder-cancel&dialogId=${pending.id}`, { cookie })).text()).replaceAll("<!-- -->", "");
    expect(confirm).toContain("1. Mahnung vom 23.11.2026 stornieren");
    expect(confirm).toContain("wird mit storniert");

    const response = await postForm("/reminders", cookie, { intent: "reminder:cancel", id: pending.id });
    expect(toastOf(response)).toEqual({ type: "success", message: `1. Mahnung zu Rechnung ${invoiceNumber - 1} wurde storniert` });
    const [after] = await db.select().from(schema.reminders).where(eq(schema.reminders.id, pending.id));
    expect(after).toMatchObject({ status: "CANCELLED", cancelledBy: "Fritz Finanz" });
    const [cancelledFee] = await db.select().from(schema.fees).where(eq(schema.fees.id, pending.feeId!));
    expect(cancelledFee).toMatchObject({ amount: 0, openAmount: 0, kind: "REMINDER" });
    expect(cancelledFee.text).toMatch(/\(storniert\)$/);

    // Again, or a sent one: refused in German, nothing changes.
    for (const id of [pending.id, sent.id]) {
      const refused = await postForm("/reminders", cookie, { intent: "reminder:cancel", id });
      expect(refused.status).toBe(409);
      expect(await refused.text()).toContain("schon versandt oder storniert");
    }
    // The level is free again: the next run reminds level 2 anew, with a new fee.
    const again = await controlledRun([person], params);
    await deliver(again.messages);
    const levels = (await remindersOf([person])).map((r) => [r.level, r.status]);
    expect(levels).toEqual([
      [1, "SENT"],
      [2, "CANCELLED"],
      [2, "SENT"],
    ]);
    // A fee already invoiced: the reminder stays.
    const [, , fresh] = await remindersOf([person]);
    await db.update(schema.reminders).set({ status: "PENDING" }).where(eq(schema.reminders.id, fresh.id));
    await db.update(schema.fees).set({ isInvoiced: true }).where(eq(schema.fees.id, fresh.feeId!));
    const settled = await postForm("/reminders", cookie, { intent: "reminder:cancel", id: fresh.id });
    expect(await settled.text()).toContain("Die Mahngebühr steht schon auf einer Rechnung");
    expect((await db.select().from(schema.reminders).where(eq(schema.reminders.id, fresh.id)))[0].status).toBe("PENDING");
  });
});

describe("the run's screen and confirmation", () => {
  it("ADMIN and FINANCE see the preview and start the run; it finishes on the queue", async () => {
    const [{ id: person }] = await db
      .insert(schema.people)
      .values({ firstName: "Fritz", lastName: "Fällig", email: "fritz@wuff.example", memberTypeId: 1, hasGdpr: true })
      .returning({ id: schema.people.id });
    const due = await invoice(person, "2020-01-06");
    for (const who of ["admin", "finance"] as const) {
      const html = (await (await fetchApp("/reminders?dialog=reminderRun-start", { cookie: await loginCookie(who) })).text()).replaceAll("<!-- -->", "");
      expect(html, who).toContain("Mahnlauf starten");
      expect(html, who).toContain("Vorschau für den");
      expect(html, who).toContain("Zahlungserinnerung");
    }
    const response = await postForm("/reminders", await loginCookie("finance"), { intent: "reminderRun:start" });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toMatch(/^Mahnlauf (gestartet|Fertig)/);
    const job = await vi.waitFor(
      async () => {
        const [row] = await db
          .select()
          .from(schema.jobs)
          .where(eq(schema.jobs.type, "REMINDERS"))
          .orderBy(sql`id DESC`)
          .limit(1);
        expect(row.status).toBe("DONE");
        expect(row.message).toBeTruthy();
        return row;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(job.createdBy).toBe("Fritz Finanz");
    const [reminder] = await remindersOf([person]);
    expect(reminder).toMatchObject({ targetId: due, level: 1, channel: "MAIL", status: "SENT", jobId: job.id });
    const screen = (await (await fetchApp("/reminders", { cookie: await loginCookie("admin") })).text()).replaceAll("<!-- -->", "");
    expect(screen).toContain(`Rechnung ${invoiceNumber - 1}`);
    expect(screen).toContain("Fritz Fällig");
    // The history: the tab 'Mahnungen' of the person and of the invoice.
    const ofPerson = (await (await fetchApp(`/people/${person}/reminders`, { cookie: await loginCookie("finance") })).text()).replaceAll("<!-- -->", "");
    expect(ofPerson).toContain("Mahnungen an Fritz Fällig");
    expect(ofPerson).toContain(`Rechnung ${invoiceNumber - 1}`);
    expect(ofPerson).toContain("Zahlungserinnerung");
    const ofInvoice = (await (await fetchApp(`/invoices/${due}/reminders`, { cookie: await loginCookie("admin") })).text()).replaceAll("<!-- -->", "");
    expect(ofInvoice).toContain(`Mahnungen zu Rechnung ${invoiceNumber - 1}`);
    expect(ofInvoice).toContain("Zahlungserinnerung");
    for (const who of ["staff", "gdpr"] as const) {
      expect(await (await fetchApp(`/people/${person}/reminders`, { cookie: await loginCookie(who) })).text(), who).not.toContain("Mahnungen an");
    }
  });

  it("STAFF and GDPR neither open the screen nor start a run", async () => {
    const before = await db.select({ n: sql<number>`count(*)` }).from(schema.jobs);
    for (const who of ["staff", "gdpr"] as const) {
      const page = await fetchApp("/reminders", { cookie: await loginCookie(who) });
      expect(page.status, who).toBe(302);
      for (const path of ["/reminders", "/people", "/fees"]) {
        const response = await postForm(path, await loginCookie(who), { intent: "reminderRun:start" });
        expect(response.status, `${who} ${path}`).toBe(302);
        expect(response.headers.get("Location")).toBe("/");
      }
    }
    expect(await db.select({ n: sql<number>`count(*)` }).from(schema.jobs)).toEqual(before);
  });
});
