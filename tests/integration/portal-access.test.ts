/**
 * Mein Wuff's access test (issue 32, "Done when"): signed in as people of two families, every
 * portal route is asked with the other's ids (people, dogs, papers, invoices and their PDFs, fees,
 * mandates and their PDFs, bookings, checkouts, the tokens of links and calendar feeds), each also
 * as aliases of the id ('012', '0x0c', ' 12', …) and as ids that are none (negative, huge, not a
 * number). For every case: no victim's secret (names, address, IBAN, dogs, invoice numbers, PDF
 * bytes, …) in the answer, a refusal or the asker's own page, and the victim's rows and files
 * unchanged. Family A shares one address (Amalie and Arnulf): acting for Amalie reaches nothing of
 * Arnulf's except what choosing whom to act for is meant to show (routes/mein.wer). Staff routes
 * answer no portal session, portal routes no staff session.
 *
 * The table PORTAL_ROUTES is the list of what a portal session can ask, one line per form; the
 * guard below fails when a route under /mein (or /mitglied-werden) has no line in it.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- the server build exists once `npm run build` ran (the test command builds first)
import * as build from "../../build/server";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { groupIban, maskIban } from "~/lib/banking";
import { sha256Base64Url } from "~/lib/bytes";
import { formatMoneyInput, todayInBerlin } from "~/lib/format";
import { BOOKING_UNKNOWN, EMAIL_LINK_UNUSABLE, LINK_UNUSABLE, MANDATE_LINK_UNUSABLE } from "~/lib/portal";
import { APPLICATION_LINK_UNUSABLE } from "~/lib/membership-applications";
import { COURSE_NOT_BOOKABLE, OFFER_GONE } from "~/models/online-bookings.server";
import { requestSignIn } from "~/models/portal-auth.server";
import { renewOwnFeed } from "~/models/portal-courses.server";
import { requestMandate } from "~/models/portal-mandates.server";
import { ITEM_NOT_PAYABLE } from "~/models/portal-money.server";
import { requestEmailChange } from "~/models/portal-profile.server";
import { fetchApp } from "../support/app";
import { tinyPdf, useTestAccount } from "../support/mail-catcher";
import { portalSessionFor, portalSessionIdOf } from "../support/portal";
import { loginCookie } from "../support/sessions";
import { berlinDayAt } from "../support/dates";

const db = createDb(env.DB);

// ---------------------------------------------------------------------------------------------
// The people: two families, each person with everything the portal shows or takes an id of

/** What a person's secrets are, by kind; a route meant to show one kind to the family says so. */
type Kind = "name" | "email" | "address" | "dog" | "paper" | "invoice" | "fee" | "iban" | "mandate" | "course" | "checkout" | "subscription";

type Person = {
  key: string;
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  rowVersion: number;
  dog: number;
  paper: number;
  invoice: number;
  draft: number;
  fee: number;
  mandate: number;
  course: number;
  booking: number;
  bookingVersion: number;
  checkout: number;
  /** An Abo running on: a missing check of whose it is would end it ('Verträge hier kündigen'). */
  subscription: number;
  /** The secrets of links and the calendar: the mailbox or the calendar app holds them. */
  feedToken: string;
  emailToken: string;
  mandateToken: string;
  linkToken: string;
  /** R2 keys of the person's files: the papers' folder, the invoice PDF, the mandate PDF. */
  files: { papers: string; invoices: string[]; mandates: string[] };
  markers: Record<Kind, string[]>;
};

const FAMILY_A = "familie.abendroth@example.org";
const FAMILY_B = "bonifatius.brennecke@example.org";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

/**
 * Ids of their own range per table (people 101…, dogs 201…, papers 301…): no id of one table is
 * an id of another, so an id sent as the wrong kind can never hit something by chance.
 */
const SPECS = [
  { key: "A1", n: 1, firstName: "Amalie", lastName: "Abendroth", email: FAMILY_A, street: "Amselweg 11", dog: "Quendolin", chip: "276098811110001" },
  { key: "A2", n: 2, firstName: "Arnulf", lastName: "Abendroth", email: FAMILY_A, street: "Ahornallee 22", dog: "Wendelin", chip: "276098822220002" },
  { key: "B", n: 3, firstName: "Bonifatius", lastName: "Brennecke", email: FAMILY_B, street: "Birkenpfad 33", dog: "Zwirbel", chip: "276098833330003" },
] as const;
const IBANS = ["DE89370400440532013000", "DE12500105170648489890", "DE44500105175407324931"];
const PENDING_IBANS = ["DE02500105170137075030", "DE02100100100006820101", "DE88100900001234567892"];
/** Typed into the mandate form by whoever asks: nobody's account. */
const NEUTRAL_IBAN = "DE68210501700012345678";

const people = {} as Record<string, Person>;

/** 18:00 Berlin, `offset` days from today. */
const dayAt = berlinDayAt(todayInBerlin());

async function statusId(code: string) {
  const [row] = await db.select({ id: schema.membershipStatuses.id }).from(schema.membershipStatuses).where(eq(schema.membershipStatuses.code, code));
  return row.id;
}

