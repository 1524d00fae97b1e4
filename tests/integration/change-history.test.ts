import { env } from "cloudflare:test";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb, runAtomically, type Db } from "~/db/client.server";
import { HISTORY_TABLES, NO_HISTORY, historyTriggers, tableName } from "~/db/history";
import * as schema from "~/db/schema";
import { groupIban } from "~/lib/banking";
import { formatDate } from "~/lib/format";
import { fetchApp, postForm, toastOf } from "../support/app";
import { deliver, startControlledInvoiceRun } from "../support/jobs";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db: Db = createDb(env.DB);
let data: Awaited<ReturnType<typeof loadDemoData>>;

beforeAll(async () => {
  data = await loadDemoData();
});

/** The highest history id so far: what a step wrote is what comes after it. */
const lastHistoryId = async () => (await db.select({ id: sql<number>`coalesce(max(id), 0)` }).from(schema.changeHistory))[0].id;

const historySince = (since: number) => db.select().from(schema.changeHistory).where(gt(schema.changeHistory.id, since)).orderBy(asc(schema.changeHistory.id));

const changesOf = (row: { changes: string | null }) => JSON.parse(row.changes ?? "{}") as Record<string, [unknown, unknown]>;

const normalise = (text: string) => text.replace(/\s+/g, " ").trim();

describe("the history triggers", () => {
  it("exist for every business table exactly as the schema generates them (regenerate with npm run db:history)", async () => {
    const rows = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'history_%'").all<{
      name: string;
      sql: string;
    }>();
    const stored = new Map(rows.results.map((row) => [row.name, normalise(row.sql)]));
    const expected = HISTORY_TABLES.flatMap((table) => historyTriggers(table));
    for (const trigger of expected) expect(stored.get(trigger.name), trigger.name).toBe(normalise(trigger.sql));
    expect(stored.size).toBe(expected.length);
  });

  it("every table is either kept in the history or named as one without (and why)", async () => {
    const rows = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    ).all<{ name: string }>();
    const withHistory = new Set(HISTORY_TABLES.map(tableName));
    for (const { name } of rows.results) expect(withHistory.has(name) || name in NO_HISTORY, name).toBe(true);
  });

  it("a batch that fails leaves no history, and the write context is empty after every batch", async () => {
    const since = await lastHistoryId();
    await expect(
      runAtomically(db, [
        { sql: "INSERT INTO locations (name, city) VALUES ('Geisterplatz', 'Nirgendwo')", params: [] },
        { sql: "INSERT INTO dogs (owner_id, common_name, gender) VALUES (999999, 'Waise', 1)", params: [] },
      ]),
    ).rejects.toThrow();
    expect(await historySince(since)).toEqual([]);
    expect(await db.$count(schema.writeContext)).toBe(0);
  });

  it("an update of nothing but the audit fields writes no history; a write without a known actor still writes one", async () => {
    const since = await lastHistoryId();
    await db
      .update(schema.locations)
      .set({ lastModifiedBy: "Test", rowVersion: sql`row_version + 1` })
      .where(eq(schema.locations.id, 1));
    expect(await historySince(since)).toEqual([]);
    // Straight at D1, past the wrapper: no write context at all.
    await env.DB.prepare("UPDATE locations SET comments = 'ohne Kontext' WHERE id = 1").run();
    const [row] = await historySince(since);
    expect(row).toMatchObject({ tableName: "locations", recordId: 1, action: "UPDATE", changedBy: "unbekannt" });
    expect(changesOf(row).comments[1]).toBe("ohne Kontext");
    await env.DB.prepare("UPDATE locations SET comments = NULL WHERE id = 1").run();
  });

  it("the seed is recorded as inserts by the system, through Seed/Import", async () => {
    const [row] = await db
      .select()
      .from(schema.changeHistory)
      .where(and(eq(schema.changeHistory.tableName, "people"), eq(schema.changeHistory.recordId, data.people[0].id!)));
    expect(row).toMatchObject({ action: "INSERT", changedBy: "System", source: "Seed/Import" });
  });
});

