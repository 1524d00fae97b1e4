/**
 * The authorization matrix: every route and every action, asked directly (no UI) as anonymous,
 * staff, gdpr, finance and admin. The expectations are written out here from the spec, not read
 * from the app's own table, so removing any guard makes this test fail.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp } from "../support/app";
import { loginCookie, type DemoUserName } from "../support/sessions";

type Who = "anonymous" | DemoUserName;
const USERS: DemoUserName[] = ["staff", "gdpr", "finance", "admin"];
const ANY = USERS;

const cookies = {} as Record<Who, string | undefined>;

beforeAll(async () => {
  cookies.anonymous = undefined;
  for (const user of USERS) cookies[user] = await loginCookie(user);
});

const ask = (path: string, who: Who, init: RequestInit = {}) => fetchApp(path, { ...init, cookie: cookies[who] });

/** Role-restricted screens: their single-fetch data request (what client navigation loads) is guarded too. */
const RESTRICTED: [string, string, DemoUserName[]][] = [
  ["/hsvrmlist", "HSVRM-Liste", ["finance", "admin", "gdpr"]],
  ["/birthdaylist", "Geburtstags-Liste", ["finance", "admin", "gdpr"]],
  ["/fees", "Kontenblatt", ["finance", "admin"]],
  ["/bankstatements", "maxMegabytes", ["finance", "admin"]],
  ["/directdebits", "runs", ["finance", "admin"]],
  ["/tasks", "latest", ["admin"]],
  ["/reminders", "reminders", ["finance", "admin"]],
  ["/cashbook", "Kassenbestand", ["finance", "admin"]],
];

describe.each(RESTRICTED)("%s.data (%s)", (path, title, allowed) => {
  it.each(USERS)("as %s: the data only for the roles that may see the screen", async (who) => {
    const response = await ask(`${path}.data`, who);
    const body = await response.text();
    if (allowed.includes(who)) {
      expect(response.status).toBe(200);
      expect(body).toContain(title);
    } else {
      expect(body).not.toContain(title);
    }
  });
});

/**
 * Built screens: every GET and every POST (the dialog actions live on every pane), as the five
 * identities. The seed gives person 1 and dog 1.
 */
