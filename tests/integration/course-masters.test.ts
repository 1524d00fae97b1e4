/**
 * Kurs-Typen (ADMIN): the list with the number of courses of each type, the tab Kurse of the
 * selected type, the dialog's rules (name required and unique, whole numbers, German money),
 * stale saves, delete into the Papierkorb and back, and the refused delete of a type in use.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { todayInBerlin } from "~/lib/format";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
let data: Awaited<ReturnType<typeof loadDemoData>>;

beforeAll(async () => {
  data = await loadDemoData();
});

const countOf = () => db.$count(schema.courseMasters);
const stored = async (id: number) => (await db.select().from(schema.courseMasters).where(eq(schema.courseMasters.id, id)))[0];
/** A page's HTML without React's text separators. */
const page = async (path: string, cookie: string) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");
/** A new course type (no course refers to it), straight into the database. */
async function freshMaster(name: string) {
  const [created] = await db.insert(schema.courseMasters).values({ name, nrOfSessions: 4, maxDogs: 6, costFull: 8000, createdBy: "Test" }).returning();
  return created;
}

describe("the Kurs-Typen list", () => {
  it("shows the title with the count, the columns, the prices and the number of courses", async () => {
    const html = await page("/courseMasters", await loginCookie("admin"));
    expect(html).toContain(
      `<h1 class="text-lg font-semibold text-wuff-800">Kurs-Typen <span class="font-normal text-slate-500">(${await countOf()})</span></h1>`,
    );
    for (const header of ["Name", "Termine (geplant)", "Max. Hunde", "Preis Nichtmitglieder", "Preis ermäßigt 1", "Preis ermäßigt 2", "Kommentar", "Kurse"]) {
      expect(html).toContain(`>${header}`);
    }
    // Sorted by name, ascending.
    expect(html).toMatch(/aria-sort="ascending"[^>]*><a[^>]*>Name<span aria-hidden="true"> ▲<\/span><\/a><\/th>/);
    const welpen = data.courseMasters.find((master) => master.name === "Welpengruppe")!;
    expect(html).toContain("Welpengruppe");
    expect(html).toContain("120,00\u00a0€");
    const courses = data.courses.filter((course) => course.courseMasterId === welpen.id).length;
    expect(courses).toBeGreaterThan(0);
    const row = /<tr[^>]*>(?:(?!<\/tr>).)*>Welpengruppe<(?:(?!<\/tr>).)*<\/tr>/s.exec(html)?.[0] ?? "";
    const cells = [...row.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((match) => match[1].replace(/<[^>]+>/g, ""));
    expect(cells.slice(1, 4)).toEqual(["8", "8", "120,00\u00a0€"]);
    expect(cells.at(-1)).toBe(String(courses));
  });

  it("opens the first type with its tab Kurse: the courses of that type ('Kurse für Kurstyp {name}'), this year's first", async () => {
    const cookie = await loginCookie("admin");
    const first = await page("/courseMasters", cookie);
    expect(first).toContain("Bereiche von Kurs-Typ");
    expect(first).toContain("Kurse für Kurstyp");
    const master = data.courseMasters[0];
    const tab = await page(`/courseMasters/${master.id}/courses`, cookie);
    expect(tab).toContain(`Bereiche von Kurs-Typ ${master.name}`);
    const thisYear = data.courses.filter((course) => course.courseMasterId === master.id && course.startYear === Number(todayInBerlin().slice(0, 4))).length;
    expect(tab).toContain(`Kurse für Kurstyp ${master.name} <span class="font-normal text-slate-500">(${thisYear})</span>`);
    const allYears = await page(`/courseMasters/${master.id}/courses?courseYear=all`, cookie);
    expect(allYears).toContain(
      `Kurse für Kurstyp ${master.name} <span class="font-normal text-slate-500">(${data.courses.filter((course) => course.courseMasterId === master.id).length})</span>`,
    );
  });

  it("sorts names as German users expect (Ü with U) and by every column", async () => {
    const cookie = await loginCookie("admin");
    await freshMaster("Übungsstunde");
    const names = (await page("/courseMasters", cookie)).replace(/^[\s\S]*?<tbody/, "");
    const at = (name: string) => names.indexOf(`>${name}<`);
    expect(at("Spielgruppe")).toBeGreaterThan(-1);
    expect(at("Spielgruppe")).toBeLessThan(at("Übungsstunde"));
    expect(at("Übungsstunde")).toBeLessThan(at("Welpengruppe"));
    for (const column of ["name", "nrOfSessions", "maxDogs", "costFull", "costReduced1", "costReduced2", "comments", "courseCount"]) {
      for (const direction of ["", "-"]) {
        const response = await fetchApp(`/courseMasters?sort=${direction}${column}`, { cookie });
        expect(response.status, column).toBe(200);
      }
    }
    // The dearest first.
    const dearest = (await page("/courseMasters?sort=-costFull", cookie)).replace(/^[\s\S]*?<tbody/, "");
    expect(dearest.indexOf(">Begleithunde-Vorbereitung<")).toBeLessThan(dearest.indexOf(">Agility Einsteiger<"));
  });
});

describe("the Kurs-Typ dialog", () => {
  it("shows the add and edit dialogs with their German titles and fields", async () => {
    const cookie = await loginCookie("admin");
    const add = await page("/courseMasters?dialog=courseMaster-add", cookie);
    expect(add).toContain("Kurs-Typ hinzufügen");
    for (const label of ["Termine (geplant)", "Max. Hunde", "Preis Nichtmitglieder", "Preis ermäßigt 1", "Preis ermäßigt 2", "Kommentar"])
      expect(add).toContain(`>${label}</label>`);
    const master = data.courseMasters[1];
    const edit = await page(`/courseMasters?dialog=courseMaster-edit&dialogId=${master.id}`, cookie);
    expect(edit).toContain(`Kurs-Typ &#x27;${master.name}&#x27; bearbeiten`);
    // Prices the German way.
    expect(edit).toContain(`value="${(master.costFull! / 100).toLocaleString("de-DE", { minimumFractionDigits: 2 })}"`);
    expect(edit).toContain("Angelegt von");
  });

  it("adds a type with German prices and shows it selected", async () => {
    const response = await postForm("/courseMasters?dialog=courseMaster-add", await loginCookie("admin"), {
      intent: "courseMaster:save",
      name: "Longieren",
      nrOfSessions: 6,
      maxDogs: 5,
      costFull: "1.234,56",
      costReduced1: "99,5 €",
      costReduced2: "",
      comments: "Mit Longierkreis",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Kurs-Typ wurde angelegt" });
    const [created] = await db.select().from(schema.courseMasters).where(eq(schema.courseMasters.name, "Longieren"));
    expect(created).toMatchObject({
      nrOfSessions: 6,
      maxDogs: 5,
      costFull: 123456,
      costReduced1: 9950,
      costReduced2: 0,
      comments: "Mit Longierkreis",
      createdBy: "Anna Admin",
    });
    expect(response.headers.get("Location")).toMatch(new RegExp(`^/courseMasters/${created.id}/courses(\\?|$)`));
    expect(response.headers.get("Location")).not.toContain("dialog=");
  });

  it("edits a type: empty numbers become empty, empty prices 0 €", async () => {
    const master = await freshMaster("Fährtenarbeit");
    const response = await postForm(`/courseMasters/${master.id}/courses`, await loginCookie("admin"), {
      intent: "courseMaster:save",
      id: master.id,
      rowVersion: master.rowVersion,
      name: "Fährtenarbeit Einsteiger",
      nrOfSessions: "",
      maxDogs: 4,
      costFull: "",
      costReduced1: "12",
      costReduced2: "0,99",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Kurs-Typ wurde gespeichert" });
    expect(response.headers.get("Location")).toMatch(new RegExp(`^/courseMasters/${master.id}/courses`));
    expect(await stored(master.id)).toMatchObject({
      name: "Fährtenarbeit Einsteiger",
      nrOfSessions: null,
      maxDogs: 4,
      costFull: 0,
      costReduced1: 1200,
      costReduced2: 99,
      comments: null,
      rowVersion: master.rowVersion + 1,
      lastModifiedBy: "Anna Admin",
    });
  });

  it("books a type online with what a dog must bring (issue 33); it cannot require itself", async () => {
    const prior = await freshMaster("Treibball Einsteiger");
    const master = await freshMaster("Treibball Fortgeschrittene");
    const form = { intent: "courseMaster:save", id: master.id, rowVersion: master.rowVersion, name: master.name };
    const self = await postForm("/courseMasters", await loginCookie("admin"), { ...form, priorCourseMasterId: master.id });
    expect(self.status).toBe(400);
    expect(await self.text()).toContain("Bitte einen anderen, vorhandenen Kurs-Typ wählen");
    const response = await postForm("/courseMasters", await loginCookie("admin"), {
      ...form,
      onlineBooking: "on",
      minDogAgeWeeks: "52",
      requiresRabies: "on",
      requiresInsurance: "on",
      priorCourseMasterId: prior.id,
    });
    expect(response.status).toBe(302);
    expect(await stored(master.id)).toMatchObject({
      onlineBooking: true,
      minDogAgeWeeks: 52,
      requiresRabies: true,
      requiresInsurance: true,
      priorCourseMasterId: prior.id,
      rowVersion: master.rowVersion + 1,
    });
    // The dialog offers every other type as the course required before, not the type itself.
    const edit = await page(`/courseMasters?dialog=courseMaster-edit&dialogId=${master.id}`, await loginCookie("admin"));
    expect(edit).toContain("Online buchbar (im Kursangebot)");
    expect(edit).toContain(`<option value="${prior.id}" selected="">Treibball Einsteiger</option>`);
    expect(edit).not.toContain(`<option value="${master.id}"`);
  });

  it("refuses a save based on an old version and changes nothing", async () => {
    const master = await freshMaster("Nasenarbeit");
    const form = { intent: "courseMaster:save", id: master.id, rowVersion: master.rowVersion, name: master.name, costFull: "80,00" };
    const first = await postForm("/courseMasters", await loginCookie("admin"), { ...form, comments: "erste" });
    expect(first.status).toBe(302);
    const second = await postForm("/courseMasters", await loginCookie("admin"), { ...form, comments: "zweite", costFull: "1,00" });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("Der Datensatz wurde inzwischen von Anna Admin am");
    expect(await stored(master.id)).toMatchObject({ comments: "erste", costFull: 8000, rowVersion: master.rowVersion + 1 });
  });

  it.each([
    [{ name: "" }, "Name ist erforderlich"],
    [{ name: "   " }, "Name ist erforderlich"],
    [{ name: "x".repeat(101) }, "Höchstens 100 Zeichen"],
    [{ name: "welpengruppe" }, "Diesen Kurs-Typ gibt es schon"],
    [{ costFull: "12,345" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    [{ costReduced1: "zwölf" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    [{ costReduced2: "-5,00" }, "Der Betrag darf nicht negativ sein"],
    [{ costFull: "1.000.000,00" }, "Der Betrag ist zu groß (höchstens 999.999,99 €)"],
    [{ nrOfSessions: "-1" }, "Termine (geplant) darf nicht negativ sein"],
    [{ maxDogs: "-3" }, "Max. Hunde darf nicht negativ sein"],
    [{ nrOfSessions: "acht" }, "Termine (geplant) muss eine Zahl sein"],
    [{ maxDogs: "zehn" }, "Max. Hunde muss eine Zahl sein"],
    [{ nrOfSessions: "2.5" }, "Termine (geplant) muss eine ganze Zahl sein"],
    [{ maxDogs: "1000" }, "Max. Hunde darf höchstens 999 sein"],
    [{ comments: "x".repeat(501) }, "Höchstens 500 Zeichen"],
    [{ minDogAgeWeeks: "521" }, "Das Mindestalter darf höchstens 520 sein"],
    [{ minDogAgeWeeks: "acht" }, "Das Mindestalter muss eine Zahl sein"],
    [{ priorCourseMasterId: "999999" }, "Bitte einen anderen, vorhandenen Kurs-Typ wählen"],
  ])("refuses a new type with %j with a German message and changes nothing", async (change, message) => {
    const before = await countOf();
    const response = await postForm("/courseMasters", await loginCookie("admin"), { intent: "courseMaster:save", name: "Neu im Test", ...change });
    expect(response.status).toBe(400);
    expect((await response.text()).replaceAll("&#x27;", "'")).toContain(message);
    expect(await countOf()).toBe(before);
  });

  it.each([
    [{ name: "" }, "Name ist erforderlich"],
    [{ name: "Junghundekurs" }, "Diesen Kurs-Typ gibt es schon"],
    [{ costFull: "12,345" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    [{ maxDogs: "-1" }, "Max. Hunde darf nicht negativ sein"],
    [{ nrOfSessions: "viele" }, "Termine (geplant) muss eine Zahl sein"],
  ])("refuses an edit with %j and leaves the type as it was", async (change, message) => {
    const master = data.courseMasters.find((candidate) => candidate.name === "Welpengruppe")!;
    const before = await stored(master.id!);
    const response = await postForm("/courseMasters", await loginCookie("admin"), {
      intent: "courseMaster:save",
      id: before.id,
      rowVersion: before.rowVersion,
      name: before.name,
      ...change,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await stored(master.id!)).toEqual(before);
  });

  it("keeps its own name on an edit (the name check skips the type itself, any case)", async () => {
    const master = await freshMaster("Dummytraining");
    const response = await postForm("/courseMasters", await loginCookie("admin"), {
      intent: "courseMaster:save",
      id: master.id,
      rowVersion: master.rowVersion,
      name: "DUMMYTRAINING",
    });
    expect(response.status).toBe(302);
    expect((await stored(master.id)).name).toBe("DUMMYTRAINING");
  });

  it("answers malformed and unknown ids with 4xx and changes nothing", async () => {
    const cookie = await loginCookie("admin");
    const before = await countOf();
    for (const id of ["abc", "-1", "0", "999999"]) {
      const deleted = await postForm("/courseMasters", cookie, { intent: "courseMaster:delete", id });
      expect(deleted.status, `delete ${id}`).toBeGreaterThanOrEqual(400);
      expect(deleted.status, `delete ${id}`).toBeLessThan(500);
      const saved = await postForm("/courseMasters", cookie, { intent: "courseMaster:save", id, rowVersion: 1, name: `Id ${id}` });
      expect(saved.status, `save ${id}`).toBeGreaterThanOrEqual(400);
      expect(saved.status, `save ${id}`).toBeLessThan(500);
    }
    expect(await countOf()).toBe(before);
    expect((await fetchApp("/courseMasters?dialog=courseMaster-edit&dialogId=999999", { cookie })).status).toBe(200);
    expect((await fetchApp("/courseMasters/abc/courses", { cookie })).status).toBeLessThan(500);
  });
});

describe("deleting a Kurs-Typ", () => {
  it("asks first, deletes into the Papierkorb, and the bin brings it back", async () => {
    const cookie = await loginCookie("admin");
    const master = await freshMaster("Obedience Klasse 1");
    const confirm = (await page(`/courseMasters?dialog=courseMaster-delete&dialogId=${master.id}`, cookie)).replaceAll("&#x27;", "'");
    expect(confirm).toContain("Kurs-Typ 'Obedience Klasse 1' löschen");
    expect(confirm).toContain("Bist du sicher?");
    expect(confirm).toContain("Der Papierkorb bewahrt alles auf");

    const response = await postForm("/courseMasters", cookie, { intent: "courseMaster:delete", id: master.id });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Kurs-Typ wurde gelöscht", undo: expect.any(Number) });
    expect(await stored(master.id)).toBeUndefined();
    const [binned] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.identifier1, "Obedience Klasse 1"));
    expect(binned).toMatchObject({ tableName: "course_masters", deletedBy: "Anna Admin" });

    const restored = await postForm("/recyclebin", cookie, { intent: "bin:restore", id: binned.id });
    expect(restored.status).toBe(302);
    expect(toastOf(restored)).toEqual({ type: "success", message: "Gelöschter Satz Obedience Klasse 1 wurde wiederhergestellt" });
    expect(await stored(master.id)).toEqual(master);
  });

  it("is refused while courses of the type exist, and the confirmation says so", async () => {
    const cookie = await loginCookie("admin");
    const master = data.courseMasters[2];
    const courses = await db.$count(schema.courses, eq(schema.courses.courseMasterId, master.id!));
    expect(courses).toBeGreaterThan(1);
    const message = `Der Kurs-Typ kann nicht gelöscht werden: Es gibt ${courses} Kurse dieses Typs.`;
    expect(await page(`/courseMasters?dialog=courseMaster-delete&dialogId=${master.id}`, cookie)).toContain(message);

    const bin = await db.$count(schema.deletedRecords);
    const response = await postForm("/courseMasters", cookie, { intent: "courseMaster:delete", id: master.id! });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(message);
    expect(await stored(master.id!)).toBeDefined();
    expect(await db.$count(schema.deletedRecords)).toBe(bin);
  });

  it("says '1 Kurs' for a type with one course", async () => {
    const master = await freshMaster("Einzelkurs-Typ");
    await db.insert(schema.courses).values({ name: "Einziger Kurs", startYear: 2026, courseMasterId: master.id, createdBy: "Test" });
    const response = await postForm("/courseMasters", await loginCookie("admin"), { intent: "courseMaster:delete", id: master.id });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Der Kurs-Typ kann nicht gelöscht werden: Es gibt 1 Kurs dieses Typs.");
    expect(await stored(master.id)).toBeDefined();
  });
});

describe("Kurs-Typen are for ADMIN only", () => {
  it("refuses the others' posts on the server, also through another page", async () => {
    const master = data.courseMasters[0];
    for (const who of ["staff", "finance", "gdpr"] as const) {
      const cookie = await loginCookie(who);
      const before = await countOf();
      const response = await postForm("/courseMasters", cookie, { intent: "courseMaster:save", name: `Von ${who}` });
      expect(response.status, who).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      const elsewhere = await postForm("/dogs", cookie, { intent: "courseMaster:delete", id: master.id! });
      expect(elsewhere.headers.get("Location"), who).toBe("/");
      expect(await countOf()).toBe(before);
      expect(await stored(master.id!)).toBeDefined();
    }
  });
});
