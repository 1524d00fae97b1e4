/**
 * Issue 29/14: booking into a full course. The first Speichern answers with the capacity warning
 * (with the count) and two choices; 'Trotzdem buchen' books as chosen (with the course fee),
 * 'Auf die Warteliste' books with the status Warteliste (no place taken, no fee). Waiting list
 * rows are greyed in the participants grid.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { MEMBER_TYPE_IDS, STATUS_IDS } from "~/db/seed/generate";
import * as schema from "~/db/schema";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
let course: { id: number };
/** Four people with one dog each: two fill the course, two try to join. */
let people: { id: number; dogId: number }[] = [];

const WARNING = "Der Kurs ist voll: 2 Hunde bei 2 Plätzen. Mit diesem Hund wären es 3.";
const page = async (path: string, cookie: string) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");
const membershipsOf = (courseId: number) => db.select().from(schema.courseMemberships).where(eq(schema.courseMemberships.courseId, courseId));
const feesOf = (membershipId: number) => db.select().from(schema.fees).where(eq(schema.fees.courseMembershipId, membershipId));
const dialogPath = () => `/courses/${course.id}/coursememberships?dialog=courseMembership-add&dialogParent=COURSE:${course.id}`;

beforeAll(async () => {
  await loadDemoData();
  [course] = await db
    .insert(schema.courses)
    .values({ name: "Testkurs Zwei Plätze", startYear: 2026, statusCode: "RUNNING", costFull: 10_000, maxDogs: 2, nrOfSessions: 4 })
    .returning({ id: schema.courses.id });
  for (const [index, name] of ["Anna", "Bert", "Carla", "Dora"].entries()) {
    const [person] = await db
      .insert(schema.people)
      .values({ firstName: name, lastName: "Kapazität", memberTypeId: MEMBER_TYPE_IDS.NONE, hasInsurance: true })
      .returning({ id: schema.people.id });
    const [dog] = await db
      .insert(schema.dogs)
      .values({ ownerId: person.id, commonName: `Hund${index}`, gender: 1, rabiesValidUntil: "2035-01-01" })
      .returning({ id: schema.dogs.id });
    people.push({ id: person.id, dogId: dog.id });
  }
  people = [...people];
  // The first two fill both places (a cancelled one beside them counts for nothing).
  for (const [index, statusId] of [STATUS_IDS.CONFIRMED, STATUS_IDS.CONFIRMED].entries()) {
    await db
      .insert(schema.courseMemberships)
      .values({ courseId: course.id, personId: people[index].id, dogId: people[index].dogId, statusId, price: 10_000, amount: 10_000 });
  }
});

const save = async (who: { id: number; dogId: number }, extra: Record<string, string> = {}) =>
  postForm(dialogPath(), await loginCookie("staff"), {
    intent: "courseMembership:save",
    courseId: course.id,
    personId: who.id,
    dogId: who.dogId,
    statusId: STATUS_IDS.CONFIRMED,
    amount: "100,00",
    ...extra,
  });

