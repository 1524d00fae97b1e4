/**
 * Mitglied werden (issue 32 item 6), by requests as a browser sends them: the public form checks
 * what it needs (statutes and privacy notice in force, a guardian for a minor, the mandate's box),
 * catches bots by a hidden field and limits applications per address and network address; only
 * the mailed link sends an application to the club; staff accept it (a member with dogs, fees and
 * mandate, in one batch, once) or decline it, and the applicant gets a mail either way.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { maskIban } from "~/lib/banking";
import { formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import {
  APPLICATION_CONFIRMED,
  APPLICATION_LINK_UNUSABLE,
  APPLICATION_SENT,
  APPLICATIONS_CLOSED,
  APPLICATIONS_LIMITED,
  MINOR_NEEDS_GUARDIAN,
  TEXTS_CHANGED,
} from "~/lib/membership-applications";
import { confirmApplication, deleteExpiredApplications, submitApplication, type ApplicationInput } from "~/models/membership-applications.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { mailsTo, useTestAccount } from "../support/mail-catcher";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
let testAccount: string;
let memberType: number;
let nonMemberType: number;
let activeStatus: number;
let statutes: { id: number; version: number };
let privacy: { id: number; version: number };

const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");
let ipCounter = 0;
/** Each application from its own network address unless a test means the same one. */
const freshIp = () => `203.0.113.${++ipCounter}`;

function applicationFields(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    salutation: "Frau",
    firstName: "Clara",
    lastName: "Antrag",
    streetNumber: "Feldweg 3",
    zip: "35037",
    city: "Marburg",
    email: "clara.antrag@example.org",
    phone: "06421 12345",
    dateOfBirth: "14.03.1990",
    memberTypeId: String(memberType),
    "dogs[0].commonName": "Kira",
    "dogs[0].breed": "Border Collie",
    "dogs[0].gender": "2",
    "dogs[0].dateOfBirth": "01.05.2022",
    "dogs[0].chipNr": "276098100000001",
    "dogs[1].commonName": "Bolt",
    "dogs[1].gender": "1",
    withMandate: "on",
    accountHolder: "Clara Antrag",
    iban: "DE02 1203 0000 0000 2020 51",
    statutes: "on",
    privacy: "on",
    statutesVersion: String(statutes.version),
    privacyVersion: String(privacy.version),
    ...overrides,
  };
}

function apply(fields: Record<string, string | undefined>, ip = freshIp()) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, value);
  return fetchApp("/mitglied-werden", { method: "POST", body, headers: { "CF-Connecting-IP": ip } });
}

const applicationsOf = (email: string) => db.select().from(schema.membershipApplications).where(eq(schema.membershipApplications.email, email));
const mailsFor = async (email: string) => (await mailsTo(testAccount)).filter((mail) => mail.headers["x-wuff-intended-to"] === email);

/** Applies, confirms by the mailed link, and answers the application's id. */
async function appliedAndConfirmed(fields: Record<string, string | undefined>): Promise<number> {
  const email = fields.email!;
  expect((await apply(fields)).status).toBe(302);
  const [mail] = (await mailsFor(email)).slice(-1);
  const path = /\/mitglied-werden\/bestaetigen\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];
  expect((await fetchApp(path, { method: "POST", body: new URLSearchParams() })).status).toBe(302);
  const [application] = (await applicationsOf(email)).filter((row) => row.status === "CONFIRMED");
  return application.id;
}

