/**
 * Mail for real: worker-mailer over cloudflare:sockets to a real maildev (started by the vitest
 * global setup), read back through maildev's API. Single mails with preview from a person, an
 * invoice (its PDF from R2 attached) and a fee; the mail log under the person and the invoice;
 * the test account outside production; birthday mails by cron, Tasks and API, once per year.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { birthdaysOn } from "~/jobs/mails.server";
import { todayInBerlin } from "~/lib/format";
import { MAIL_SENT, mailVariables, NO_TEST_ACCOUNT } from "~/lib/mail";
import { renderMail, routeMail } from "~/services/mail.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { attachmentOf, mailsTo, tinyPdf, useTestAccount } from "../support/mail-catcher";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";
import { ISSUED } from "../support/invoices";

const db = createDb(env.DB);
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

let person: { id: number };
let invoice: { id: number; invoiceNumber: number | null };
let fee: { id: number };

beforeAll(async () => {
  await loadDemoData();
  [person] = await db
    .insert(schema.people)
    .values({ firstName: "Erika", lastName: "Mailtest <b>", salutation: "Frau", email: "erika@example.org", memberTypeId: 1, dateOfBirth: "1980-03-04" })
    .returning({ id: schema.people.id });
  [invoice] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId: person.id, invoiceNumber: 880_001, ...ISSUED, date: "2026-11-01", dueDate: "2026-12-01", amount: 4500, openAmount: 4500 })
    .returning({ id: schema.invoiceHeaders.id, invoiceNumber: schema.invoiceHeaders.invoiceNumber });
  [fee] = await db
    .insert(schema.fees)
    .values({ personId: person.id, date: "2026-10-01", dueDate: "2026-10-15", text: "Kursgebühr Welpen", amount: 12000, openAmount: 12000 })
    .returning({ id: schema.fees.id });
});

const logFor = (personId: number) => db.select().from(schema.mailLog).where(eq(schema.mailLog.personId, personId)).orderBy(schema.mailLog.id);

describe("templates and routing", () => {
  it("escapes every value in the HTML part and keeps the plain text as typed", () => {
    const template = { name: "t", subject: "Hallo {{firstName}}", html: "<p>{{greeting}}, {{feeText}}</p>", text: "{{greeting}}, {{feeText}}" };
    const variables = mailVariables({
      club: "Verein",
      person: { id: 1, salutation: "Herr", title: null, firstName: "Max <i>", lastName: "M", email: null },
      today: "2026-11-22",
      fee: { id: 1, text: "A & B <script>", amount: 100, openAmount: 100, dueDate: null, date: "2026-11-01" },
    });
    const mail = renderMail(template, variables);
    expect(mail.html).toBe("<p>Lieber Max &lt;i&gt;, A &amp; B &lt;script&gt;</p>");
    expect(mail.text).toBe("Lieber Max <i>, A & B <script>");
    expect(mail.subject).toBe("Hallo Max <i>");
  });

  it("sends outside production only to the test account (the cc dropped), and nothing without one", () => {
    expect(routeMail({ APP_ENV: "production" }, "test@x.example", "a@x.example", "c@x.example")).toEqual({
      status: "ok",
      to: "a@x.example",
      cc: "c@x.example",
      redirected: false,
    });
    expect(routeMail({ APP_ENV: "development" }, "test@x.example", "a@x.example", "c@x.example")).toEqual({
      status: "ok",
      to: "test@x.example",
      cc: null,
      redirected: true,
    });
    expect(routeMail({ APP_ENV: "development" }, " ", "a@x.example", null)).toEqual({ status: "blocked", message: NO_TEST_ACCOUNT });
  });

  it("celebrates 29 February on 28 February in years without it", () => {
    expect(birthdaysOn("2027-02-28")).toEqual(["02-28", "02-29"]);
    expect(birthdaysOn("2028-02-28")).toEqual(["02-28"]);
    expect(birthdaysOn("2028-02-29")).toEqual(["02-29"]);
  });

  it("seeds the German default templates", async () => {
    const names = (await db.select({ name: schema.templates.name }).from(schema.templates).where(eq(schema.templates.kind, "MAIL"))).map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining(["Geburtstagsmail", "Rechnungsmail", "Zahlungserinnerung", "Nachricht", "Einladung Mitgliederversammlung"]));
  });
});

describe("single mail with preview", () => {
  it("previews the person's mail in a sandboxed frame, with Previous and Next through the list it came from", async () => {
    await useTestAccount("preview");
    const cookie = await loginCookie("finance");
    const html = await text(await fetchApp(`/people/${person.id}/dogs?dialog=mail-person&dialogId=${person.id}&dialogList=1,${person.id},2`, { cookie }));
    expect(html).toContain("Mail senden: Erika Mailtest &lt;b&gt;");
    expect(html).toContain('sandbox=""');
    expect(html).toContain("Liebe Erika");
    expect(html).toContain("geht nur an den SMTP Test Account");
    expect(html).toMatch(/<a rel="prev"[^>]*href="[^"]*dialogId=1&amp;/);
    expect(html).toMatch(/<a rel="next"[^>]*href="[^"]*dialogId=2&amp;/);
    // The first of the list: Previous disabled.
    const first = await text(await fetchApp(`/people/${person.id}/dogs?dialog=mail-person&dialogId=${person.id}&dialogList=${person.id},2`, { cookie }));
    expect(first).not.toContain('rel="prev"');
    expect(first).toMatch(/<button type="button" disabled="" class="[^"]*">‹ Vorheriger<\/button>/);
  });

  it("sends a person's mail to the test account only, with the German text, and logs it", async () => {
    const account = await useTestAccount("single");
    const response = await postForm(`/people/${person.id}/dogs`, await loginCookie("admin"), {
      intent: "mail:send",
      source: "person",
      id: person.id,
      subject: "Neuigkeiten für Erika",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toMatchObject({ type: "success", message: MAIL_SENT });
    const [mail] = await mailsTo(account);
    expect(mail.subject).toBe("Neuigkeiten für Erika");
    expect(mail.to.map((to) => to.address)).toEqual([account]);
    expect(mail.headers["x-wuff-intended-to"]).toBe("erika@example.org");
    expect(mail.html).toContain("Liebe Erika");
    expect(mail.text).toContain("wir möchten Dich kurz über Neuigkeiten aus unserem Verein informieren");
    const [entry] = (await logFor(person.id)).filter((row) => row.subject === "Neuigkeiten für Erika");
    expect(entry).toMatchObject({
      kind: "SINGLE",
      status: "SENT",
      recipient: account,
      intendedRecipient: "erika@example.org",
      sentBy: "Anna Admin",
      smtpResponse: "250 angenommen",
    });
  });

  it("sends an invoice's mail with its PDF from R2 attached, listed under the person and the invoice", async () => {
    const account = await useTestAccount("invoice");
    const pdf = tinyPdf("Rechnung 880001");
    await env.INVOICES.put("Rechnung_880001_Mailtest_2026.pdf", pdf, { httpMetadata: { contentType: "application/pdf" } });
    await db.update(schema.invoiceHeaders).set({ pdfFilePath: "Rechnung_880001_Mailtest_2026.pdf" }).where(eq(schema.invoiceHeaders.id, invoice.id));
    const cookie = await loginCookie("finance");
    const preview = await text(await fetchApp(`/invoices/${invoice.id}/invoicerows?dialog=mail-invoice&dialogId=${invoice.id}`, { cookie }));
    expect(preview).toContain("Rechnung anhängen: Rechnung_880001_Mailtest_2026.pdf");
    const response = await postForm(`/invoices/${invoice.id}/invoicerows`, cookie, {
      intent: "mail:send",
      source: "invoice",
      id: invoice.id,
      subject: "Rechnung 880001 von Wuff",
    });
    expect(toastOf(response)?.message).toBe(MAIL_SENT);
    const [mail] = await mailsTo(account);
    expect(mail.subject).toBe("Rechnung 880001 von Wuff");
    expect(mail.text).toContain("über 45,00\u00a0€, fällig am 01.12.2026");
    // The PDF, and the GiroCode shown inline (banking.test.ts reads it back).
    expect(mail.attachments?.map((file) => [file.filename, file.contentType])).toEqual([
      ["Rechnung_880001_Mailtest_2026.pdf", "application/pdf"],
      ["GiroCode.png", "image/png"],
    ]);
    expect(await attachmentOf(mail, mail.attachments![0].generatedFileName)).toEqual(pdf);

    const [entry] = await db.select().from(schema.mailLog).where(eq(schema.mailLog.invoiceHeaderId, invoice.id));
    expect(entry).toMatchObject({ attachments: "Rechnung_880001_Mailtest_2026.pdf", status: "SENT", personId: person.id });
    const tab = await text(await fetchApp(`/invoices/${invoice.id}/mails`, { cookie }));
    expect(tab).toContain("Rechnung 880001 von Wuff");
    expect(await text(await fetchApp(`/people/${person.id}/mails`, { cookie }))).toContain("Rechnung 880001 von Wuff");
    const spec = await fetchApp(`/mailer?invoiceHeaderId=${invoice.id}`, { cookie });
    expect(spec.headers.get("Location")).toBe(`/invoices/${invoice.id}/mails`);
  });

  it("sends a fee's reminder from the Kontenblatt", async () => {
    const account = await useTestAccount("fee");
    const response = await postForm("/fees", await loginCookie("finance"), { intent: "mail:send", source: "fee", id: fee.id, subject: "Offener Posten" });
    expect(toastOf(response)?.message).toBe(MAIL_SENT);
    const [mail] = await mailsTo(account);
    expect(mail.text).toContain("Kursgebühr Welpen über 120,00\u00a0€, fällig am 15.10.2026");
  });

  it("puts an open fee's payment link into its mail while 'Mollie Integration' is on: made on sending, the same link the next time", async () => {
    const account = await useTestAccount("feelink");
    const cookie = await loginCookie("finance");
    const [linked] = await db
      .insert(schema.fees)
      .values({ personId: person.id, date: "2026-11-01", dueDate: "2026-11-30", text: "Agility Einsteiger", amount: 9000, openAmount: 9000 })
      .returning({ id: schema.fees.id });
    const feeLink = async () => (await db.select({ url: schema.fees.paymentLinkUrl }).from(schema.fees).where(eq(schema.fees.id, linked.id)))[0].url;
    await db.update(schema.configuration).set({ mollieIntegration: true }).where(eq(schema.configuration.id, 1));
    try {
      // The preview makes nothing at Mollie (a GET): it says that sending will.
      const preview = await text(await fetchApp(`/fees?dialog=mail-fee&dialogId=${linked.id}`, { cookie }));
      expect(preview).toContain("Beim Senden wird ein Zahlungslink für den offenen Betrag erzeugt und in die Mail gesetzt.");
      expect(await feeLink()).toBeNull();

      const response = await postForm("/fees", cookie, { intent: "mail:send", source: "fee", id: linked.id, subject: "Offener Posten" });
      expect(toastOf(response)?.message).toBe(MAIL_SENT);
      const url = await feeLink();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/payment\/[A-Za-z0-9]+$/);
      const [mail] = await mailsTo(account);
      expect(mail.text).toContain(`Bequem online bezahlen: ${url}`);
      // Escaped like every value ('/' as &#x2F;), which a mail client reads back as the same link.
      expect(mail.html.replaceAll("&#x2F;", "/")).toContain(`<a href="${url}">`);

      // The stored link fits the open amount: the preview shows it, the next mail carries the same.
      const again = await text(await fetchApp(`/fees?dialog=mail-fee&dialogId=${linked.id}`, { cookie }));
      expect(again).not.toContain("Beim Senden wird ein Zahlungslink");
      await postForm("/fees", cookie, { intent: "mail:send", source: "fee", id: linked.id, subject: "Erinnerung" });
      expect((await mailsTo(account)).map((sent) => sent.text.includes(url!))).toEqual([true, true]);
      expect(await feeLink()).toBe(url);
    } finally {
      await db.update(schema.configuration).set({ mollieIntegration: false }).where(eq(schema.configuration.id, 1));
    }
  });

  it("refuses what cannot go out, in German, and sends and logs nothing", async () => {
    const cookie = await loginCookie("admin");
    const before = (await logFor(person.id)).length;
    const send = (fields: Record<string, string | number>) =>
      postForm(`/people/${person.id}/dogs`, cookie, { intent: "mail:send", source: "person", id: person.id, ...fields });

    const missingSubject = await send({ subject: "  " });
    expect(missingSubject.status).toBe(400);
    expect(await missingSubject.text()).toContain("Betreff ist erforderlich");

    const [withoutPdf] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId: person.id, invoiceNumber: 880_099, ...ISSUED, date: "2026-11-01", amount: 1000, openAmount: 1000 })
      .returning({ id: schema.invoiceHeaders.id });
    const noPdf = await postForm(`/invoices/${withoutPdf.id}/invoicerows`, cookie, { intent: "mail:send", source: "invoice", id: withoutPdf.id, subject: "x" });
    expect(noPdf.status).toBe(409);
    expect(await noPdf.text()).toContain("noch kein PDF");

    const unknown = await send({ subject: "x", id: 99_999_999 });
    expect(unknown.status).toBe(404);
    const badSource = await send({ subject: "x", source: "dog" });
    expect(badSource.status).toBe(400);

    await env.DB.prepare("UPDATE configuration SET smtp_test_account = NULL WHERE id = 1").run();
    const blocked = await send({ subject: "x" });
    expect(blocked.status).toBe(409);
    expect(await blocked.text()).toContain(NO_TEST_ACCOUNT);
    const preview = await text(await fetchApp(`/people/${person.id}/dogs?dialog=mail-person&dialogId=${person.id}`, { cookie }));
    expect(preview).toContain(NO_TEST_ACCOUNT);

    expect((await logFor(person.id)).length).toBe(before);
  });

  it("reports a mail server that does not answer, and logs the failure", async () => {
    const account = await useTestAccount("down");
    const down = { ...env, SMTP_PORT: "9" };
    const { dialog } = await import("~/dialogs/mail/dialog.server");
    const form = new FormData();
    for (const [key, value] of Object.entries({ source: "person", id: String(person.id), subject: "Kommt nicht an" })) form.set(key, value);
    const outcome = await dialog.actions.send({ db, user: { id: "admin", name: "Anna Admin", email: null, roles: ["ADMIN"] }, form, env: down });
    expect(outcome).toMatchObject({ status: "refused" });
    expect((outcome as { message: string }).message).toMatch(/^Some error occurred: Der Mailserver 127\.0\.0\.1:9 ist nicht erreichbar/);
    const [entry] = (await logFor(person.id)).filter((row) => row.subject === "Kommt nicht an");
    expect(entry).toMatchObject({ status: "FAILED", recipient: account });
  });
});

describe("birthday mails", () => {
  let birthdayPerson: { id: number };
  let withoutConsent: { id: number };
  let account: string;

  beforeAll(async () => {
    const today = todayInBerlin();
    [birthdayPerson] = await db
      .insert(schema.people)
      .values({
        firstName: "Gerda",
        lastName: "Geburtstag",
        salutation: "Frau",
        email: "gerda@example.org",
        memberTypeId: 1,
        hasGdpr: true,
        dateOfBirth: `1970-${today.slice(5)}` === "1970-02-29" ? "1972-02-29" : `1970-${today.slice(5)}`,
      })
      .returning({ id: schema.people.id });
    // Someone with a birthday and an address but without GDPR consent gets no birthday mail.
    [withoutConsent] = await db
      .insert(schema.people)
      .values({
        firstName: "Nora",
        lastName: "Nein",
        email: "nora@example.org",
        memberTypeId: 1,
        hasGdpr: false,
        dateOfBirth: `1969-${today.slice(5)}` === "1969-02-29" ? "1972-02-29" : `1969-${today.slice(5)}`,
      })
      .returning({ id: schema.people.id });
    // Someone with a birthday but no address is left out.
    await db.insert(schema.people).values({
      firstName: "Ohne",
      lastName: "Adresse",
      memberTypeId: 1,
      dateOfBirth: `1971-${today.slice(5)}` === "1971-02-29" ? "1972-02-29" : `1971-${today.slice(5)}`,
    });
    account = await useTestAccount("birthday");
  });

  it("the daily cron sends each birthday mail once, even when it fires twice", async () => {
    const fire = async () => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "0 6 * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    await fire();
    await fire();
    const mails = (await mailsTo(account)).filter((mail) => mail.headers["x-wuff-intended-to"] === "gerda@example.org");
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Alles Gute zum Geburtstag, Gerda!");
    expect(mails[0].text).toContain("Liebe Gerda,");
    expect(mails[0].text).toContain("Geburtstag gratulieren wir Dir ganz herzlich");
    const entries = await logFor(birthdayPerson.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: "BIRTHDAY", status: "SENT", sentBy: "Cron", birthdayYear: Number(todayInBerlin().slice(0, 4)) });
    // Only those whose consent allows it.
    expect((await mailsTo(account)).filter((mail) => mail.headers["x-wuff-intended-to"] === "nora@example.org")).toHaveLength(0);
    expect(await logFor(withoutConsent.id)).toHaveLength(0);
  });

  it("Tasks and the API run it now for an ADMIN only, and answer that nothing is left", async () => {
    const api = "/api/protected/mailer/sendBirthdayMailsForToday";
    const post = (cookie?: string, headers: Record<string, string> = {}) => fetchApp(api, { method: "POST", cookie, headers });
    expect((await post()).status).toBe(401);
    expect((await post(await loginCookie("finance"))).status).toBe(403);
    const answer = await post(await loginCookie("admin"));
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { message: string };
    expect(body.message).toContain("0 Geburtstagsmails versandt");
    expect(body.message).toContain("schon vorher versandt");

    const preview = await text(await fetchApp("/tasks?dialog=mailing-birthdays", { cookie: await loginCookie("admin") }));
    expect(preview).toContain("Gerda Geburtstag (gerda@example.org): schon versandt");
    const run = await postForm("/tasks", await loginCookie("admin"), { intent: "mailing:birthdays" });
    expect(toastOf(run)?.message).toContain("0 Geburtstagsmails versandt");
    expect((await mailsTo(account)).filter((mail) => mail.headers["x-wuff-intended-to"] === "gerda@example.org")).toHaveLength(1);
  });

  it("the API's GET only shows what would be sent; a post from another site is refused (issue 29)", async () => {
    const api = "/api/protected/mailer/sendBirthdayMailsForToday";
    const cookie = await loginCookie("admin");
    const olga = await db
      .insert(schema.people)
      .values({
        firstName: "Olga",
        lastName: "Offen",
        email: "olga@example.org",
        memberTypeId: 1,
        hasGdpr: true,
        // 1980 is a leap year: every day of the year is a date in it.
        dateOfBirth: `1980-${todayInBerlin().slice(5)}`,
      })
      .returning({ id: schema.people.id });
    const sentBefore = (await mailsTo(account)).length;
    // A link clicked on another site (a GET, with or without a Referer): a preview, nothing sent.
    for (const headers of [{}, { Referer: "https://evil.example/page" }] as Record<string, string>[]) {
      const preview = await fetchApp(api, { cookie, headers });
      expect(preview.status).toBe(200);
      expect(preview.headers.get("Cache-Control")).toBe("private, no-store");
      const body = (await preview.json()) as { message: string; today: string; people: { id: number; name: string; status: string }[] };
      expect(body.today).toBe(todayInBerlin());
      expect(body.people).toContainEqual(expect.objectContaining({ id: olga[0].id, name: "Olga Offen", status: "offen" }));
      expect(body.people).toContainEqual(expect.objectContaining({ name: "Gerda Geburtstag", status: "schon versandt" }));
      expect(body.message).toBe("1 Geburtstagsmail würde mit POST versandt.");
    }
    // A post from another site: with its Origin, or without Origin but with its Referer.
    for (const headers of [{ Origin: "https://evil.example" }, { Referer: "https://evil.example/page" }] as Record<string, string>[]) {
      const refused = await fetchApp(api, { method: "POST", cookie, headers });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toBe("Anfrage von einer fremden Seite abgelehnt.");
    }
    expect(await logFor(olga[0].id)).toHaveLength(0);
    expect(await mailsTo(account)).toHaveLength(sentBefore);
    // The ADMIN's own post sends it.
    const sent = await fetchApp(api, { method: "POST", cookie, headers: { Origin: "http://localhost" } });
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as { message: string }).message).toContain("1 Geburtstagsmail versandt");
    expect(await logFor(olga[0].id)).toHaveLength(1);
  });

  it("the invoice mails task answers that it does not send", async () => {
    const cookie = await loginCookie("admin");
    expect(await text(await fetchApp("/tasks?dialog=mailing-invoiceMails", { cookie }))).toContain("not sending mails for security reasons");
    const post = await postForm("/tasks", cookie, { intent: "mailing:invoiceMails" });
    expect(post.status).toBe(409);
    expect(await post.text()).toContain("not sending mails for security reasons");
  });
});