describe("every write through the dialogs produces exactly one history entry per record", () => {
  it("a person: insert, update, delete (with its dog) and restore, each with who, what and from what to what", async () => {
    const cookie = await loginCookie("gdpr");
    let since = await lastHistoryId();
    const added = await postForm("/people?dialog=person-add", cookie, {
      intent: "person:save",
      firstName: "Hanna",
      lastName: "Historia",
      memberTypeId: 2,
      email: "hanna@example.org",
      hasGdpr: true,
    });
    expect(added.status).toBe(302);
    const [person] = await db.select().from(schema.people).where(eq(schema.people.lastName, "Historia"));
    const inserted = await historySince(since);
    expect(inserted).toHaveLength(1);
    expect(inserted[0]).toMatchObject({ tableName: "people", recordId: person.id, action: "INSERT", changedBy: "Dana Datenschutz", source: "Personendialog" });
    expect(changesOf(inserted[0])).toMatchObject({
      first_name: [null, "Hanna"],
      last_name: [null, "Historia"],
      email: [null, "hanna@example.org"],
      has_gdpr: [null, 1],
    });
    // Generated (virtual) columns are not kept.
    expect(changesOf(inserted[0])).not.toHaveProperty("full_name");

    since = await lastHistoryId();
    const saved = await postForm(`/people/${person.id}/dogs`, cookie, {
      intent: "person:save",
      id: person.id,
      rowVersion: person.rowVersion,
      firstName: "Hanna",
      lastName: "Historia",
      memberTypeId: 2,
      email: "hanna.h@example.org",
    });
    expect(saved.status).toBe(302);
    const updated = await historySince(since);
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({ tableName: "people", recordId: person.id, action: "UPDATE", changedBy: "Dana Datenschutz" });
    // Only what changed; not the audit fields nor the row version.
    expect(changesOf(updated[0])).toEqual({ email: ["hanna@example.org", "hanna.h@example.org"], has_gdpr: [1, 0] });

    await postForm(`/people/${person.id}/dogs`, cookie, { intent: "dog:save", ownerId: person.id, commonName: "Klio", gender: 2 });
    const [dog] = await db.select().from(schema.dogs).where(eq(schema.dogs.ownerId, person.id));
    since = await lastHistoryId();
    const deleted = await postForm(`/people/${person.id}/dogs`, await loginCookie("admin"), { intent: "person:delete", id: person.id });
    expect(deleted.status).toBe(302);
    const gone = await historySince(since);
    expect(gone.map((row) => [row.tableName, row.recordId, row.action, row.changedBy])).toEqual(
      expect.arrayContaining([
        ["people", person.id, "DELETE", "Anna Admin"],
        ["dogs", dog.id, "DELETE", "Anna Admin"],
      ]),
    );
    expect(gone).toHaveLength(2);
    expect(changesOf(gone.find((row) => row.tableName === "people")!).last_name).toEqual(["Historia", null]);

    since = await lastHistoryId();
    const restored = await postForm("/recyclebin", await loginCookie("admin"), { intent: "bin:undo", transactionId: toastOf(deleted)!.undo! });
    expect(restored.status).toBe(302);
    const back = await historySince(since);
    expect(back.map((row) => [row.tableName, row.recordId, row.action]).sort()).toEqual([
      ["dogs", dog.id, "RESTORE"],
      ["people", person.id, "RESTORE"],
    ]);
    expect(await db.$count(schema.writeContext)).toBe(0);
  });

  it("a stale save is refused and leaves no history", async () => {
    const cookie = await loginCookie("admin");
    const [dog] = await db.select().from(schema.dogs).where(eq(schema.dogs.id, data.dogs[0].id!));
    const form = {
      intent: "dog:save",
      id: dog.id,
      rowVersion: dog.rowVersion,
      ownerId: dog.ownerId,
      commonName: dog.commonName,
      gender: dog.gender ?? 1,
      breed: "Erstrasse",
    };
    let since = await lastHistoryId();
    expect((await postForm(`/dogs/${dog.id}/coursememberships`, cookie, form)).status).toBe(302);
    const first = await historySince(since);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ tableName: "dogs", recordId: dog.id, action: "UPDATE", changedBy: "Anna Admin", source: "Hundedialog" });
    expect(changesOf(first[0]).breed).toEqual([dog.breed, "Erstrasse"]);
    since = await lastHistoryId();
    expect((await postForm(`/dogs/${dog.id}/coursememberships`, cookie, { ...form, breed: "Zweitrasse" })).status).toBe(409);
    expect(await historySince(since)).toEqual([]);
  });

  it("a fee (finance): one entry, with the amount in cents", async () => {
    const cookie = await loginCookie("finance");
    const personId = data.people[3].id!;
    const since = await lastHistoryId();
    const response = await postForm(`/people/${personId}/fees`, cookie, {
      intent: "fee:save",
      personId,
      date: "01.11.2026",
      text: "Verlaufsposten",
      amount: "12,34",
      isOpen: "on",
      kind: "OTHER",
    });
    expect(response.status).toBe(302);
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.text, "Verlaufsposten"));
    expect(fee).toBeDefined();
    const rows = await historySince(since);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tableName: "fees", recordId: fee.id, action: "INSERT", changedBy: "Fritz Finanz" });
    expect(changesOf(rows[0]).amount).toEqual([null, 1234]);
  });
});