async function createPerson(spec: (typeof SPECS)[number], index: number): Promise<Omit<Person, "feedToken" | "emailToken" | "mandateToken" | "linkToken">> {
  const { key, n } = spec;
  const id = 100 + n;
  const [dog, paper, invoice, draft, fee, mandate, course, booking, checkout, subscription] = [200, 300, 400, 410, 500, 600, 700, 800, 900, 1000].map(
    (base) => base + n,
  );
  const subscriptionName = `Geheim-Abo ${key} Spielgruppe`;
  const invoiceNumber = 8800000 + n * 1111;
  const paperKey = `dogs/${dog}/${crypto.randomUUID()}.pdf`;
  const invoiceKey = `Zugang_${invoiceNumber}_${crypto.randomUUID()}.pdf`;
  const mandateReference = `ZUGANG-${key}-MANDAT`;
  const mandateKey = `mandates/${mandateReference}-${crypto.randomUUID()}.pdf`;
  const feeText = `Geheimbeitrag ${key} Sommerfest`;
  const courseName = `Geheimkurs ${key} Fährte`;
  const checkoutAmount = 111_111 * n;
  await db.insert(schema.people).values({
    id,
    firstName: spec.firstName,
    lastName: spec.lastName,
    email: spec.email,
    streetNumber: spec.street,
    zip: "35037",
    city: "Marburg",
    memberTypeId: 1,
  });
  await db.insert(schema.dogs).values({ id: dog, ownerId: id, commonName: spec.dog, chipNr: spec.chip, rabiesValidUntil: "2027-01-31" });
  const paperPdf = tinyPdf(`GEHEIM-${key}-NACHWEIS`);
  await env.PAPERS.put(paperKey, paperPdf, { httpMetadata: { contentType: "application/pdf" } });
  await db.insert(schema.dogPapers).values({
    id: paper,
    dogId: dog,
    kind: "RABIES",
    objectKey: paperKey,
    fileName: `Impfpass-${spec.dog}.pdf`,
    contentType: "application/pdf",
    sizeBytes: paperPdf.byteLength,
    rabiesValidUntil: "2028-01-31",
  });
  await env.INVOICES.put(invoiceKey, tinyPdf(`GEHEIM-${key}-RECHNUNG`));
  await db.insert(schema.invoiceHeaders).values([
    {
      id: invoice,
      personId: id,
      invoiceNumber,
      status: "ISSUED",
      issuedOn: "2026-10-01T10:00:00.000Z",
      issuedBy: "Test",
      date: "2026-10-01",
      dueDate: "2026-10-15",
      amount: 4200 + n,
      openAmount: 4200 + n,
      pdfFilePath: invoiceKey,
    },
    { id: draft, personId: id, status: "DRAFT", date: "2026-11-01", amount: 1300 + n, openAmount: 1300 + n },
  ]);
  await db
    .insert(schema.fees)
    .values({ id: fee, personId: id, date: "2026-11-01", dueDate: "2026-12-01", text: feeText, amount: 2500 + n, openAmount: 2500 + n, kind: "OTHER" });
  await env.PAPERS.put(mandateKey, tinyPdf(`GEHEIM-${key}-MANDAT`), { httpMetadata: { contentType: "application/pdf" } });
  await db.insert(schema.sepaMandates).values({
    id: mandate,
    personId: id,
    accountHolder: `${spec.firstName} ${spec.lastName}`,
    iban: IBANS[index],
    reference: mandateReference,
    mandateDate: "2026-01-15",
    source: "PORTAL",
    documentKey: mandateKey,
  });
  await db.insert(schema.courses).values({
    id: course,
    name: courseName,
    startYear: Number(todayInBerlin().slice(0, 4)),
    statusCode: "RUNNING",
    courseMasterId: 1,
    locationId: 1,
  });
  await db.insert(schema.courseDates).values([
    { courseId: course, startDateTime: dayAt(30), endDateTime: dayAt(30, 19) },
    { courseId: course, startDateTime: dayAt(37), endDateTime: dayAt(37, 19) },
  ]);
  // Cancellable now (the course type allows it up to 7 days before the start, 30 days away): a
  // missing check of whose booking it is would cancel it.
  await db
    .insert(schema.courseMemberships)
    .values({ id: booking, courseId: course, personId: id, dogId: dog, statusId: await statusId("CONFIRMED"), amount: 9000 });
  // Paid: the page Mollie sends the payer back to would thank for the amount.
  await db.insert(schema.portalCheckouts).values({
    id: checkout,
    personId: id,
    amount: checkoutAmount,
    paymentId: `tr_zugang${key}`,
    paidOn: "2026-11-02",
    createdBy: "Test",
    createdOn: "2026-11-01T10:00:00.000Z",
  });
  await db
    .insert(schema.cardProducts)
    .values({ id: 1, name: "Zugangs-Abo", kind: "SUBSCRIPTION", period: "MONTHLY", minTermMonths: 0, noticeMonths: 1, priceFull: 3000 })
    .onConflictDoNothing();
  await db.insert(schema.cards).values({
    id: subscription,
    personId: id,
    productId: 1,
    kind: "SUBSCRIPTION",
    name: subscriptionName,
    price: 3000,
    validFrom: "2026-10-01",
    period: "MONTHLY",
    minTermMonths: 0,
    noticeMonths: 1,
  });
  return {
    key,
    id,
    email: spec.email,
    firstName: spec.firstName,
    lastName: spec.lastName,
    rowVersion: 1,
    dog,
    paper,
    invoice,
    draft,
    fee,
    mandate,
    course,
    booking,
    bookingVersion: 1,
    checkout,
    subscription,
    files: { papers: `dogs/${dog}/`, invoices: [invoiceKey], mandates: [mandateKey] },
    markers: {
      // A last name only where nobody else has it (family A shares one).
      name: [spec.firstName, ...(SPECS.filter((other) => other.lastName === spec.lastName).length === 1 ? [spec.lastName] : [])],
      email: [`neu.${key.toLowerCase()}@example.org`],
      address: [spec.street],
      dog: [spec.dog, spec.chip],
      paper: [`Impfpass-${spec.dog}`, `GEHEIM-${key}-NACHWEIS`],
      invoice: [String(invoiceNumber), `GEHEIM-${key}-RECHNUNG`],
      fee: [feeText],
      iban: [IBANS[index], groupIban(IBANS[index]), maskIban(IBANS[index]), PENDING_IBANS[index], maskIban(PENDING_IBANS[index])],
      mandate: [mandateReference, `GEHEIM-${key}-MANDAT`],
      course: [courseName],
      checkout: [formatMoneyInput(checkoutAmount)],
      subscription: [subscriptionName],
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Who asks

type AskerKind = "person" | "family" | "staff";
/** An asker: a portal session acting for a person, one of a family that has not chosen yet, or a staff session. */
type Asker = { name: string; kind: AskerKind; self: string | null; victim: string };
/** Per asker (by name): its cookie, and its portal session's key and row as they were made. */
const askers: Record<string, { cookie: string; sessionKey: string | null; row: Record<string, unknown> | null }> = {};

/** The directions asked: the other family both ways, the same family, a family before choosing, staff. */
const ASKERS: Asker[] = [
  { name: "Amalie (A) with Bonifatius' (B) ids", kind: "person", self: "A1", victim: "B" },
  { name: "Bonifatius (B) with Amalie's (A) ids", kind: "person", self: "B", victim: "A1" },
  { name: "Amalie with Arnulf's ids (same family, acting for Amalie)", kind: "person", self: "A1", victim: "A2" },
  { name: "family A before choosing whom to act for, with B's ids", kind: "family", self: null, victim: "B" },
  { name: "a staff session (ADMIN) with B's ids", kind: "staff", self: null, victim: "B" },
  { name: "the staff cookie's signed value sent as the portal cookie, with B's ids", kind: "staff", self: null, victim: "B" },
];

// ---------------------------------------------------------------------------------------------
// The table: every route a portal session can use, one line per form

type Fields = Record<string, string | string[]>;
type Ask = { method?: "GET" | "POST"; path: string; form?: Fields; file?: boolean };
type Line = {
  /** The route's id in the build ('routes/mein.kurse'). */
  route: string;
  what: string;
  /** What the route asks of a session: a person acted for, a portal session, or nothing (public, or the link is the key). */
  needs: "person" | "session" | "none";
  /** The values tried (the id or token in the URL or form), from the victim's records. */
  ids: (v: Person) => string[];
  ask: (id: string, v: Person, self: Person | null) => Ask;
  /** The statuses that are a refusal or the asker's own page. */
  answers: number[];
  /** What a refusal (4xx) says, in German. */
  says?: RegExp;
  /** Secrets the asker typed in themselves (the victim's address as a new address): shown back, no leak. */
  echoes?: Kind[];
  /** Within one family what the route is meant to allow: choosing whom to act for shows the names and accepts them. */
  family?: { answers?: number[]; shows?: Kind[] };
  /** What the page shows to a browser without a portal session (a staff session is none). */
  signedOut?: string;
  /** What of the asker's own a page answered with 200 shows: it works, for the asker. */
  own?: Kind;
  /** Signed out, the page sends to the sign-in with the way back (/mein?weiter=…). */
  signInReturns?: true;
};

/** The same id as others write it: every one of them must be refused like the id itself. */
const aliases = (id: number) => [String(id), `0${id}`, `${id}.0`, ` ${id}`, `0x${id.toString(16)}`, `${id}e0`];
/** Ids that are none: not a number, negative, zero, one past the largest id, huge, a path. */
const MALFORMED = ["abc", "-1", "0", "1e3", "2147483648", "99999999999999999999", "../1"];
const ids = (id: number) => [...aliases(id), ...MALFORMED];
const segment = (id: string) => encodeURIComponent(id);
/** A token as others might try it: its stored hash, cut, lengthened, in other case, and the person's other tokens. */
async function forgedTokens(token: string, v: Person): Promise<string[]> {
  const swapped = [...token].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
  const others = [v.feedToken, v.emailToken, v.mandateToken, v.linkToken].filter((other) => other !== token);
  return [await sha256Base64Url(token), token.slice(1), `${token}A`, swapped, ...others, String(v.id), ...MALFORMED];
}
const tokens = {} as Record<string, Record<"email" | "mandate" | "link" | "feed", string[]>>;

const NOT_FOUND = /404 Nicht gefunden/;
/** A refusal's text (its start) as a pattern. */
const saying = (...texts: string[]) => new RegExp(texts.map((text) => text.slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"));
const pageOfOwn = [200];

const PORTAL_ROUTES: Line[] = [
  // The start: signed out the link form, signed in whom the portal acts for, and 'Abmelden'.
  {
    route: "routes/mein._index",
    what: "the start page",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein?personId=${id}` }),
    answers: [200, 302],
    signedOut: "Bei Mein Wuff anmelden",
    own: "name",
  },
  {
    route: "routes/mein._index",
    what: "Abmelden (ends the asker's own session only)",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ method: "POST", path: "/mein", form: { intent: "logout", personId: id, sessionId: id } }),
    answers: [302],
  },
  {
    route: "routes/mein._index",
    what: "a sign-in link for the victim's address (public; answers alike, mails the victim)",
    needs: "none",
    ids: (v) => [v.email, v.email.toUpperCase()],
    ask: (id) => ({ method: "POST", path: "/mein", form: { email: id } }),
    answers: [302, 429],
  },
  // Für wen? Only the people sharing the session's address.
  {
    route: "routes/mein.wer",
    what: "the choice of person",
    needs: "session",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/wer?personId=${id}` }),
    answers: pageOfOwn,
    family: { shows: ["name"] },
    own: "name",
  },
  {
    route: "routes/mein.wer",
    what: "acting for the victim",
    needs: "session",
    ids: (v) => ids(v.id),
    ask: (id) => ({ method: "POST", path: "/mein/wer", form: { personId: id } }),
    answers: [400],
    says: /Bitte eine der angebotenen Personen wählen/,
    family: { answers: [302, 400], shows: ["name"] },
  },
  // Meine Daten: the person comes from the session; ids in the form are ignored.
  {
    route: "routes/mein.daten",
    what: "the page",
    needs: "person",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/daten?personId=${id}` }),
    answers: pageOfOwn,
    own: "address",
  },
  {
    route: "routes/mein.daten",
    what: "own data saved with the victim's id and row version",
    needs: "person",
    ids: (v) => [String(v.id)],
    ask: (id, v, self) => ({
      method: "POST",
      path: "/mein/daten",
      form: {
        intent: "daten",
        id,
        personId: id,
        rowVersion: String(v.rowVersion),
        firstName: self?.firstName ?? "Niemand",
        lastName: self?.lastName ?? "Niemand",
        streetNumber: SPECS.find((spec) => spec.key === self?.key)?.street ?? "",
        zip: "35037",
        city: "Marburg",
      },
    }),
    answers: [302, 409],
  },
  {
    route: "routes/mein.daten",
    what: "a new e-mail address (the victim's new one) with the victim's id",
    needs: "person",
    ids: (v) => [String(v.id)],
    ask: (id, v) => ({ method: "POST", path: "/mein/daten", form: { intent: "email", email: v.markers.email[0], personId: id } }),
    answers: [200, 429],
    echoes: ["email"],
    own: "address",
  },
  {
    route: "routes/mein.daten",
    what: "a consent with the victim's id",
    needs: "person",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ method: "POST", path: "/mein/daten", form: { intent: "einwilligung", kind: "PHOTOS", give: "ja", version: "1", personId: id } }),
    answers: [302, 409],
  },
  // Meine Hunde: the page, and uploads for a dog (multipart, as the browser sends them).
  // Meine Karten & Abos: read only, the person's own cards whatever the URL names.
  {
    route: "routes/mein.karten",
    what: "the page",
    needs: "person",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/karten?personId=${id}` }),
    answers: pageOfOwn,
  },
  {
    route: "routes/mein.karten",
    what: "withdrawing the victim's Abo and malformed ids",
    needs: "person",
    ids: (v) => [String(v.subscription), "0", "-1", "abc"],
    ask: (id) => ({ method: "POST", path: "/mein/karten", form: { intent: "withdraw", cardId: id } }),
    answers: [400, 404],
  },
  // Karte oder Abo kaufen: the products are nobody's; a purchase is always the person's own.
  {
    route: "routes/mein.karten_.kaufen",
    what: "the page",
    needs: "person",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/karten/kaufen?personId=${id}` }),
    answers: pageOfOwn,
  },
  {
    route: "routes/mein.karten_.kaufen",
    what: "a purchase naming the victim's ids",
    needs: "person",
    ids: (v) => [String(v.id), String(v.subscription)],
    ask: (id) => ({ method: "POST", path: "/mein/karten/kaufen", form: { personId: id, productId: id, cardId: id } }),
    answers: [400],
  },
  {
    route: "routes/mein.hunde",
    what: "the page",
    needs: "person",
    ids: (v) => [String(v.dog)],
    ask: (id) => ({ path: `/mein/hunde?dogId=${id}` }),
    answers: pageOfOwn,
    own: "dog",
  },
  {
    route: "routes/mein.hunde",
    what: "a rabies paper for the victim's dog",
    needs: "person",
    ids: (v) => ids(v.dog),
    ask: (id) => ({ method: "POST", path: "/mein/hunde", file: true, form: { dogId: id, kind: "RABIES", rabiesValidUntil: "01.03.2027" } }),
    answers: [400, 404],
  },
  {
    route: "routes/mein.hunde",
    what: "an insurance paper for the victim's dog",
    needs: "person",
    ids: (v) => [String(v.dog)],
    ask: (id) => ({
      method: "POST",
      path: "/mein/hunde",
      file: true,
      form: { dogId: id, kind: "INSURANCE", insuranceCompany: "Fremd AG", insurancePolicyNr: "X-1", insuranceValidUntil: "31.12.2027" },
    }),
    answers: [404],
    says: NOT_FOUND,
  },
  {
    route: "routes/mein.nachweise.$paperId",
    what: "the victim's paper (and its dog's id)",
    needs: "person",
    ids: (v) => [...ids(v.paper), String(v.dog)],
    ask: (id) => ({ path: `/mein/nachweise/${segment(id)}` }),
    answers: [404],
    says: /Diesen Nachweis gibt es nicht/,
  },
  // Meine Zahlungen: the page (with the checkout Mollie sends back to), paying items, a mandate.
  {
    route: "routes/mein.zahlungen",
    what: "the page thanking for the victim's checkout",
    needs: "person",
    ids: (v) => ids(v.checkout),
    ask: (id) => ({ path: `/mein/zahlungen?zahlung=${encodeURIComponent(id)}` }),
    answers: pageOfOwn,
    own: "invoice",
  },
  {
    route: "routes/mein.zahlungen",
    what: "paying the victim's invoice, draft or fee",
    needs: "person",
    ids: (v) => [
      `R${v.invoice}`,
      `R${v.draft}`,
      `P${v.fee}`,
      `P${v.invoice}`,
      `R${v.fee}`,
      `R0${v.invoice}`,
      `r${v.invoice}`,
      `R ${v.invoice}`,
      `R${v.invoice}.0`,
      `P-${v.fee}`,
      "R",
      "X1",
      "R99999999999999999999",
    ],
    ask: (id) => ({ method: "POST", path: "/mein/zahlungen", form: { intent: "pay", item: [id] } }),
    answers: [400],
    says: saying(ITEM_NOT_PAYABLE),
  },
  {
    route: "routes/mein.zahlungen",
    what: "paying an own fee together with the victim's invoice",
    needs: "person",
    ids: (v) => [`R${v.invoice}`, `P${v.fee}`],
    ask: (id, _v, self) => ({ method: "POST", path: "/mein/zahlungen", form: { intent: "pay", item: [`P${self?.fee ?? 0}`, id] } }),
    answers: [400],
    says: saying(ITEM_NOT_PAYABLE),
  },
  {
    route: "routes/mein.zahlungen",
    what: "a mandate with the victim's id (asks for the asker's own)",
    needs: "person",
    ids: (v) => [String(v.id)],
    ask: (id) => ({
      method: "POST",
      path: "/mein/zahlungen",
      form: { intent: "mandate", personId: id, accountHolder: "Konto Inhaber", iban: NEUTRAL_IBAN, agree: "on" },
    }),
    answers: [200, 429],
    own: "invoice",
  },
  {
    route: "routes/mein.rechnungen.$invoiceId",
    what: "the victim's invoice PDF (and its draft, its fee's id)",
    needs: "person",
    ids: (v) => [...ids(v.invoice), String(v.draft), String(v.fee)],
    ask: (id) => ({ path: `/mein/rechnungen/${segment(id)}` }),
    answers: [404],
    says: /Diese Rechnung gibt es nicht/,
  },
  {
    route: "routes/mein.mandate.$mandateId",
    what: "the victim's mandate PDF",
    needs: "person",
    ids: (v) => ids(v.mandate),
    ask: (id) => ({ path: `/mein/mandate/${segment(id)}` }),
    answers: [404],
    says: /Dieses Mandat gibt es nicht/,
  },
  // Meine Kurse: the page, cancelling a booking, the own calendar link.
  {
    route: "routes/mein.kurse",
    what: "the page",
    needs: "person",
    ids: (v) => [String(v.booking)],
    ask: (id) => ({ path: `/mein/kurse?bookingId=${id}` }),
    answers: pageOfOwn,
    own: "course",
  },
  {
    route: "routes/mein.kurse",
    what: "cancelling the victim's booking (and by its course's id)",
    needs: "person",
    ids: (v) => [...ids(v.booking), String(v.course)],
    ask: (id, v) => ({ method: "POST", path: "/mein/kurse", form: { intent: "cancel", bookingId: id, rowVersion: String(v.bookingVersion) } }),
    answers: [400, 404],
    says: saying("404 Nicht gefunden", BOOKING_UNKNOWN),
  },
  {
    route: "routes/mein.kurse",
    what: "a new calendar link with the victim's id (renews the asker's own)",
    needs: "person",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ method: "POST", path: "/mein/kurse", form: { intent: "feed-renew", personId: id } }),
    answers: pageOfOwn,
  },
  {
    route: "routes/mein.kurse",
    what: "deleting the calendar link with the victim's id (the asker's own)",
    needs: "person",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ method: "POST", path: "/mein/kurse", form: { intent: "feed-revoke", personId: id } }),
    answers: [302],
  },
  {
    route: "routes/mein.kurse",
    what: "declining an offer from the waiting list by the victim's booking's id",
    needs: "person",
    ids: (v) => ids(v.booking),
    ask: (id) => ({ method: "POST", path: "/mein/kurse", form: { intent: "decline", offerId: id } }),
    answers: [409],
    says: saying(OFFER_GONE),
  },
  // Booking a course (issue 33): the victim's course (none is on offer here) and the victim's dog.
  {
    route: "routes/mein.buchen.$courseId",
    what: "the booking page of the victim's course",
    needs: "person",
    ids: (v) => ids(v.course),
    ask: (id) => ({ path: `/mein/buchen/${segment(id)}` }),
    answers: [404],
    says: /Diesen Kurs gibt es im Kursangebot nicht/,
    signInReturns: true,
  },
  {
    route: "routes/mein.buchen.$courseId",
    what: "booking the victim's dog, and the victim's course",
    needs: "person",
    ids: (v) => [...ids(v.dog), String(v.course)],
    ask: (id, v) => ({
      method: "POST",
      path: `/mein/buchen/${v.course}`,
      form: { dog: id, mode: "book", accept: "on", termsId: "1", withdrawalId: "1", privacyId: "1" },
    }),
    answers: [400, 409],
    says: saying(COURSE_NOT_BOOKABLE, "Bitte wähle einen Hund"),
  },
  // Links from mails: the link is the key (whoever holds the mail may use it, by design), so the
  // victim's real token is only opened (which changes nothing and shows nothing); posted are tokens
  // made from it. The sign-in link is also posted as it is: it signs in only in the victim's browser.
  {
    route: "routes/mein.email.$token",
    what: "opening the victim's link",
    needs: "none",
    ids: (v) => [v.emailToken],
    ask: (id) => ({ path: `/mein/email/${id}` }),
    answers: [200],
  },
  {
    route: "routes/mein.email.$token",
    what: "confirming with tokens made from the victim's",
    needs: "none",
    ids: (v) => tokens[v.key].email,
    ask: (id) => ({ method: "POST", path: `/mein/email/${segment(id)}`, form: { personId: id } }),
    answers: [400],
    says: saying(EMAIL_LINK_UNUSABLE),
  },
  {
    route: "routes/mein.lastschrift.$token",
    what: "opening the victim's link",
    needs: "none",
    ids: (v) => [v.mandateToken],
    ask: (id) => ({ path: `/mein/lastschrift/${id}` }),
    answers: [200],
  },
  {
    route: "routes/mein.lastschrift.$token",
    what: "confirming with tokens made from the victim's",
    needs: "none",
    ids: (v) => tokens[v.key].mandate,
    ask: (id) => ({ method: "POST", path: `/mein/lastschrift/${segment(id)}`, form: {} }),
    answers: [400],
    says: saying(MANDATE_LINK_UNUSABLE),
  },
  {
    route: "routes/mein.link.$token",
    what: "opening the victim's sign-in link",
    needs: "none",
    ids: (v) => [v.linkToken],
    ask: (id) => ({ path: `/mein/link/${id}` }),
    answers: [200],
  },
  {
    route: "routes/mein.link.$token",
    what: "signing in with the victim's link (another browser) and tokens made from it",
    needs: "none",
    ids: (v) => [v.linkToken, ...tokens[v.key].link],
    ask: (id) => ({ method: "POST", path: `/mein/link/${segment(id)}`, form: {} }),
    answers: [400],
    says: saying(LINK_UNUSABLE),
  },
  // Public pages of the portal.
  {
    route: "routes/mein.logo",
    what: "the club's logo",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/logo?personId=${id}` }),
    answers: [200, 404],
  },
  {
    route: "routes/mein.datenschutz",
    what: "the privacy notice",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/datenschutz?personId=${id}` }),
    answers: [200],
  },
  {
    route: "routes/mein.impressum",
    what: "the imprint",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/impressum?personId=${id}` }),
    answers: [200],
  },
  {
    route: "routes/mein.satzung",
    what: "the statutes",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/satzung?personId=${id}` }),
    answers: [200],
  },
  {
    route: "routes/mein.agb",
    what: "the terms",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/agb?personId=${id}` }),
    answers: [200],
  },
  {
    route: "routes/mein.widerrufsbelehrung",
    what: "the withdrawal notice",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/widerrufsbelehrung?personId=${id}` }),
    answers: [200],
  },
  // Vertrag widerrufen: public (§ 356a BGB); the declaration is shown back to whoever typed it,
  // and a session only fills in its own name and address.
  {
    route: "routes/mein.widerruf",
    what: "the withdrawal form",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mein/widerruf?personId=${id}` }),
    answers: [200],
  },
  {
    route: "routes/mein.widerruf",
    what: "a withdrawal declared with the victim's address and id",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id, v) => ({ method: "POST", path: "/mein/widerruf", form: { name: "Jemand", email: v.markers.email[0], contract: `Buchung ${id}`, personId: id } }),
    answers: [200, 429],
    echoes: ["email"],
  },
  // Verträge hier kündigen: public (§ 312k BGB); signed in, only the person's own Abos are listed
  // and ended, whatever Abo the form names; signed out, the notice waits for staff.
  {
    route: "routes/mein.kuendigen",
    what: "the notice form",
    needs: "none",
    ids: (v) => [String(v.id), String(v.subscription)],
    ask: (id) => ({ path: `/mein/kuendigen?abo=${id}&personId=${id}` }),
    answers: [200],
  },
  {
    route: "routes/mein.kuendigen",
    what: "a notice of the victim's Abo",
    needs: "none",
    ids: (v) => [String(v.subscription)],
    ask: (id, v) => ({
      method: "POST",
      path: "/mein/kuendigen",
      form: { name: "Jemand", email: v.markers.email[0], kind: "ORDINARY", end: "earliest", subscription: id, personId: id },
    }),
    answers: [400, 409, 429],
    echoes: ["email"],
  },
  // Mitglied werden: public; an application names nobody in Wuff, and a confirmation link is the key.
  {
    route: "routes/mitglied-werden",
    what: "the application form",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ path: `/mitglied-werden?personId=${id}` }),
    answers: [200],
  },
  {
    route: "routes/mitglied-werden",
    what: "an application naming the victim's ids",
    needs: "none",
    ids: (v) => [String(v.id)],
    ask: (id) => ({ method: "POST", path: "/mitglied-werden", form: { personId: id, memberTypeId: id, dogId: id } }),
    answers: [400],
  },
  {
    route: "routes/mitglied-werden_.bestaetigen.$token",
    what: "confirming with the victim's other tokens and malformed ones",
    needs: "none",
    ids: (v) => [...tokens[v.key].link, v.feedToken, v.emailToken, v.mandateToken],
    ask: (id) => ({ method: "POST", path: `/mitglied-werden/bestaetigen/${segment(id)}`, form: {} }),
    answers: [400],
    says: saying(APPLICATION_LINK_UNUSABLE),
  },
  // The person's calendar feed (Meine Kurse): public, the token is the key.
  {
    route: "routes/feeds.$file",
    what: "the victim's calendar by tokens made from its token",
    needs: "none",
    ids: (v) => tokens[v.key].feed,
    ask: (id) => ({ path: `/feeds/${segment(id)}` }),
    answers: [404],
    says: /Diesen Kalender gibt es nicht/,
  },
];

