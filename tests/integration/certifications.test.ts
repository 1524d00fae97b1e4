/**
 * Erfolge: the list, the tabs under a person and a dog, the dialog's rules (master required,
 * person and dog as the master says, masters filtered by the parent), delete into the bin, and
 * the Erfolgsarten kept by ADMIN.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
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

const master = (name: string) => data.certificationMasters.find((candidate) => candidate.name === name)!;
/** A person with at least one dog. */
const owner = () => {
  const dog = data.dogs[3];
  return { personId: dog.ownerId, dogId: dog.id! };
};
const countOf = () => db.$count(schema.certifications);
/** A page's HTML without React's text separators. */
const page = async (path: string, cookie: string) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");

describe("the Erfolge list and tabs", () => {
  it("lists every certification, newest first, with person, dog and master", async () => {
    const html = await page("/certifications", await loginCookie("staff"));
    expect(html).toContain(
      `<h1 class="text-lg font-semibold text-wuff-800">Erfolge <span class="font-normal text-slate-500">(${data.certifications.length})</span></h1>`,
    );
    for (const header of ["Person", "Hund", "Erfolg", "Kommentar"]) expect(html).toContain(`>${header}</a></th>`);
    // Newest first: sorted by date, descending.
    expect(html).toMatch(/aria-sort="descending"[^>]*><a[^>]*>Datum<span aria-hidden="true"> ▼<\/span><\/a><\/th>/);
  });

  it("under a person shows theirs and their dogs', under a dog only the dog's", async () => {
    const cookie = await loginCookie("staff");
    const { personId, dogId } = owner();
    const ownDogs = new Set(data.dogs.filter((dog) => dog.ownerId === personId).map((dog) => dog.id));
    const forPerson = data.certifications.filter((c) => c.personId === personId || (c.dogId !== null && ownDogs.has(c.dogId)));
    const forDog = data.certifications.filter((c) => c.dogId === dogId);
    const personPage = await page(`/people/${personId}/certifications`, cookie);
    const dogPage = await page(`/dogs/${dogId}/certifications`, cookie);
    expect(personPage).toMatch(new RegExp(`Erfolge von [^<]+ <span class="font-normal text-slate-500">\\(${forPerson.length}\\)`));
    expect(dogPage).toMatch(new RegExp(`Erfolge von [^<]+ <span class="font-normal text-slate-500">\\(${forDog.length}\\)`));
  });
});