describe("booking into a full course (issue 29/14)", () => {
  it("the dialog warns as it opens under a full course, not under one with room", async () => {
    const html = await page(dialogPath(), await loginCookie("staff"));
    expect(html).toContain("Der Kurs ist voll");
    // Under the full course the dialog warns as soon as it opens; a course with room does not.
    const [roomy] = await db
      .insert(schema.courses)
      .values({ name: "Testkurs Viel Platz", startYear: 2026, statusCode: "RUNNING", maxDogs: 10 })
      .returning({ id: schema.courses.id });
    const roomyHtml = await page(
      `/courses/${roomy.id}/coursememberships?dialog=courseMembership-add&dialogParent=COURSE:${roomy.id}`,
      await loginCookie("staff"),
    );
    expect(roomyHtml).not.toContain("Der Kurs ist voll");
  });

  it("the first Speichern answers with the warning, the count and both choices, and saves nothing", async () => {
    const cookie = await loginCookie("staff");
    const response = await save(people[2], { comments: "möchte gern dabei sein" });
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(new URL(location, "http://localhost").searchParams.get("dialogDraft.comments")).toBe("möchte gern dabei sein");
    const html = await page(location, cookie);
    expect(html).toContain(WARNING);
    expect(html).toMatch(/<button[^>]*name="capacity"[^>]*value="book"[^>]*>Trotzdem buchen<\/button>/);
    expect(html).toMatch(/<button[^>]*name="capacity"[^>]*value="waitlist"[^>]*>Auf die Warteliste<\/button>/);
    expect(html).toContain("möchte gern dabei sein");
    expect(await membershipsOf(course.id)).toHaveLength(2);
  });

  it("'Trotzdem buchen' books the third dog with its course fee", async () => {
    const response = await save(people[2], { capacity: "book" });
    expect(toastOf(response)?.message).toBe("Teilnehmer wurde hinzugefügt");
    const booked = (await membershipsOf(course.id)).find((m) => m.personId === people[2].id)!;
    expect(booked.statusId).toBe(STATUS_IDS.CONFIRMED);
    expect(await feesOf(booked.id)).toHaveLength(1);
  });

  it("'Auf die Warteliste' books with the status Warteliste: no place taken, no fee", async () => {
    const response = await save(people[3], { capacity: "waitlist" });
    expect(toastOf(response)?.message).toBe("Teilnehmer wurde auf die Warteliste gesetzt");
    const waiting = (await membershipsOf(course.id)).find((m) => m.personId === people[3].id)!;
    expect(waiting.statusId).toBe(STATUS_IDS.WAITLIST);
    expect(await feesOf(waiting.id)).toHaveLength(0);
    // Still three dogs take part: the courses grid counts 3 of 2, not 4.
    const html = await page(`/courses?year=all&status=all&q=Zwei`, await loginCookie("staff"));
    expect(html).toContain("3 / 2");
  });

  it("the participants grid shows the waiting list entry greyed", async () => {
    const html = await page(`/courses/${course.id}/coursememberships`, await loginCookie("staff"));
    const waiting = (await membershipsOf(course.id)).find((m) => m.personId === people[3].id)!;
    expect(html).toMatch(new RegExp(`data-row-id="${waiting.id}" data-muted="true"`));
    const booked = (await membershipsOf(course.id)).find((m) => m.personId === people[2].id)!;
    expect(html).not.toMatch(new RegExp(`data-row-id="${booked.id}" data-muted`));
  });

  it("taking someone off the waiting list into the full course warns again; editing a booked one does not", async () => {
    const cookie = await loginCookie("staff");
    const all = await membershipsOf(course.id);
    const waiting = all.find((m) => m.personId === people[3].id)!;
    const edit = (m: (typeof all)[number], statusId: number) =>
      postForm(`/courses/${course.id}/coursememberships?dialog=courseMembership-edit&dialogId=${m.id}`, cookie, {
        intent: "courseMembership:save",
        id: m.id,
        rowVersion: m.rowVersion,
        courseId: course.id,
        personId: m.personId,
        dogId: m.dogId,
        statusId,
        amount: "100,00",
      });
    const off = await edit(waiting, STATUS_IDS.CONFIRMED);
    expect(off.status).toBe(302);
    expect(await page(off.headers.get("Location")!, cookie)).toContain("Der Kurs ist voll: 3 Hunde bei 2 Plätzen. Mit diesem Hund wären es 4.");
    expect((await membershipsOf(course.id)).find((m) => m.id === waiting.id)!.statusId).toBe(STATUS_IDS.WAITLIST);
    const booked = all.find((m) => m.personId === people[0].id)!;
    const kept = await edit(booked, STATUS_IDS.CONFIRMED);
    expect(toastOf(kept)?.message).toBe("Teilnehmer wurde gespeichert");
  });
});