// ---------------------------------------------------------------------------------------------
// Asking and judging

type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean; module: { default?: unknown; action?: unknown; loader?: unknown } };
const routes = (build as unknown as { routes: Record<string, RouteEntry> }).routes;

/** A route's URL pattern ('mein/nachweise/:paperId'), its parents' paths joined. */
function fullPath(route: RouteEntry): string {
  const parts: string[] = [];
  for (let at: RouteEntry | undefined = route; at; at = at.parentId ? routes[at.parentId] : undefined) if (at.path) parts.unshift(at.path);
  return parts.join("/");
}
const isPage = (routeId: string) => Boolean(routes[routeId]?.module.default);

let ipCounter = 0;
/** A fresh client address per request: the limits per address (sign-in links, calendar feeds) count each apart. */
const nextIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

function send({ method = "GET", path, form, file }: Ask, cookie: string | undefined): Promise<Response> {
  const headers = { "CF-Connecting-IP": nextIp() };
  if (method === "GET") return fetchApp(path, { cookie, headers });
  let body: FormData | URLSearchParams;
  if (file) {
    body = new FormData();
    for (const [name, value] of Object.entries(form ?? {})) body.set(name, String(value));
    body.set("file", new File([PNG], "nachweis.png", { type: "image/png" }));
  } else {
    body = new URLSearchParams();
    for (const [name, value] of Object.entries(form ?? {})) for (const one of [value].flat()) body.append(name, one);
  }
  return fetchApp(path, { method, cookie, headers, body });
}