describe("the certification dialog", () => {
  it("offers only the masters of the parent type", async () => {
    const cookie = await loginCookie("staff");
    const { personId, dogId } = owner();
    const underPerson = await (
      await fetchApp(`/people/${personId}/certifications?dialog=certification-add&dialogParent=PERSON:${personId}`, { cookie })
    ).text();
    const underDog = await (await fetchApp(`/dogs/${dogId}/certifications?dialog=certification-add&dialogParent=DOG:${dogId}`, { cookie })).text();
    const everywhere = await (await fetchApp("/certifications?dialog=certification-add", { cookie })).text();
    expect(underPerson).toContain("Sachkundenachweis");
    expect(underPerson).not.toContain("Wesenstest");
    expect(underDog).toContain("Wesenstest");
    expect(underDog).not.toContain("Sachkundenachweis");
    for (const name of ["Sachkundenachweis", "Wesenstest", "Begleithundeprüfung (BH/VT)"]) expect(everywhere).toContain(name);
  });

  it("adds a certification of a person with a dog and shows it selected", async () => {
    const { personId, dogId } = owner();
    const response = await postForm("/certifications?dialog=certification-add", await loginCookie("staff"), {
      intent: "certification:save",
      certificationMasterId: master("Begleithundeprüfung (BH/VT)").id,
      personId,
      dogId,
      date: "3.5.2026",
      comments: "Prüfung bestanden",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Erfolg wurde angelegt" });
    const [created] = await db.select().from(schema.certifications).where(eq(schema.certifications.comments, "Prüfung bestanden"));
    expect(created).toMatchObject({ personId, dogId, date: "2026-05-03", createdBy: "Sven Mitarbeiter" });
    expect(response.headers.get("Location")).toMatch(new RegExp(`^/certifications\\?(page=\\d+&)?sel=${created.id}$`));
  });

  it("keeps only what the master certifies: a dog's test has no person", async () => {
    const { personId, dogId } = owner();
    const response = await postForm(`/dogs/${dogId}/certifications`, await loginCookie("staff"), {
      intent: "certification:save",
      certificationMasterId: master("Wesenstest").id,
      personId,
      dogId,
      comments: "nur der Hund",
    });
    expect(response.status).toBe(302);
    const [created] = await db.select().from(schema.certifications).where(eq(schema.certifications.comments, "nur der Hund"));
    expect(created).toMatchObject({ personId: null, dogId });
    expect(response.headers.get("Location")).toContain(`cert=${created.id}`);
  });

  it.each([
    [{ certificationMasterId: "" }, "Erfolgsart ist erforderlich"],
    [{ certificationMasterId: 999999 }, "selected certification master not found"],
    [{ personId: "" }, "Person ist erforderlich"],
    [{ dogId: "" }, "Hund ist erforderlich"],
    [{ personId: 999999 }, "Diese Person gibt es nicht (mehr)"],
    [{ dogId: 999999 }, "Diesen Hund gibt es nicht (mehr)"],
    [{ date: "30.02.2026" }, "Das Datum 30.02.2026 gibt es nicht"],
    [{ comments: "x".repeat(501) }, "Höchstens 500 Zeichen"],
    [{ certificationMasterId: "abc" }, "Erfolgsart ist erforderlich"],
  ])("refuses %j with a German message and changes nothing", async (change, message) => {
    const before = await countOf();
    const { personId, dogId } = owner();
    const response = await postForm("/certifications", await loginCookie("staff"), {
      intent: "certification:save",
      certificationMasterId: master("Hundeführerschein").id,
      personId,
      dogId,
      ...change,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await countOf()).toBe(before);
  });

  it("refuses a save based on an old version", async () => {
    const certification = data.certifications[0];
    const [current] = await db.select().from(schema.certifications).where(eq(schema.certifications.id, certification.id!));
    const form = {
      intent: "certification:save",
      id: current.id,
      rowVersion: current.rowVersion,
      certificationMasterId: current.certificationMasterId,
      personId: current.personId ?? undefined,
      dogId: current.dogId ?? undefined,
    };
    expect((await postForm("/certifications", await loginCookie("finance"), { ...form, comments: "erste" })).status).toBe(302);
    const second = await postForm("/certifications", await loginCookie("admin"), { ...form, comments: "zweite" });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("Der Datensatz wurde inzwischen von Fritz Finanz am");
    const [stored] = await db.select().from(schema.certifications).where(eq(schema.certifications.id, current.id));
    expect(stored.comments).toBe("erste");
  });

  it("deletes into the Papierkorb, and the bin brings it back", async () => {
    const cookie = await loginCookie("staff");
    const certification = data.certifications[1];
    const confirm = await (await fetchApp(`/certifications?dialog=certification-delete&dialogId=${certification.id}`, { cookie })).text();
    expect(confirm).toContain("Bist du sicher?");
    expect(confirm).toMatch(/Erfolg [^<]+ löschen/);
    const response = await postForm("/certifications", cookie, { intent: "certification:delete", id: certification.id! });
    expect(toastOf(response)).toEqual({ type: "success", message: "Erfolg wurde gelöscht", undo: expect.any(Number) });
    expect(await db.$count(schema.certifications, eq(schema.certifications.id, certification.id!))).toBe(0);
    const [binned] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.tableName, "certifications"));
    const restored = await postForm("/recyclebin", cookie, { intent: "bin:restore", id: binned.id });
    expect(restored.status).toBe(302);
    const [back] = await db.select().from(schema.certifications).where(eq(schema.certifications.id, certification.id!));
    expect(back).toMatchObject({ certificationMasterId: certification.certificationMasterId, date: certification.date });
  });

  it("answers unknown ids with 4xx and changes nothing", async () => {
    const cookie = await loginCookie("staff");
    const before = await countOf();
    for (const id of ["999999", "abc", "-1"]) {
      const response = await postForm("/certifications", cookie, { intent: "certification:delete", id });
      expect(response.status, id).toBeGreaterThanOrEqual(400);
      expect(response.status, id).toBeLessThan(500);
    }
    expect((await fetchApp("/certifications?dialog=certification-edit&dialogId=999999", { cookie })).status).toBe(200);
    expect(await countOf()).toBe(before);
  });
});

describe("Erfolgsarten (ADMIN)", () => {
  it("counts the certifications of each master", async () => {
    const html = await page("/certificationMasters", await loginCookie("admin"));
    for (const { id, name } of data.certificationMasters) {
      const row = new RegExp(`<tr[^>]*>(?:(?!</tr>).)*>${name.replace(/[()/]/g, "\\$&")}<(?:(?!</tr>).)*</tr>`, "s").exec(html)?.[0] ?? "";
      const cells = [...row.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((match) => match[1].replace(/<[^>]+>/g, ""));
      expect(cells.at(-1), name).toBe(String(await db.$count(schema.certifications, eq(schema.certifications.certificationMasterId, id!))));
    }
  });

  it("adds, renames and deletes a master; one in use cannot be deleted", async () => {
    const cookie = await loginCookie("admin");
    const added = await postForm("/certificationMasters", cookie, {
      intent: "certificationMaster:save",
      name: "Mantrailing Stufe 1",
      isDogCertification: true,
    });
    expect(toastOf(added)).toEqual({ type: "success", message: "Erfolgsart wurde angelegt" });
    const [created] = await db.select().from(schema.certificationMasters).where(eq(schema.certificationMasters.name, "Mantrailing Stufe 1"));
    expect(created).toMatchObject({ isPersonCertification: false, isDogCertification: true });

    const duplicate = await postForm("/certificationMasters", cookie, {
      intent: "certificationMaster:save",
      name: "mantrailing stufe 1",
      isDogCertification: true,
    });
    expect(duplicate.status).toBe(400);
    expect(await duplicate.text()).toContain("Diese Erfolgsart gibt es schon");
    const neither = await postForm("/certificationMasters", cookie, { intent: "certificationMaster:save", name: "Nichts" });
    expect(neither.status).toBe(400);
    expect(await neither.text()).toContain("Bitte „für Personen“, „für Hunde“ oder beides wählen");

    const inUse = await postForm("/certificationMasters", cookie, { intent: "certificationMaster:delete", id: master("Agility A1").id! });
    expect(inUse.status).toBe(409);
    expect(await inUse.text()).toContain("Die Erfolgsart kann nicht gelöscht werden: Es gibt");

    const deleted = await postForm("/certificationMasters", cookie, { intent: "certificationMaster:delete", id: created.id });
    expect(toastOf(deleted)).toEqual({ type: "success", message: "Erfolgsart wurde gelöscht", undo: expect.any(Number) });
  });

  it("is for ADMIN only, on the server too", async () => {
    for (const who of ["staff", "finance", "gdpr"] as const) {
      const cookie = await loginCookie(who);
      const before = await db.$count(schema.certificationMasters);
      const response = await postForm("/certificationMasters", cookie, { intent: "certificationMaster:save", name: `Von ${who}`, isDogCertification: true });
      expect(response.status, who).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      expect(await db.$count(schema.certificationMasters)).toBe(before);
      // Nor through another page's action.
      const elsewhere = await postForm("/certifications", cookie, { intent: "certificationMaster:save", name: `Von ${who}`, isDogCertification: true });
      expect(elsewhere.headers.get("Location"), who).toBe("/");
      expect(await db.$count(schema.certificationMasters)).toBe(before);
    }
  });
});
