/**
 * Mahnwesen (issue 17): the date rules (§193 BGB), the reminder levels of Einstellungen, what is
 * overdue and which level is due, and the grids' columns and toggles.
 */
import { env } from "cloudflare:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { INVOICE_DEFAULT_SORT, listInvoiceHeaders } from "~/models/invoices.server";
import { FEE_DEFAULT_SORT, listFees } from "~/models/fees.server";
import fc from "fast-check";
import { dueLevelOf, getReminderLevels, reminderFilterCondition, STORED_LEVELS, type ReminderLevel } from "~/models/reminders.server";
import { easterSunday } from "~/lib/easter";
import {
  effectiveDueDate,
  isOverdue,
  isWorkingDay,
  latestDueDateFor,
  levelDueOn,
  MAX_REMINDER_DAYS,
  newDueDateOf,
  nationwideHolidays,
  workingDayStepsBack,
} from "~/lib/reminder-dates";
import { addDaysToDate } from "~/lib/format";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";
import { clearingAway, ISSUED } from "../support/invoices";

const db = createDb(env.DB);

describe("the date rules (§193 BGB)", () => {
  it("knows Easter and the nationwide holidays", () => {
    expect(easterSunday(2024)).toBe("2024-03-31");
    expect(easterSunday(2025)).toBe("2025-04-20");
    expect(easterSunday(2026)).toBe("2026-04-05");
    expect(easterSunday(2027)).toBe("2027-03-28");
    expect([...nationwideHolidays(2026)].sort()).toEqual([
      "2026-01-01",
      "2026-04-03", // Karfreitag
      "2026-04-06", // Ostermontag
      "2026-05-01",
      "2026-05-14", // Christi Himmelfahrt
      "2026-05-25", // Pfingstmontag
      "2026-10-03",
      "2026-12-25",
      "2026-12-26",
    ]);
    // Fronleichnam is a state holiday only.
    expect(isWorkingDay("2026-06-04")).toBe(true);
  });

  it("moves a due date on a weekend or holiday to the next working day", () => {
    expect(effectiveDueDate("2026-11-20")).toBe("2026-11-20"); // Friday
    expect(effectiveDueDate("2026-11-21")).toBe("2026-11-23"); // Saturday -> Monday
    expect(effectiveDueDate("2026-11-22")).toBe("2026-11-23"); // Sunday -> Monday
    expect(effectiveDueDate("2026-04-03")).toBe("2026-04-07"); // Karfreitag -> over Easter to Tuesday
    // Year end: 26.12.2026 is a Saturday and a holiday, 27. Sunday: Monday 28.
    expect(effectiveDueDate("2026-12-25")).toBe("2026-12-28");
    // 31.12.2027 is a Friday; 01.01.2028 a Saturday: Monday 03.01.2028.
    expect(effectiveDueDate("2027-12-31")).toBe("2027-12-31");
    expect(effectiveDueDate("2028-01-01")).toBe("2028-01-03");
    // 31.12.2028 Sunday -> 01.01.2029 holiday (Monday) -> Tuesday 02.01.2029.
    expect(effectiveDueDate("2028-12-31")).toBe("2029-01-02");
  });

  it("counts over the end of February in leap and other years", () => {
    // 28.02.2026 is a Saturday: due Monday 02.03.2026; 14 days later 16.03.2026.
    expect(effectiveDueDate("2026-02-28")).toBe("2026-03-02");
    expect(levelDueOn("2026-02-28", 14)).toBe("2026-03-16");
    // 2028 is a leap year: 29.02.2028 is a Tuesday.
    expect(effectiveDueDate("2028-02-29")).toBe("2028-02-29");
    expect(levelDueOn("2028-02-28", 1)).toBe("2028-02-29");
    expect(levelDueOn("2028-02-29", 1)).toBe("2028-03-01");
    // 29.02.2032 is a Sunday: Monday 01.03.2032.
    expect(effectiveDueDate("2032-02-29")).toBe("2032-03-01");
    expect(newDueDateOf("2027-02-14", 14)).toBe("2027-03-01"); // 28.02.2027 is a Sunday
    expect(newDueDateOf("2028-02-15", 14)).toBe("2028-02-29");
  });

  it("is overdue only after the effective due date; payment on it is in time", () => {
    expect(isOverdue("2026-11-21", "2026-11-23")).toBe(false); // Saturday's due date, paid Monday
    expect(isOverdue("2026-11-21", "2026-11-24")).toBe(true);
    expect(isOverdue("2026-11-20", "2026-11-21")).toBe(true);
  });

  it("the cut-off date per level matches the rule for every due date around it", () => {
    // For every today in two years and every due date up to 60 days before: the level is due
    // exactly when the due date is <= the cut-off.
    for (const days of [1, 7, 14]) {
      for (let t = 0; t < 760; t += 3) {
        const today = addDaysToDate("2026-01-01", t);
        const cutoff = latestDueDateFor(days, today);
        for (let back = 0; back < 60; back++) {
          const due = addDaysToDate(today, -back);
          expect(levelDueOn(due, days) <= today, `${due} +${days} on ${today}`).toBe(due <= cutoff);
        }
      }
    }
  });

  it("the steps back SQL reads the cut-off from are the cut-offs of every days a level may have", () => {
    // Days around Easter, Christmas and the turn of the year, and every weekday.
    for (const today of ["2026-04-07", "2026-04-03", "2026-12-28", "2027-01-04", "2027-05-25", "2026-11-30", "2026-12-01", "2028-03-01"]) {
      const steps = workingDayStepsBack(today);
      expect(steps).toHaveLength(MAX_REMINDER_DAYS);
      for (let days = 1; days <= MAX_REMINDER_DAYS; days++) {
        expect(addDaysToDate(today, -(days + Number(steps[days - 1]))), `${days} on ${today}`).toBe(latestDueDateFor(days, today));
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------

const admin = () => loginCookie("admin");
const levelForm = (levels: ReminderLevel[], change: (index: number) => Partial<Record<string, string | boolean>> = () => ({})) => {
  const fields: Record<string, string | number | boolean | undefined> = { intent: "reminderLevels" };
  levels.forEach((level, index) => {
    const values = {
      level: level.level,
      rowVersion: level.rowVersion,
      enabled: level.enabled,
      days: level.days,
      fee: "5,00",
      mailFee: "0,00",
      paymentTermDays: level.paymentTermDays,
      mailTemplate: level.mailTemplate,
      letterTemplate: level.letterTemplate,
      ...change(index),
    };
    for (const [key, value] of Object.entries(values)) fields[`levels[${index}].${key}`] = value;
  });
  return fields;
};

describe("the reminder levels (Einstellungen)", () => {
  it("come with the migrations: three levels with German defaults and their templates, costing what a letter costs (issue 31)", async () => {
    const levels = await getReminderLevels(db);
    // No flat sums (§ 309 Nr. 5 BGB): postage and material by letter, nothing by mail, and nothing
    // for the Zahlungserinnerung that puts the debtor in default (§ 286 BGB).
    expect(levels.map((level) => [level.level, level.title, level.enabled, level.days, level.fee, level.mailFee])).toEqual([
      [1, "Zahlungserinnerung", true, 14, 0, 0],
      [2, "1. Mahnung", true, 14, 150, 0],
      [3, "2. Mahnung", true, 14, 150, 0],
    ]);
    const templates = await db.select({ name: schema.templates.name, kind: schema.templates.kind }).from(schema.templates);
    for (const level of levels) {
      expect(templates).toContainEqual({ name: level.mailTemplate, kind: "MAIL" });
      expect(templates).toContainEqual({ name: level.letterTemplate, kind: "INVOICE" });
    }
    const html = (await (await fetchApp("/configuration", { cookie: await admin() })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Mahnwesen");
    expect(html).toContain("Stufe 2: 1. Mahnung");
    expect(html).toContain("Mahngebühr per Mail");
    expect(html).toContain("(§ 309 Nr. 5 BGB)");
  });

  it("are saved together, fees in cents, a disabled level stays disabled", async () => {
    const before = await getReminderLevels(db);
    const response = await postForm(
      "/configuration",
      await admin(),
      levelForm(before, (index) => (index === 2 ? { enabled: false, fee: "12,50", mailFee: "0,40", days: "21" } : {})),
    );
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Mahnstufen wurden gespeichert" });
    const after = await getReminderLevels(db);
    expect(after.map((level) => [level.enabled, level.fee, level.mailFee, level.days])).toEqual([
      [true, 500, 0, before[0].days],
      [true, 500, 0, before[1].days],
      [false, 1250, 40, 21],
    ]);
    expect(after[2]).toMatchObject({ rowVersion: before[2].rowVersion + 1, lastModifiedBy: "Anna Admin" });
  });

  it.each([
    [{ days: "0" }, "Tage bis zur Mahnung: mindestens 1"],
    [{ days: "vierzehn" }, "Tage bis zur Mahnung muss eine Zahl sein"],
    [{ days: "366" }, "Tage bis zur Mahnung darf höchstens 365 sein"],
    [{ fee: "-1,00" }, "Der Betrag darf nicht negativ sein"],
    [{ fee: "5.5" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    [{ mailFee: "-0,01" }, "Der Betrag darf nicht negativ sein"],
    [{ mailFee: "" }, "Bitte die Mahngebühr per Mail eingeben (0,00 für keine)"],
    [{ paymentTermDays: "" }, "Neue Zahlungsfrist muss eine Zahl sein"],
    [{ mailTemplate: "Gibt es nicht" }, "Die Mail-Vorlage „Gibt es nicht“ gibt es nicht"],
    [{ letterTemplate: "Rechnungsmail" }, "Die Brief-Vorlage „Rechnungsmail“ gibt es nicht"],
    [{ level: "4" }, "Unbekannte Mahnstufe"],
  ])("refuse %o in German and change nothing", async (change, message) => {
    const before = await getReminderLevels(db);
    const response = await postForm(
      "/configuration",
      await admin(),
      levelForm(before, (index) => (index === 1 ? change : {})),
    );
    expect(response.status).toBe(400);
    expect((await response.text()).replaceAll("&quot;", '"')).toContain(message);
    expect(await getReminderLevels(db)).toEqual(before);
  });

  it("refuse a stale form (409) and a missing level (400), changing nothing", async () => {
    const before = await getReminderLevels(db);
    const stale = levelForm(before, (index) => (index === 0 ? { rowVersion: String(before[0].rowVersion - 1 || 99), fee: "9,99" } : { fee: "9,99" }));
    const response = await postForm("/configuration", await admin(), stale);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Die Mahnstufen wurden inzwischen von jemand anderem geändert");
    expect(await getReminderLevels(db)).toEqual(before);
    const two = Object.fromEntries(Object.entries(levelForm(before)).filter(([key]) => !key.startsWith("levels[2]")));
    const missing = await postForm("/configuration", await admin(), two);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Es sind genau drei Mahnstufen");
    expect(await getReminderLevels(db)).toEqual(before);
  });

  it("are only for ADMIN", async () => {
    const before = await getReminderLevels(db);
    for (const who of ["finance", "staff", "gdpr"] as const) {
      const response = await postForm(
        "/configuration",
        await loginCookie(who),
        levelForm(before, () => ({ fee: "1,00" })),
      );
      expect(response.status, who).toBe(302);
      expect(response.headers.get("Location"), who).toBe("/");
    }
    expect(await getReminderLevels(db)).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------

describe("what is overdue and which level is due", () => {
  let personId: number;
  let levels: ReminderLevel[];
  let nextNumber = 990_000;

  beforeAll(async () => {
    await loadDemoData();
    [{ id: personId }] = await db.insert(schema.people).values({ firstName: "Mia", lastName: "Mahnung", memberTypeId: 1 }).returning({ id: schema.people.id });
  });
  beforeEach(async () => {
    await db.delete(schema.reminders);
    await db.update(schema.reminderLevels).set({ enabled: true, days: 14 });
    await db.update(schema.reminderLevels).set({ days: 7 }).where(eq(schema.reminderLevels.level, 2));
    levels = await getReminderLevels(db);
  });

  const invoice = async (dueDate: string | null, openAmount = 1000) => {
    const [row] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId, invoiceNumber: nextNumber++, ...ISSUED, date: "2026-01-02", dueDate, amount: 1000, openAmount })
      .returning({ id: schema.invoiceHeaders.id });
    return row.id;
  };
  const fee = async (dueDate: string | null, options: { sendInvoice?: boolean; openAmount?: number; kind?: "OTHER" | "REMINDER" } = {}) => {
    const [row] = await db
      .insert(schema.fees)
      .values({
        personId,
        date: "2026-01-02",
        dueDate,
        text: "Posten",
        amount: 1000,
        openAmount: options.openAmount ?? 1000,
        sendInvoice: options.sendInvoice ?? false,
        kind: options.kind ?? "OTHER",
      })
      .returning({ id: schema.fees.id });
    return row.id;
  };
  const remind = (
    targetType: "INVOICE" | "FEE",
    targetId: number,
    level: number,
    date: string,
    newDueDate: string,
    status: "PENDING" | "SENT" | "CANCELLED" = "SENT",
  ) => db.insert(schema.reminders).values({ targetType, targetId, personId, level, date, newDueDate, status });
  const dueInvoices = async (today: string) => {
    const { rows } = await listInvoiceHeaders(db, { status: "all", personId, sort: INVOICE_DEFAULT_SORT, page: 1, reminder: "due", today });
    return rows.map((row) => row.id).sort();
  };
  const dueFees = async (today: string) => {
    const { rows } = await listFees(db, { state: "all", billing: "all", personId, sort: FEE_DEFAULT_SORT, page: 1, reminder: "due", today });
    // The whole Kontenblatt by date (its page query walks fees_remindable_date_idx) agrees.
    const whole = await listFees(db, { state: "all", billing: "all", sort: FEE_DEFAULT_SORT, page: 1, pageSize: 10_000, reminder: "due", today });
    expect(whole.rows.filter((row) => row.personId === personId).map((row) => row.id)).toEqual(rows.map((row) => row.id));
    return rows.map((row) => row.id).sort();
  };

  it("level 1 is due 14 days after the effective due date, not a day earlier", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    const friday = await invoice("2026-11-06"); // Friday: due 20.11.
    const saturday = await invoice("2026-11-07"); // Saturday: effective Monday 09.11., due 23.11.
    expect(await dueInvoices("2026-11-19")).toEqual([]);
    expect(await dueInvoices("2026-11-20")).toEqual([friday]);
    expect(await dueInvoices("2026-11-22")).toEqual([friday]);
    expect(await dueInvoices("2026-11-23")).toEqual([friday, saturday].sort());
  });

  it("the levels stored, read by the statement itself (the toggles), decide as the same levels given (a run's) do", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    await db.delete(schema.fees).where(eq(schema.fees.personId, personId));
    // Items due on 60 days in a row (over Easter, 1 May and Ascension 2026), a third not reminded,
    // a third at level 1, a third at level 2; today is a level's days after one of them, so the
    // cut-offs fall among them, on working days and on the days before and after holidays.
    const items: { type: "INVOICE" | "FEE"; id: number }[] = [];
    for (let i = 0; i < 60; i++) {
      const due = addDaysToDate("2026-03-10", i);
      const item = i % 2 === 0 ? { type: "INVOICE" as const, id: await invoice(due) } : { type: "FEE" as const, id: await fee(due) };
      if (i % 3 >= 1) await remind(item.type, item.id, 1, addDaysToDate(due, 20), addDaysToDate(due, 34));
      if (i % 3 === 2) await remind(item.type, item.id, 2, addDaysToDate(due, 40), addDaysToDate(due, 55));
      items.push(item);
    }
    const ids = (type: "INVOICE" | "FEE") => items.filter((item) => item.type === type).map((item) => item.id);
    let levelsDue = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...[1, 2, 3].map(() => fc.record({ enabled: fc.boolean(), days: fc.integer({ min: 1, max: MAX_REMINDER_DAYS }) }))),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 120 }),
        async (config, anchor, shift) => {
          const today = addDaysToDate("2026-03-10", config[anchor].days + shift);
          for (const [index, values] of config.entries())
            await db
              .update(schema.reminderLevels)
              .set(values)
              .where(eq(schema.reminderLevels.level, index + 1));
          const given = levels.map((level, index) => ({ ...level, ...config[index] }));
          const [invoiceRows, feeRows] = await Promise.all([
            db
              .select({ id: schema.invoiceHeaders.id, given: dueLevelOf(given, "INVOICE", today), stored: dueLevelOf(STORED_LEVELS, "INVOICE", today) })
              .from(schema.invoiceHeaders)
              .where(inArray(schema.invoiceHeaders.id, ids("INVOICE"))),
            db
              .select({ id: schema.fees.id, given: dueLevelOf(given, "FEE", today), stored: dueLevelOf(STORED_LEVELS, "FEE", today) })
              .from(schema.fees)
              .where(inArray(schema.fees.id, ids("FEE"))),
          ]);
          for (const row of [...invoiceRows, ...feeRows]) expect(row.stored).toBe(row.given);
          // The toggle's condition, both ways it is written, holds for exactly the items with a level due.
          const dueIds = (rows: { id: number; given: number | null }[]) =>
            rows
              .filter((row) => row.given !== null)
              .map((row) => row.id)
              .sort();
          for (const overdueIndex of [true, false]) {
            const [invoicesDue, feesDue] = await Promise.all([
              db
                .select({ id: schema.invoiceHeaders.id })
                .from(schema.invoiceHeaders)
                .where(and(inArray(schema.invoiceHeaders.id, ids("INVOICE")), reminderFilterCondition("due", "INVOICE", today, { overdueIndex }))),
              db
                .select({ id: schema.fees.id })
                .from(schema.fees)
                .where(and(inArray(schema.fees.id, ids("FEE")), reminderFilterCondition("due", "FEE", today, { overdueIndex }))),
            ]);
            expect(invoicesDue.map((row) => row.id).sort()).toEqual(dueIds(invoiceRows));
            expect(feesDue.map((row) => row.id).sort()).toEqual(dueIds(feeRows));
          }
          levelsDue += [...invoiceRows, ...feeRows].filter((row) => row.given !== null).length;
        },
      ),
      { seed: 20261201, numRuns: 80 },
    );
    // Not only NULL = NULL: many items had a level due.
    expect(levelsDue).toBeGreaterThan(500);
    await db.delete(schema.reminders);
    await db.delete(schema.fees).where(eq(schema.fees.personId, personId));
  });

  it("over the end of February: 28.02.2026 (Saturday) and 29.02.2028", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    const feb2026 = await invoice("2026-02-28"); // effective 02.03.2026, due 16.03.2026
    const feb2028 = await invoice("2028-02-29"); // Tuesday, due 14.03.2028
    expect(await dueInvoices("2026-03-15")).toEqual([]);
    expect(await dueInvoices("2026-03-16")).toEqual([feb2026]);
    expect(await dueInvoices("2028-03-13")).toEqual([feb2026]);
    expect(await dueInvoices("2028-03-14")).toEqual([feb2026, feb2028].sort());
  });

  it("levels 2 and 3 count from the previous reminder's new due date; a cancelled reminder frees its level", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    const id = await invoice("2026-10-01");
    await remind("INVOICE", id, 1, "2026-10-20", "2026-11-03");
    // Level 2 (7 days): due 10.11.
    expect(await dueInvoices("2026-11-09")).toEqual([]);
    expect(await dueInvoices("2026-11-10")).toEqual([id]);
    await remind("INVOICE", id, 2, "2026-11-10", "2026-11-28"); // Saturday: effective Monday 30.11.
    expect(await dueInvoices("2026-12-13")).toEqual([]);
    expect(await dueInvoices("2026-12-14")).toEqual([id]); // 30.11. + 14
    await remind("INVOICE", id, 3, "2026-12-14", "2026-12-28");
    expect(await dueInvoices("2027-06-01")).toEqual([]); // no level above 3
    await db.update(schema.reminders).set({ status: "CANCELLED" }).where(eq(schema.reminders.level, 3));
    expect(await dueInvoices("2026-12-14")).toEqual([id]);
  });

  it("each item's standing (level, last reminder, new due date) is kept by the database on every write of a reminder, without history", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    const invoiceId = await invoice("2026-10-01");
    const feeId = await fee("2026-10-01");
    const standing = async () =>
      (
        await env.DB.prepare(
          `SELECT 'INVOICE' AS type, reminder_level AS level, last_reminder_date AS last, reminder_due_date AS due FROM invoice_headers WHERE id = ?1
           UNION ALL SELECT 'FEE', reminder_level, last_reminder_date, reminder_due_date FROM fees WHERE id = ?2`,
        )
          .bind(invoiceId, feeId)
          .all()
      ).results;
    const history = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM change_history WHERE table_name IN ('invoice_headers', 'fees')").first<{ n: number }>())!.n;
    expect(await standing()).toEqual([
      { type: "INVOICE", level: 0, last: null, due: null },
      { type: "FEE", level: 0, last: null, due: null },
    ]);
    const historyBefore = await history();
    await remind("INVOICE", invoiceId, 1, "2026-10-20", "2026-11-03");
    await remind("INVOICE", invoiceId, 2, "2026-11-10", "2026-11-24", "PENDING");
    await remind("FEE", feeId, 1, "2026-10-21", "2026-11-04");
    expect(await standing()).toEqual([
      { type: "INVOICE", level: 2, last: "2026-11-10", due: "2026-11-24" },
      { type: "FEE", level: 1, last: "2026-10-21", due: "2026-11-04" },
    ]);
    // Cancelling the second level (the issued invoice is frozen, its standing is not): back to level 1.
    await db
      .update(schema.reminders)
      .set({ status: "CANCELLED" })
      .where(and(eq(schema.reminders.targetId, invoiceId), eq(schema.reminders.level, 2)));
    await db.delete(schema.reminders).where(and(eq(schema.reminders.targetType, "FEE"), eq(schema.reminders.targetId, feeId)));
    expect(await standing()).toEqual([
      { type: "INVOICE", level: 1, last: "2026-10-20", due: "2026-11-03" },
      { type: "FEE", level: 0, last: null, due: null },
    ]);
    expect(await history()).toBe(historyBefore);
    await db.delete(schema.fees).where(eq(schema.fees.id, feeId));
  });

  it("'Mahnung fällig' reads the overdue items from their partial indexes, not every invoice or fee", async () => {
    const plan = async (sql: string, params: unknown[]) =>
      (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...params)
          .all<{ detail: string }>()
      ).results.map((row) => row.detail);
    // The Kontenblatt's count and sums under the toggle: from the index alone (it holds every
    // column the test reads).
    const feeQuery = createDb(env.DB)
      .select({ count: sql<number>`count(*)`, amount: sql<number>`sum(${schema.fees.amount})`, open: sql<number>`sum(${schema.fees.openAmount})` })
      .from(schema.fees)
      .where(reminderFilterCondition("due", "FEE", "2026-12-01"))
      .toSQL();
    const invoiceQuery = createDb(env.DB)
      .select({ id: schema.invoiceHeaders.id })
      .from(schema.invoiceHeaders)
      .where(reminderFilterCondition("due", "INVOICE", "2026-12-01"))
      .toSQL();
    const feePlan = await plan(feeQuery.sql, feeQuery.params);
    expect(feePlan[0]).toMatch(/USING COVERING INDEX fees_remindable_idx/);
    // Whether a direct debit is pending (the person's mandate) is asked once per fee, not again for its level.
    expect(feePlan.filter((step) => /SEARCH sm /.test(step))).toHaveLength(1);
    expect((await plan(invoiceQuery.sql, invoiceQuery.params))[0]).toMatch(/USING INDEX invoice_headers_overdue_idx/);
  });

  it("a disabled level is skipped: without level 1 the first reminder is level 2, after the due date", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    await db.update(schema.reminderLevels).set({ enabled: false }).where(eq(schema.reminderLevels.level, 1));
    const id = await invoice("2026-11-02");
    expect(await dueInvoices("2026-11-08")).toEqual([]);
    expect(await dueInvoices("2026-11-09")).toEqual([id]); // level 2's 7 days
    await db.update(schema.reminderLevels).set({ enabled: false });
    expect(await dueInvoices("2026-12-31")).toEqual([]);
  });

  it("a paid invoice, one without a due date, a fee billed by invoice, a reminder fee and a paid fee are never due", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    await invoice("2026-01-05", 0);
    await invoice(null);
    const open = await fee("2026-01-05");
    await fee("2026-01-05", { sendInvoice: true });
    await fee("2026-01-05", { kind: "REMINDER" });
    await fee("2026-01-05", { openAmount: 0 });
    await fee(null);
    expect(await dueInvoices("2026-12-01")).toEqual([]);
    expect(await dueFees("2026-12-01")).toEqual([open]);
  });

  it("a fee collected directly is not reminded while its person has an active SEPA mandate the next Lastschriftlauf may collect under", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    await db.delete(schema.fees).where(eq(schema.fees.personId, personId));
    const open = await fee("2026-01-05");
    const [mandate] = await db
      .insert(schema.sepaMandates)
      .values({ personId, accountHolder: "Mia Mahnung", iban: "DE89370400440532013000", reference: `WUFF-${personId}-1`, mandateDate: "2026-01-01" })
      .returning({ id: schema.sepaMandates.id });
    expect(await dueFees("2026-12-01")).toEqual([]);
    // A mandate that no run may collect under any more pends nothing: revoked by the earliest
    // collection day (2026-12-02 for a run on 2026-12-01), or expired (36 months unused).
    await db.update(schema.sepaMandates).set({ revokedOn: "2026-12-03" }).where(eq(schema.sepaMandates.id, mandate.id));
    expect(await dueFees("2026-12-01")).toEqual([]);
    await db.update(schema.sepaMandates).set({ revokedOn: "2026-12-02" }).where(eq(schema.sepaMandates.id, mandate.id));
    expect(await dueFees("2026-12-01")).toEqual([open]);
    await db.update(schema.sepaMandates).set({ revokedOn: null }).where(eq(schema.sepaMandates.id, mandate.id));
    // Never used, signed 2026-01-01: collectable until 2029-01-01. A run on Thursday 2028-12-28
    // collects from Friday on; one on Friday 2028-12-29 only from 2029-01-02 (TARGET2 holiday, weekend).
    expect(await dueFees("2028-12-28")).toEqual([]);
    expect(await dueFees("2028-12-29")).toEqual([open]);
    // Without an active mandate nothing is pending any more: the fee is reminded.
    await db.update(schema.sepaMandates).set({ isActive: false }).where(eq(schema.sepaMandates.id, mandate.id));
    expect(await dueFees("2026-12-01")).toEqual([open]);
    await db.delete(schema.sepaMandates).where(eq(schema.sepaMandates.id, mandate.id));
  });

  it("a fee in a Lastschriftlauf is not reminded while its debit stands; a cancelled item or run frees it", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    await db.delete(schema.fees).where(eq(schema.fees.personId, personId));
    const inRun = await fee("2026-01-05");
    const alone = await fee("2026-01-05");
    // No mandate any more (revoked after the run took it): only the run keeps it from a reminder.
    const [{ id: runId }] = await db.insert(schema.jobs).values({ type: "DIRECT_DEBIT", status: "DONE" }).returning({ id: schema.jobs.id });
    await db
      .insert(schema.directDebitRuns)
      .values({ id: runId, status: "SUBMITTED", messageId: `TEST-COLLECT-${runId}`, total: 1_000, createdBy: "test", createdOn: "2026-01-06T00:00:00Z" });
    const [{ id: itemId }] = await db
      .insert(schema.directDebitItems)
      .values({
        runId,
        feeId: inRun,
        personId,
        mandateId: 0,
        mandateReference: `WUFF-${personId}-9`,
        mandateDate: "2025-01-01",
        accountHolder: "Mia Mahnung",
        iban: "DE89370400440532013000",
        endToEndId: `TEST-COLLECT-${runId}`,
        sequenceType: "RCUR",
        dueDate: "2026-01-08",
        collectionDate: "2026-01-08",
        amount: 1_000,
      })
      .returning({ id: schema.directDebitItems.id });
    expect(await dueFees("2026-12-01")).toEqual([alone]);
    // The item taken out of the run (cancelled): the fee is reminded again.
    await db.update(schema.directDebitItems).set({ cancelledOn: "2026-01-07" }).where(eq(schema.directDebitItems.id, itemId));
    expect(await dueFees("2026-12-01")).toEqual([inRun, alone].sort());
    // The item standing in a cancelled run frees it too.
    await db.update(schema.directDebitItems).set({ cancelledOn: null }).where(eq(schema.directDebitItems.id, itemId));
    await db.update(schema.directDebitRuns).set({ status: "CANCELLED" }).where(eq(schema.directDebitRuns.id, runId));
    expect(await dueFees("2026-12-01")).toEqual([inRun, alone].sort());
    await db.update(schema.directDebitRuns).set({ status: "PREPARED" }).where(eq(schema.directDebitRuns.id, runId));
    expect(await dueFees("2026-12-01")).toEqual([alone]);
    await db.delete(schema.directDebitItems).where(eq(schema.directDebitItems.id, itemId));
    await db.delete(schema.directDebitRuns).where(eq(schema.directDebitRuns.id, runId));
  });

  it("the grids show Mahnstufe and Letzte Mahnung, and filter by 'Nur gemahnte' and 'Mahnung fällig'", async () => {
    await clearingAway(`DELETE FROM invoice_headers WHERE person_id = ${personId}`);
    const reminded = await invoice("2020-01-06");
    const notYet = await invoice("2020-01-06");
    await remind("INVOICE", reminded, 1, "2020-02-03", "2099-01-01");
    const cookie = await loginCookie("finance");
    const html = (await (await fetchApp(`/people/${personId}/invoiceheaders?invReminder=reminded`, { cookie })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Mahnstufe");
    expect(html).toContain("Letzte Mahnung");
    expect(html).toContain("03.02.2020");
    const { rows } = await listInvoiceHeaders(db, { status: "all", personId, sort: { id: "reminderLevel", descending: true }, page: 1, reminder: "reminded" });
    expect(rows.map((row) => [row.id, row.reminderLevel, row.lastReminderDate])).toEqual([[reminded, 1, "2020-02-03"]]);
    // Due: only the one not yet reminded (the other's new due date lies ahead).
    const due = (await (await fetchApp(`/invoices?reminder=due`, { cookie })).text()).replaceAll("<!-- -->", "");
    expect(due).toContain(`>${nextNumber - 1}<`);
    expect(due).not.toContain(`>${nextNumber - 2}<`);
    expect(notYet).toBeGreaterThan(reminded);
    const feeId = await fee("2020-01-06");
    await remind("FEE", feeId, 2, "2020-03-02", "2099-01-01");
    const fees = (await (await fetchApp(`/fees?reminder=reminded`, { cookie })).text()).replaceAll("<!-- -->", "");
    expect(fees).toContain("02.03.2020");
  });
});