/** The answer as text (bytes of a PDF too), React's text separators gone. */
const textOf = async (response: Response) => new TextDecoder("utf-8").decode(await response.arrayBuffer()).replaceAll("<!-- -->", "");

function leaked(text: string, victim: Person, allowed: readonly Kind[]): string[] {
  return (Object.entries(victim.markers) as [Kind, string[]][])
    .filter(([kind]) => !allowed.includes(kind))
    .flatMap(([kind, markers]) => markers.filter((marker) => text.includes(marker)).map((marker) => `${kind} '${marker}'`));
}

/** What went wrong with one answer, or nothing. */
async function judge(line: Line, asker: Asker, victim: Person, ask: Ask, response: Response, data: boolean): Promise<string[]> {
  const text = await textOf(response);
  const sameFamily = asker.self !== null && people[asker.self].email === victim.email;
  const allowed = [...(line.echoes ?? []), ...(sameFamily ? (line.family?.shows ?? []) : [])];
  const problems = leaked(text, victim, allowed).map((what) => `shows the victim's ${what}`);
  const { status } = response;
  const location = response.headers.get("Location");
  // No portal session (staff) or no person chosen yet: to the sign-in or to the choice, nothing else.
  const sentAway = asker.kind === "staff" && line.needs !== "none" ? "/mein" : asker.kind === "family" && line.needs === "person" ? "/mein/wer" : null;
  if (sentAway) {
    // The sign-in (for lines that say so) and the choice (for any page asked) lead back to a portal page.
    const back =
      (sentAway === "/mein" && line.signInReturns && location?.startsWith("/mein?weiter=%2Fmein%2F")) ||
      (sentAway === "/mein/wer" && location?.startsWith("/mein/wer?weiter=%2Fmein%2F"));
    if (![302, 202].includes(status) || (location !== sentAway && !back))
      problems.push(`answers ${status} ${location ?? ""}, expected a redirect to ${sentAway}`);
  } else if (data) {
    if (status >= 500) problems.push(`answers ${status}`);
  } else {
    const answers = sameFamily && line.family?.answers ? line.family.answers : line.answers;
    if (!answers.includes(status)) problems.push(`answers ${status}, expected ${answers.join(" or ")}`);
    if (status >= 300 && status < 400 && !location?.startsWith("/mein")) problems.push(`redirects to ${location}`);
    if (status >= 400 && status < 500 && status !== 429 && line.says && !line.says.test(text)) problems.push(`refuses ${status} without saying ${line.says}`);
    if (asker.kind === "staff" && line.signedOut && status === 200 && !text.includes(line.signedOut)) problems.push(`does not show '${line.signedOut}'`);
    const own = asker.self && line.own ? people[asker.self].markers[line.own][0] : null;
    if (asker.kind === "person" && own && status === 200 && !text.includes(own)) problems.push(`does not show the asker's own ${line.own} '${own}'`);
  }
  return problems.map((problem) => `${ask.method ?? "GET"} ${ask.path}${data ? " (.data)" : ""}: ${problem}`);
}

