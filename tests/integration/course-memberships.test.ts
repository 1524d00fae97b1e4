/**
 * Teilnehmer: the fee coupling of spec 001 §4 (a fee-trigger status creates exactly one course
 * fee; paid and amount follow; two fees refuse), atomic writes, stale saves, the draft that
 * works out dogs and price, transfer, delete with the fee into the bin and back, and the export.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { MEMBER_TYPE_IDS, STATUS_IDS } from "~/db/seed/generate";
import * as schema from "~/db/schema";
import { formatDate, todayInBerlin } from "~/lib/format";
import { saveMembership } from "~/models/course-memberships.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { readXlsx } from "../support/excel";
import { gridOf } from "../support/grid-html";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS, loginCookie } from "../support/sessions";
import { issueTestInvoice } from "../support/invoices";

const db = createDb(env.DB);
let course: { id: number };
let otherCourse: { id: number };
let finishedCourse: { id: number };
/** A member (price tier REDUCED1) with one dog, a non-member with two. */
let member: { id: number; dogId: number };
let guest: { id: number; dogIds: number[] };

const page = async (path: string, cookie: string) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");

beforeAll(async () => {
  await loadDemoData();
  const insertCourse = (name: string, statusCode: "PLANNED" | "RUNNING" | "FINISHED") =>
    db
      .insert(schema.courses)
      .values({
        name,
        startYear: 2026,
        statusCode,
        costFull: 15_000,
        costReduced1: 12_000,
        costReduced2: 9_000,
        maxDogs: 8,
        nrOfSessions: 6,
        startDateTime: "2026-12-01T17:00:00.000Z",
      })
      .returning({ id: schema.courses.id })
      .then((rows) => rows[0]);
  course = await insertCourse("Testkurs Welpen", "RUNNING");
  otherCourse = await insertCourse("Testkurs Junghunde", "PLANNED");
  finishedCourse = await insertCourse("Testkurs Vorjahr", "FINISHED");
  const [m] = await db
    .insert(schema.people)
    .values({ firstName: "Mia", lastName: "Mitglied", memberTypeId: MEMBER_TYPE_IDS.FULL, isMember: true, hasInsurance: true, hasGdpr: true })
    .returning({ id: schema.people.id });
  const [mDog] = await db
    .insert(schema.dogs)
    .values({ ownerId: m.id, commonName: "Bello", gender: 1, rabiesValidUntil: "2030-01-01" })
    .returning({ id: schema.dogs.id });
  member = { id: m.id, dogId: mDog.id };
  const [g] = await db
    .insert(schema.people)
    .values({ firstName: "Gerd", lastName: "Gast", memberTypeId: MEMBER_TYPE_IDS.NONE })
    .returning({ id: schema.people.id });
  const gDogs = await db
    .insert(schema.dogs)
    .values([
      { ownerId: g.id, commonName: "Flocke", gender: 2, rabiesValidUntil: "2026-12-03" },
      { ownerId: g.id, commonName: "Rex", gender: 1 },
    ])
    .returning({ id: schema.dogs.id });
  guest = { id: g.id, dogIds: gDogs.map((dog) => dog.id) };
});

const membershipsOf = (courseId: number) => db.select().from(schema.courseMemberships).where(eq(schema.courseMemberships.courseId, courseId));
const feesOf = (membershipId: number) => db.select().from(schema.fees).where(eq(schema.fees.courseMembershipId, membershipId));
const getMembership = async (id: number) => (await db.select().from(schema.courseMemberships).where(eq(schema.courseMemberships.id, id)))[0];

/** Adds a participant through the dialog's form post under the course. */
async function add(fields: Record<string, string | number | boolean | undefined>, who: "staff" | "admin" = "staff") {
  return postForm(`/courses/${course.id}/coursememberships`, await loginCookie(who), {
    intent: "courseMembership:save",
    courseId: course.id,
    statusId: STATUS_IDS.CONFIRMED,
    ...fields,
  });
}

