/**
 * Kursblatt: the course selector over the current (default) or all courses, the participants of
 * the chosen course in the participants grid, the spec's warnings, and the dialogs on the page.
 */
import { env } from "cloudflare:test";
import { eq, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { STATUS_IDS } from "~/db/seed/generate";
import * as schema from "~/db/schema";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";
import { clearingAway } from "../support/invoices";

const db = createDb(env.DB);
let data: Awaited<ReturnType<typeof loadDemoData>>;
const page = async (path: string) => (await (await fetchApp(path, { cookie: await loginCookie("staff") })).text()).replaceAll("<!-- -->", "");
const options = (html: string) =>
  [...(/<select id="course-sheet-course"[^>]*>(.*?)<\/select>/s.exec(html)?.[1] ?? "").matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((match) => match[1]);

beforeAll(async () => {
  data = await loadDemoData();
});

describe("the Kursblatt", () => {
  it("offers the current courses by default and shows the first one's participants", async () => {
    const html = await page("/courseSheet");
    expect(html).toMatch(/<h1[^>]*>Kursblatt/);
    const current = data.courses.filter((course) => course.statusCode !== "FINISHED");
    expect(options(html).sort()).toEqual(current.map((course) => course.name).sort());
    expect(html).toContain('aria-current="true"');
    expect(html).toContain("Teilnehmer für &#x27;");
  });

  it("with 'Alle Kurse' offers the finished ones too; ?course= chooses one", async () => {
    const finished = data.courses.find((course) => course.statusCode === "FINISHED")!;
    const html = await page(`/courseSheet?show=all&course=${finished.id}`);
    expect(options(html)).toHaveLength(data.courses.length);
    const participants = data.courseMemberships.filter((m) => m.courseId === finished.id).length;
    expect(html).toContain(
      `Teilnehmer für &#x27;${finished.name.replaceAll("'", "&#x27;")}&#x27; <span class="font-normal text-slate-500">(${participants})</span>`,
    );
  });

  it("a participant added on the sheet is shown selected on it", async () => {
    const course = data.courses.find((c) => c.statusCode !== "FINISHED")!;
    const booked = new Set(data.courseMemberships.filter((m) => m.courseId === course.id).map((m) => m.dogId));
    const dog = data.dogs.find((d) => !booked.has(d.id!) && !d.archived)!;
    const response = await postForm(`/courseSheet?course=${course.id}`, await loginCookie("staff"), {
      intent: "courseMembership:save",
      courseId: course.id!,
      personId: dog.ownerId,
      dogId: dog.id!,
      statusId: STATUS_IDS.WAITLIST,
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("Teilnehmer wurde hinzugefügt");
    const [membership] = await db.select().from(schema.courseMemberships).where(eq(schema.courseMemberships.dogId, dog.id!));
    expect(response.headers.get("Location")).toBe(`/courseSheet?course=${course.id}&cm=${membership.id}`);
  });

  it("says 'Keine laufenden Kurse gefunden' when every course is finished, and 'Konnte keine Kurse laden' when there are none", async () => {
    await db.update(schema.courses).set({ statusCode: "FINISHED" }).where(ne(schema.courses.statusCode, "FINISHED"));
    expect(await page("/courseSheet")).toContain("Keine laufenden Kurse gefunden");
    // The demo's Karten & Abos point at the ticks, the fees and the Spielgruppe.
    await clearingAway("DELETE FROM card_uses", "DELETE FROM card_fees", "DELETE FROM card_product_scopes");
    await db.delete(schema.attendances);
    await db.delete(schema.courseDates);
    await db.update(schema.courseMemberships).set({ feeId: null });
    // The demo's donations name their fees.
    await clearingAway("DELETE FROM donations", "DELETE FROM invoice_rows", "DELETE FROM payment_allocations", "DELETE FROM payments");
    await db.delete(schema.fees);
    await db.delete(schema.courseMemberships);
    await db.delete(schema.courses);
    expect(await page("/courseSheet?show=all")).toContain("Konnte keine Kurse laden");
  });
});