/** The victim's rows in every table the portal reads or writes, and the victim's files. */
async function snapshot(victim: Person, excludedSession: string | null): Promise<string> {
  const p = victim.id;
  const statements = [
    env.DB.prepare("SELECT * FROM people WHERE id = ?").bind(p),
    env.DB.prepare("SELECT * FROM dogs WHERE owner_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM dog_papers WHERE dog_id IN (SELECT id FROM dogs WHERE owner_id = ?) ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM invoice_headers WHERE person_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM fees WHERE person_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM payments WHERE person_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM sepa_mandates WHERE person_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM course_memberships WHERE person_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM consents WHERE person_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM portal_calendar_feeds WHERE person_id = ?").bind(p),
    env.DB.prepare("SELECT * FROM portal_email_changes WHERE person_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM portal_mandate_requests WHERE person_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM portal_checkouts WHERE person_id = ? ORDER BY id").bind(p),
    env.DB.prepare("SELECT * FROM cards WHERE person_id = ? ORDER BY id").bind(p),
    // The victim's sessions (the asker's own aside: it shares family A's address), not when last seen.
    env.DB.prepare("SELECT id, email, person_id, created_on, expires_on FROM portal_sessions WHERE (email = ? OR person_id = ?) AND id <> ? ORDER BY id").bind(
      victim.email,
      p,
      excludedSession ?? "",
    ),
    env.DB.prepare("SELECT * FROM portal_sign_in_requests WHERE token_hash = ?").bind(await sha256Base64Url(victim.linkToken)),
  ];
  const rows = (await env.DB.batch(statements)).map((result) => result.results);
  const papers = (await env.PAPERS.list({ prefix: victim.files.papers })).objects.map((object) => [object.key, object.etag]);
  const mandates = await Promise.all(victim.files.mandates.map(async (key) => [key, (await env.PAPERS.head(key))?.etag]));
  const invoices = await Promise.all(victim.files.invoices.map(async (key) => [key, (await env.INVOICES.head(key))?.etag]));
  return JSON.stringify({ rows, papers, mandates, invoices });
}

