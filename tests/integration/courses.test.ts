/**
 * Kurse: the list (status and year toggles, name search, the red warnings, the deep link
 * ?selectedCourseId), the course dialog (add, prefilled for a course type, edit, German
 * messages, stale saves) and delete with everything that goes with a course.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { todayInBerlin } from "~/lib/format";
import { COURSE_DEFAULT_SORT, coursePageQuery } from "~/models/courses.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
let data: Awaited<ReturnType<typeof loadDemoData>>;
const year = Number(todayInBerlin().slice(0, 4));

beforeAll(async () => {
  data = await loadDemoData(todayInBerlin());
});

const page = async (path: string, cookie: string) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");
const titleCount = (html: string) => Number(/Kurse <span class="font-normal text-slate-500">\((\d+)\)<\/span>/.exec(html)?.[1]);
const trainer = () => data.people.find((person) => person.isTrainer)!;

const validCourse = {
  intent: "course:save",
  name: "Sommerkurs Testgruppe",
  startYear: year,
  statusCode: "PLANNED",
  durationModel: "FIXED",
  pricingModel: "PER_COURSE",
  startDateTime: `01.07.${year} 18:30`,
  maxDogs: 6,
  nrOfSessions: 8,
  costFull: "150,00",
  costReduced1: "120,00",
  costReduced2: "1.000,50",
};

describe("the courses list", () => {
  it("opens with the current year, sorted by start year, and counts the rows", async () => {
    const html = await page("/courses", await loginCookie("staff"));
    expect(titleCount(html)).toBe(data.courses.filter((course) => course.startYear === year).length);
    expect(html).toMatch(new RegExp(`aria-current="true"[^>]*>${year}<`));
  });

  it("filters by status and year, and searches names without case", async () => {
    const cookie = await loginCookie("staff");
    const all = await page("/courses?year=all", cookie);
    expect(titleCount(all)).toBe(data.courses.length);
    const closed = await page("/courses?year=all&status=closed", cookie);
    expect(titleCount(closed)).toBe(data.courses.filter((course) => course.statusCode === "FINISHED").length);
    const current = await page("/courses?year=all&status=current", cookie);
    expect(titleCount(current)).toBe(data.courses.filter((course) => course.statusCode !== "FINISHED").length);
    const searched = await page("/courses?year=all&q=WELPEN", cookie);
    expect(titleCount(searched)).toBe(data.courses.filter((course) => course.name.toLowerCase().includes("welpen")).length);
    // The years offered are those the data has.
    for (const courseYear of new Set(data.courses.map((course) => course.startYear))) expect(all).toContain(`>${courseYear}</a>`);
  });

  it("reads a page in the default order along courses_order_idx, without sorting every course", async () => {
    for (const year of ["all", 2026] as const) {
      const page = coursePageQuery(db, { status: "all", year, term: "", sort: COURSE_DEFAULT_SORT, page: 1 }).toSQL();
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${page.sql}`)
        .bind(...page.params)
        .all<{ detail: string }>();
      const details = plan.results.map((row) => row.detail).join("\n");
      expect(details).toContain("courses_order_idx");
      expect(details).not.toContain("TEMP B-TREE");
    }
  });

  it("shows red when more dogs take part than places, or sessions differ from the plan", async () => {
    const html = await page("/courses?year=all", await loginCookie("staff"));
    expect(html).toContain('class="text-right font-semibold text-red-700"');
  });

  it("?selectedCourseId opens that course with its participants, the toggles set so it is listed", async () => {
    const old = data.courses.find((course) => course.startYear !== year && course.statusCode === "FINISHED")!;
    const response = await fetchApp(`/courses?status=current&selectedCourseId=${old.id}`, { cookie: await loginCookie("staff") });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/courses/${old.id}/coursememberships?year=${old.startYear}`);
    const html = await page(response.headers.get("Location")!, await loginCookie("staff"));
    expect(html).toContain(`Teilnehmer für &#x27;${old.name}&#x27;`);
    // An unknown course is dropped.
    const unknown = await fetchApp("/courses?selectedCourseId=999999", { cookie: await loginCookie("staff") });
    expect(unknown.headers.get("Location")).toBe("/courses");
  });

  it("the tab Termine lists the course's dates", async () => {
    const course = data.courses[0];
    const html = await page(`/courses/${course.id}/coursedates`, await loginCookie("staff"));
    const count = data.courseDates.filter((date) => date.courseId === course.id).length;
    expect(html).toContain(`Termine für &#x27;${course.name}&#x27; <span class="font-normal text-slate-500">(${count})</span>`);
  });
});

describe("the course dialog", () => {
  it("adds a course with prices in cents and the start in Berlin time, selected in the list", async () => {
    const response = await postForm("/courses", await loginCookie("staff"), { ...validCourse, trainerId: trainer().id });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Kurs wurde angelegt" });
    const [created] = await db.select().from(schema.courses).where(eq(schema.courses.name, "Sommerkurs Testgruppe"));
    expect(created).toMatchObject({
      startYear: year,
      costFull: 15_000,
      costReduced1: 12_000,
      costReduced2: 100_050,
      maxDogs: 6,
      nrOfSessions: 8,
      trainerId: trainer().id,
      startDateTime: `${year}-07-01T16:30:00.000Z`,
      createdBy: "Sven Mitarbeiter",
    });
    expect(response.headers.get("Location")).toMatch(new RegExp(`^/courses/${created.id}/coursememberships`));
  });

  it("under a course type: 'Neuen Kurs für Kurs-Typ …' prefilled from the type", async () => {
    const master = data.courseMasters[0];
    const html = await page(`/courses?dialog=course-add&dialogParent=COURSEMASTER:${master.id}`, await loginCookie("staff"));
    expect(html).toContain(`Neuen Kurs für Kurs-Typ &#x27;${master.name}&#x27; hinzufügen`);
    expect(html).toContain(`value="${master.name} ${year}"`);
    expect(html).toContain(`value="${master.nrOfSessions}"`);
  });

  it("without a parent: 'Neuen Kurs hinzufügen'; edit: 'Kurs bearbeiten' with the values", async () => {
    const cookie = await loginCookie("staff");
    expect(await page("/courses?dialog=course-add", cookie)).toContain("Neuen Kurs hinzufügen");
    const course = data.courses[0];
    const edit = await page(`/courses?dialog=course-edit&dialogId=${course.id}`, cookie);
    expect(edit).toContain("Kurs bearbeiten");
    expect(edit).toContain(`value="${course.name}"`);
  });

  it.each([
    [{ name: "" }, "Name ist erforderlich"],
    [{ name: "x".repeat(101) }, "Höchstens 100 Zeichen"],
    [{ startYear: "" }, "Jahr ist erforderlich"],
    [{ startYear: "1999" }, "Das Jahr muss zwischen 2000 und 2100 liegen"],
    [{ startYear: "zwanzig" }, "Jahr ist erforderlich"],
    [{ maxDogs: "-1" }, "Max. Hunde darf nicht negativ sein"],
    [{ nrOfSessions: "2,5" }, "Termine (geplant) muss eine Zahl sein"],
    [{ nrOfSessions: "1000" }, "Termine (geplant) darf höchstens 999 sein"],
    [{ costFull: "12,345" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    [{ costReduced1: "-5,00" }, "Der Betrag darf nicht negativ sein"],
    [{ startDateTime: "31.02.2026 10:00" }, "Dieses Datum gibt es nicht"],
    [{ startDateTime: "morgen" }, "Bitte Datum und Uhrzeit im Format TT.MM.JJJJ HH:MM eingeben"],
    [{ statusCode: "DONE" }, "Status ist erforderlich"],
    [{ trainerId: 999_999 }, "Bitte eine Person wählen, die Trainer ist"],
    [{ locationId: 999_999 }, "Ein ausgewählter Eintrag existiert nicht (mehr)"],
  ])("refuses %j with a German message and changes nothing", async (change, message) => {
    const before = await db.$count(schema.courses);
    const response = await postForm("/courses", await loginCookie("staff"), { ...validCourse, name: "Abgelehnt", ...change });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await db.$count(schema.courses)).toBe(before);
  });

  it("refuses a stale save (409) and keeps the newer values", async () => {
    const [course] = await db.select().from(schema.courses).where(eq(schema.courses.name, "Sommerkurs Testgruppe"));
    const cookie = await loginCookie("admin");
    const first = await postForm("/courses", cookie, { ...validCourse, id: course.id, rowVersion: course.rowVersion, comments: "zuerst" });
    expect(first.status).toBe(302);
    expect(toastOf(first)?.message).toBe("Kurs wurde gespeichert");
    const stale = await postForm("/courses", cookie, { ...validCourse, id: course.id, rowVersion: course.rowVersion, comments: "zu spät" });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Der Datensatz wurde inzwischen von Anna Admin");
    const [after] = await db.select().from(schema.courses).where(eq(schema.courses.id, course.id));
    expect(after.comments).toBe("zuerst");
  });
});

describe("deleting a course", () => {
  it("asks 'Kurs '{name}' löschen' / 'Bist du sicher?' and takes dates, participants and open fees into the bin; undo restores all", async () => {
    const cookie = await loginCookie("staff");
    // A course with two dates and a participant whose course fee is open and not billed.
    const [course] = await db.insert(schema.courses).values({ name: "Kurs zum Löschen", startYear: year }).returning();
    await db.insert(schema.courseDates).values([
      { courseId: course.id, startDateTime: `${year}-03-01T17:00:00.000Z` },
      { courseId: course.id, startDateTime: `${year}-03-08T17:00:00.000Z` },
    ]);
    const dog = data.dogs[0];
    const [membership] = await db
      .insert(schema.courseMemberships)
      .values({ courseId: course.id, personId: dog.ownerId, dogId: dog.id!, statusId: 4, price: 1000, amount: 1000 })
      .returning();
    const [fee] = await db
      .insert(schema.fees)
      .values({
        personId: dog.ownerId,
        date: `${year}-03-01`,
        text: "Kursgebühr",
        amount: 1000,
        openAmount: 1000,
        courseMembershipId: membership.id,
        kind: "COURSE",
      })
      .returning();
    await db.update(schema.courseMemberships).set({ feeId: fee.id }).where(eq(schema.courseMemberships.id, membership.id));
    const confirm = await page(`/courses?dialog=course-delete&dialogId=${course.id}`, cookie);
    expect(confirm).toContain(`Kurs &#x27;${course.name}&#x27; löschen`);
    expect(confirm).toContain("Bist du sicher?");
    expect(confirm).toContain("Mit ihm werden auch gelöscht: 1 Teilnehmer, 2 Termine und 1 offener Posten.");
    const counts = async () => [
      await db.$count(schema.courses, eq(schema.courses.id, course.id)),
      await db.$count(schema.courseMemberships, eq(schema.courseMemberships.courseId, course.id)),
      await db.$count(schema.courseDates, eq(schema.courseDates.courseId, course.id)),
    ];
    const before = await counts();
    const response = await postForm("/courses", cookie, { intent: "course:delete", id: course.id });
    const toast = toastOf(response);
    expect(toast).toMatchObject({ type: "success", message: "Kurs wurde gelöscht" });
    expect(await counts()).toEqual([0, 0, 0]);
    await postForm("/courses", cookie, { intent: "bin:undo", transactionId: toast!.undo! });
    expect(await counts()).toEqual(before);
  });

  it("is refused while a fee of the course is paid or billed", async () => {
    const paid = data.fees.find((fee) => fee.courseMembershipId && fee.openAmount === 0)!;
    const membership = data.courseMemberships.find((m) => m.id === paid.courseMembershipId)!;
    const response = await postForm("/courses", await loginCookie("staff"), { intent: "course:delete", id: membership.courseId });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Der Kurs kann nicht gelöscht werden");
    expect(await db.$count(schema.courses, eq(schema.courses.id, membership.courseId!))).toBe(1);
  });
});