async function addedMembership(personId: number, dogId: number, courseId = course.id) {
  const [row] = (await membershipsOf(courseId)).filter((m) => m.personId === personId && m.dogId === dogId);
  return row;
}

describe("adding a participant creates the course fee (spec 001 §4)", () => {
  it("a fee-trigger status creates exactly one fee, linked both ways, priced by the member type", async () => {
    const response = await add({ personId: member.id, dogId: member.dogId });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Teilnehmer wurde hinzugefügt" });
    const membership = await addedMembership(member.id, member.dogId);
    expect(response.headers.get("Location")).toBe(`/courses/${course.id}/coursememberships?cm=${membership.id}`);
    // A member pays the reduced price; the rabies date, insurance and consent are copied.
    expect(membership).toMatchObject({
      price: 12_000,
      amount: 12_000,
      isPaid: false,
      rabiesValidUntil: "2030-01-01",
      hasInsurance: true,
      hasGdpr: true,
      createdBy: "Sven Mitarbeiter",
    });
    const fees = await feesOf(membership.id);
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({
      personId: member.id,
      kind: "COURSE",
      text: "Kursgebühr Testkurs Welpen (Bello)",
      amount: 12_000,
      openAmount: 12_000,
      sendInvoice: true,
      isInvoiced: false,
      date: todayInBerlin(),
    });
    expect(membership.feeId).toBe(fees[0].id);
  });

  it("a status that is no fee trigger (Warteliste) creates no fee; a later CONFIRMED does", async () => {
    await add({ personId: guest.id, dogId: guest.dogIds[1], statusId: STATUS_IDS.WAITLIST });
    const waiting = await addedMembership(guest.id, guest.dogIds[1]);
    expect(waiting).toMatchObject({ price: 15_000, amount: 15_000, feeId: null });
    expect(await feesOf(waiting.id)).toHaveLength(0);

    const confirmed = await postForm(`/courses/${course.id}/coursememberships`, await loginCookie("staff"), {
      intent: "courseMembership:save",
      id: waiting.id,
      rowVersion: waiting.rowVersion,
      courseId: course.id,
      personId: guest.id,
      dogId: guest.dogIds[1],
      statusId: STATUS_IDS.CONFIRMED,
      amount: "150,00",
    });
    expect(confirmed.status).toBe(302);
    const fees = await feesOf(waiting.id);
    expect(fees).toHaveLength(1);
    expect((await getMembership(waiting.id)).feeId).toBe(fees[0].id);
  });

  it("paid sets the fee's open amount to 0 with date and user; unpaid and a new amount follow", async () => {
    const membership = await addedMembership(member.id, member.dogId);
    const save = async (fields: Record<string, string | boolean>) => {
      const current = await getMembership(membership.id);
      return postForm(`/courses/${course.id}/coursememberships`, await loginCookie("staff"), {
        intent: "courseMembership:save",
        id: current.id,
        rowVersion: current.rowVersion,
        courseId: course.id,
        personId: member.id,
        dogId: member.dogId,
        statusId: STATUS_IDS.CONFIRMED,
        amount: "120,00",
        ...fields,
      });
    };
    expect((await save({ isPaid: true })).status).toBe(302);
    let [fee] = await feesOf(membership.id);
    expect(fee).toMatchObject({ openAmount: 0, amount: 12_000, paymentComments: `bezahlt am ${formatDate(todayInBerlin())} von Sven Mitarbeiter` });

    expect((await save({ isPaid: false, amount: "99,50" })).status).toBe(302);
    [fee] = await feesOf(membership.id);
    expect(fee).toMatchObject({ openAmount: 9_950, amount: 9_950, paymentComments: null });
    expect(await getMembership(membership.id)).toMatchObject({ amount: 9_950, isPaid: false, price: 12_000 });
  });

  it("more than one fee refuses the save and changes nothing", async () => {
    const membership = await addedMembership(member.id, member.dogId);
    await db
      .insert(schema.fees)
      .values({ personId: member.id, date: "2026-11-01", text: "Doppelt", amount: 100, openAmount: 100, courseMembershipId: membership.id, kind: "COURSE" });
    const before = await getMembership(membership.id);
    const response = await postForm(`/courses/${course.id}/coursememberships`, await loginCookie("staff"), {
      intent: "courseMembership:save",
      id: before.id,
      rowVersion: before.rowVersion,
      courseId: course.id,
      personId: member.id,
      dogId: member.dogId,
      statusId: STATUS_IDS.CONFIRMED,
      amount: "1,00",
      isPaid: true,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("more than one fee found for this membership");
    expect(await getMembership(membership.id)).toEqual(before);
    await db.delete(schema.fees).where(eq(schema.fees.text, "Doppelt"));
  });

  it("a stale rowVersion is refused (409) with who changed it, and nothing is written", async () => {
    const membership = await addedMembership(member.id, member.dogId);
    const before = await getMembership(membership.id);
    const [feeBefore] = await feesOf(membership.id);
    const response = await postForm(`/courses/${course.id}/coursememberships`, await loginCookie("admin"), {
      intent: "courseMembership:save",
      id: before.id,
      rowVersion: before.rowVersion - 1,
      courseId: course.id,
      personId: member.id,
      dogId: member.dogId,
      statusId: STATUS_IDS.CONFIRMED,
      amount: "5,00",
      isPaid: true,
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Der Datensatz wurde inzwischen von Sven Mitarbeiter");
    expect(await getMembership(membership.id)).toEqual(before);
    expect((await feesOf(membership.id))[0]).toEqual(feeBefore);
  });

  it("nothing is half-written when a statement of the batch fails (the fee is refused: no membership either)", async () => {
    const before = (await membershipsOf(otherCourse.id)).length;
    const feesBefore = await db.$count(schema.fees);
    const input = {
      courseId: otherCourse.id,
      personId: member.id,
      dogId: member.dogId,
      statusId: STATUS_IDS.CONFIRMED,
      price: 100,
      amount: 100,
      isPaid: false,
      rabiesValidUntil: null,
      hasGdpr: false,
      hasInsurance: false,
      comments: null,
      personComments: null,
      dogComments: null,
    };
    // An impossible fee date: the fee's CHECK fails after the membership's INSERT ran in the batch.
    await expect(saveMembership(db, null, input, DEMO_USERS.staff, { today: "2026-02-30" })).rejects.toThrow();
    expect(await membershipsOf(otherCourse.id)).toHaveLength(before);
    expect(await db.$count(schema.fees)).toBe(feesBefore);
  });

  it("an invoiced fee is not silently changed: its open amount stays with the invoice and the toast says so", async () => {
    await add({ personId: guest.id, dogId: guest.dogIds[0] });
    const membership = await addedMembership(guest.id, guest.dogIds[0]);
    const [fee] = await feesOf(membership.id);
    const [invoice] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId: guest.id, date: "2026-11-20", amount: fee.amount, openAmount: 0 })
      .returning({ id: schema.invoiceHeaders.id });
    await db.insert(schema.invoiceRows).values({ invoiceId: invoice.id, feeId: fee.id, lineNumber: 1, amount: fee.amount, text: fee.text });
    await issueTestInvoice(invoice.id, 9001);
    await db.update(schema.fees).set({ isInvoiced: true, openAmount: 0 }).where(eq(schema.fees.id, fee.id));
    const response = await postForm(`/courses/${course.id}/coursememberships`, await loginCookie("finance"), {
      intent: "courseMembership:save",
      id: membership.id,
      rowVersion: membership.rowVersion,
      courseId: course.id,
      personId: guest.id,
      dogId: guest.dogIds[0],
      statusId: STATUS_IDS.CONFIRMED,
      amount: "140,00",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({
      type: "warning",
      message:
        "Es wurde ein offener Posten geändert, für den bereits die Rechnung erzeugt wurde (Rechnung 9001). Der offene Betrag bleibt bei der Rechnung; bitte prüfe sie.",
    });
    const [after] = await feesOf(membership.id);
    expect(after).toMatchObject({ amount: 14_000, openAmount: 0, isInvoiced: true });
  });
});

describe("the dialog's rules", () => {
  it.each([
    [{ courseId: "" }, "Kurs ist erforderlich"],
    [{ dogId: "" }, "Hund ist erforderlich"],
    [{ statusId: "" }, "Status ist erforderlich"],
    [{ personId: "abc" }, "Teilnehmer ist erforderlich"],
    [{ amount: "12,345" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    [{ comments: "x".repeat(501) }, "Höchstens 500 Zeichen"],
    [{ dogId: 999_999 }, "Diesen Hund gibt es nicht (mehr)"],
    [{ personId: 999_999 }, "Diese Person gibt es nicht (mehr)"],
    [{ statusId: 999_999 }, "Diesen Status gibt es nicht (mehr)"],
  ])("refuses %j with a German message and changes nothing", async (change, message) => {
    const before = await db.$count(schema.courseMemberships);
    const feesBefore = await db.$count(schema.fees);
    const response = await postForm(`/courses/${otherCourse.id}/coursememberships`, await loginCookie("staff"), {
      intent: "courseMembership:save",
      courseId: otherCourse.id,
      personId: guest.id,
      dogId: guest.dogIds[1],
      statusId: STATUS_IDS.CONFIRMED,
      ...change,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await db.$count(schema.courseMemberships)).toBe(before);
    expect(await db.$count(schema.fees)).toBe(feesBefore);
  });

  it("refuses adding to a finished course with the spec's warning", async () => {
    const response = await postForm(`/courses/${finishedCourse.id}/coursememberships`, await loginCookie("staff"), {
      intent: "courseMembership:save",
      courseId: finishedCourse.id,
      personId: member.id,
      dogId: member.dogId,
      statusId: STATUS_IDS.CONFIRMED,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Du kannst keine Teilnehmer zu einem abgeschlossenen Kurs hinzufügen");
    expect(await membershipsOf(finishedCourse.id)).toHaveLength(0);
  });

  it("says 'membership status CONFIRMED not found' when no status (or more than one) has that code", async () => {
    const cookie = await loginCookie("staff");
    await db.update(schema.membershipStatuses).set({ code: "CONFIRMED_OLD" }).where(eq(schema.membershipStatuses.code, "CONFIRMED"));
    try {
      const html = await page(`/courses/${otherCourse.id}/coursememberships?dialog=courseMembership-add&dialogParent=COURSE:${otherCourse.id}`, cookie);
      expect(html).toContain("membership status CONFIRMED not found");
    } finally {
      await db.update(schema.membershipStatuses).set({ code: "CONFIRMED" }).where(eq(schema.membershipStatuses.code, "CONFIRMED_OLD"));
    }
  });

  it("refuses the same dog with the same person twice in a course", async () => {
    const response = await add({ personId: member.id, dogId: member.dogId });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Dieser Hund ist mit dieser Person bereits in diesem Kurs angemeldet.");
  });

  it("offers only courses that are not finished, and preselects CONFIRMED", async () => {
    const html = await page(`/people/${member.id}/coursememberships?dialog=courseMembership-add&dialogParent=PERSON:${member.id}`, await loginCookie("staff"));
    expect(html).toContain("Teilnehmer hinzufügen");
    expect(html).toContain("Testkurs Junghunde");
    expect(html).not.toContain(">Testkurs Vorjahr<");
    expect(html).toMatch(new RegExp(`<option value="${STATUS_IDS.CONFIRMED}" selected="">Angemeldet</option>`));
  });

  it("a draft (Übernehmen, or a change with JavaScript) chooses the person's only dog and prices the course for them", async () => {
    const cookie = await loginCookie("staff");
    const response = await postForm(`/courses/${otherCourse.id}/coursememberships?dialog=courseMembership-add&dialogParent=COURSE:${otherCourse.id}`, cookie, {
      intent: "courseMembership:save",
      choose: "1",
      courseId: otherCourse.id,
      personId: member.id,
      statusId: STATUS_IDS.CONFIRMED,
      comments: "kommt mit Freundin",
    });
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    const params = new URL(location, "http://localhost").searchParams;
    expect(params.get("dialogDraft.dogId")).toBe(String(member.dogId));
    expect(params.get("dialogDraft.amount")).toBe("120,00");
    expect(params.get("dialogDraft.comments")).toBe("kommt mit Freundin");
    const html = await page(location, cookie);
    expect(html).toMatch(new RegExp(`<option value="${member.dogId}" selected="">Bello`));
    expect(html).toContain('value="120,00"');
    expect(html).toContain("120,00\u00a0€");
  });

  it("warns in red before saving when the rabies vaccination ends before the course or insurance is missing", async () => {
    const cookie = await loginCookie("staff");
    const response = await postForm(`/courses/${course.id}/coursememberships?dialog=courseMembership-add&dialogParent=COURSE:${course.id}`, cookie, {
      intent: "courseMembership:save",
      choose: "1",
      courseId: course.id,
      personId: guest.id,
      dogId: guest.dogIds[1],
    });
    const html = await page(response.headers.get("Location")!, cookie);
    expect(html).toContain("Keine Tollwutimpfung eingetragen");
    expect(html).toContain("Keine Haftpflichtversicherung eingetragen");
  });
});

describe("the participants grid in three places", () => {
  it("under a course: title with count, the sum of Betrag, no course column", async () => {
    const html = await page(`/courses/${course.id}/coursememberships`, await loginCookie("staff"));
    const rows = await membershipsOf(course.id);
    expect(html).toContain(`Teilnehmer für &#x27;Testkurs Welpen&#x27; <span class="font-normal text-slate-500">(${rows.length})</span>`);
    expect(html).not.toContain(">Kurs</a></th>");
    const sum = rows.reduce((total, row) => total + row.amount, 0);
    expect(html).toContain(new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(sum / 100));
  });

  it("under a person: 'Kurse für {person}', the course links to the courses page in a new tab", async () => {
    const html = await page(`/people/${member.id}/coursememberships`, await loginCookie("staff"));
    expect(html).toContain("Kurse für Mia Mitglied");
    expect(html).toMatch(new RegExp(`href="/courses\\?selectedCourseId=${course.id}"[^>]*target="_blank"[^>]*>Testkurs Welpen</a>`));
    expect(html).not.toContain(">Teilnehmer</a></th>");
  });

  it("under a dog: 'Kurse für {dog}' without the dog's columns; the proof column marks a missing vaccination", async () => {
    const html = await page(`/dogs/${guest.dogIds[1]}/coursememberships`, await loginCookie("staff"));
    expect(html).toContain("Kurse für Rex");
    // The dogs grid above has a Rasse column; the pane below does not.
    expect(html.split("Kurse für Rex")[1]).not.toContain(">Rasse</a></th>");
    expect(html).toContain("Keine Tollwutimpfung eingetragen; Keine Haftpflichtversicherung eingetragen");
  });

  it("exports Teilnehmerliste.xlsx of the course's participants", async () => {
    const response = await fetchApp(`/coursememberships/export?parent=COURSE:${course.id}`, { cookie: await loginCookie("staff") });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="Teilnehmerliste.xlsx"');
    const rows = await readXlsx(response);
    expect(rows[0]).toContain("Teilnehmer");
    expect(rows[0]).toContain("Betrag");
    expect(rows[0]).not.toContain("Kurs");
    expect(
      rows
        .slice(1, -1)
        .map((row) => row[0])
        .sort(),
    ).toEqual(["Gerd Gast", "Gerd Gast", "Mia Mitglied"]);
    // The last row carries the footer's sum of Betrag.
    expect(rows.at(-1)![0]).toBe("Summe");
  });

  it.each(["PARENT:1", "COURSE:abc", "INVOICEHEADER:1", ""])("refuses an export for parent %j with a German 400", async (parent) => {
    const response = await fetchApp(`/coursememberships/export?parent=${parent}`, { cookie: await loginCookie("staff") });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/Export|Datensatz/);
  });
});

describe("Kursteilnehmer: the participants grid on its own (/coursememberships)", () => {
  const countWhere = async (where: string) =>
    (
      (await env.DB.prepare(`SELECT count(*) AS n FROM course_memberships m JOIN courses c ON c.id = m.course_id WHERE ${where}`).first()) as {
        n: number;
      }
    ).n;
  const year = Number(todayInBerlin().slice(0, 4));

  it("lists the participants of the courses of the current year by default, with the courses' toggles", async () => {
    const html = await page("/coursememberships", await loginCookie("staff"));
    const grid = gridOf(html, "Kursteilnehmer");
    expect(grid.count).toBe(await countWhere(`c.start_year = ${year}`));
    expect(grid.count).toBeGreaterThan(0);
    expect(grid.columns.map((column) => column.label)).toEqual(expect.arrayContaining(["Teilnehmer", "Kurs", "Hund", "Betrag", "Bezahlt"]));
    const status = grid.toggles("Kurse nach Status filtern");
    expect([...status.keys()]).toEqual(["Alle", "Nur aktuelle", "Nur abgeschlossene"]);
    expect(status.get("Alle")!.current).toBe(true);
    const years = grid.toggles("Kurse nach Jahr filtern");
    expect(years.get(String(year))!.current).toBe(true);
    expect(years.has("Alle")).toBe(true);
    // The whole list's sum of Betrag in the footer; Excel-Export takes the toggles along.
    expect(html).toMatch(/href="\/coursememberships\/export[^"]*"[^>]*download/);
  });

  it.each([
    ["status=closed&year=all", "c.status_code = 'FINISHED'"],
    ["status=current&year=all", "c.status_code <> 'FINISHED'"],
    [`year=${year - 1}`, `c.start_year = ${year - 1}`],
    ["year=all", "1 = 1"],
  ])("?%s lists exactly the participants of those courses", async (query, where) => {
    const grid = gridOf(await page(`/coursememberships?${query}`, await loginCookie("staff")), "Kursteilnehmer");
    expect(grid.count).toBe(await countWhere(where));
  });

  it("is in the menu group Listen for everyone logged in", async () => {
    for (const who of ["staff", "admin"] as const) {
      const html = await page("/", await loginCookie(who));
      expect(html).toMatch(/<a[^>]*href="\/coursememberships"[^>]*>Kursteilnehmer<\/a>/);
    }
    expect((await fetchApp("/coursememberships")).status).toBe(302);
  });

  it("the course filters belong to its own screen: not under a course, a person or a dog", async () => {
    const cookie = await loginCookie("staff");
    const underCourse = await page(`/courses/${course.id}/coursememberships?year=all`, cookie);
    // Only the courses grid above has them.
    expect(underCourse.split('aria-label="Kurse nach Status filtern"')).toHaveLength(2);
    expect(await page(`/people/${member.id}/coursememberships`, cookie)).not.toContain("Kurse nach Status filtern");
    // A year in the URL of a person's tab does not filter the person's courses.
    const rows = gridOf(await page(`/people/${guest.id}/coursememberships?year=1999&status=closed`, cookie), `Kurse für Gerd Gast`);
    expect(rows.count).toBe((await db.select().from(schema.courseMemberships).where(eq(schema.courseMemberships.personId, guest.id))).length);
  });

  it("Teilnehmerliste.xlsx of all participants of the chosen courses (the season's list), with the course column and the sum", async () => {
    const response = await fetchApp("/coursememberships/export?status=closed&year=all", { cookie: await loginCookie("staff") });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="Teilnehmerliste.xlsx"');
    const rows = await readXlsx(response);
    expect(rows[0]).toEqual(expect.arrayContaining(["Teilnehmer", "Kurs", "Betrag"]));
    expect(rows.length - 2).toBe(await countWhere("c.status_code = 'FINISHED'"));
    const kurs = rows[0].indexOf("Kurs");
    const finished = (await env.DB.prepare("SELECT name FROM courses WHERE status_code = 'FINISHED'").all<{ name: string }>()).results.map((c) => c.name);
    for (const row of rows.slice(1, -1)) expect(finished).toContain(row[kurs]);
    expect(rows.at(-1)![0]).toBe("Summe");
    // Without toggles: the current year, as the screen opens.
    const defaults = await readXlsx(await fetchApp("/coursememberships/export", { cookie: await loginCookie("staff") }));
    expect(defaults.length - 2).toBe(await countWhere(`c.start_year = ${year}`));
  });
});

describe("transfer", () => {
  it("moves the participant, the fee text follows, and the toast names person and course", async () => {
    const membership = await addedMembership(member.id, member.dogId);
    const response = await postForm(`/courses/${course.id}/coursememberships`, await loginCookie("staff"), {
      intent: "courseMembership:transfer",
      id: membership.id,
      targetCourseId: otherCourse.id,
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Mia Mitglied wurde in Kurs 'Testkurs Junghunde' versetzt" });
    expect((await getMembership(membership.id)).courseId).toBe(otherCourse.id);
    expect((await feesOf(membership.id))[0].text).toBe("Kursgebühr Testkurs Junghunde (Bello)");
  });

  it.each([
    [{ id: 999_999, targetCourseId: 1 }, "Could not get courseMembership"],
    [{ targetCourseId: 999_999 }, "Could not find target course"],
    [{ targetCourseId: "" }, "Kurs ist erforderlich"],
  ])("refuses %j with '%s'", async (change, message) => {
    const membership = await addedMembership(member.id, member.dogId, otherCourse.id);
    const response = await postForm(`/courses/${otherCourse.id}/coursememberships`, await loginCookie("staff"), {
      intent: "courseMembership:transfer",
      id: membership.id,
      ...change,
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).toContain(message);
    expect((await getMembership(membership.id)).courseId).toBe(otherCourse.id);
  });

  it("the dialog 'Teilnehmer transferieren' offers the other open courses under 'versetzen in Kurs'", async () => {
    const membership = await addedMembership(member.id, member.dogId, otherCourse.id);
    const html = await page(
      `/courses/${otherCourse.id}/coursememberships?dialog=courseMembership-transfer&dialogId=${membership.id}`,
      await loginCookie("staff"),
    );
    expect(html).toContain("Teilnehmer transferieren");
    expect(html).toContain("versetzen in Kurs");
    expect(html).toContain(">Testkurs Welpen</option>");
    expect(html).not.toContain(">Testkurs Junghunde</option>");
  });
});

describe("deleting a participant", () => {
  it("moves the membership and its open fee into the bin; the undo brings both back, linked as before", async () => {
    const membership = await addedMembership(guest.id, guest.dogIds[1]);
    const [fee] = await feesOf(membership.id);
    const cookie = await loginCookie("staff");
    const confirm = await page(`/courses/${course.id}/coursememberships?dialog=courseMembership-delete&dialogId=${membership.id}`, cookie);
    expect(confirm).toContain("Bist du sicher?");
    expect(confirm).toContain("Mit ihm werden auch gelöscht: 1 Kursgebühr (offener Posten).");
    const response = await postForm(`/courses/${course.id}/coursememberships`, cookie, { intent: "courseMembership:delete", id: membership.id });
    const toast = toastOf(response);
    expect(toast).toMatchObject({ type: "success", message: "Teilnehmer wurde gelöscht", undo: expect.any(Number) });
    expect(await getMembership(membership.id)).toBeUndefined();
    expect(await db.$count(schema.fees, eq(schema.fees.id, fee.id))).toBe(0);

    const undone = await postForm(`/courses/${course.id}/coursememberships`, cookie, { intent: "bin:undo", transactionId: toast!.undo! });
    expect(undone.status).toBe(302);
    expect(await getMembership(membership.id)).toEqual(membership);
    expect((await feesOf(membership.id))[0]).toEqual(fee);
  });

  it("is refused while the fee is invoiced or paid: bookkeeping is never deleted along", async () => {
    const membership = await addedMembership(guest.id, guest.dogIds[0]);
    const response = await postForm(`/courses/${course.id}/coursememberships`, await loginCookie("staff"), {
      intent: "courseMembership:delete",
      id: membership.id,
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Der Teilnehmer kann nicht gelöscht werden");
    expect(await getMembership(membership.id)).toBeDefined();
  });
});

describe("hand-made requests to the new actions", () => {
  const counts = async () => [
    await db.$count(schema.courses),
    await db.$count(schema.courseMemberships),
    await db.$count(schema.fees),
    await db.$count(schema.courseMasters),
  ];
  const garbage = ["", " ", "abc", "-1", "0", "1e9", "99999999999999999999", "1.5", "<script>", "x".repeat(5000), "%00", "'; DROP TABLE fees; --"];

  it.each([
    ["/courses", "course:save"],
    ["/courses", "course:delete"],
    ["/courses", "courseMembership:save"],
    ["/courses", "courseMembership:delete"],
    ["/courses", "courseMembership:transfer"],
    ["/courseMasters", "courseMaster:save"],
    ["/courseMasters", "courseMaster:delete"],
  ])("%s %s: every field garbage gets a German 4xx and changes nothing", async (path, intent) => {
    const cookie = await loginCookie("admin");
    const before = await counts();
    for (const value of garbage) {
      const fields = Object.fromEntries(
        [
          "id",
          "rowVersion",
          "name",
          "startYear",
          "courseId",
          "personId",
          "dogId",
          "statusId",
          "amount",
          "targetCourseId",
          "costFull",
          "maxDogs",
          "nrOfSessions",
          "statusCode",
          "trainerId",
        ].map((name) => [name, value]),
      );
      const response = await postForm(path, cookie, { intent, ...fields });
      expect(response.status, `${intent} ${value.slice(0, 20)}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${intent} ${value.slice(0, 20)}`).toBeLessThan(500);
    }
    expect(await counts()).toEqual(before);
  });

  it("a draft with garbage values answers with the dialog again, never a 500", async () => {
    const cookie = await loginCookie("staff");
    for (const value of garbage) {
      const response = await postForm(`/courses/${course.id}/coursememberships?dialog=courseMembership-add`, cookie, {
        intent: "courseMembership:save",
        choose: "1",
        id: value,
        courseId: value,
        personId: value,
        dogId: value,
        amount: value,
        pricedFor: value,
      });
      expect(response.status).toBe(302);
      const html = await fetchApp(response.headers.get("Location")!, { cookie });
      expect(html.status).toBe(200);
    }
  });

  it("dialog addresses with garbage open nothing or the empty form, never a 500", async () => {
    const cookie = await loginCookie("staff");
    for (const query of [
      "dialog=courseMembership-edit&dialogId=abc",
      "dialog=courseMembership-transfer&dialogId=999999",
      "dialog=courseMembership-add&dialogParent=COURSE:abc",
      "dialog=courseMembership-add&dialogParent=DOG:999999",
      "dialog=courseMembership-add&dialogDraft.personId=999999&dialogDraft.dogId=abc&dialogDraft.courseId=999999",
      "dialog=course-add&dialogParent=COURSEMASTER:999999",
      "dialog=course-delete&dialogId=0",
    ]) {
      const response = await fetchApp(`/courses/${course.id}/coursememberships?${query}`, { cookie });
      expect(response.status, query).toBe(200);
    }
  });
});