const BUILT: { path: string; allowed: DemoUserName[]; get: number; post: number; getOnly?: boolean }[] = [
  // The bare list shows its first row (no redirect); an empty post is refused.
  { path: "/people", allowed: ANY, get: 200, post: 400 },
  { path: "/people/1/dogs", allowed: ANY, get: 200, post: 400 },
  { path: "/people/1/nextsessions", allowed: ANY, get: 200, post: 400 },
  { path: "/people/1/coursememberships", allowed: ANY, get: 200, post: 400 },
  { path: "/people/1/certifications", allowed: ANY, get: 200, post: 400 },
  { path: "/people/1/fees", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/people/1/invoiceheaders", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/people/export", allowed: ANY, get: 200, post: 405, getOnly: true },
  { path: "/dogs", allowed: ANY, get: 200, post: 400 },
  { path: "/dogs/1/coursememberships", allowed: ANY, get: 200, post: 400 },
  { path: "/dogs/1/certifications", allowed: ANY, get: 200, post: 400 },
  { path: "/quickAdd", allowed: ANY, get: 200, post: 400 },
  { path: "/recyclebin", allowed: ANY, get: 200, post: 400 },
  { path: "/certifications", allowed: ANY, get: 200, post: 400 },
  { path: "/certificationMasters", allowed: ["admin"], get: 200, post: 400 },
  { path: "/courseMasters", allowed: ["admin"], get: 200, post: 400 },
  { path: "/courseMasters/1/courses", allowed: ["admin"], get: 200, post: 400 },
  { path: "/courses", allowed: ANY, get: 200, post: 400 },
  { path: "/fees", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/fees/export", allowed: ["finance", "admin"], get: 200, post: 405, getOnly: true },
  // Kontoauszug importieren: an empty post carries no file (German 400) and stores nothing; an
  // import that does not exist is 404 for those who may book it.
  { path: "/bankstatements", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/bankstatements/1", allowed: ["finance", "admin"], get: 404, post: 404 },
  // Lastschriftläufe (ADMIN, FINANCE): the screen, the preview, a run's file (none yet: 404).
  { path: "/directdebits", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/directdebits?dialog=directDebit-start", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/directdebits/file/1", allowed: ["finance", "admin"], get: 404, post: 405, getOnly: true },
  // Kasse (ADMIN, FINANCE; issue 35 item 2): the Kassenbuch, its Tagesabschluss, the print view and the Excel files.
  { path: "/cashbook", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/cashbook/days", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/cashbook/print", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/cashbook/export", allowed: ["finance", "admin"], get: 200, post: 405, getOnly: true },
  { path: "/cashbook/days/export", allowed: ["finance", "admin"], get: 200, post: 405, getOnly: true },
  { path: "/cashbook?dialog=cashEntry-add", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/courseDates", allowed: ANY, get: 200, post: 400 },
  // The handset views: every logged-in user; they only read (an empty post is refused).
  { path: "/peoplemobile", allowed: ANY, get: 200, post: 400 },
  { path: "/peoplemobile?q=a", allowed: ANY, get: 200, post: 400 },
  { path: "/dogsmobile", allowed: ANY, get: 200, post: 400 },
  { path: "/coursesmobile", allowed: ANY, get: 200, post: 400 },
  { path: "/coursesheetmobile", allowed: ANY, get: 200, post: 400 },
  { path: "/coursesheetmobile?course=1", allowed: ANY, get: 200, post: 400 },
  { path: "/nextdatesmobile", allowed: ANY, get: 200, post: 400 },
  // The lists only read (an empty post is refused), for the roles that may see them; staff is refused.
  { path: "/hsvrmlist", allowed: ["finance", "admin", "gdpr"], get: 200, post: 400 },
  { path: "/hsvrmlist/export", allowed: ["finance", "admin", "gdpr"], get: 200, post: 405, getOnly: true },
  { path: "/birthdaylist", allowed: ["finance", "admin", "gdpr"], get: 200, post: 400 },
  { path: "/birthdaylist/export", allowed: ["finance", "admin", "gdpr"], get: 200, post: 405, getOnly: true },
  { path: "/courseSheet", allowed: ANY, get: 200, post: 400 },
  { path: "/scheduler", allowed: ANY, get: 200, post: 400 },
  { path: "/courses/1/coursememberships", allowed: ANY, get: 200, post: 400 },
  { path: "/courses/1/coursedates", allowed: ANY, get: 200, post: 400 },
  { path: "/coursememberships/export?parent=COURSE%3A1", allowed: ANY, get: 200, post: 405, getOnly: true },
  // Kursteilnehmer: the participants of all courses, and its Excel (the season's list).
  { path: "/coursememberships", allowed: ANY, get: 200, post: 400 },
  { path: "/coursememberships/export?status=all&year=all", allowed: ANY, get: 200, post: 405, getOnly: true },
  { path: "/configuration", allowed: ["admin"], get: 200, post: 400 },
  // Kalender-Abos: an empty post names what is missing (German 400) and creates no link.
  { path: "/calendarFeeds", allowed: ["admin"], get: 200, post: 400 },
  // Vorlagen (ADMIN): the grid, its dialog, and the invoice template's preview with sample data.
  { path: "/templates", allowed: ["admin"], get: 200, post: 400 },
  { path: "/templates?dialog=template-edit&dialogId=1", allowed: ["admin"], get: 200, post: 400 },
  // Template 1 is a mail template (from the migrations): the sample preview is for invoices only (404), reached only by ADMIN.
  { path: "/templates/preview/1", allowed: ["admin"], get: 404, post: 405, getOnly: true },
  { path: "/tasks?dialog=pdfRun-start", allowed: ["admin"], get: 200, post: 400 },
  { path: "/invoices", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/invoices/1/invoicerows", allowed: ["finance", "admin"], get: 200, post: 400 },
  // An invoice's PDF (ADMIN, FINANCE): the demo invoice has none yet, so 'getPDF error:' 404.
  { path: "/invoices/pdf/1", allowed: ["finance", "admin"], get: 404, post: 405, getOnly: true },
  // Its e-invoice (issue 35 item 6): the demo club has its Steuernummer, so invoice 1 (issued) comes as XRechnung.
  { path: "/invoices/xrechnung/1", allowed: ["finance", "admin"], get: 200, post: 405, getOnly: true },
  { path: "/invoices?dialog=invoicePdf-create&dialogId=1", allowed: ["finance", "admin"], get: 200, post: 400 },
  // Tasks: an empty post is an unknown action (German 400) and starts nothing.
  { path: "/tasks", allowed: ["admin"], get: 200, post: 400 },
  // Tasks → Prüfungen: only posts (an empty one names no check: 400), GET is not allowed.
  { path: "/tasks/checks", allowed: ["admin"], get: 405, post: 400 },
  // Test: the installation's self-test (it writes to R2 and the queue): ADMIN only (issue 29); it takes no posts.
  { path: "/test", allowed: ["admin"], get: 200, post: 405 },
  { path: "/tasks?dialog=task-invoices", allowed: ["admin"], get: 200, post: 400 },
  // Mail: the log (ADMIN, FINANCE), its tabs under a person and an invoice, the mail tasks.
  { path: "/mailer", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/people/1/mails", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/invoices/1/mails", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/tasks?dialog=mailing-birthdays", allowed: ["admin"], get: 200, post: 400 },
  { path: "/tasks?dialog=mailing-invoiceMails", allowed: ["admin"], get: 200, post: 400 },
  { path: "/tasks?dialog=mailing-mailshot&dialogId=1", allowed: ["admin"], get: 200, post: 400 },
  { path: "/mailshots", allowed: ["admin"], get: 200, post: 400 },
  { path: "/mailshots?dialog=mailshot-add", allowed: ["admin"], get: 200, post: 400 },
  // Datenschutz (ADMIN, GDPR): the retention overview, the erasure preview on it and on the People
  // screen (an empty post erases nothing: 400), and the Auskunft download (a zip).
  { path: "/gdpr", allowed: ["gdpr", "admin"], get: 200, post: 400 },
  { path: "/gdpr?dialog=erasure-preview&dialogId=1", allowed: ["gdpr", "admin"], get: 200, post: 400 },
  { path: "/gdpr/auskunft/1", allowed: ["gdpr", "admin"], get: 200, post: 405, getOnly: true },
  // Mahnwesen (ADMIN, FINANCE): the run's screen and its confirmation with the preview.
  { path: "/reminders", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/reminders?dialog=reminderRun-start", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/people/1/reminders", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/invoices/1/reminders", allowed: ["finance", "admin"], get: 200, post: 400 },
  // The grid Mahnungen: its cancel confirmation on every mount, the fee dialog that shows a fee's
  // reminders, and its Excel export (as PARENT and under a person, an invoice, a fee); GET only.
  { path: "/reminders?dialog=reminder-cancel&dialogId=1", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/people/1/reminders?dialog=reminder-cancel&dialogId=1", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/fees?dialog=fee-edit&dialogId=1", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/people/1/fees?dialog=fee-edit&dialogId=1", allowed: ["finance", "admin"], get: 200, post: 400 },
  { path: "/reminders/export", allowed: ["finance", "admin"], get: 200, post: 405, getOnly: true },
  { path: "/reminders/export?parent=PERSON%3A1", allowed: ["finance", "admin"], get: 200, post: 405, getOnly: true },
  { path: "/reminders/export?parent=INVOICEHEADER%3A1", allowed: ["finance", "admin"], get: 200, post: 405, getOnly: true },
  { path: "/reminders/export?parent=FEE%3A1", allowed: ["finance", "admin"], get: 200, post: 405, getOnly: true },
  // The print PDF of a Mahnlauf (ADMIN, FINANCE): there is no run 999999 (German 404); GET only.
  { path: "/reminders/print/999999", allowed: ["finance", "admin"], get: 404, post: 405, getOnly: true },
];

describe("built screens and their actions", () => {
  beforeAll(async () => {
    const { generateSeedData } = await import("~/db/seed/generate");
    const { seedStatements } = await import("~/db/seed/plan");
    const { env } = await import("cloudflare:test");
    const statements = seedStatements(generateSeedData({ today: "2026-11-22" }));
    await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
  });

  describe.each(BUILT)("$path", ({ path, allowed, get, post, getOnly }) => {
    it.each(["GET", "POST"])("%s as anonymous asks for the login", async (method) => {
      const response = await ask(path, "anonymous", { method });
      // A download has no action: POST is refused for everyone before any data is touched.
      if (getOnly && method === "POST") return expect(response.status).toBe(405);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    });

    it.each(USERS)("as %s", async (who) => {
      for (const [method, expected] of [
        ["GET", get],
        ["POST", post],
      ] as const) {
        const response = await ask(path, who, { method });
        // Pages and downloads with personal data: no cache keeps them after logout (issue 29).
        expect(response.headers.get("Cache-Control"), `${method} ${who}`).toBe("private, no-store");
        if (allowed.includes(who) || (getOnly && method === "POST")) {
          expect(response.status, `${method} ${who}`).toBe(expected);
          if (expected === 302) expect(response.headers.get("Location"), `${method} ${who}`).toMatch(/^\/(people|dogs)\/\d+\/(dogs|coursememberships)$/);
        } else {
          expect(response.status, `${method} ${who}`).toBe(302);
          expect(response.headers.get("Location")).toBe("/");
        }
      }
    });
  });

  it("GDPR consent: staff and finance cannot change it on the server nor see its history; GDPR and ADMIN can", async () => {
    const { env } = await import("cloudflare:test");
    type Row = {
      id: number;
      first_name: string;
      last_name: string;
      member_type_id: number;
      is_member: number;
      member_since: string | null;
      member_until: string | null;
      has_gdpr: number;
      row_version: number;
    };
    const read = async () => (await env.DB.prepare("SELECT * FROM people WHERE id = 2").first()) as Row;
    const german = (date: string | null) => (date ? date.split("-").reverse().join(".") : "");
    const save = async (who: Who, consent: boolean) => {
      const row = await read();
      const form: Record<string, string> = {
        intent: "person:save",
        id: String(row.id),
        rowVersion: String(row.row_version),
        firstName: row.first_name,
        lastName: row.last_name,
        memberTypeId: String(row.member_type_id),
        memberSince: german(row.member_since),
        memberUntil: german(row.member_until),
      };
      if (row.is_member) form.isMember = "on";
      if (consent) form.hasGdpr = "on";
      return ask("/people/2/dogs", who, { method: "POST", body: new URLSearchParams(form) });
    };
    const consentChanges = async () =>
      (
        (await env.DB.prepare(
          "SELECT count(*) AS n FROM change_history WHERE table_name = 'people' AND record_id = 2 AND json_extract(changes, '$.has_gdpr') IS NOT NULL",
        ).first()) as { n: number }
      ).n;
    const given = Boolean((await read()).has_gdpr);
    const before = await consentChanges();
    for (const who of ["staff", "finance"] as DemoUserName[]) {
      expect((await save(who, !given)).status, who).toBe(302);
      expect(Boolean((await read()).has_gdpr), who).toBe(given);
      const dialog = await (await ask("/people/2/dogs?dialog=person-edit&dialogId=2", who)).text();
      expect(dialog, who).toContain('data-testid="record-history"');
      expect(dialog, who).not.toContain('data-testid="person-consent"');
    }
    expect(await consentChanges()).toBe(before);
    let expected = given;
    for (const who of ["gdpr", "admin"] as DemoUserName[]) {
      expected = !expected;
      expect((await save(who, expected)).status, who).toBe(302);
      expect(Boolean((await read()).has_gdpr), who).toBe(expected);
      const dialog = await (await ask("/people/2/dogs?dialog=person-edit&dialogId=2", who)).text();
      expect(dialog, who).toContain(`Einwilligung ${expected ? "erteilt" : "widerrufen"} am`);
    }
    expect(await consentChanges()).toBe(before + 2);
  });

  it("the column chooser saves for logged-in users only", async () => {
    const body = new URLSearchParams({ grid: "people", visible: "lastName" });
    expect((await ask("/preferences/columns", "anonymous", { method: "POST", body })).status).toBe(302);
    for (const who of USERS) {
      const response = await ask("/preferences/columns", who, { method: "POST", body });
      expect(response.status, who).toBe(200);
    }
  });
});

describe("the attendance tick on the mobile Kursblatt", () => {
  it("every logged-in user may tick (trainers are plain staff); without a login nothing is stored", async () => {
    const { env } = await import("cloudflare:test");
    // A date held already and a participant of its course who takes part (seeded above).
    const target = (await env.DB.prepare(
      `SELECT d.id AS date_id, d.course_id, m.id AS membership_id FROM course_dates d
       JOIN course_memberships m ON m.course_id = d.course_id JOIN membership_statuses s ON s.id = m.status_id
       WHERE d.start_date_time < strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AND s.code = 'CONFIRMED' ORDER BY d.id LIMIT 1`,
    ).first()) as { date_id: number; course_id: number; membership_id: number };
    const present = async () =>
      (await env.DB.prepare("SELECT present FROM attendances WHERE course_date_id = ? AND course_membership_id = ?")
        .bind(target.date_id, target.membership_id)
        .first()) as { present: number } | null;
    const body = (value: 0 | 1) =>
      new URLSearchParams({
        intent: "attendance",
        course: String(target.course_id),
        date: String(target.date_id),
        membership: String(target.membership_id),
        present: String(value),
      });
    const anonymous = await ask("/coursesheetmobile", "anonymous", { method: "POST", body: body(1) });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/login?redirectTo=%2Fcoursesheetmobile");
    expect(await present()).toBeNull();
    for (const who of USERS) {
      const value = who === "gdpr" || who === "admin" ? 0 : 1;
      const response = await ask("/coursesheetmobile", who, { method: "POST", body: body(value) });
      expect(response.status, who).toBe(302);
      expect(response.headers.get("Location"), who).toBe(
        `/coursesheetmobile?course=${target.course_id}&date=${target.date_id}#teilnehmer-${target.membership_id}`,
      );
      expect((await present())?.present, who).toBe(value);
    }
  });
});

describe("dialogs of an ADMIN area posted from a page everyone may use", () => {
  it("a Kurs-Typ cannot be written or opened from /courses by anyone but ADMIN", async () => {
    const { env } = await import("cloudflare:test");
    const count = async () => ((await env.DB.prepare("SELECT count(*) AS n FROM course_masters").first()) as { n: number }).n;
    const before = await count();
    for (const who of ["staff", "gdpr", "finance"] as DemoUserName[]) {
      const response = await ask("/courses", who, { method: "POST", body: new URLSearchParams({ intent: "courseMaster:save", name: `Heimlich ${who}` }) });
      expect(response.status, who).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      const opened = await (await ask("/courses?dialog=courseMaster-add", who)).text();
      expect(opened, who).not.toContain("Kurs-Typ hinzufügen");
    }
    expect(await count()).toBe(before);
    const admin = await ask("/courses", "admin", { method: "POST", body: new URLSearchParams({ intent: "courseMaster:save", name: "Offen vom Admin" }) });
    expect(admin.status).toBe(302);
    expect(await count()).toBe(before + 1);
  });
});

describe("dialogs of the invoices area posted from pages staff and GDPR may use", () => {
  it("invoices, their rows and PDFs cannot be written, deleted, made or opened from /people or /courses by anyone but ADMIN and FINANCE", async () => {
    const { env } = await import("cloudflare:test");
    const state = async () =>
      JSON.stringify(
        (
          await env.DB.prepare(
            "SELECT h.id, h.row_version, h.amount, h.open_amount, h.pdf_file_path, (SELECT count(*) FROM invoice_rows r WHERE r.invoice_id = h.id) AS n FROM invoice_headers h ORDER BY h.id",
          ).all()
        ).results,
      );
    const header = (await env.DB.prepare(
      "SELECT id, row_version, invoice_number, (SELECT id FROM invoice_rows WHERE invoice_id = invoice_headers.id LIMIT 1) AS row_id FROM invoice_headers ORDER BY id LIMIT 1",
    ).first()) as {
      id: number;
      row_version: number;
      invoice_number: number;
      row_id: number;
    };
    const before = await state();
    const posts: Record<string, string>[] = [
      { intent: "invoice:save", id: String(header.id), rowVersion: String(header.row_version), date: "01.01.2026" },
      { intent: "invoice:delete", id: String(header.id) },
      { intent: "invoiceRow:save", invoiceId: String(header.id), text: "Heimlich", amount: "5,00" },
      { intent: "invoiceRow:delete", id: String(header.row_id) },
      { intent: "invoicePdf:create", id: String(header.id) },
      { intent: "invoicePdf:recreate", id: String(header.id) },
    ];
    for (const who of ["staff", "gdpr"] as DemoUserName[]) {
      for (const page of ["/people", "/courses", "/people/1/dogs"]) {
        for (const post of posts) {
          const response = await ask(page, who, { method: "POST", body: new URLSearchParams(post) });
          expect(response.status, `${who} ${page} ${post.intent}`).toBe(302);
          expect(response.headers.get("Location")).toBe("/");
        }
      }
      const opened = await (await ask(`/people?dialog=invoice-edit&dialogId=${header.id}`, who)).text();
      expect(opened, who).not.toContain(`Rechnung ${header.invoice_number} bearbeiten`);
      const confirm = await (await ask(`/people?dialog=invoicePdf-create&dialogId=${header.id}`, who)).text();
      expect(confirm, who).not.toContain("invoicePdf:create");
      expect(await (await ask(`/people/1/invoiceheaders`, who)).text()).not.toContain("Rechnungen für");
    }
    expect(await state()).toBe(before);
  });
});

describe("the direct-debit run's dialogs posted from pages staff and GDPR may use", () => {
  it("no one but ADMIN and FINANCE starts, submits or cancels a run, or sees its preview", async () => {
    const { env } = await import("cloudflare:test");
    const state = async () =>
      JSON.stringify(
        await env.DB.prepare(
          "SELECT (SELECT count(*) FROM jobs) AS jobs, (SELECT count(*) FROM direct_debit_runs) AS runs, (SELECT sum(open_amount) FROM fees) AS open",
        ).first(),
      );
    const before = await state();
    for (const who of ["staff", "gdpr"] as DemoUserName[]) {
      for (const page of ["/people", "/courses", "/directdebits"]) {
        const posts: Record<string, string>[] = [
          { intent: "directDebit:start" },
          { intent: "directDebit:submit", id: "1" },
          { intent: "directDebit:cancel", id: "1" },
        ];
        for (const post of posts) {
          const response = await ask(page, who, { method: "POST", body: new URLSearchParams(post) });
          expect(response.status, `${who} ${page} ${post.intent}`).toBe(302);
          expect(response.headers.get("Location")).toBe("/");
        }
      }
      const opened = await (await ask("/people?dialog=directDebit-start", who)).text();
      expect(opened, who).not.toContain("Lastschriftlauf vorbereiten");
      expect(opened, who).not.toContain("directDebit:start");
    }
    // FINANCE may, from the Kontenblatt too (the dialog's own area decides), but not from Tasks (ADMIN only).
    const fromTasks = await ask("/tasks", "finance", { method: "POST", body: new URLSearchParams({ intent: "directDebit:start" }) });
    expect(fromTasks.headers.get("Location")).toBe("/");
    expect(await state()).toBe(before);
  });
});

describe("the payment link dialog (Kontenblatt) posted or opened from pages staff and GDPR may use", () => {
  it("only ADMIN and FINANCE open it or make a link", async () => {
    const { env } = await import("cloudflare:test");
    await env.DB.prepare("UPDATE configuration SET mollie_integration = 1").run();
    const fee = (await env.DB.prepare("SELECT id FROM fees WHERE open_amount > 0 AND payment_link_id IS NULL ORDER BY id LIMIT 1").first()) as { id: number };
    const links = async () => ((await env.DB.prepare("SELECT count(*) AS n FROM fees WHERE payment_link_id IS NOT NULL").first()) as { n: number }).n;
    const before = await links();
    for (const who of ["staff", "gdpr"] as DemoUserName[]) {
      for (const page of ["/people", "/courses"]) {
        const response = await ask(page, who, { method: "POST", body: new URLSearchParams({ intent: "paymentLink:create", id: String(fee.id) }) });
        expect(response.status, `${who} ${page}`).toBe(302);
        expect(response.headers.get("Location")).toBe("/");
      }
      expect(await (await ask(`/people?dialog=paymentLink-create&dialogId=${fee.id}`, who)).text(), who).not.toContain("Zahlungslink erzeugen");
    }
    expect(await links()).toBe(before);
    for (const who of ["finance", "admin"] as DemoUserName[]) {
      expect(await (await ask(`/fees?dialog=paymentLink-create&dialogId=${fee.id}`, who)).text(), who).toContain("Zahlungslink erzeugen");
    }
    const made = await ask("/fees", "finance", { method: "POST", body: new URLSearchParams({ intent: "paymentLink:create", id: String(fee.id) }) });
    expect(made.status).toBe(302);
    expect(await links()).toBe(before + 1);
    await env.DB.prepare("UPDATE configuration SET mollie_integration = 0").run();
  });
});

describe("SEPA mandates (the mandate dialog) posted or opened from pages staff and GDPR may use", () => {
  it("only ADMIN and FINANCE open the dialog, see its row action, save or delete a mandate", async () => {
    const { env } = await import("cloudflare:test");
    const state = async () => JSON.stringify((await env.DB.prepare("SELECT * FROM sepa_mandates ORDER BY id").all()).results);
    const mandate = (await env.DB.prepare("SELECT id, person_id, row_version FROM sepa_mandates ORDER BY id LIMIT 1").first()) as {
      id: number;
      person_id: number;
      row_version: number;
    };
    const before = await state();
    const posts: Record<string, string>[] = [
      { intent: "mandate:save", personId: "1", accountHolder: "Heimlich", iban: "DE89370400440532013000", mandateDate: "01.01.2026", isActive: "on" },
      {
        intent: "mandate:save",
        id: String(mandate.id),
        rowVersion: String(mandate.row_version),
        personId: String(mandate.person_id),
        accountHolder: "Heimlich",
        iban: "DE89370400440532013000",
        mandateDate: "01.01.2026",
      },
      { intent: "mandate:delete", id: String(mandate.id) },
    ];
    for (const who of ["staff", "gdpr"] as DemoUserName[]) {
      expect(await (await ask("/people", who)).text(), who).not.toContain("SEPA-Mandat");
      for (const view of [`mandate-person&dialogId=${mandate.person_id}`, `mandate-delete&dialogId=${mandate.id}`]) {
        expect(await (await ask(`/people?dialog=${view}`, who)).text(), `${who} ${view}`).not.toMatch(/SEPA-Mandat (von|WUFF)/);
      }
      for (const page of ["/people", "/people/1/dogs", "/courses"]) {
        for (const post of posts) {
          const response = await ask(page, who, { method: "POST", body: new URLSearchParams(post) });
          expect(response.status, `${who} ${page} ${post.intent}`).toBe(302);
          expect(response.headers.get("Location")).toBe("/");
        }
      }
    }
    expect(await state()).toBe(before);
    for (const who of ["finance", "admin"] as DemoUserName[]) {
      expect(await (await ask("/people", who)).text(), who).toContain("SEPA-Mandat");
      expect(await (await ask(`/people?dialog=mandate-person&dialogId=${mandate.person_id}`, who)).text(), who).toContain("SEPA-Mandat von");
      expect(await (await ask(`/people?dialog=mandate-delete&dialogId=${mandate.id}`, who)).text(), who).toContain("SEPA-Mandat WUFF-");
    }
  });
});

describe("mail dialogs and mail tasks posted from pages others may use", () => {
  it("only ADMIN and FINANCE see 'Mail senden', open its preview or send; only ADMIN runs the mail tasks", async () => {
    const { env } = await import("cloudflare:test");
    const mails = async () => ((await env.DB.prepare("SELECT count(*) AS n FROM mail_log").first()) as { n: number }).n;
    const before = await mails();
    for (const who of ["staff", "gdpr"] as DemoUserName[]) {
      expect(await (await ask("/people", who)).text(), who).not.toContain("Mail senden");
      expect(await (await ask("/people/1/dogs?dialog=mail-person&dialogId=1", who)).text(), who).not.toContain("Mail senden:");
      for (const page of ["/people", "/people/1/dogs", "/courses"]) {
        const response = await ask(page, who, {
          method: "POST",
          body: new URLSearchParams({ intent: "mail:send", source: "person", id: "1", subject: "Heimlich" }),
        });
        expect(response.status, `${who} ${page}`).toBe(302);
        expect(response.headers.get("Location")).toBe("/");
      }
    }
    for (const who of ["staff", "gdpr", "finance"] as DemoUserName[]) {
      for (const intent of ["mailing:birthdays", "mailing:invoiceMails", "mailing:mailshot", "mailshot:save", "mailshot:delete"]) {
        const response = await ask("/people/1/dogs", who, { method: "POST", body: new URLSearchParams({ intent }) });
        expect(response.status, `${who} ${intent}`).toBe(302);
        expect(response.headers.get("Location")).toBe("/");
      }
    }
    expect(await (await ask("/people", "finance")).text()).toContain("Mail senden");
    expect(await mails()).toBe(before);
  });

  it("/api/protected/mailer/sendBirthdayMailsForToday, GET and POST: 401 anonymous, 403 without ADMIN, a German message for ADMIN", async () => {
    const path = "/api/protected/mailer/sendBirthdayMailsForToday";
    for (const method of ["GET", "POST"]) {
      expect((await ask(path, "anonymous", { method })).status, method).toBe(401);
      for (const who of ["staff", "gdpr", "finance"] as DemoUserName[]) expect((await ask(path, who, { method })).status, `${method} ${who}`).toBe(403);
      const admin = await ask(path, "admin", { method });
      expect(admin.status, method).toBe(200);
      expect(((await admin.json()) as { message: string }).message, method).toMatch(/Geburtstag/);
    }
  });
});

describe("routes outside the screen table", () => {
  it("home is public and tells anonymous visitors they are not logged in", async () => {
    for (const who of ["anonymous", ...USERS] as Who[]) {
      const response = await ask("/", who);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain("Willkommen bei Wuff!");
      expect(html.includes("Du bist noch nicht eingeloggt."), who).toBe(who === "anonymous");
    }
  });

  it("home shows each panel only to the roles that may use the screens it leads into, in the page and in its data", async () => {
    const panels: [string, Who[]][] = [
      ["Kurstermine heute und morgen", USERS],
      ["Kurse über der Teilnehmerzahl", USERS],
      ["Tollwutimpfung läuft ab", USERS],
      ["Geburtstage diese Woche", ["finance", "admin", "gdpr"]],
      ["Offene Posten", ["finance", "admin"]],
      ["Letzter Lauf", ["admin"]],
    ];
    for (const who of ["anonymous", ...USERS] as Who[]) {
      const html = await (await ask("/", who)).text();
      const data = await (await ask("/_root.data", who)).text();
      for (const [title, allowed] of panels) {
        expect(html.includes(title), `${title} in / as ${who}`).toBe(allowed.includes(who));
        expect(data.includes(title), `${title} in /_root.data as ${who}`).toBe(allowed.includes(who));
      }
    }
  });

  it("the keep-alive ping answers 401 to anonymous callers and 204 to logged-in users", async () => {
    const anonymous = await ask("/api/session/ping", "anonymous", { method: "POST" });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "Nicht angemeldet" });
    for (const who of USERS) expect((await ask("/api/session/ping", who, { method: "POST" })).status).toBe(204);
  });

  it("calendar feeds are public (the token is the key): no login, an unknown token is a 404 for everyone", async () => {
    for (const who of ["anonymous", ...USERS] as Who[]) {
      for (const method of ["GET", "HEAD"]) {
        const response = await ask("/feeds/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics", who, { method });
        expect(response.status, `${method} ${who}`).toBe(404);
        expect(response.headers.get("Location")).toBeNull();
      }
    }
  });

  it("the Mollie webhook is public (Mollie has no login): malformed calls are refused alike for everyone, GET is not allowed", async () => {
    for (const who of ["anonymous", ...USERS] as Who[]) {
      expect((await ask("/api/public/mollie/webhook", who, { method: "POST" })).status, who).toBe(400);
      expect((await ask("/api/public/mollie/webhook", who)).status, who).toBe(405);
    }
  });

  it("creating a payment link by API needs ADMIN or FINANCE (401 anonymous, 403 others)", async () => {
    const post = (who: Who) =>
      ask("/api/public/mollie/createpaymentlink", who, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "http://localhost" },
        body: "{}",
      });
    const expected: Record<Who, number> = { anonymous: 401, staff: 403, gdpr: 403, finance: 400, admin: 400 };
    for (const who of ["anonymous", ...USERS] as Who[]) expect((await post(who)).status, who).toBe(expected[who]);
    for (const who of ["anonymous", ...USERS] as Who[]) expect((await ask("/api/public/mollie/createpaymentlink", who)).status, who).toBe(405);
  });

  it("the liveness answer is public; the self-test is ADMIN's (401 anonymous, 403 others)", async () => {
    for (const who of ["anonymous", ...USERS] as Who[]) expect((await ask("/api/public/test", who)).status).toBe(200);
    const expected: Record<Who, number> = { anonymous: 401, staff: 403, gdpr: 403, finance: 403, admin: 200 };
    for (const who of ["anonymous", ...USERS] as Who[]) expect((await ask("/api/protected/test", who)).status, who).toBe(expected[who]);
  });

  it("logout needs POST and then ends the session on the server", async () => {
    const cookie = await loginCookie("staff");
    const viaGet = await fetchApp("/logout", { cookie });
    expect(viaGet.status).toBe(302);
    expect((await fetchApp("/dogsmobile", { cookie })).status).toBe(200);

    const response = await fetchApp("/logout", { method: "POST", cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Set-Cookie")).toMatch(/wuff_session=;.*Max-Age=0/);
    // The same cookie replayed after logout opens nothing.
    const replay = await fetchApp("/dogsmobile", { cookie });
    expect(replay.headers.get("Location")).toBe("/login?redirectTo=%2Fdogsmobile");
  });

  it("logout as anonymous just goes home", async () => {
    const response = await ask("/logout", "anonymous", { method: "POST" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });

  it("an unknown path goes home for everyone", async () => {
    for (const who of ["anonymous", ...USERS] as Who[]) {
      for (const method of ["GET", "POST"]) {
        const response = await ask("/gibt-es-nicht", who, { method });
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/");
      }
    }
  });
});

describe("Mahnwesen: the run and the reminder levels posted from pages others may use", () => {
  it("only ADMIN and FINANCE start a run or cancel a reminder; only ADMIN saves the levels", async () => {
    const { env } = await import("cloudflare:test");
    await env.DB.prepare(
      "INSERT INTO reminders (id, target_type, target_id, person_id, level, date, new_due_date, status) VALUES (1, 'INVOICE', 1, 1, 1, '2026-11-02', '2026-11-16', 'PENDING')",
    ).run();
    const state = async () =>
      JSON.stringify([
        (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE type = 'REMINDERS'").first()) as { n: number },
        (await env.DB.prepare("SELECT * FROM reminder_levels ORDER BY level").all()).results,
        (await env.DB.prepare("SELECT * FROM reminders ORDER BY id").all()).results,
      ]);
    const before = await state();
    const levels = new URLSearchParams({ intent: "reminderLevels" });
    for (let index = 0; index < 3; index++) {
      for (const [key, value] of Object.entries({
        level: String(index + 1),
        rowVersion: "1",
        enabled: "on",
        days: "1",
        fee: "99,00",
        mailFee: "99,00",
        paymentTermDays: "1",
        mailTemplate: "1. Mahnung",
        letterTemplate: "1. Mahnung (Brief)",
      })) {
        levels.set(`levels[${index}].${key}`, value);
      }
    }
    for (const who of ["staff", "gdpr"] as DemoUserName[]) {
      for (const page of ["/people", "/people/1/dogs", "/courses", "/reminders"]) {
        for (const intent of ["reminderRun:start", "reminder:cancel"]) {
          const response = await ask(page, who, { method: "POST", body: new URLSearchParams({ intent, id: "1" }) });
          expect(response.status, `${who} ${page} ${intent}`).toBe(302);
          expect(response.headers.get("Location")).toBe("/");
        }
      }
      expect(await (await ask("/people?dialog=reminderRun-start", who)).text(), who).not.toContain("Mahnlauf starten");
      expect(await (await ask("/people?dialog=reminder-cancel&dialogId=1", who)).text(), who).not.toContain("stornieren");
    }
    for (const who of ["staff", "gdpr", "finance"] as DemoUserName[]) {
      const response = await ask("/configuration", who, { method: "POST", body: levels });
      expect(response.status, who).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
    }
    expect(await state()).toBe(before);
  });
});