/** Puts the asker's session back as it was (a case may have ended it or chosen someone else). */
async function restore(asker: Asker) {
  const row = askers[asker.name].row;
  if (!row) return;
  await env.DB.prepare("INSERT OR REPLACE INTO portal_sessions (id, email, person_id, created_on, last_seen_on, expires_on) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(row.id, row.email, row.person_id, row.created_on, new Date().toISOString(), row.expires_on)
    .run();
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  await db.insert(schema.memberTypes).values({ id: 1, code: "NONE", name: "Kein Mitglied" }).onConflictDoNothing();
  await db.insert(schema.configuration).values({ id: 1 }).onConflictDoNothing();
  await db
    .update(schema.configuration)
    .set({
      clubName: "Hundefreunde Zugang e.V.",
      iban: "DE91100000000123456789",
      bankAccountHolder: "Hundefreunde Zugang e.V.",
      creditorId: "DE98ZZZ09999999999",
      mandateText: "Ich ermächtige die Hundefreunde Zugang e.V., Zahlungen von meinem Konto mittels Lastschrift einzuziehen.",
    })
    .where(eq(schema.configuration.id, 1));
  // Mails of the cases (links asked for) go to a test account of this file's own.
  await useTestAccount("portal-access");
  await db.insert(schema.membershipStatuses).values({ code: "CONFIRMED", name: "Angemeldet", appliesTo: "COURSE", isFeeTrigger: true }).onConflictDoNothing();
  await db.insert(schema.locations).values({ id: 1, name: "Hundeplatz Zugang" }).onConflictDoNothing();
  await db.insert(schema.courseMasters).values({ id: 1, name: "Zugangstest", portalCancelDays: 7 }).onConflictDoNothing();
  const created = [];
  for (const [index, spec] of SPECS.entries()) created.push(await createPerson(spec, index));

  // The sessions first (five links per address in 15 minutes), then the victims' pending links.
  const sessionOf = async (email: string, personId?: number) => {
    const cookie = await portalSessionFor(email, personId);
    const key = await sha256Base64Url(await portalSessionIdOf(cookie));
    const row = await env.DB.prepare("SELECT * FROM portal_sessions WHERE id = ?").bind(key).first<Record<string, unknown>>();
    return { cookie, sessionKey: key, row };
  };
  const sessions = {
    A1: await sessionOf(FAMILY_A, 101),
    A2: await sessionOf(FAMILY_A, 102),
    family: await sessionOf(FAMILY_A),
    B: await sessionOf(FAMILY_B),
  };
  const links: Record<string, string> = {};
  for (const email of [FAMILY_A, FAMILY_B]) {
    const asked = await requestSignIn(db, { email, ip: nextIp(), browserId: `victim-browser-${email}` });
    if (asked.status !== "accepted" || !asked.token) throw new Error(`Kein Anmeldelink für ${email}`);
    links[email] = asked.token;
  }
  for (const person of created) {
    const spec = SPECS.find((one) => one.key === person.key)!;
    const index = SPECS.indexOf(spec);
    const email = await requestEmailChange(db, { personId: person.id, currentEmail: person.email, newEmail: person.markers.email[0] });
    const mandate = await requestMandate(db, person.id, { accountHolder: `${spec.firstName} ${spec.lastName}`, iban: PENDING_IBANS[index], bic: null });
    if (email.status !== "asked" || !email.token || mandate.status !== "asked") throw new Error("Kein Link");
    const full: Person = {
      ...person,
      feedToken: await renewOwnFeed(db, person.id),
      emailToken: email.token,
      mandateToken: mandate.token,
      linkToken: links[person.email],
    };
    people[person.key] = full;
  }
  for (const person of Object.values(people)) {
    tokens[person.key] = {
      email: await forgedTokens(person.emailToken, person),
      mandate: await forgedTokens(person.mandateToken, person),
      link: await forgedTokens(person.linkToken, person),
      feed: [
        ...(await forgedTokens(person.feedToken, person)).map((token) => `${token}.ics`),
        person.feedToken,
        `${person.feedToken}.ICS`,
        `${person.feedToken}.ics.ics`,
      ],
    };
  }

  const staff = await loginCookie("admin");
  const staffValue = staff.slice(staff.indexOf("=") + 1);
  for (const asker of ASKERS) {
    if (asker.kind === "staff") {
      askers[asker.name] = { cookie: asker.name.startsWith("a staff") ? staff : `wuff_portal=${staffValue}`, sessionKey: null, row: null };
    } else {
      const session = asker.kind === "family" ? sessions.family : sessions[asker.self as "A1" | "B"];
      askers[asker.name] = session;
    }
  }
});