beforeAll(async () => {
  await db.insert(schema.configuration).values({ id: 1 }).onConflictDoNothing();
  await db
    .update(schema.configuration)
    .set({
      clubName: "Hundefreunde Antrag e.V.",
      creditorId: "DE98ZZZ09999999999",
      mandateText: "Ich ermächtige die Hundefreunde Antrag e.V., Zahlungen von meinem Konto mittels Lastschrift einzuziehen.",
      clubMembershipPriceFull: 6000,
      clubMembershipPriceReduced1: 3000,
      clubMembershipPriceReduced2: 1500,
      clubMembershipEnrollmentFee: 2000,
    })
    .where(eq(schema.configuration.id, 1));
  testAccount = await useTestAccount("applications");
  [{ id: nonMemberType }] = await db
    .insert(schema.memberTypes)
    .values({ code: "NONE", name: "Kein Mitglied" })
    .onConflictDoUpdate({ target: schema.memberTypes.code, set: { name: "Kein Mitglied" } })
    .returning({ id: schema.memberTypes.id });
  [{ id: memberType }] = await db
    .insert(schema.memberTypes)
    .values({ code: "ANTRAG_AKTIV", name: "Aktives Mitglied", annualFeeTier: "FULL" })
    .returning({ id: schema.memberTypes.id });
  [{ id: activeStatus }] = await db
    .insert(schema.membershipStatuses)
    .values({ code: "ANTRAG_ACTIVE", name: "Aktiv", appliesTo: "PERSON" })
    .returning({ id: schema.membershipStatuses.id });
});

