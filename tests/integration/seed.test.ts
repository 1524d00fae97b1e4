import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { generateSeedData } from "~/db/seed/generate";
import { seedStatements } from "~/db/seed/plan";
import { isRecipientQuery } from "~/lib/mail";
import { createDb } from "~/db/client.server";
import { invoiceStateLabel, type InvoiceStateSource } from "~/lib/invoice-state";
import { attendanceWithoutCard, cardsExpiring, listCards } from "~/models/cards.server";
import { cancelInvoice } from "~/models/invoices.server";
import { personCredit } from "~/models/payments.server";

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

  it("shows every state of the invoice life cycle, each booked as the app books it (issue 30)", async () => {
    const db = createDb(env.DB);
    const headers = (
      await env.DB.prepare(
        `SELECT h.id, h.status, h.kind, h.amount, h.open_amount AS openAmount, h.invoice_number AS invoiceNumber, h.corrects_invoice_id AS corrects,
          EXISTS (SELECT 1 FROM invoice_headers s WHERE s.corrects_invoice_id = h.id AND s.kind = 'STORNO') AS cancelled FROM invoice_headers h ORDER BY h.id`,
      ).all<Omit<InvoiceStateSource, "cancelled"> & { id: number; invoiceNumber: number | null; corrects: number | null; cancelled: number }>()
    ).results;
    const states = headers.map((header) => invoiceStateLabel({ ...header, cancelled: header.cancelled === 1 }));
    for (const state of ["Entwurf", "Ausgestellt", "Bezahlt", "Teilweise bezahlt", "Storniert", "Stornorechnung", "Gutschrift"])
      expect(states).toContain(state);
    // The journal balances for every invoice and fee: open = amount - allocations (the app's rule).
    expect(
      await scalar(`SELECT count(*) AS n FROM invoice_headers h WHERE h.status = 'ISSUED' AND h.kind = 'INVOICE'
        AND h.open_amount <> h.amount - coalesce((SELECT sum(amount) FROM payment_allocations WHERE invoice_id = h.id), 0)`),
    ).toBe(0);
    expect(
      await scalar(`SELECT count(*) AS n FROM fees f WHERE f.is_invoiced = 0
        AND f.open_amount <> f.amount - coalesce((SELECT sum(amount) FROM payment_allocations WHERE fee_id = f.id), 0)`),
    ).toBe(0);
    // Numbers without gaps, Storno and Gutschrift from the same counter.
    const numbers = headers.flatMap((header) => (header.invoiceNumber === null ? [] : [header.invoiceNumber])).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, index) => numbers[0] + index));
    // The Gutschrift came after the invoice was paid: its amount is the person's credit.
    const creditNote = headers.find((header) => header.kind === "CREDIT_NOTE")!;
    const creditedPerson = (await env.DB.prepare("SELECT person_id AS id FROM invoice_headers WHERE id = ?1").bind(creditNote.id).first<{ id: number }>())!.id;
    expect(await personCredit(db, creditedPerson)).toBe(-creditNote.amount);

    // The seeded Stornorechnung is what 'Stornieren' writes: cancel the seeded one's twin (the
    // partly paid invoice is not; a paid one is) and compare the shapes.
    const storno = headers.find((header) => header.kind === "STORNO")!;
    const twin = headers.find(
      (header) => header.kind === "INVOICE" && header.status === "ISSUED" && header.openAmount === header.amount && header.cancelled === 0,
    )!;
    const outcome = await cancelInvoice(db, twin.id, { name: "seed" }, TODAY);
    expect(outcome.status).toBe("cancelled");
    const made = outcome.status === "cancelled" ? outcome.stornoId : 0;
    const shape = async (stornoId: number) => {
      const header = await env.DB.prepare(
        "SELECT status, kind, due_date AS dueDate, open_amount AS openAmount, issued_tax_status AS tax, (SELECT amount FROM invoice_headers o WHERE o.id = h.corrects_invoice_id) + amount AS net FROM invoice_headers h WHERE id = ?1",
      )
        .bind(stornoId)
        .first();
      const entry = await env.DB.prepare(
        `SELECT p.method, p.source, p.source_ref = CAST(h.invoice_number AS TEXT) AS namesStorno, p.amount + h.amount AS net, p.text LIKE 'Stornorechnung % zu Rechnung %' AS text,
          (SELECT sum(a.amount) FROM payment_allocations a WHERE a.payment_id = p.id AND a.invoice_id = h.corrects_invoice_id) = -h.amount AS settles
         FROM invoice_headers h JOIN payments p ON p.entry_key = 'storno:' || h.corrects_invoice_id WHERE h.id = ?1`,
      )
        .bind(stornoId)
        .first();
      const released = await env.DB.prepare(
        `SELECT count(*) AS n FROM invoice_rows r JOIN fees f ON f.id = r.fee_id WHERE r.invoice_id = (SELECT corrects_invoice_id FROM invoice_headers WHERE id = ?1)
          AND (r.fee_released = 0 OR f.is_invoiced = 1 OR f.open_amount <> f.amount OR f.payment_reference IS NOT NULL)`,
      )
        .bind(stornoId)
        .first<{ n: number }>();
      return { header, entry, notReleased: released!.n };
    };
    expect(await shape(storno.id)).toEqual(await shape(made));
    expect((await shape(storno.id)).entry).toMatchObject({ method: "OFFSET", source: "CORRECTION", namesStorno: 1, net: 0, settles: 1 });
  });

  it("links every confirmed course membership to its course fee", async () => {
    expect(
      await scalar(
        "SELECT count(*) AS n FROM course_memberships m JOIN membership_statuses s ON s.id = m.status_id WHERE s.code = 'CONFIRMED' AND m.fee_id IS NULL",
      ),
    ).toBe(0);
    expect(await scalar("SELECT count(*) AS n FROM course_memberships m JOIN fees f ON f.id = m.fee_id WHERE f.course_membership_id <> m.id")).toBe(0);
  });

  it("sells Karten & Abos for the Spielgruppe as the desk does: cards with their fees paid, one running out soon (issue 34)", async () => {
    const db = createDb(env.DB);
    expect(await scalar("SELECT count(*) AS n FROM card_products")).toBe(4);
    expect(await scalar("SELECT count(*) AS n FROM card_products WHERE kind = 'SUBSCRIPTION'")).toBe(1);
    expect(await scalar("SELECT count(*) AS n FROM card_products WHERE units_per_attendance = 2")).toBe(1);
    // Each valid for open groups: the Spielgruppe's, or one of them.
    expect(
      await scalar(`SELECT count(*) AS n FROM card_products p WHERE NOT EXISTS (SELECT 1 FROM card_product_scopes s LEFT JOIN courses c ON c.id = s.course_id
        WHERE s.product_id = p.id AND (c.duration_model = 'ONGOING' OR s.course_master_id = (SELECT id FROM course_masters WHERE name = 'Spielgruppe')))`),
    ).toBe(0);
    // A card's fee as the sale writes it, paid; an Abo has none (its periods are billed apart).
    expect(await scalar("SELECT count(*) AS n FROM cards")).toBeGreaterThanOrEqual(5);
    expect(
      await scalar(`SELECT count(*) AS n FROM cards c WHERE (c.kind = 'CARD') <> EXISTS (SELECT 1 FROM card_fees cf JOIN fees f ON f.id = cf.fee_id
        WHERE cf.card_id = c.id AND f.person_id = c.person_id AND f.amount = c.price AND f.open_amount = 0 AND f.text LIKE c.name || ', gültig %')`),
    ).toBe(0);
    const { rows } = await listCards(db, { sort: { id: "validFrom", descending: true }, page: 1, today: TODAY });
    expect(new Set(rows.map((card) => card.state))).toEqual(new Set(["gültig", "abgelaufen"]));
    // The home page names the card running out within 14 days; no Spielgruppe runs yet, so no tick lacks a card.
    expect(await cardsExpiring(db, TODAY, "2026-12-06")).toMatchObject([{ name: "10er-Karte Spielgruppe", balance: 10, units: 10 }]);
    expect(await attendanceWithoutCard(db)).toEqual([]);
  });

  it("takes the ticks of a Spielgruppe running on the reference day from its participants' cards, none below zero", () => {
    const data = generateSeedData({ today: "2026-12-27" });
    const group = data.courses.find((course) => course.durationModel === "ONGOING" && course.statusCode === "RUNNING")!;
    const dates = new Set(data.courseDates.filter((date) => date.courseId === group.id).map((date) => date.id));
    const ticks = data.attendances.filter((attendance) => dates.has(attendance.courseDateId));
    expect(ticks.length).toBeGreaterThan(0);
    expect(data.cardUses.map((use) => use.attendanceId).sort((a, b) => a - b)).toEqual(ticks.map((tick) => tick.id).sort((a, b) => a! - b!));
    for (const card of data.cards) {
      const used = data.cardUses.filter((use) => use.cardId === card.id).reduce((sum, use) => sum + use.units, 0);
      expect(card.kind === "CARD" ? card.units! - used : used).toBeGreaterThanOrEqual(0);
      for (const use of data.cardUses.filter((candidate) => candidate.cardId === card.id)) {
        expect(use.usedOn >= card.validFrom && (card.validUntil == null || use.usedOn <= card.validUntil)).toBe(true);
      }
    }
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