describe("the grid Mahnungen: on /reminders, under a person, an invoice and a fee; 'Stornieren'", () => {
  let personId: number;
  let invoiceId: number;
  let feeId: number;
  let reminderFeeId: number;
  let onInvoice: number;
  let onFee: number;
  const invoiceNumber = 970_001;
  const html = async (path: string, who: "finance" | "admin" = "finance") =>
    (await (await fetchApp(path, { cookie: await loginCookie(who) })).text()).replaceAll("<!-- -->", "");
  const cancelLink = (id: number) => new RegExp(`dialog=reminder-cancel&amp;[^"]*dialogId=${id}"`);

  beforeAll(async () => {
    // One database per file: the demo data, unless the describes above loaded it already.
    if (!(await env.DB.prepare("SELECT 1 FROM configuration").first())) await loadDemoData();
    [{ id: personId }] = await db
      .insert(schema.people)
      .values({ firstName: "Greta", lastName: "Gridmahnung", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    [{ id: invoiceId }] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId, invoiceNumber, ...ISSUED, date: "2026-01-02", dueDate: "2026-01-16", amount: 1000, openAmount: 1000 })
      .returning({ id: schema.invoiceHeaders.id });
    [{ id: feeId }, { id: reminderFeeId }] = await db
      .insert(schema.fees)
      .values([
        { personId, date: "2026-01-02", dueDate: "2026-01-16", text: "Kursgebühr Gridtest", amount: 2000, openAmount: 2000, sendInvoice: false },
        {
          personId,
          date: "2026-02-02",
          dueDate: "2026-02-16",
          text: "Mahngebühr Gridtest",
          amount: 500,
          openAmount: 500,
          sendInvoice: true,
          kind: "REMINDER",
          remindedInvoiceId: invoiceId,
        },
      ])
      .returning({ id: schema.fees.id });
    [{ id: onInvoice }, { id: onFee }] = await db
      .insert(schema.reminders)
      .values([
        {
          targetType: "INVOICE",
          targetId: invoiceId,
          personId,
          level: 2,
          date: "2026-02-02",
          newDueDate: "2026-02-16",
          openAmount: 1000,
          feeId: reminderFeeId,
          status: "PENDING",
        },
        {
          targetType: "FEE",
          targetId: feeId,
          personId,
          level: 1,
          date: "2026-01-31",
          newDueDate: "2026-02-14",
          openAmount: 2000,
          status: "SENT",
          channel: "PRINT",
        },
      ])
      .returning({ id: schema.reminders.id });
  });

  it("is the declared grid on /reminders: search, sort, paging, Excel export; 'Stornieren' only while unsent", async () => {
    const screen = await html("/reminders?q=Gridmahnung&sort=-levelTitle");
    expect(screen).toMatch(/Mahnungen <span[^>]*>\(2\)/);
    expect(screen).toContain("Mahnlauf");
    expect(screen).toContain("Greta Gridmahnung");
    expect(screen).toContain(`Rechnung ${invoiceNumber}`);
    expect(screen).toContain("Kursgebühr Gridtest");
    expect(screen.indexOf(`Rechnung ${invoiceNumber}`)).toBeLessThan(screen.indexOf("Kursgebühr Gridtest"));
    expect(screen).toMatch(cancelLink(onInvoice));
    expect(screen).not.toMatch(cancelLink(onFee));
    expect(screen).toContain("Excel-Export");
    // Paging: 50 a page, as every grid.
    const all = await html("/reminders?page=99");
    expect(all).toContain("Noch keine Mahnungen");
    const file = await fetchApp("/reminders/export?q=Gridmahnung", { cookie: await loginCookie("admin") });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toContain("spreadsheetml");
    expect(file.headers.get("Content-Disposition")).toContain("Mahnungen.xlsx");
  });

  it("is mounted under the person, the invoice and the fee (in the fee's dialog), with 'Stornieren' there too", async () => {
    const ofPerson = await html(`/people/${personId}/reminders`);
    expect(ofPerson).toContain("Mahnungen an Greta Gridmahnung");
    expect(ofPerson).toMatch(cancelLink(onInvoice));
    expect(ofPerson).toContain("Kursgebühr Gridtest");
    const ofInvoice = await html(`/invoices/${invoiceId}/reminders`, "admin");
    expect(ofInvoice).toContain(`Mahnungen zu Rechnung ${invoiceNumber}`);
    expect(ofInvoice).toMatch(cancelLink(onInvoice));
    expect(ofInvoice).not.toContain("Kursgebühr Gridtest");
    // The fee reminded: its dialog shows its reminder, in the Kontenblatt and under the person.
    for (const page of ["/fees", `/people/${personId}/fees`]) {
      const dialog = await html(`${page}?dialog=fee-edit&dialogId=${feeId}`);
      expect(dialog, page).toContain("Mahnungen zu diesem Posten");
      expect(dialog, page).toMatch(/Mahnungen zu diesem Posten <span[^>]*>\(1\)/);
      expect(dialog, page).toContain("31.01.2026");
      expect(dialog, page).not.toMatch(cancelLink(onFee));
    }
    // The reminder fee: its dialog shows the reminder it was charged by, which may be cancelled.
    const ofReminderFee = await html(`/fees?dialog=fee-edit&dialogId=${reminderFeeId}`);
    expect(ofReminderFee).toMatch(/Mahnungen zu diesem Posten <span[^>]*>\(1\)/);
    expect(ofReminderFee).toMatch(cancelLink(onInvoice));
    expect(ofReminderFee).toContain(`/reminders/export?parent=FEE:${reminderFeeId}`);
    const file = await fetchApp(`/reminders/export?parent=FEE:${feeId}`, { cookie: await loginCookie("finance") });
    expect(file.status).toBe(200);
    // A fee without reminders: the grid says so.
    const [{ id: plain }] = await db
      .insert(schema.fees)
      .values({ personId, date: "2026-01-02", text: "Ohne Mahnung", amount: 100, openAmount: 100 })
      .returning({ id: schema.fees.id });
    expect(await html(`/fees?dialog=fee-edit&dialogId=${plain}`)).toContain("Noch keine Mahnungen");
  });

  it("STAFF and GDPR neither see the grid nor cancel; a sent reminder is refused in German; an unsent one is cancelled with its fee", async () => {
    for (const who of ["staff", "gdpr"] as const) {
      const cookie = await loginCookie(who);
      expect((await fetchApp(`/reminders/export?parent=PERSON:${personId}`, { cookie })).status, who).toBe(302);
      for (const page of [`/people/${personId}/dogs`, "/people", "/reminders"]) {
        const refused = await postForm(page, cookie, { intent: "reminder:cancel", id: onInvoice });
        expect(refused.status, `${who} ${page}`).toBe(302);
        expect(refused.headers.get("Location")).toBe("/");
      }
    }
    const cookie = await loginCookie("finance");
    const sent = await postForm(`/people/${personId}/reminders`, cookie, { intent: "reminder:cancel", id: onFee });
    expect(sent.status).toBe(409);
    expect(await sent.text()).toContain("Diese Mahnung ist schon versandt oder storniert");
    expect((await db.select().from(schema.reminders).where(eq(schema.reminders.id, onFee)))[0].status).toBe("SENT");
    expect((await db.select().from(schema.reminders).where(eq(schema.reminders.id, onInvoice)))[0].status).toBe("PENDING");

    // Posted where the grid is mounted (the person's tab): back to the same tab, with a toast.
    const done = await postForm(`/people/${personId}/reminders?remPage=1`, cookie, { intent: "reminder:cancel", id: onInvoice });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/people/${personId}/reminders?remPage=1`);
    expect(toastOf(done)).toEqual({ type: "success", message: `1. Mahnung zu Rechnung ${invoiceNumber} wurde storniert` });
    const [after] = await db.select().from(schema.reminders).where(eq(schema.reminders.id, onInvoice));
    expect(after).toMatchObject({ status: "CANCELLED", cancelledBy: "Fritz Finanz" });
    const [reminderFee] = await db.select().from(schema.fees).where(eq(schema.fees.id, reminderFeeId));
    expect(reminderFee).toMatchObject({ amount: 0, openAmount: 0 });
    expect(reminderFee.text).toBe("Mahngebühr Gridtest (storniert)");
    // Cancelled: no 'Stornieren' any more, the status says so.
    const ofPerson = await html(`/people/${personId}/reminders`);
    expect(ofPerson).not.toMatch(cancelLink(onInvoice));
    expect(ofPerson).toContain("storniert");
  });
});

describe("hand-made requests to 'Stornieren'", () => {
  const garbage = ["", " ", "abc", "-1", "0", "1e9", "99999999999999999999", "1.5", "<script>", "x".repeat(5000), "%00", "'; DROP TABLE fees; --", "Ärger ß"];

  it("every garbage id gets a German 4xx and changes nothing, never a 500", async () => {
    const cookie = await loginCookie("finance");
    const state = async () => JSON.stringify([await db.select().from(schema.reminders), await db.$count(schema.fees)]);
    const before = await state();
    for (const value of garbage) {
      const response = await postForm(`/reminders?dialog=reminder-cancel&dialogId=${encodeURIComponent(value)}`, cookie, {
        intent: "reminder:cancel",
        id: value,
        rowVersion: value,
      });
      expect(response.status, value.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(response.status, value.slice(0, 20)).toBeLessThan(500);
      // The kit's German answer travels with the page (the dialog shows it where it can open).
      expect(await response.text(), value.slice(0, 20)).toContain("Der Datensatz existiert nicht mehr");
    }
    expect(await state()).toEqual(before);
  });
});