describe("Mitglied werden: the public form", () => {
  it("is closed until the statutes and the privacy notice are published", async () => {
    const existing = await db.select().from(schema.legalTexts);
    if (existing.some((text) => text.kind === "STATUTES") && existing.some((text) => text.kind === "PRIVACY")) return;
    const page = await fetchApp("/mitglied-werden");
    expect(page.status).toBe(200);
    expect(await pageText(page)).toContain(APPLICATIONS_CLOSED);
  });

  it("shows the form with the member types, their fees and the mandate text once the texts are published", async () => {
    const admin = await loginCookie("admin");
    expect((await postForm("/legalTexts", admin, { kind: "STATUTES", body: "§ 1 Name: Hundefreunde Antrag e.V." })).status).toBe(302);
    expect((await postForm("/legalTexts", admin, { kind: "PRIVACY", body: "Wir verarbeiten deine Daten für die Mitgliedschaft." })).status).toBe(302);
    const current = await db.select().from(schema.legalTexts);
    const newest = (kind: "STATUTES" | "PRIVACY") => current.filter((text) => text.kind === kind).reduce((a, b) => (a.version > b.version ? a : b));
    statutes = newest("STATUTES");
    privacy = newest("PRIVACY");
    const html = await pageText(await fetchApp("/mitglied-werden"));
    expect(html).toContain("Mitgliedsantrag senden");
    expect(html).toContain(`Aktives Mitglied (Jahresbeitrag ${formatMoney(6000)})`);
    expect(html).not.toContain(">Kein Mitglied<");
    expect(html).toContain(`Aufnahmegebühr von ${formatMoney(2000)}`);
    expect(html).toContain("Gläubiger-Identifikationsnummer DE98ZZZ09999999999");
    expect(html).toContain(`Satzung (Fassung ${statutes.version}`);
    // The statutes page is public, in the portal's frame.
    expect(await pageText(await fetchApp("/mein/satzung"))).toContain("§ 1 Name: Hundefreunde Antrag e.V.");
  });

  it("refuses what is missing or wrong with a German message and keeps nothing", async () => {
    const email = "falsch@example.org";
    const cases: [Record<string, string | undefined>, number, string][] = [
      [{ statutes: undefined }, 400, "Bitte bestätige, dass du die Satzung anerkennst"],
      [{ privacy: undefined }, 400, "Bitte bestätige, dass du die Datenschutzhinweise gelesen hast"],
      [{ zip: "3503" }, 400, "Bitte eine PLZ aus 5 Ziffern eingeben"],
      [{ dateOfBirth: "31.02.1990" }, 400, "Das Datum 31.02.1990 gibt es nicht"],
      [{ iban: "DE02120300000000202052" }, 400, "IBAN"],
      [{ withMandate: undefined }, 400, "Bitte bestätige das Mandat oder lass die Kontodaten leer"],
      [{ accountHolder: "" }, 400, "Kontoinhaber ist erforderlich"],
      [{ "dogs[1].commonName": "" }, 400, "Bitte den Namen des Hundes angeben"],
      [{ memberTypeId: String(nonMemberType) }, 400, "Diese Mitgliedsart gibt es nicht"],
      [{ memberTypeId: "abc" }, 400, "Bitte eine Mitgliedsart wählen"],
      [{ statutesVersion: "999" }, 409, TEXTS_CHANGED],
      [{ dateOfBirth: formatDate(`${Number(todayInBerlin().slice(0, 4)) - 12}-01-01`) }, 400, MINOR_NEEDS_GUARDIAN],
    ];
    for (const [overrides, status, message] of cases) {
      const response = await apply(applicationFields({ email, ...overrides }));
      expect(response.status, JSON.stringify(overrides)).toBe(status);
      expect(await pageText(response), JSON.stringify(overrides)).toContain(message);
    }
    expect(await applicationsOf(email)).toEqual([]);
    expect(await mailsFor(email)).toEqual([]);
  });

  it("adds and removes a dog without JavaScript: the form comes back with one more or one less", async () => {
    const added = await apply(applicationFields({ email: "hunde@example.org", __intent__: JSON.stringify({ type: "insert", payload: { name: "dogs" } }) }));
    expect(added.status).toBe(200);
    const html = await pageText(added);
    expect(html).toContain("Hund 3");
    expect(html).not.toContain("Weiteren Hund angeben");
    expect(await applicationsOf("hunde@example.org")).toEqual([]);
  });

  it("answers a bot that fills the hidden field as if it had worked, and keeps and mails nothing", async () => {
    const response = await apply(applicationFields({ email: "bot@example.org", website: "https://spam.example" }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/mitglied-werden?gesendet=1");
    expect(await applicationsOf("bot@example.org")).toEqual([]);
    expect(await mailsFor("bot@example.org")).toEqual([]);
  });

  it("stops the 4th application per address and the 11th per network address within 24 hours", async () => {
    for (let n = 1; n <= 3; n++) expect((await apply(applicationFields({ email: "oft@example.org" }))).status).toBe(302);
    const fourth = await apply(applicationFields({ email: "oft@example.org" }));
    expect(fourth.status).toBe(429);
    expect(await pageText(fourth)).toContain(APPLICATIONS_LIMITED);
    expect(await applicationsOf("oft@example.org")).toHaveLength(3);
    const ip = freshIp();
    for (let n = 1; n <= 10; n++) expect((await apply(applicationFields({ email: `netz${n}@example.org` }), ip)).status).toBe(302);
    expect((await apply(applicationFields({ email: "netz11@example.org" }), ip)).status).toBe(429);
    expect(await applicationsOf("netz11@example.org")).toEqual([]);
  });
});

describe("Mitglied werden: the address confirmed by link", () => {
  it("reaches the club only through the mailed link, which works once", async () => {
    const email = "clara.antrag@example.org";
    const sent = await apply(applicationFields());
    expect(sent.headers.get("Location")).toBe("/mitglied-werden?gesendet=1");
    expect(await pageText(await fetchApp("/mitglied-werden?gesendet=1"))).toContain(APPLICATION_SENT);
    const [stored] = await applicationsOf(email);
    expect(stored).toMatchObject({
      status: "UNCONFIRMED",
      firstName: "Clara",
      iban: "DE02120300000000202051",
      statutesTextId: statutes.id,
      privacyTextId: privacy.id,
    });
    expect(JSON.parse(stored.dogs)).toEqual([
      { commonName: "Kira", breed: "Border Collie", gender: 2, dateOfBirth: "2022-05-01", chipNr: "276098100000001" },
      { commonName: "Bolt", breed: null, gender: 1, dateOfBirth: null, chipNr: null },
    ]);
    const staffPage = await pageText(await fetchApp("/applications", { cookie: await loginCookie("admin") }));
    expect(staffPage).not.toContain("Clara Antrag");

    const [mail] = await mailsFor(email);
    expect(mail.subject).toMatch(/^Bitte bestätige deinen Mitgliedsantrag bei /);
    const path = /\/mitglied-werden\/bestaetigen\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];
    // Opening the link (a mail program checking it) changes nothing.
    expect(await pageText(await fetchApp(path))).toContain("Antrag absenden");
    expect((await applicationsOf(email))[0].status).toBe("UNCONFIRMED");
    const confirmed = await fetchApp(path, { method: "POST", body: new URLSearchParams() });
    expect(confirmed.headers.get("Location")).toBe("/mitglied-werden?bestaetigt=1");
    expect(await pageText(await fetchApp("/mitglied-werden?bestaetigt=1"))).toContain(APPLICATION_CONFIRMED);
    expect((await applicationsOf(email))[0].status).toBe("CONFIRMED");
    const again = await fetchApp(path, { method: "POST", body: new URLSearchParams() });
    expect(again.status).toBe(400);
    expect(await pageText(again)).toContain(APPLICATION_LINK_UNUSABLE);
    expect(await pageText(await fetchApp(path))).toContain(APPLICATION_LINK_UNUSABLE);
  });

  it("expires after 24 hours; the daily cron deletes it then, and a declined one after 90 days", async () => {
    const input: ApplicationInput = {
      salutation: null,
      firstName: "Ewa",
      lastName: "Spät",
      streetNumber: "Weg 1",
      zip: "35037",
      city: "Marburg",
      email: "ewa.spaet@example.org",
      phone: null,
      dateOfBirth: "1980-01-01",
      guardianName: null,
      memberTypeId: memberType,
      dogs: [],
      mandate: null,
      message: null,
      statutesTextId: statutes.id,
      privacyTextId: privacy.id,
    };
    const asked = new Date("2026-06-01T10:00:00Z");
    const late = await submitApplication(db, input, { ip: freshIp(), now: asked });
    if (late.status !== "submitted") throw new Error("not submitted");
    expect(await confirmApplication(db, late.token, new Date("2026-06-02T10:00:01Z"))).toBe(false);
    await deleteExpiredApplications(db, new Date("2026-06-02T10:00:01Z"));
    expect(await applicationsOf("ewa.spaet@example.org")).toEqual([]);

    const kept = await submitApplication(db, { ...input, email: "ewa.kept@example.org" }, { ip: freshIp(), now: asked });
    if (kept.status !== "submitted") throw new Error("not submitted");
    expect(await confirmApplication(db, kept.token, new Date("2026-06-02T09:59:59Z"))).toBe(true);
    await db
      .update(schema.membershipApplications)
      .set({ status: "DECLINED", decidedOn: "2026-06-03T10:00:00.000Z" })
      .where(eq(schema.membershipApplications.email, "ewa.kept@example.org"));
    await deleteExpiredApplications(db, new Date("2026-08-31T10:00:00Z"));
    expect(await applicationsOf("ewa.kept@example.org")).toHaveLength(1);
    await deleteExpiredApplications(db, new Date("2026-09-02T10:00:00Z"));
    expect(await applicationsOf("ewa.kept@example.org")).toEqual([]);
  });
});

describe("Mitgliedsanträge: staff accept or decline", () => {
  it("are for ADMIN and FINANCE; other staff and visitors are refused", async () => {
    expect((await fetchApp("/applications", { cookie: await loginCookie("finance") })).status).toBe(200);
    const staff = await fetchApp("/applications", { cookie: await loginCookie("staff") });
    expect(staff.headers.get("Location")).toBe("/");
    expect(toastOf(staff)?.message).toBe("Zugriff verweigert. Diese Ansicht ist nur für die Rollen ADMIN, FINANCE freigegeben.");
    const refused = await postForm("/applications", await loginCookie("staff"), { decision: "decline", applicationId: 1 });
    expect(refused.status).toBe(302);
    expect((await fetchApp("/applications")).headers.get("Location")).toMatch(/^\/login/);
  });

  it("accepts once: a member with dogs, the year's fees and the mandate, and a welcome mail", async () => {
    const email = "clara.antrag@example.org";
    const [application] = await applicationsOf(email);
    const admin = await loginCookie("admin");
    const list = await pageText(await fetchApp("/applications", { cookie: admin }));
    expect(list).toContain("Frau Clara Antrag");
    expect(list).toContain("Kira, Border Collie, weiblich, geb. 01.05.2022, Chip 276098100000001");
    expect(list).toContain(`Mandat erteilt: Clara Antrag, ${maskIban("DE02120300000000202051")}`);
    expect(list).toContain(`Satzung Fassung ${statutes.version}, Datenschutzhinweise Fassung ${privacy.version}`);
    // Home: the application waits.
    expect(await pageText(await fetchApp("/", { cookie: admin }))).toContain("Mitgliedsantrag zu entscheiden");

    const today = todayInBerlin();
    const accept = {
      decision: "accept",
      applicationId: application.id,
      memberSince: formatDate(today),
      memberTypeId: memberType,
      membershipStatusId: activeStatus,
      person: "neu",
    };
    const accepted = await postForm("/applications", admin, accept);
    expect(accepted.status).toBe(302);
    expect(toastOf(accepted)?.message).toBe(`Mitgliedsantrag angenommen: Clara Antrag ist Mitglied seit ${formatDate(today)}.`);
    const [person] = await db.select().from(schema.people).where(eq(schema.people.email, email));
    expect(accepted.headers.get("Location")).toBe(`/people?selectedPersonId=${person.id}`);
    expect(person).toMatchObject({
      firstName: "Clara",
      lastName: "Antrag",
      salutation: "Frau",
      streetNumber: "Feldweg 3",
      mobilePhone: "06421 12345",
      dateOfBirth: "1990-03-14",
      isMember: true,
      memberSince: today,
      memberTypeId: memberType,
      membershipStatusId: activeStatus,
    });
    const dogs = await db.select().from(schema.dogs).where(eq(schema.dogs.ownerId, person.id)).orderBy(schema.dogs.id);
    expect(dogs.map((dog) => [dog.commonName, dog.gender, dog.chipNr])).toEqual([
      ["Kira", 2, "276098100000001"],
      ["Bolt", 1, null],
    ]);
    const [mandate] = await db.select().from(schema.sepaMandates).where(eq(schema.sepaMandates.personId, person.id));
    expect(mandate).toMatchObject({ reference: `WUFF-${person.id}-1`, iban: "DE02120300000000202051", isActive: true, source: "PORTAL", mandateDate: today });
    const [request] = await db.select().from(schema.portalMandateRequests).where(eq(schema.portalMandateRequests.mandateId, mandate.id));
    expect(request.confirmedOn).toBe(application.confirmedOn);
    const fees = await db.select().from(schema.fees).where(eq(schema.fees.personId, person.id));
    expect(fees.map((fee) => [fee.kind, fee.amount, fee.sendInvoice]).sort()).toEqual([
      ["ANNUAL", 6000, false],
      ["ENROLLMENT", 2000, false],
    ]);
    const [decided] = await applicationsOf(email);
    expect(decided).toMatchObject({ status: "ACCEPTED", personId: person.id, iban: null, accountHolder: null, decidedBy: "Anna Admin" });
    const [welcome] = (await mailsFor(email)).filter((mail) => mail.subject.startsWith("Willkommen bei "));
    expect(welcome.text).toContain(`seit ${formatDate(today)}. Willkommen!`);
    expect(welcome.text).toContain("http://localhost/mein");

    // Accepted twice (a second tab, a double click): nothing more.
    const twice = await postForm("/applications", admin, accept);
    expect(twice.status).toBe(409);
    expect(await pageText(twice)).toContain("Über diesen Antrag wurde inzwischen schon entschieden.");
    expect(await db.$count(schema.people, eq(schema.people.email, email))).toBe(1);
    expect(await db.$count(schema.dogs, eq(schema.dogs.ownerId, person.id))).toBe(2);
    expect(await db.$count(schema.fees, eq(schema.fees.personId, person.id))).toBe(2);
  });

  it("makes a course customer with the same address the member, adding only the dogs not there yet", async () => {
    const email = "kunde.werden@example.org";
    const [{ id: customer }] = await db
      .insert(schema.people)
      .values({ firstName: "Karl", lastName: "Kunde", email: "Kunde.Werden@example.org", memberTypeId: nonMemberType })
      .returning({ id: schema.people.id });
    await db.insert(schema.dogs).values({ ownerId: customer, commonName: "Kira" });
    const applicationId = await appliedAndConfirmed(
      applicationFields({ email, firstName: "Karl", lastName: "Kunde", withMandate: undefined, accountHolder: undefined, iban: undefined }),
    );
    const admin = await loginCookie("admin");
    expect(await pageText(await fetchApp("/applications", { cookie: admin }))).toContain("Karl Kunde (schon in Wuff)");
    const [other] = await db
      .insert(schema.people)
      .values({ firstName: "Fremd", lastName: "Person", email: "fremd@example.org", memberTypeId: nonMemberType })
      .returning({ id: schema.people.id });
    const base = { decision: "accept", applicationId, memberSince: "01.12.2026", memberTypeId: memberType };
    const wrongStatus = await postForm("/applications", admin, { ...base, person: "neu", membershipStatusId: 99_999_999 });
    expect(wrongStatus.status).toBe(400);
    expect(await pageText(wrongStatus)).toContain("Diesen Mitgliedsstatus gibt es für Personen nicht");
    expect((await applicationsOf(email))[0].status).toBe("CONFIRMED");
    const wrongPerson = await postForm("/applications", admin, { ...base, person: other.id });
    expect(wrongPerson.status).toBe(400);
    expect(await pageText(wrongPerson)).toContain("Diese Person hat nicht die E-Mail-Adresse des Antrags.");

    expect((await postForm("/applications", admin, { ...base, person: customer })).status).toBe(302);
    expect(await db.$count(schema.people, eq(schema.people.lastName, "Kunde"))).toBe(1);
    const [karl] = await db.select().from(schema.people).where(eq(schema.people.id, customer));
    expect(karl).toMatchObject({ isMember: true, memberSince: "2026-12-01", memberTypeId: memberType, streetNumber: "Feldweg 3", membershipStatusId: null });
    const dogs = await db.select({ name: schema.dogs.commonName }).from(schema.dogs).where(eq(schema.dogs.ownerId, customer));
    expect(dogs.map((dog) => dog.name).sort()).toEqual(["Bolt", "Kira"]);
    // No mandate: the fees go on an invoice.
    const fees = await db.select().from(schema.fees).where(eq(schema.fees.personId, customer));
    expect(fees.map((fee) => [fee.kind, fee.sendInvoice]).sort()).toEqual([
      ["ANNUAL", true],
      ["ENROLLMENT", true],
    ]);
  });

  it("declines with the reason in the mail, forgets the account at once", async () => {
    const email = "abgelehnt@example.org";
    const applicationId = await appliedAndConfirmed(applicationFields({ email, firstName: "Dora" }));
    const admin = await loginCookie("admin");
    const declined = await postForm("/applications", admin, { decision: "decline", applicationId, reason: "Unsere Gruppen sind voll." });
    expect(declined.status).toBe(302);
    expect(toastOf(declined)?.message).toBe("Mitgliedsantrag von Dora Antrag abgelehnt; eine E-Mail ist unterwegs.");
    const [row] = await applicationsOf(email);
    expect(row).toMatchObject({ status: "DECLINED", declineReason: "Unsere Gruppen sind voll.", iban: null, personId: null });
    const [mail] = (await mailsFor(email)).filter((caught) => caught.subject.startsWith("Dein Mitgliedsantrag bei "));
    expect(mail.text).toContain("Begründung: Unsere Gruppen sind voll.");
    expect(await db.$count(schema.people, and(eq(schema.people.firstName, "Dora"), eq(schema.people.lastName, "Antrag")))).toBe(0);
    const late = await postForm("/applications", admin, {
      decision: "accept",
      applicationId,
      memberSince: "01.12.2026",
      memberTypeId: memberType,
      person: "neu",
    });
    expect(late.status).toBe(409);
    const unknown = await postForm("/applications", admin, { decision: "decline", applicationId: 99_999_999 });
    expect(unknown.status).toBe(404);
  });
});