/** Portal routes by their path: Mein Wuff, and becoming a member (public form, token confirmation). */
const PORTAL_PATH = /^(mein|mitglied-werden)(\/|$)/;
const PORTAL_FOLDER = /^(mein|mitglied-werden)([._]|$)/;

describe("the table covers every portal route", () => {
  it("has a line for every route under /mein and /mitglied-werden, in the build and in app/routes", () => {
    const built = Object.values(routes)
      .filter((route) => PORTAL_PATH.test(fullPath(route)))
      .map((route) => route.id);
    // The file system too: a route added after the last build is caught all the same.
    const files = Object.keys(import.meta.glob(["../../app/routes/*/route.{ts,tsx}", "../../app/routes/*.{ts,tsx}"]))
      .map((file) => file.replace(/^\.\.\/\.\.\/app\/routes\//, "").replace(/(\/route)?\.tsx?$/, ""))
      .filter((name) => PORTAL_FOLDER.test(name))
      .map((name) => `routes/${name}`);
    // Both ways of reading them work (a glob that finds nothing would let every new route through).
    for (const found of [built, files])
      expect(found).toEqual(expect.arrayContaining(["routes/mein._index", "routes/mein.kurse", "routes/mein.nachweise.$paperId"]));
    const covered = new Set(PORTAL_ROUTES.map((line) => line.route));
    const missing = [...new Set([...built, ...files])].filter((id) => !covered.has(id)).sort();
    expect(missing, "portal routes without a line in PORTAL_ROUTES (add their GET and POST forms with the other's ids)").toEqual([]);
  });

  it("names only routes that exist", () => {
    expect(PORTAL_ROUTES.map((line) => line.route).filter((id) => !routes[id])).toEqual([]);
  });
});

describe.each(ASKERS)("$name", (asker) => {
  let baseline: string;
  beforeAll(async () => {
    await restore(asker);
    baseline = await snapshot(people[asker.victim], askers[asker.name].sessionKey);
  });

  it.each(PORTAL_ROUTES.map((line) => [`${line.route.replace("routes/", "")}: ${line.what}`, line] as const))("%s", async (_name, line) => {
    const victim = people[asker.victim];
    const self = asker.self ? people[asker.self] : null;
    const { cookie, sessionKey } = askers[asker.name];
    // Without a person acted for (staff, a family before choosing) the route turns back before it
    // reads any id: the victim's plain id is enough there.
    const all = line.ids(victim);
    const turnedBack = (asker.kind === "staff" && line.needs !== "none") || (asker.kind === "family" && line.needs === "person");
    const values = turnedBack ? all.slice(0, 1) : all;
    expect(values.length).toBeGreaterThan(0);
    await restore(asker);
    const problems = await Promise.all(
      values.map(async (id, index) => {
        const ask = line.ask(id, victim, self);
        const found = await judge(line, asker, victim, ask, await send(ask, cookie), false);
        // A page's data as client navigation loads it (single fetch), for the first URL.
        if ((ask.method ?? "GET") === "GET" && isPage(line.route) && index === 0) {
          const url = new URL(ask.path, "http://localhost");
          const data = { path: `${url.pathname}.data${url.search}` };
          found.push(...(await judge(line, asker, victim, data, await send(data, cookie), true)));
        }
        return found;
      }),
    );
    expect(problems.flat()).toEqual([]);
    expect(await snapshot(victim, sessionKey), "the victim's rows or files changed").toBe(baseline);
  });
});

describe("the person's own calendar feed", () => {
  it("holds the person's own course dates and nothing of anyone else's, in the family either", async () => {
    const problems: string[] = [];
    for (const person of Object.values(people)) {
      // A new link (the cases above renewed and deleted them): the answer is the person's feed.
      const response = await send({ path: `/feeds/${await renewOwnFeed(db, person.id)}.ics` }, undefined);
      const ics = await textOf(response);
      if (response.status !== 200 || !ics.includes(`SUMMARY:${person.markers.course[0]} (${person.markers.dog[0]})`)) {
        problems.push(`${person.key}: answers ${response.status} without the own course`);
      }
      for (const other of Object.values(people).filter((one) => one !== person)) {
        problems.push(...leaked(ics, other, []).map((what) => `${person.key}'s feed shows ${other.key}'s ${what}`));
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("staff routes answer no portal session", () => {
  /** Routes anyone may call (no staff session needed), apart from the portal's. */
  const PUBLIC: Record<string, { path: string; get?: number; post?: number }> = {
    "routes/_index": { path: "/", get: 200 },
    "routes/login": { path: "/login", get: 302 },
    "routes/auth.callback": { path: "/auth/callback", get: 302 },
    "routes/logout": { path: "/logout", get: 302, post: 302 },
    "routes/$": { path: "/gibt-es-nicht", get: 302, post: 302 },
    "routes/api.public.test": { path: "/api/public/test", get: 200 },
    "routes/api.public.mollie.webhook": { path: "/api/public/mollie/webhook", get: 405, post: 400 },
    // The course catalogue (issue 33): no course here is on offer, so a course's page is a 404.
    "routes/kurse._index": { path: "/kurse", get: 200, post: 405 },
    "routes/kurse.$courseId": { path: "/kurse/1", get: 404, post: 405 },
  };
  const staffRoutes = Object.values(routes).filter(
    (route) =>
      (route.module.loader || route.module.action) &&
      (route.path !== undefined || route.index) &&
      // The root's loader runs under every page: asked with '/' below.
      route.id !== "root" &&
      !PORTAL_PATH.test(fullPath(route)) &&
      !PUBLIC[route.id] &&
      route.id !== "routes/feeds.$file",
  );

  /** A tab each screen has, so the tab's own guard is what answers. */
  const TABS: Record<string, string> = {
    people: "fees",
    dogs: "coursememberships",
    invoices: "invoicerows",
    courses: "coursememberships",
    courseMasters: "courses",
  };

  /** A route's URL with the ids of family B (the asker is Amalie of family A). */
  function urlOf(route: RouteEntry): string {
    const b = people.B;
    const pattern = fullPath(route);
    const params: Record<string, number | string> = {
      personId: b.id,
      dogId: b.dog,
      invoiceId: b.invoice,
      paperId: b.paper,
      courseId: b.course,
      tab: TABS[pattern.split("/")[0]] ?? "dogs",
    };
    return `/${pattern
      .split("/")
      .map((part) => (part.startsWith(":") ? String(params[part.slice(1)] ?? 1) : part === "*" ? "gibt-es-nicht" : part))
      .join("/")}`;
  }

  it("lists the staff's screens and downloads", () => {
    expect(staffRoutes.map((route) => route.id)).toEqual(
      expect.arrayContaining([
        "routes/people.$personId.$tab",
        "routes/dogPapers_.$paperId",
        "routes/invoices_.pdf.$invoiceId",
        "routes/gdpr_.auskunft.$personId",
      ]),
    );
    expect(staffRoutes.length).toBeGreaterThan(60);
  });

  it.each([
    ["the portal cookie", (portal: string) => portal],
    ["the portal cookie's signed value sent as the staff cookie", (portal: string) => portal.replace(/^wuff_portal=/, "wuff_session=")],
  ] as const)("every staff route, GET, its data and POST, with %s: to the login, never data", async (_name, cookieFrom) => {
    const asker = ASKERS[0];
    await restore(asker);
    const cookie = cookieFrom(askers[asker.name].cookie);
    const before = await Promise.all(Object.values(people).map((person) => snapshot(person, askers[asker.name].sessionKey)));
    const asks = staffRoutes.flatMap((route): Ask[] => {
      const path = urlOf(route);
      return [
        ...(route.module.loader ? [{ path }] : []),
        ...(route.module.default ? [{ path: `${path}.data` }] : []),
        ...(route.module.action
          ? [{ method: "POST" as const, path, form: { intent: "person:save", id: String(people.B.id), personId: String(people.B.id) } }]
          : []),
      ];
    });
    const problems = await Promise.all(
      asks.map(async (ask) => {
        const response = await send(ask, cookie);
        const text = await textOf(response);
        const location = response.headers.get("Location") ?? "";
        const found = Object.values(people).flatMap((person) => leaked(text, person, []).map((what) => `shows ${person.key}'s ${what}`));
        // To the staff login (home for a route that only redirects), 401 for the API, 405 where the method has no handler.
        const refused =
          response.status === 405 ||
          (ask.path.startsWith("/api/") ? response.status === 401 : [302, 202].includes(response.status) && /^\/(login\?redirectTo=|$)/.test(location));
        if (!refused) found.push(`answers ${response.status} ${location}`);
        return found.map((problem) => `${ask.method ?? "GET"} ${ask.path}: ${problem}`);
      }),
    );
    expect(problems.flat()).toEqual([]);
    const after = await Promise.all(Object.values(people).map((person) => snapshot(person, askers[asker.name].sessionKey)));
    expect(after).toEqual(before);
  });

  it("the public routes answer a portal session as anyone, with nothing of the person", async () => {
    // The login cannot reach the (absent) identity provider and says so in the log.
    vi.spyOn(console, "error").mockImplementation(() => {});
    const asker = ASKERS[0];
    await restore(asker);
    const { cookie } = askers[asker.name];
    const problems: string[] = [];
    for (const [id, { path, get, post }] of Object.entries(PUBLIC)) {
      expect(routes[id], id).toBeDefined();
      for (const [method, expected] of [
        ["GET", get],
        ["POST", post],
      ] as const) {
        if (expected === undefined) continue;
        const response = await send({ method, path, form: {} }, cookie);
        const text = await textOf(response);
        if (response.status !== expected) problems.push(`${method} ${path}: answers ${response.status}, expected ${expected}`);
        for (const person of Object.values(people))
          problems.push(...leaked(text, person, []).map((what) => `${method} ${path}: shows ${person.key}'s ${what}`));
      }
    }
    expect(problems).toEqual([]);
    // A staff logout is none of the portal's: the portal session goes on.
    expect((await send({ path: "/mein/hunde" }, cookie)).status).toBe(200);
  });
});
