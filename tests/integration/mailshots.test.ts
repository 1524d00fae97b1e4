/**
 * Mailshots: CRUD with two documents uploaded to R2 (size and type checked, German messages,
 * nothing stored on refusal), the preview from Tasks (each recipient's mail, who is left out),
 * and the run on the queue: real mails through worker-mailer to maildev with the recipient's
 * invoice PDF and the document attached, only to the test account; a redelivered message sends
 * nothing twice, and a mail claimed but never confirmed is not sent again but named.
 */
import { env } from "cloudflare:test";
import { and, eq, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { settleDeadSlice } from "~/jobs/index.server";
import type { SliceMessage } from "~/jobs/messages";
import { startRun } from "~/jobs/start.server";
import type { MailshotRunParams } from "~/jobs/mailshot-run.server";
import { MAILSHOT_MISSING, NOTHING_TO_MAIL } from "~/lib/mail";
import { fetchApp, postForm, toastOf } from "../support/app";
import { deliver, type Sent } from "../support/jobs";
import { attachmentOf, mailsTo, tinyPdf, useTestAccount } from "../support/mail-catcher";
import { DEMO_USERS, loginCookie } from "../support/sessions";
import { ISSUED } from "../support/invoices";

const db = createDb(env.DB);
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const jobOf = async (id: number) => (await db.select().from(schema.jobs).where(eq(schema.jobs.id, id)))[0];
const mailshotsNamed = (name: string) => db.select().from(schema.mailshots).where(eq(schema.mailshots.name, name));
const storedDocuments = async () => (await env.INVOICES.list({ prefix: "mailshots/" })).objects.map((object) => object.key);

let people: { id: number; firstName: string }[] = [];
let account: string;

/** A multipart post of the mailshot form, as the browser sends it with files. */
async function saveMailshot(fields: Record<string, string>, files: Record<string, File> = {}) {
  const body = new FormData();
  body.set("intent", "mailshot:save");
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  for (const [name, file] of Object.entries(files)) body.set(name, file);
  return fetchApp("/mailshots", { method: "POST", cookie: await loginCookie("admin"), body });
}

beforeAll(async () => {
  // No demo data: just the club, a member type and five people (three reachable, one without
  // address, one without GDPR consent).
  await env.DB.prepare("INSERT INTO configuration (id, hsvrm_verein_name) VALUES (1, 'Hundefreunde Test e.V.')").run();
  const [type] = await db.insert(schema.memberTypes).values({ code: "M", name: "Mitglied" }).returning();
  people = await db
    .insert(schema.people)
    .values([
      { firstName: "Anna", lastName: "Alpha", salutation: "Frau", email: "anna@example.org", memberTypeId: type.id, isMember: true, hasGdpr: true },
      { firstName: "Bernd", lastName: "Beta", salutation: "Herr", email: "bernd@example.org", memberTypeId: type.id, isMember: true, hasGdpr: true },
      { firstName: "Cora", lastName: "Gamma", email: "cora@example.org", memberTypeId: type.id, isMember: true, hasGdpr: true },
      { firstName: "Dieter", lastName: "Ohnemail", memberTypeId: type.id, isMember: true, hasGdpr: true },
      { firstName: "Erna", lastName: "Ohnezustimmung", email: "erna@example.org", memberTypeId: type.id, isMember: true, hasGdpr: false },
    ])
    .returning({ id: schema.people.id, firstName: schema.people.firstName });
  // Each reachable member has an open invoice with its PDF in R2.
  for (const [index, person] of people.slice(0, 3).entries()) {
    const key = `Rechnung_${770_001 + index}_${person.firstName}_2026.pdf`;
    await env.INVOICES.put(key, tinyPdf(`Rechnung ${770_001 + index}`), { httpMetadata: { contentType: "application/pdf" } });
    await db
      .insert(schema.invoiceHeaders)
      .values({ personId: person.id, invoiceNumber: 770_001 + index, ...ISSUED, date: "2026-11-01", amount: 5000, openAmount: 5000, pdfFilePath: key });
  }
  account = await useTestAccount("mailshot");
});

describe("mailshots: CRUD with documents", () => {
  it("creates a mailshot with a PDF document stored in R2", async () => {
    const response = await saveMailshot(
      {
        name: "Einladung MV 2026",
        recipientQuery: "members",
        templateName: "Einladung Mitgliederversammlung",
        subject: "Einladung zur Mitgliederversammlung, {{firstName}}",
        attachInvoice: "on",
      },
      { attachDoc1: new File([tinyPdf("Tagesordnung")], "Tagesordnung.pdf", { type: "application/pdf" }) },
    );
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("Mailshot wurde angelegt");
    const [mailshot] = await mailshotsNamed("Einladung MV 2026");
    expect(mailshot.attachDocPath1).toMatch(/^mailshots\/[0-9a-f-]+\/Tagesordnung\.pdf$/);
    expect(await env.INVOICES.head(mailshot.attachDocPath1!)).not.toBeNull();
    expect(await text(await fetchApp("/mailshots", { cookie: await loginCookie("admin") }))).toContain("Tagesordnung.pdf");
  });

  it("refuses a document too large or of another type, and a missing subject, in German, storing nothing", async () => {
    const before = await storedDocuments();
    const fields = { name: "Falsch", recipientQuery: "members", templateName: "Nachricht", subject: "x" };
    const large = await saveMailshot(fields, {
      attachDoc1: new File([new Uint8Array(5 * 1024 * 1024 + 1).fill(0x25)], "gross.pdf", { type: "application/pdf" }),
    });
    expect(large.status).toBe(400);
    expect(await large.text()).toContain("Die Datei „gross.pdf“ ist zu groß (höchstens 5 MB).");
    const html = await saveMailshot(fields, { attachDoc2: new File(["<html><script>alert(1)</script>"], "bild.png", { type: "image/png" }) });
    expect(html.status).toBe(400);
    expect(await html.text()).toContain("Die Datei „bild.png“ ist kein PDF, PNG oder JPEG.");
    const noSubject = await saveMailshot({ ...fields, subject: "" }, { attachDoc1: new File([tinyPdf("ok")], "ok.pdf") });
    expect(noSubject.status).toBe(400);
    expect(await noSubject.text()).toContain("Betreff ist erforderlich");
    const badQuery = await saveMailshot({ ...fields, recipientQuery: "DROP TABLE people" });
    expect(badQuery.status).toBe(400);
    expect(await mailshotsNamed("Falsch")).toHaveLength(0);
    expect(await storedDocuments()).toEqual(before);
  });

  it("is ADMIN only", async () => {
    for (const who of ["staff", "finance"] as const) {
      const response = await fetchApp("/mailshots", { cookie: await loginCookie(who) });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
    }
  });
});

describe("mailshots: preview and run", () => {
  it("previews each recipient's mail from Tasks, and who is left out", async () => {
    const [mailshot] = await mailshotsNamed("Einladung MV 2026");
    const html = await text(await fetchApp(`/tasks?dialog=mailing-mailshot&dialogId=${mailshot.id}&dialogAt=2`, { cookie: await loginCookie("admin") }));
    expect(html).toContain("Mailshot „Einladung MV 2026“ senden");
    expect(html).toContain("Mail 2 von 3");
    expect(html).toContain("Bernd Beta &lt;bernd@example.org&gt;");
    expect(html).toContain("Einladung zur Mitgliederversammlung, Bernd");
    expect(html).toContain("Rechnung_770002_Bernd_2026.pdf, Tagesordnung.pdf");
    expect(html).toContain("Bekommen keine Mail: 2");
    expect(html).toContain("Dieter Ohnemail (keine E-Mail-Adresse)");
    expect(html).toContain("Erna Ohnezustimmung (keine Einwilligung)");
    expect(html).toMatch(/<a rel="prev"[^>]*dialogAt=1/);
    expect(html).toMatch(/<a rel="next"[^>]*dialogAt=3/);
    const unknown = await text(await fetchApp("/tasks?dialog=mailing-mailshot&dialogId=999999", { cookie: await loginCookie("admin") }));
    expect(unknown).toContain(MAILSHOT_MISSING);
  });

  it("sends the run on the queue: one mail per recipient with the invoice and the document, only to the test account", async () => {
    const [mailshot] = await mailshotsNamed("Einladung MV 2026");
    const response = await postForm("/tasks", await loginCookie("admin"), { intent: "mailing:mailshot", id: mailshot.id });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toContain("Mailshot „Einladung MV 2026“ gestartet: 3 Mails");
    const [job] = await db
      .select()
      .from(schema.jobs)
      .where(eq(schema.jobs.type, "MAILSHOT"))
      .orderBy(sql`id DESC`)
      .limit(1);
    const finished = await vi.waitFor(
      async () => {
        const current = await jobOf(job.id);
        expect(current.status).toBe("DONE");
        expect(current.message).toBeTruthy();
        return current;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(finished.message).toBe("Fertig! Es wurden 3 Mails für „Einladung MV 2026“ versandt");
    const mails = (await mailsTo(account)).filter((mail) => mail.subject.startsWith("Einladung zur Mitgliederversammlung"));
    // Only those whose consent allows it: Erna (no consent) gets none.
    expect(mails.map((mail) => mail.headers["x-wuff-intended-to"]).sort()).toEqual(["anna@example.org", "bernd@example.org", "cora@example.org"]);
    for (const mail of mails) expect(mail.to.map((to) => to.address)).toEqual([account]);
    const bernd = mails.find((mail) => mail.headers["x-wuff-intended-to"] === "bernd@example.org")!;
    expect(bernd.subject).toBe("Einladung zur Mitgliederversammlung, Bernd");
    expect(bernd.text).toContain("Lieber Bernd,");
    expect(bernd.text).toContain("hiermit laden wir Dich herzlich zu unserer diesjährigen Mitgliederversammlung ein");
    expect(bernd.attachments?.map((file) => file.filename)).toEqual(["Rechnung_770002_Bernd_2026.pdf", "Tagesordnung.pdf"]);
    const pdf = await attachmentOf(bernd, bernd.attachments![0].generatedFileName);
    expect(new TextDecoder().decode(pdf)).toContain("(Rechnung 770002) Tj");
    const logged = await db
      .select()
      .from(schema.mailLog)
      .where(and(eq(schema.mailLog.jobId, job.id), eq(schema.mailLog.status, "SENT")));
    expect(logged).toHaveLength(3);
    expect(logged.every((entry) => entry.kind === "MAILSHOT" && entry.mailshotId === mailshot.id && entry.recipient === account)).toBe(true);
  });

  it("a run leaves out whoever withdrew consent after it started, and says why", async () => {
    const [mailshot] = await mailshotsNamed("Einladung MV 2026");
    const messages: Sent = [];
    const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
    const params: MailshotRunParams = {
      mailshotId: mailshot.id,
      name: "Widerruf",
      templateName: "Nachricht",
      subject: "Widerruf {{firstName}}",
      cc: null,
      attachInvoice: false,
      attachDocPaths: [],
    };
    const erna = people[4];
    const outcome = await startRun(
      collecting,
      db,
      { type: "MAILSHOT", items: [people[0].id, erna.id], params, emptyMessage: NOTHING_TO_MAIL },
      DEMO_USERS.admin,
    );
    if (outcome.status !== "started") throw new Error(outcome.status);
    await deliver(messages);
    const sent = (await mailsTo(account)).filter((mail) => mail.subject.startsWith("Widerruf"));
    expect(sent.map((mail) => mail.subject)).toEqual(["Widerruf Anna"]);
    const failures = await db.select().from(schema.jobFailures).where(eq(schema.jobFailures.jobId, outcome.job.id));
    expect(failures.map((failure) => [failure.itemId, failure.message])).toEqual([[erna.id, "keine Einwilligung"]]);
    // The slice's retries fail alike; once given up, the run finishes and names her.
    for (const message of messages) await settleDeadSlice(env, message.body as SliceMessage);
    const job = await jobOf(outcome.job.id);
    expect(job.status).not.toBe("RUNNING");
    expect(job.message).toContain("Erna Ohnezustimmung");
  });

  it("a redelivered message sends nothing twice, and a mail claimed but never confirmed is named, not sent again", async () => {
    const [mailshot] = await mailshotsNamed("Einladung MV 2026");
    const messages: Sent = [];
    const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
    const params: MailshotRunParams = {
      mailshotId: mailshot.id,
      name: "Wiederholung",
      templateName: "Nachricht",
      subject: "Wiederholung {{firstName}}",
      cc: null,
      attachInvoice: false,
      attachDocPaths: [],
    };
    const outcome = await startRun(
      collecting,
      db,
      { type: "MAILSHOT", items: people.slice(0, 3).map((person) => person.id), params, emptyMessage: NOTHING_TO_MAIL },
      DEMO_USERS.admin,
    );
    if (outcome.status !== "started") throw new Error(outcome.status);
    const jobId = outcome.job.id;
    // Cora's mail was claimed by an earlier attempt that never heard back from the server.
    await db.insert(schema.mailLog).values({
      kind: "MAILSHOT",
      status: "CLAIMED",
      recipient: account,
      intendedRecipient: "cora@example.org",
      subject: "Wiederholung Cora",
      sentBy: "Anna Admin",
      personId: people[2].id,
      jobId,
      createdOn: new Date().toISOString(),
    });

    await deliver(messages);
    await deliver(messages);
    const sent = (await mailsTo(account)).filter((mail) => mail.subject.startsWith("Wiederholung"));
    expect(sent.map((mail) => mail.subject).sort()).toEqual(["Wiederholung Anna", "Wiederholung Bernd"]);
    const job = await jobOf(jobId);
    expect(job.status).toBe("DONE");
    expect(job.message).toBe(
      "Fertig! Es wurden 2 Mails für „Wiederholung“ versandt; ohne Bestätigung des Mailservers, daher nicht erneut versandt: Cora Gamma",
    );
  });

  it("answers an unknown mailshot and an empty recipient list in the spec's words, starting nothing", async () => {
    const before = (await db.select({ n: sql<number>`count(*)` }).from(schema.jobs))[0].n;
    const unknown = await postForm("/tasks", await loginCookie("admin"), { intent: "mailing:mailshot", id: 999_999 });
    expect(unknown.status).toBe(409);
    expect(await unknown.text()).toContain(MAILSHOT_MISSING);
    await saveMailshot({ name: "Niemand", recipientQuery: "runningCourses", templateName: "Nachricht", subject: "Hallo" });
    const [nobody] = await mailshotsNamed("Niemand");
    const empty = await postForm("/tasks", await loginCookie("admin"), { intent: "mailing:mailshot", id: nobody.id });
    expect(empty.status).toBe(409);
    expect(await empty.text()).toContain(NOTHING_TO_MAIL);
    expect((await db.select({ n: sql<number>`count(*)` }).from(schema.jobs))[0].n).toBe(before);
    expect(await db.select().from(schema.mailLog).where(like(schema.mailLog.subject, "Hallo%"))).toHaveLength(0);
  });
});
