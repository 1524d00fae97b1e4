/**
 * Mein Wuff, my data and my dogs (issue 32 items 2 and 3), by requests as a browser sends them:
 * own data saved with the change history and shown to staff on the home page; a new e-mail address
 * only after its link; consents given to the version shown and withdrawn; papers uploaded (type by
 * content, 10 MB), downloaded only by their owner and staff, confirmed by staff into the dog's
 * dates. Two families: nobody reaches the other's records by any id.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { CONSENT_RESULTS, DATA_CHANGED_MEANWHILE, DATA_SAVED, EMAIL_CONFIRMED, EMAIL_LINK_SENT, EMAIL_LINK_UNUSABLE, PAPER_UPLOADED } from "~/lib/portal";
import { PAPER_TOO_LARGE, PAPER_WRONG_TYPE } from "~/lib/dog-papers";
import { ZIP_MESSAGE } from "~/lib/form-fields";
import { LOGO_TOO_LARGE, LOGO_WRONG_TYPE } from "~/models/club-look.server";
import { requestEmailChange } from "~/models/portal-profile.server";
import { erasurePlan } from "~/models/gdpr.server";
import { homePanels } from "~/models/home.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { mailsTo, tinyPdf, useTestAccount } from "../support/mail-catcher";
import { portalSessionFor } from "../support/portal";
import { DEMO_USERS, loginCookie } from "../support/sessions";

const db = createDb(env.DB);
let testAccount: string;
/** Family A: Anna (her dog Bello); family B: Bernd and Berta sharing an address (Berta's dog Rex). */
let anna: number;
let bernd: number;
let berta: number;
let bello: number;
let rex: number;
let annaCookie: string;
let bertaCookie: string;

const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const post = (path: string, cookie: string, fields: Record<string, string>) => fetchApp(path, { method: "POST", cookie, body: new URLSearchParams(fields) });

beforeAll(async () => {
  await db.insert(schema.memberTypes).values({ id: 1, code: "NONE", name: "Kein Mitglied" }).onConflictDoNothing();
  await db.insert(schema.configuration).values({ id: 1, hsvrmVereinName: "Hundefreunde Portal" }).onConflictDoNothing();
  testAccount = await useTestAccount("portal-data");
  [{ id: anna }, { id: bernd }, { id: berta }] = await db
    .insert(schema.people)
    .values([
      { firstName: "Anna", lastName: "Alpha", email: "anna@example.org", zip: "35037", city: "Marburg", memberTypeId: 1 },
      { firstName: "Bernd", lastName: "Beta", email: "beta@example.org", memberTypeId: 1 },
      { firstName: "Berta", lastName: "Beta", email: "beta@example.org", memberTypeId: 1 },
    ])
    .returning({ id: schema.people.id });
  [{ id: bello }, { id: rex }] = await db
    .insert(schema.dogs)
    .values([
      { ownerId: anna, commonName: "Bello", chipNr: "276098100000001", rabiesValidUntil: "2026-01-31" },
      { ownerId: berta, commonName: "Rex" },
    ])
    .returning({ id: schema.dogs.id });
  annaCookie = await portalSessionFor("anna@example.org");
  bertaCookie = await portalSessionFor("beta@example.org", berta);
});

const ownDataFields = (rowVersion: number, changes: Record<string, string> = {}) => ({
  intent: "daten",
  rowVersion: String(rowVersion),
  firstName: "Anna",
  lastName: "Alpha",
  streetNumber: "Am Grün 5",
  zip: "35037",
  city: "Marburg",
  ...changes,
});

const rowVersionOf = async (personId: number) => (await db.select().from(schema.people).where(eq(schema.people.id, personId)))[0].rowVersion;