describe("bulk runs write history too", () => {
  it("an invoicing run: each invoice, row and settled fee once, by the run's starter, through the run", async () => {
    const since = await lastHistoryId();
    const { jobId, messages } = await startControlledInvoiceRun("2026-11-22");
    await deliver(messages);
    const [job] = await db.select().from(schema.jobs).where(eq(schema.jobs.id, jobId));
    expect(job.status).toBe("DONE");
    const invoices = await db.select({ id: schema.invoiceHeaders.id }).from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.jobId, jobId));
    expect(invoices.length).toBeGreaterThan(0);
    const rows = await historySince(since);
    const inserted = rows.filter((row) => row.tableName === "invoice_headers" && row.action === "INSERT").map((row) => row.recordId);
    expect(inserted.sort((a, b) => a - b)).toEqual(invoices.map((invoice) => invoice.id).sort((a, b) => a - b));
    expect(rows.every((row) => row.changedBy === "Anna Admin" && row.source === "Massenlauf: Rechnungen schreiben")).toBe(true);
    // Every record inserted once: nothing written twice. (Updates may be several: a draft is
    // written, then issued in the same batch, issue 30.)
    const keys = rows.filter((row) => row.action === "INSERT").map((row) => `${row.tableName}:${row.recordId}`);
    expect(new Set(keys).size).toBe(keys.length);
    const issued = rows.filter((row) => row.tableName === "invoice_headers" && row.action === "UPDATE" && changesOf(row).status);
    expect(issued.map((row) => row.recordId)).toEqual(expect.arrayContaining(invoices.map((invoice) => invoice.id)));
  });
});

describe("the history in the edit dialogs", () => {
  it("shows a person's history newest first with German labels and values, and consent only to whom may see it", async () => {
    const personId = data.people[5].id!;
    const [person] = await db.select().from(schema.people).where(eq(schema.people.id, personId));
    const cookie = await loginCookie("gdpr");
    const form = {
      intent: "person:save",
      id: personId,
      rowVersion: person.rowVersion,
      firstName: person.firstName,
      lastName: person.lastName,
      memberTypeId: person.memberTypeId,
      isMember: person.isMember,
      memberSince: formatDate(person.memberSince) || undefined,
      memberUntil: formatDate(person.memberUntil) || undefined,
      email: person.email ?? undefined,
      hasGdpr: !person.hasGdpr,
      city: "Verlaufsstadt",
    };
    expect((await postForm(`/people/${personId}/dogs`, cookie, form)).status).toBe(302);
    const html = await (await fetchApp(`/people/${personId}/dogs?dialog=person-edit&dialogId=${personId}`, { cookie })).text();
    expect(html).toContain("Verlauf");
    expect(html).toContain("Dana Datenschutz");
    expect(html).toMatch(/Ort<\/[a-z]+>: [^<]*→ Verlaufsstadt/);
    expect(html).toContain(person.hasGdpr ? "Einwilligung widerrufen" : "Einwilligung erteilt");
    const staffHtml = await (await fetchApp(`/people/${personId}/dogs?dialog=person-edit&dialogId=${personId}`, { cookie: await loginCookie("staff") })).text();
    expect(staffHtml).toContain("Verlaufsstadt");
    expect(staffHtml).not.toContain("Einwilligung erteilt");
    expect(staffHtml).not.toContain("Einwilligung widerrufen");
    expect(staffHtml).not.toContain("DSGVO-Einwilligung");
  });
});

describe("the history of a SEPA mandate", () => {
  it("shows the IBAN as the mandate dialog does, grouped, to whom may open it; staff get neither", async () => {
    const [mandate] = await db.select().from(schema.sepaMandates).where(eq(schema.sepaMandates.isActive, true)).limit(1);
    const iban = "DE02120300000000202051";
    await db.update(schema.sepaMandates).set({ iban }).where(eq(schema.sepaMandates.id, mandate.id));
    const path = `/people/${mandate.personId}/dogs?dialog=mandate-person&dialogId=${mandate.personId}`;
    for (const who of ["admin", "finance"] as const) {
      const html = await (await fetchApp(path, { cookie: await loginCookie(who) })).text();
      expect(html, who).toContain('data-testid="record-history"');
      expect(html, who).toContain(`IBAN</span>: ${groupIban(mandate.iban)} → ${groupIban(iban)}`);
    }
    const staff = await (await fetchApp(path, { cookie: await loginCookie("staff") })).text();
    expect(staff).not.toContain('data-testid="record-history"');
    expect(staff).not.toContain(groupIban(iban));
  });
});
