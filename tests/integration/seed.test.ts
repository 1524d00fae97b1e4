import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { generateSeedData } from "~/db/seed/generate";
import { seedStatements } from "~/db/seed/plan";
import { isRecipientQuery } from "~/lib/mail";

const TODAY = "2026-11-22";

async function scalar(query: string): Promise<number> {
  const row = await env.DB.prepare(query).first<{ n: number }>();
  return row!.n;
}

describe("the demo seed", () => {
  beforeAll(async () => {
    // The very statements `npm start` loads on a fresh database.
    const statements = seedStatements(generateSeedData({ today: TODAY }));
    await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
  });

  it("is deterministic", () => {
    expect(generateSeedData({ today: TODAY })).toEqual(generateSeedData({ today: TODAY }));
  });

  it("has the people, dogs and courses a club would recognise", async () => {
    expect(await scalar("SELECT count(*) AS n FROM people")).toBe(150);
    expect(await scalar("SELECT count(*) AS n FROM people WHERE is_member = 1")).toBeGreaterThan(60);
    expect(await scalar("SELECT count(*) AS n FROM people WHERE is_member = 0")).toBeGreaterThan(30);
    expect(await scalar("SELECT count(*) AS n FROM people WHERE is_trainer = 1")).toBeGreaterThanOrEqual(5);
    expect(await scalar("SELECT count(*) AS n FROM people WHERE date_of_birth IS NULL OR city IS NULL")).toBe(0);
    expect(await scalar("SELECT count(*) AS n FROM people WHERE annual_birthday = '11-22'")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM dogs")).toBe(180);
    expect(await scalar("SELECT count(*) AS n FROM dogs WHERE archived = 1")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM dogs WHERE gender = 0")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM dogs WHERE rabies_valid_until < '2026-11-22'")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM courses")).toBe(30);
    expect(await scalar("SELECT count(*) AS n FROM courses WHERE start_year NOT IN (2025, 2026)")).toBe(0);
    expect(await scalar("SELECT count(DISTINCT status_code) AS n FROM courses")).toBe(3);
    expect(
      await scalar("SELECT count(*) AS n FROM courses c WHERE (SELECT count(*) FROM course_memberships m WHERE m.course_id = c.id) > c.max_dogs"),
    ).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM course_dates")).toBeGreaterThan(150);
    // Attendance: only of running courses, only of dates held by the reference day, only of participants who take part.
    expect(await scalar("SELECT count(*) AS n FROM attendances")).toBeGreaterThan(20);
    expect(
      await scalar(`SELECT count(*) AS n FROM attendances a JOIN course_dates d ON d.id = a.course_date_id JOIN course_memberships m ON m.id = a.course_membership_id
        JOIN courses c ON c.id = d.course_id WHERE c.status_code <> 'RUNNING' OR m.course_id <> d.course_id OR m.status_id <> 4 OR d.start_date_time >= '2026-11-22T23:00:00.000Z'`),
    ).toBe(0);
    expect(await scalar("SELECT count(*) AS n FROM certifications")).toBeGreaterThan(0);
  });

  it("writes each course's time text from its start: the weekday and the hour it begins (Berlin)", () => {
    const { courses } = generateSeedData({ today: TODAY });
    const berlin = new Intl.DateTimeFormat("de-DE", { timeZone: "Europe/Berlin", weekday: "long", hour: "2-digit", minute: "2-digit" });
    for (const course of courses) {
      const parts = Object.fromEntries(berlin.formatToParts(new Date(course.startDateTime!)).map((part) => [part.type, part.value]));
      expect(course.webTimeInformation).toBe(`${parts.weekday}s ${parts.hour}:${parts.minute} Uhr`);
    }
  });

  it("has fees in every state and invoices whose totals match their rows", async () => {
    expect(await scalar("SELECT count(*) AS n FROM fees WHERE open_amount > 0")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM fees WHERE open_amount = 0")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM fees WHERE open_amount > 0 AND due_date < '2026-11-22'")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM fees WHERE is_invoiced = 1")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM invoice_headers")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM invoice_headers WHERE open_amount = 0")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM invoice_headers WHERE open_amount > 0")).toBeGreaterThan(0);
    expect(await scalar("SELECT count(*) AS n FROM invoice_headers WHERE status = 'ISSUED' AND sent_date IS NULL")).toBe(1);
    // Issue 30: one draft (no number, nothing open on it), the others issued with their recipient and dates of service.
    expect(await scalar("SELECT count(*) AS n FROM invoice_headers WHERE status = 'DRAFT' AND invoice_number IS NULL AND open_amount = 0")).toBe(1);
    expect(await scalar("SELECT count(*) AS n FROM invoice_headers WHERE status = 'ISSUED' AND (issued_last_name IS NULL OR issued_on IS NULL)")).toBe(0);
    expect(
      await scalar(
        "SELECT count(*) AS n FROM invoice_rows r JOIN invoice_headers h ON h.id = r.invoice_id WHERE h.status = 'ISSUED' AND r.service_from IS NULL",
      ),
    ).toBe(0);
    expect(await scalar("SELECT count(*) AS n FROM invoice_headers h WHERE NOT EXISTS (SELECT 1 FROM invoice_rows r WHERE r.invoice_id = h.id)")).toBe(0);
    expect(
      await scalar("SELECT count(*) AS n FROM invoice_headers h WHERE h.amount <> (SELECT sum(r.amount) FROM invoice_rows r WHERE r.invoice_id = h.id)"),
    ).toBe(0);
    expect(await scalar("SELECT last_invoice_number AS n FROM configuration")).toBe(await scalar("SELECT max(invoice_number) AS n FROM invoice_headers"));
  });

  it("links every confirmed course membership to its course fee", async () => {
    expect(
      await scalar(
        "SELECT count(*) AS n FROM course_memberships m JOIN membership_statuses s ON s.id = m.status_id WHERE s.code = 'CONFIRMED' AND m.fee_id IS NULL",
      ),
    ).toBe(0);
    expect(await scalar("SELECT count(*) AS n FROM course_memberships m JOIN fees f ON f.id = m.fee_id WHERE f.course_membership_id <> m.id")).toBe(0);
  });

  it("has exactly one member type NONE and the course status CONFIRMED", async () => {
    expect(await scalar("SELECT count(*) AS n FROM member_types WHERE code = 'NONE'")).toBe(1);
    expect(await scalar("SELECT count(*) AS n FROM membership_statuses WHERE code = 'CONFIRMED' AND is_fee_trigger = 1")).toBe(1);
  });

  it("has mailshots that can be sent as they are: a known recipient query and an existing mail template", async () => {
    const mailshots = generateSeedData({ today: TODAY }).mailshots;
    expect(mailshots.length).toBeGreaterThan(0);
    for (const mailshot of mailshots) {
      expect(isRecipientQuery(mailshot.recipientQuery), mailshot.name).toBe(true);
      const template = await env.DB.prepare("SELECT count(*) AS n FROM templates WHERE kind = 'MAIL' AND name = ?")
        .bind(mailshot.templateName)
        .first<{ n: number }>();
      expect(template!.n, mailshot.name).toBe(1);
    }
  });

  it("scales to the benchmark size", () => {
    const large = generateSeedData({ today: TODAY, size: { people: 5_000, dogs: 6_000, courses: 300, fees: 50_000 } });
    expect([large.people.length, large.dogs.length, large.courses.length, large.fees.length]).toEqual([5_000, 6_000, 300, 50_000]);
  });
});