describe("Meine Daten", () => {
  it("saves a new address with the change history, as the person via Mein Wuff; staff see it on the home page", async () => {
    const page = await pageText(await fetchApp("/mein/daten", { cookie: annaCookie }));
    expect(page).toContain("Meine Daten");
    expect(page).toContain('value="Marburg"');
    const saved = await post("/mein/daten", annaCookie, ownDataFields(await rowVersionOf(anna), { streetNumber: "Neue Straße 7", zip: "35039" }));
    expect([saved.status, saved.headers.get("Location"), toastOf(saved)?.message]).toEqual([302, "/mein/daten", DATA_SAVED]);
    const [person] = await db.select().from(schema.people).where(eq(schema.people.id, anna));
    expect([person.streetNumber, person.zip, person.lastModifiedBy]).toEqual(["Neue Straße 7", "35039", "Anna Alpha (Mein Wuff)"]);
    const [history] = await db
      .select()
      .from(schema.changeHistory)
      .where(and(eq(schema.changeHistory.tableName, "people"), eq(schema.changeHistory.recordId, anna), eq(schema.changeHistory.action, "UPDATE")));
    expect([history.changedBy, history.source]).toEqual(["Anna Alpha (Mein Wuff)", "Mein Wuff"]);
    expect(Object.keys(JSON.parse(history.changes!) as object).sort()).toEqual(["street_number", "zip"]);

    const panels = await homePanels(db, DEMO_USERS.staff);
    const change = panels.portalChanges?.rows.find((row) => row.personId === anna && row.tableName === "people");
    expect(change?.columns.sort()).toEqual(["street_number", "zip"]);
    const home = await pageText(await fetchApp("/", { cookie: await loginCookie("staff") }));
    expect(home).toContain("Änderungen aus dem Portal");
    expect(home).toContain("Straße, PLZ geändert");
  });

  it("refuses bad input in German and a stale form with the current state; nothing changes", async () => {
    const version = await rowVersionOf(anna);
    const bad = await post("/mein/daten", annaCookie, ownDataFields(version, { zip: "31.02.2026", firstName: "" }));
    expect(bad.status).toBe(400);
    const text = await pageText(bad);
    expect(text).toContain(ZIP_MESSAGE);
    expect(text).toContain("Vorname ist erforderlich");
    const stale = await post("/mein/daten", annaCookie, ownDataFields(version - 1, { city: "Gießen" }));
    expect(stale.status).toBe(409);
    expect(await pageText(stale)).toContain(DATA_CHANGED_MEANWHILE);
    const [person] = await db.select().from(schema.people).where(eq(schema.people.id, anna));
    expect([person.city, person.rowVersion]).toEqual(["Marburg", version]);
  });

  it("never joins another family's address: answered alike, no link mailed, and an old link refused", async () => {
    const before = (await mailsTo(testAccount)).filter((caught) => caught.headers["x-wuff-intended-to"] === "beta@example.org").length;
    const asked = await post("/mein/daten", annaCookie, { intent: "email", email: "Beta@example.org" });
    expect(asked.status).toBe(200);
    expect(await pageText(asked)).toContain(EMAIL_LINK_SENT("beta@example.org"));
    expect((await mailsTo(testAccount)).filter((caught) => caught.headers["x-wuff-intended-to"] === "beta@example.org")).toHaveLength(before);
    // A link asked for while the address was free, used after someone else got it: refused.
    const free = await requestEmailChange(db, { personId: anna, currentEmail: "anna@example.org", newEmail: "frei@example.org" });
    if (free.status !== "asked" || !free.token) throw new Error("Kein Link");
    const [{ id: other }] = await db
      .insert(schema.people)
      .values({ firstName: "Olga", lastName: "Other", email: "frei@example.org", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    const refused = await fetchApp(`/mein/email/${free.token}`, { method: "POST", body: new URLSearchParams() });
    expect(refused.status).toBe(400);
    expect(await pageText(refused)).toContain(EMAIL_LINK_UNUSABLE);
    expect((await db.select().from(schema.people).where(eq(schema.people.id, anna)))[0].email).toBe("anna@example.org");
    await db.delete(schema.people).where(eq(schema.people.id, other));
  });

  it("changes the e-mail address only once the new address opened its link; the session follows it", async () => {
    const asked = await post("/mein/daten", annaCookie, { intent: "email", email: "anna.neu@example.org" });
    expect(asked.status).toBe(200);
    expect(await pageText(asked)).toContain(EMAIL_LINK_SENT("anna.neu@example.org"));
    expect((await db.select().from(schema.people).where(eq(schema.people.id, anna)))[0].email).toBe("anna@example.org");
    const [mail] = (await mailsTo(testAccount)).filter((caught) => caught.headers["x-wuff-intended-to"] === "anna.neu@example.org");
    expect(mail.subject).toMatch(/^Bitte bestätige deine neue E-Mail-Adresse bei /);
    const path = /\/mein\/email\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];
    // Opening the link changes nothing; its button does, once, in any browser.
    expect(await pageText(await fetchApp(path))).toContain("E-Mail-Adresse bestätigen");
    expect((await db.select().from(schema.people).where(eq(schema.people.id, anna)))[0].email).toBe("anna@example.org");
    const confirmed = await fetchApp(path, { method: "POST", body: new URLSearchParams() });
    expect([confirmed.status, toastOf(confirmed)?.message]).toEqual([302, EMAIL_CONFIRMED("anna.neu@example.org")]);
    const [person] = await db.select().from(schema.people).where(eq(schema.people.id, anna));
    expect([person.email, person.lastModifiedBy]).toEqual(["anna.neu@example.org", "Anna Alpha (Mein Wuff)"]);
    const again = await fetchApp(path, { method: "POST", body: new URLSearchParams() });
    expect(again.status).toBe(400);
    expect(await pageText(again)).toContain(EMAIL_LINK_UNUSABLE);
    // The session acting for Anna moved with her address.
    expect(await pageText(await fetchApp("/mein", { cookie: annaCookie }))).toContain("Hallo Anna");
    // The same address again: nothing to confirm.
    const same = await post("/mein/daten", annaCookie, { intent: "email", email: "ANNA.neu@example.org" });
    expect(same.status).toBe(400);
    expect(await pageText(same)).toContain("Das ist schon deine E-Mail-Adresse.");
  });

  it("gives a consent to the version shown and withdraws it; a newer version must be read first", async () => {
    const page = await pageText(await fetchApp("/mein/daten", { cookie: bertaCookie }));
    expect(page).toContain("Text der Einwilligung (Fassung 1 vom");
    const given = await post("/mein/daten", bertaCookie, { intent: "einwilligung", kind: "PHOTOS", give: "ja", version: "1" });
    expect(toastOf(given)?.message).toBe(`Fotos: ${CONSENT_RESULTS.given}`);
    const twice = await post("/mein/daten", bertaCookie, { intent: "einwilligung", kind: "PHOTOS", give: "ja", version: "1" });
    expect(toastOf(twice)?.message).toBe(`Fotos: ${CONSENT_RESULTS.unchanged}`);
    expect(await pageText(await fetchApp("/mein/daten", { cookie: bertaCookie }))).toMatch(/Erteilt am \d\d\.\d\d\.\d{4} \d\d:\d\d \(Fassung 1\)/);
    const withdrawn = await post("/mein/daten", bertaCookie, { intent: "einwilligung", kind: "PHOTOS", give: "nein" });
    expect(toastOf(withdrawn)?.message).toBe(`Fotos: ${CONSENT_RESULTS.withdrawn}`);
    const rows = await db.select().from(schema.consents).where(eq(schema.consents.personId, berta));
    expect(rows).toHaveLength(1);
    expect([rows[0].source, rows[0].withdrawnOn !== null, rows[0].createdBy]).toEqual(["PORTAL", true, "Berta Beta (Mein Wuff)"]);

    // The club publishes a new wording: a form showing version 1 no longer gives consent.
    const admin = await loginCookie("admin");
    const published = await post("/legalTexts", admin, { kind: "CONSENT_PHOTOS", body: "Neue Fassung: Fotos dürfen veröffentlicht werden." });
    expect(toastOf(published)?.message).toBe("Einwilligung: Fotos: Fassung 2 veröffentlicht.");
    const stale = await post("/mein/daten", bertaCookie, { intent: "einwilligung", kind: "PHOTOS", give: "ja", version: "1" });
    expect(stale.status).toBe(409);
    expect(await pageText(stale)).toContain("Der Text dieser Einwilligung wurde inzwischen geändert.");
    const fresh = await post("/mein/daten", bertaCookie, { intent: "einwilligung", kind: "PHOTOS", give: "ja", version: "2" });
    expect(toastOf(fresh)?.message).toBe(`Fotos: ${CONSENT_RESULTS.given}`);
    // Consents reach the home page for ADMIN and GDPR only.
    const forAdmin = await homePanels(db, DEMO_USERS.admin);
    const forStaff = await homePanels(db, DEMO_USERS.staff);
    expect(forAdmin.portalChanges?.rows.some((row) => row.tableName === "consents")).toBe(true);
    expect(forStaff.portalChanges?.rows.some((row) => row.tableName === "consents")).toBe(false);
  });

  it("refuses a hand-made consent post in German", async () => {
    const response = await post("/mein/daten", bertaCookie, { intent: "einwilligung", kind: "ALLES", give: "ja" });
    expect(response.status).toBe(400);
    expect(await pageText(response)).toContain("Unbekannte Einwilligung");
  });
});

/** A multipart upload as the browser sends it. */
function upload(cookie: string, fields: Record<string, string>, file: { bytes: Uint8Array; name: string; type: string } | null) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  if (file) body.set("file", new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }));
  return fetchApp("/mein/hunde", { method: "POST", cookie, body });
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

describe("Meine Hunde: papers", () => {
  let paperId: number;

  it("uploads a PDF for an own dog into R2; the dog's date waits for staff", async () => {
    const page = await pageText(await fetchApp("/mein/hunde", { cookie: annaCookie }));
    expect(page).toContain("Bello");
    expect(page).toContain("276098100000001");
    expect(page).toContain("gültig bis 31.01.2026 (abgelaufen)");
    expect(page).not.toContain("Rex");
    const response = await upload(
      annaCookie,
      { dogId: String(bello), kind: "INSURANCE", insuranceCompany: "Hunde-Haftpflicht AG", insurancePolicyNr: "HH-42", insuranceValidUntil: "31.12.2027" },
      { bytes: tinyPdf("Police"), name: "Police Bello.pdf", type: "application/pdf" },
    );
    expect([response.status, toastOf(response)?.message]).toEqual([302, PAPER_UPLOADED]);
    const [paper] = await db.select().from(schema.dogPapers).where(eq(schema.dogPapers.dogId, bello));
    paperId = paper.id;
    expect([paper.status, paper.contentType, paper.fileName, paper.insuranceValidUntil]).toEqual([
      "PENDING",
      "application/pdf",
      "Police-Bello.pdf",
      "2027-12-31",
    ]);
    expect(await env.PAPERS.head(paper.objectKey)).not.toBeNull();
    const [dog] = await db.select().from(schema.dogs).where(eq(schema.dogs.id, bello));
    expect(dog.insuranceValidUntil).toBeNull();
    expect(await pageText(await fetchApp("/mein/hunde", { cookie: annaCookie }))).toContain("wird geprüft");
  });

  it("takes the type from the bytes: HTML named .pdf, an empty file, and over 10 MB are refused in German", async () => {
    const fields = { dogId: String(bello), kind: "RABIES", rabiesValidUntil: "01.03.2027" };
    const html = await upload(annaCookie, fields, {
      bytes: new TextEncoder().encode("<html><script>alert(1)</script>"),
      name: "impfung.pdf",
      type: "application/pdf",
    });
    expect(html.status).toBe(400);
    expect(await pageText(html)).toContain(PAPER_WRONG_TYPE);
    const none = await upload(annaCookie, fields, null);
    expect(none.status).toBe(400);
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set([0x25, 0x50, 0x44, 0x46, 0x2d]);
    const tooBig = await upload(annaCookie, fields, { bytes: big, name: "gross.pdf", type: "application/pdf" });
    expect(tooBig.status).toBe(400);
    expect(await pageText(tooBig)).toContain(PAPER_TOO_LARGE);
    const badDate = await upload(annaCookie, { ...fields, rabiesValidUntil: "31.02.2027" }, { bytes: PNG, name: "x.png", type: "image/png" });
    expect(badDate.status).toBe(400);
    expect(await pageText(badDate)).toContain("Das Datum 31.02.2027 gibt es nicht");
    // No dog named (a hand-made request): the message stands above the dogs.
    const noDog = await upload(annaCookie, { ...fields, dogId: "abc" }, { bytes: PNG, name: "x.png", type: "image/png" });
    expect(noDog.status).toBe(400);
    expect(await pageText(noDog)).toContain("Bitte einen Hund wählen");
    expect(await db.select().from(schema.dogPapers).where(eq(schema.dogPapers.kind, "RABIES"))).toEqual([]);
  });

  it("serves a paper only as a download, to its owner and to staff", async () => {
    const own = await fetchApp(`/mein/nachweise/${paperId}`, { cookie: annaCookie });
    expect(own.status).toBe(200);
    expect(own.headers.get("Content-Type")).toBe("application/pdf");
    expect(own.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(own.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(own.headers.get("Content-Security-Policy")).toContain("sandbox");
    expect(new TextDecoder().decode((await own.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    const staff = await fetchApp(`/dogPapers/${paperId}`, { cookie: await loginCookie("staff") });
    expect([staff.status, staff.headers.get("Content-Disposition")?.startsWith("attachment")]).toEqual([200, true]);
  });

  it("staff confirm: the dog takes the paper's dates; a second decision is refused", async () => {
    const staff = await loginCookie("staff");
    expect(await pageText(await fetchApp("/dogPapers", { cookie: staff }))).toContain("Hunde-Haftpflicht AG, Nr. HH-42, gültig bis 31.12.2027");
    const home = await pageText(await fetchApp("/", { cookie: staff }));
    expect(home).toContain("1 Nachweis zu prüfen");
    const confirmed = await post("/dogPapers", staff, { paperId: String(paperId), decision: "confirm" });
    expect(toastOf(confirmed)?.message).toBe("Nachweis bestätigt: Das Datum gilt jetzt für den Hund.");
    const [dog] = await db.select().from(schema.dogs).where(eq(schema.dogs.id, bello));
    expect([dog.insuranceCompany, dog.insurancePolicyNr, dog.insuranceValidUntil, dog.lastModifiedBy]).toEqual([
      "Hunde-Haftpflicht AG",
      "HH-42",
      "2027-12-31",
      DEMO_USERS.staff.name,
    ]);
    const again = await post("/dogPapers", staff, { paperId: String(paperId), decision: "decline", reason: "zu spät" });
    expect(again.status).toBe(409);
    expect((await db.select().from(schema.dogPapers).where(eq(schema.dogPapers.id, paperId)))[0].status).toBe("CONFIRMED");
    expect(await pageText(await fetchApp("/mein/hunde", { cookie: annaCookie }))).toContain("Hunde-Haftpflicht AG, Nr. HH-42, gültig bis 31.12.2027");
  });

  it("staff decline with a reason the member reads; without a reason it is refused", async () => {
    await upload(annaCookie, { dogId: String(bello), kind: "RABIES", rabiesValidUntil: "01.03.2027" }, { bytes: PNG, name: "impfpass.png", type: "image/png" });
    const [paper] = await db.select().from(schema.dogPapers).where(eq(schema.dogPapers.kind, "RABIES"));
    const staff = await loginCookie("staff");
    const noReason = await post("/dogPapers", staff, { paperId: String(paper.id), decision: "decline", reason: " " });
    expect(noReason.status).toBe(400);
    await post("/dogPapers", staff, { paperId: String(paper.id), decision: "decline", reason: "Seite mit dem Impfdatum fehlt" });
    expect(await pageText(await fetchApp("/mein/hunde", { cookie: annaCookie }))).toContain("abgelehnt: Seite mit dem Impfdatum fehlt");
    expect((await db.select().from(schema.dogs).where(eq(schema.dogs.id, bello)))[0].rabiesValidUntil).toBe("2026-01-31");
  });
});

describe("two families: no portal route reaches the other's records", () => {
  it("refuses the other family's dog and paper by id, and never shows their data", async () => {
    const [annaPaper] = await db.select().from(schema.dogPapers).where(eq(schema.dogPapers.dogId, bello));
    // Berta downloads Anna's paper, uploads for Anna's dog: 404, nothing stored.
    expect((await fetchApp(`/mein/nachweise/${annaPaper.id}`, { cookie: bertaCookie })).status).toBe(404);
    const before = (await db.select().from(schema.dogPapers)).length;
    const foreign = await upload(
      bertaCookie,
      { dogId: String(bello), kind: "RABIES", rabiesValidUntil: "01.03.2027" },
      { bytes: PNG, name: "x.png", type: "image/png" },
    );
    expect(foreign.status).toBe(404);
    expect((await db.select().from(schema.dogPapers)).length).toBe(before);
    // Her own pages name nothing of Anna's.
    for (const path of ["/mein", "/mein/daten", "/mein/hunde"]) {
      const text = await pageText(await fetchApp(path, { cookie: bertaCookie }));
      expect(text, path).not.toContain("Anna");
      expect(text, path).not.toContain("Bello");
    }
    expect(await pageText(await fetchApp("/mein/hunde", { cookie: bertaCookie }))).toContain("Rex");
    // Bernd (the same address) sees his own data, not Berta's dog.
    const berndCookie = await portalSessionFor("beta@example.org", bernd);
    expect(await pageText(await fetchApp("/mein/hunde", { cookie: berndCookie }))).not.toContain("Rex");
    expect(rex).toBeGreaterThan(0);
  });

  it("staff routes answer no portal session; portal pages answer no staff session", async () => {
    for (const path of ["/dogPapers", `/dogPapers/1`, "/legalTexts"]) {
      const response = await fetchApp(path, { cookie: annaCookie });
      expect(response.status, path).toBe(302);
    }
    const staff = await loginCookie("admin");
    for (const path of ["/mein/daten", "/mein/hunde", "/mein/nachweise/1"]) {
      const response = await fetchApp(path, { cookie: staff });
      expect([response.status, response.headers.get("Location")], path).toEqual([302, "/mein"]);
    }
  });
});

describe("erasure (Art. 17) and Auskunft (Art. 15)", () => {
  it("erases the person's consents and their dogs' papers with the files", async () => {
    const papers = await db.select().from(schema.dogPapers).where(eq(schema.dogPapers.dogId, bello));
    expect(papers.length).toBeGreaterThan(0);
    await db.insert(schema.consents).values({
      personId: anna,
      kind: "MAIL",
      legalTextId: (await db.select().from(schema.legalTexts))[0].id,
      givenOn: "2026-11-01T10:00:00.000Z",
      source: "STAFF",
    });
    const plan = (await erasurePlan(db, anna))!;
    expect(plan.erase.filter((item) => item.table === "dog_papers")).toHaveLength(papers.length);
    expect(plan.erase.filter((item) => item.table === "consents")).toHaveLength(1);
    expect(plan.paperKeys.sort()).toEqual(papers.map((paper) => paper.objectKey).sort());
    const response = await postForm(`/people?dialog=erasure-preview&dialogId=${anna}`, await loginCookie("gdpr"), {
      intent: "erasure:erase",
      id: anna,
      fingerprint: plan.fingerprint,
      confirmName: "Anna Alpha",
    });
    expect([response.status, toastOf(response)?.message]).toEqual([302, expect.stringContaining("gelöscht")]);
    expect(await db.select().from(schema.dogPapers).where(eq(schema.dogPapers.dogId, bello))).toEqual([]);
    expect(await db.select().from(schema.consents).where(eq(schema.consents.personId, anna))).toEqual([]);
    for (const paper of papers) expect(await env.PAPERS.head(paper.objectKey)).toBeNull();
  });
});

describe("the club in Mein Wuff: name, logo, privacy notice and imprint (item 7)", () => {
  it("shows the club's name and the logo uploaded in Einstellungen; refuses anything but PNG and JPEG", async () => {
    const admin = await loginCookie("admin");
    const uploadLogo = (bytes: Uint8Array, name: string) => {
      const body = new FormData();
      body.set("intent", "logo");
      body.set("logo", new File([bytes as Uint8Array<ArrayBuffer>], name));
      return fetchApp("/configuration", { method: "POST", cookie: admin, body });
    };
    const svg = await uploadLogo(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "logo.png");
    expect(svg.status).toBe(400);
    expect(await pageText(svg)).toContain(LOGO_WRONG_TYPE);
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(PNG);
    expect(await pageText(await uploadLogo(big, "gross.png"))).toContain(LOGO_TOO_LARGE);
    const saved = await uploadLogo(PNG, "logo.png");
    expect(toastOf(saved)?.message).toBe("Das Logo wurde gespeichert.");
    const logo = await fetchApp("/mein/logo");
    expect([logo.status, logo.headers.get("Content-Type"), logo.headers.get("Cache-Control")]).toEqual([200, "image/png", "public, max-age=300"]);
    const start = await pageText(await fetchApp("/mein"));
    expect(start).toContain('src="/mein/logo"');
    expect(start).toContain("Hundefreunde Portal");
    // Removed: the file goes too.
    const [{ clubLogoKey }] = await db.select({ clubLogoKey: schema.configuration.clubLogoKey }).from(schema.configuration);
    const removed = await postForm("/configuration", admin, { intent: "logo", remove: "1" });
    expect(toastOf(removed)?.message).toBe("Das Logo wurde entfernt.");
    expect(await env.PAPERS.head(clubLogoKey!)).toBeNull();
    expect((await fetchApp("/mein/logo")).status).toBe(404);
    expect(await pageText(await fetchApp("/mein"))).not.toContain('src="/mein/logo"');
  });

  it("links the privacy notice and the imprint on every portal page, as the club wrote them", async () => {
    const start = await pageText(await fetchApp("/mein"));
    expect(start).toContain('href="/mein/datenschutz"');
    expect(start).toContain('href="/mein/impressum"');
    expect(await pageText(await fetchApp("/mein/impressum"))).toContain("Der Verein hat sein Impressum hier noch nicht hinterlegt.");
    await post("/legalTexts", await loginCookie("admin"), { kind: "IMPRINT", body: "Hundefreunde Portal e. V.\nAm Platz 1, 35037 Marburg\nVR 1234" });
    const imprint = await pageText(await fetchApp("/mein/impressum"));
    expect(imprint).toContain("Am Platz 1, 35037 Marburg");
    expect(imprint).toMatch(/Stand: \d\d\.\d\d\.\d{4} \(Fassung 1\)/);
    expect((await fetchApp("/mein/datenschutz")).status).toBe(200);
  });

  it("shows the terms and the withdrawal notice (version 1 from migration 0058) publicly; a new version of the terms is published in Einstellungen", async () => {
    const start = await pageText(await fetchApp("/mein"));
    expect(start).toContain('href="/mein/agb"');
    expect(start).toContain('href="/mein/widerrufsbelehrung"');
    const terms = await fetchApp("/mein/agb");
    expect(terms.status).toBe(200);
    const termsPage = await pageText(terms);
    expect(termsPage).toContain("<title>Allgemeine Geschäftsbedingungen – Mein Wuff</title>");
    expect(termsPage).toContain("Der Vertrag kommt zustande, wenn wir deine Buchung per E-Mail bestätigen.");
    expect(termsPage).toMatch(/Stand: \d\d\.\d\d\.\d{4} \(Fassung 1\)/);
    const withdrawal = await fetchApp("/mein/widerrufsbelehrung");
    expect(withdrawal.status).toBe(200);
    const withdrawalPage = await pageText(withdrawal);
    expect(withdrawalPage).toContain("<title>Widerrufsbelehrung – Mein Wuff</title>");
    expect(withdrawalPage).toContain("§ 312g Abs. 2 Nr. 9 BGB");
    expect(withdrawalPage).toContain("„Vertrag widerrufen“ in Mein Wuff");

    const admin = await loginCookie("admin");
    const screen = await pageText(await fetchApp("/legalTexts", { cookie: admin }));
    expect(screen).toContain("Allgemeine Geschäftsbedingungen (AGB)");
    expect(screen).toContain("Widerrufsbelehrung");
    const published = await post("/legalTexts", admin, {
      kind: "TERMS",
      body: "Allgemeine Geschäftsbedingungen\n\n1. Kurse gebucht in Mein Wuff gelten ab der Bestätigung.",
    });
    expect(toastOf(published)?.message).toBe("Allgemeine Geschäftsbedingungen (AGB): Fassung 2 veröffentlicht.");
    const newTerms = await pageText(await fetchApp("/mein/agb"));
    expect(newTerms).toContain("1. Kurse gebucht in Mein Wuff gelten ab der Bestätigung.");
    expect(newTerms).toMatch(/Stand: \d\d\.\d\d\.\d{4} \(Fassung 2\)/);
    expect(newTerms).not.toContain("Der Vertrag kommt zustande");
    // Version 1 stays as it was (a booking names the version it agreed to).
    const versions = await db.select().from(schema.legalTexts).where(eq(schema.legalTexts.kind, "TERMS")).orderBy(schema.legalTexts.version);
    expect(versions.map((text) => [text.version, text.createdBy])).toEqual([
      [1, "Wuff"],
      [2, DEMO_USERS.admin.name],
    ]);
  });
});
