/**
 * Spenden and Zuwendungsbestätigungen (issue 35 item 5): a donation is recorded with its donor and
 * booked as a paid fee on the account Spenden; a Sammelbestätigung carries every passage of the
 * official template (BMF-Muster, read from the PDF's text); nothing is ever confirmed for a
 * membership fee (§ 10b Abs. 1 Satz 8 EStG); § 63 Abs. 5 AO bounds the notice's age; receipts are
 * numbered, issued once, and kept as PDF.
 */
import { env } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { sha256Hex } from "~/lib/bytes";
import { amountInWords, issuerOf, type IssuerSettings } from "~/lib/donations";
import { todayInBerlin } from "~/lib/format";
import { bookingsOfPeriod } from "~/models/bookkeeping.server";
import { issueReceipts, receiptPdf } from "~/models/donations.server";
import { eraseExpiredRemains, erasePerson, erasurePlan } from "~/models/gdpr.server";
import { personCredit, reversePayment } from "~/models/payments.server";
import { errorText } from "~/models/constraints.server";
import { updateFee } from "~/models/fees.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const today = todayInBerlin();
const YEAR = Number(today.slice(0, 4));
const german = (iso: string) => iso.split("-").reverse().join(".");
/** PDF text as a reader sees it: no-break spaces as spaces, runs of white space as one. */
const plain = (text: string) => text.replace(/\u00a0/g, " ").replace(/\s+/g, " ");

const SETTINGS: IssuerSettings = {
  clubName: "Hundesportverein Wuff e.V.",
  clubStreet: "Am Hundeplatz 1",
  clubZip: "50667",
  clubCity: "Köln",
  taxNumber: "214/5678/1234",
  exemptionNoticeKind: "FREISTELLUNG",
  exemptionTaxOffice: "Köln-Altstadt",
  exemptionNoticeDate: "2025-03-14",
  exemptionAssessmentPeriod: "2023",
  exemptionPurposes: "des Sports (§ 52 Abs. 2 Satz 1 Nr. 21 AO)",
};

async function setNotice(settings: Partial<IssuerSettings>) {
  await db
    .update(schema.configuration)
    .set({ ...settings })
    .where(eq(schema.configuration.id, 1));
}

async function newDonor(lastName: string, address = true) {
  const [person] = await db
    .insert(schema.people)
    .values({
      firstName: "Sina",
      lastName,
      memberTypeId: 1,
      ...(address ? { streetNumber: "Spendenweg 7", zip: "50670", city: "Köln" } : {}),
    })
    .returning({ id: schema.people.id });
  return person.id;
}

async function donate(cookie: string, personId: number, date: string, amount: string, method = "TRANSFER", text = "") {
  const formKey = crypto.randomUUID();
  const response = await postForm("/donations", cookie, { intent: "donation:save", personId, date: german(date), amount, method, text, formKey });
  return { response, formKey };
}

/** That a statement is refused by the database with this trigger message. */
async function refusedWith(statement: Promise<unknown>, message: string) {
  const error = await statement.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error, message).not.toBeNull();
  expect(errorText(error)).toContain(message);
}

const donationsOf = (personId: number) => db.select().from(schema.donations).where(eq(schema.donations.personId, personId));

beforeAll(async () => {
  await loadDemoData();
  await setNotice(SETTINGS);
});

describe("the amount in words", () => {
  it("writes euros as one German word and cents over hundred, both ends struck out", () => {
    expect(amountInWords(125_000)).toBe("X eintausendzweihundertfünfzig Euro X");
    expect(amountInWords(2_150)).toBe("X einundzwanzig Euro 50/100 X");
    expect(amountInWords(100)).toBe("X eins Euro X");
    expect(amountInWords(5)).toBe("X null Euro 05/100 X");
    expect(() => amountInWords(0)).toThrow();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (cents) => {
        const words = amountInWords(cents);
        expect(words).toMatch(/^X [a-zäöüß ]+ Euro( \d{2}\/100)? X$/);
        if (cents % 100 !== 0) expect(words).toContain(`${String(cents % 100).padStart(2, "0")}/100`);
      }),
      { seed: 20261130, numRuns: 200 },
    );
  });
});

describe("the notice of the tax office (§ 63 Abs. 5 AO)", () => {
  it("is required, and carries receipts five years (Freistellung) or three (§ 60a AO) to the day", () => {
    expect(issuerOf({ ...SETTINGS, exemptionNoticeKind: null }, "2026-11-30")).toEqual({ refusal: expect.stringContaining("steuerbegünstigter Verein") });
    expect(issuerOf({ ...SETTINGS, taxNumber: null }, "2026-11-30")).toEqual({ refusal: expect.stringContaining("Steuernummer") });
    expect(issuerOf({ ...SETTINGS, exemptionNoticeDate: "2021-11-30" }, "2026-11-30")).toHaveProperty("issuer");
    expect(issuerOf({ ...SETTINGS, exemptionNoticeDate: "2021-11-29" }, "2026-11-30")).toEqual({ refusal: expect.stringContaining("§ 63 Abs. 5 AO") });
    const feststellung = { ...SETTINGS, exemptionNoticeKind: "FESTSTELLUNG_60A" as const, exemptionAssessmentPeriod: null };
    expect(issuerOf({ ...feststellung, exemptionNoticeDate: "2023-11-30" }, "2026-11-30")).toHaveProperty("issuer");
    expect(issuerOf({ ...feststellung, exemptionNoticeDate: "2023-11-29" }, "2026-11-30")).toEqual({ refusal: expect.stringContaining("älter als 3 Jahre") });
    expect(issuerOf({ ...SETTINGS, exemptionNoticeDate: "2027-01-01" }, "2026-11-30")).toEqual({ refusal: expect.stringContaining("nach heute") });
  });
});

describe("recording a donation", () => {
  it("books it as a paid fee on the account Spenden, in the journal and (bar) in the Kasse; staff may not", async () => {
    const cookie = await loginCookie("finance");
    const personId = await newDonor("Großzügig");
    const refused = await postForm("/donations", await loginCookie("staff"), {
      intent: "donation:save",
      personId,
      date: german(today),
      amount: "10,00",
      method: "TRANSFER",
      formKey: crypto.randomUUID(),
    });
    expect(refused.status).toBe(302);
    expect(await donationsOf(personId)).toHaveLength(0);

    const { response, formKey } = await donate(cookie, personId, today, "50,00", "CASH", "Für den Agility-Parcours");
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("Spende über 50,00\u00a0€ erfasst");
    const [donation] = await donationsOf(personId);
    expect(donation).toMatchObject({ amount: 5_000, date: today, text: "Für den Agility-Parcours", receiptId: null, cancelledOn: null });
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.id, donation.feeId));
    expect(fee).toMatchObject({ kind: "OTHER", amount: 5_000, openAmount: 0, sendInvoice: false, personId });
    const [payment] = await db
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.entryKey, `form:${formKey}`));
    expect(payment).toMatchObject({ amount: 5_000, method: "CASH", personId });
    expect(await db.$count(schema.cashEntries, eq(schema.cashEntries.paymentId, payment.id))).toBe(1);

    // Sent twice: booked once.
    const again = await postForm("/donations", cookie, {
      intent: "donation:save",
      personId,
      date: german(today),
      amount: "50,00",
      method: "CASH",
      formKey,
    });
    expect(again.status).toBe(409);
    expect(await donationsOf(personId)).toHaveLength(1);

    // Bad input: a German message, nothing booked.
    for (const bad of [
      { amount: "0,00" },
      { amount: "abc" },
      { method: "OFFSET" },
      { date: "31.02.2026" },
      { date: german(`${YEAR + 1}-01-01`) },
      { personId: "999999" },
    ]) {
      const answer = await postForm("/donations", cookie, {
        intent: "donation:save",
        personId,
        date: german(today),
        amount: "5,00",
        method: "TRANSFER",
        formKey: crypto.randomUUID(),
        ...bad,
      });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
    }
    expect(await donationsOf(personId)).toHaveLength(1);

    // The screen lists it.
    const html = (await (await fetchApp("/donations?period=all", { cookie })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Großzügig");
    expect(html).toContain("Für den Agility-Parcours");
  });

  it("goes to the DATEV export on the account Spenden (ideeller Bereich) and the fee and payment stay as booked", async () => {
    const cookie = await loginCookie("finance");
    const personId = await newDonor("Buchung");
    await donate(cookie, personId, "2026-06-15", "120,00");
    const [donation] = await donationsOf(personId);
    const { bookings } = await bookingsOfPeriod(db, "2026-06-15", "2026-06-15");
    const income = bookings.find((booking) => booking.document === `P${donation.feeId}`);
    expect(income).toMatchObject({ amount: 12_000, contraAccount: "41000", costCentre: "1", taxKey: "" });
    // Changed in 'Offener Posten' or undone alone in 'Zahlungen': refused, it goes with the donation.
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.id, donation.feeId));
    const actor = { name: "Test" };
    expect(await updateFee(db, fee.id, fee.rowVersion, { date: fee.date, text: fee.text, amount: 100, dueDate: null } as never, actor)).toMatchObject({
      status: "refused",
    });
    const [payment] = await db
      .select({ id: schema.payments.id })
      .from(schema.payments)
      .innerJoin(schema.paymentAllocations, eq(schema.paymentAllocations.paymentId, schema.payments.id))
      .where(eq(schema.paymentAllocations.feeId, fee.id));
    expect(await reversePayment(db, payment.id, { date: today, text: "Test" }, actor)).toMatchObject({
      status: "refused",
      message: expect.stringContaining("Spende"),
    });
    await refusedWith(db.run(sql`UPDATE fees SET amount = 100 WHERE id = ${fee.id}`), "frozen: donation");
    await refusedWith(db.run(sql`UPDATE donations SET amount = 100 WHERE id = ${donation.id}`), "frozen: donation");
    await refusedWith(db.run(sql`DELETE FROM donations WHERE id = ${donation.id}`), "frozen: donation");
  });

  it("is cancelled while unconfirmed: the money is the person's credit again, the account Spenden nets to zero", async () => {
    const cookie = await loginCookie("finance");
    const personId = await newDonor("Irrtum");
    await donate(cookie, personId, "2026-05-04", "30,00");
    const [donation] = await donationsOf(personId);
    const cancel = await postForm("/donations", cookie, { intent: "donation:cancel", id: donation.id });
    expect(cancel.status).toBe(302);
    expect(toastOf(cancel)?.message).toContain("Spende storniert");
    const [after] = await donationsOf(personId);
    expect(after.cancelledOn).not.toBeNull();
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.id, donation.feeId));
    expect(fee.openAmount).toBe(0);
    const { bookings } = await bookingsOfPeriod(db, "2026-01-01", "2026-12-31");
    const mine = bookings.filter((booking) => booking.personId === personId);
    const onAccount = (account: string) =>
      mine.reduce((total, booking) => total + (booking.account === account ? booking.amount : 0) - (booking.contraAccount === account ? booking.amount : 0), 0);
    expect(onAccount("41000")).toBe(0);
    // The money stays in the bank as the person's credit (Debitor in Haben), to be refunded or used.
    expect(onAccount("18000")).toBe(3_000);
    expect(await personCredit(db, personId)).toBe(3_000);
    expect((await postForm("/donations", cookie, { intent: "donation:cancel", id: donation.id })).status).toBe(409);
    // A cancelled donation is never confirmed.
    expect((await postForm("/donations", cookie, { intent: "donation:receipt", id: donation.id })).status).toBe(409);
  });
});

describe("a donation from money already booked", () => {
  it("takes the donor's credit (a transfer the bank import could not assign) instead of booking the money twice", async () => {
    const cookie = await loginCookie("finance");
    const personId = await newDonor("Kontoauszug");
    await db.insert(schema.payments).values({
      entryKey: `bank:spende-${personId}`,
      personId,
      date: "2026-08-08",
      amount: 4_000,
      method: "TRANSFER",
      source: "BANK_ENTRY",
      text: "Spende Vereinsheim",
      createdBy: "Test",
      createdOn: new Date().toISOString(),
    });
    expect(await personCredit(db, personId)).toBe(4_000);
    const tooMuch = await donate(cookie, personId, "2026-08-08", "40,01", "CREDIT");
    expect(tooMuch.response.status).toBe(400);
    expect((await tooMuch.response.text()).replaceAll("<!-- -->", "")).toContain("Das Guthaben der Person reicht nicht");
    const { response } = await donate(cookie, personId, "2026-08-08", "40,00", "CREDIT", "Vereinsheim");
    expect(response.status).toBe(302);
    expect(await db.$count(schema.payments, eq(schema.payments.personId, personId))).toBe(1);
    expect(await personCredit(db, personId)).toBe(0);
    const [donation] = await donationsOf(personId);
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.id, donation.feeId));
    expect(fee.openAmount).toBe(0);
  });
});

describe("no receipt for a membership fee (§ 10b Abs. 1 Satz 8 EStG)", () => {
  it("cannot make a membership fee a donation, nor confirm anything for a member who only paid fees", async () => {
    const personId = await newDonor("Nurbeitrag");
    const now = new Date().toISOString();
    const [annual] = await db
      .insert(schema.fees)
      .values({
        personId,
        date: "2026-01-15",
        text: "Jahresbeitrag 2026",
        amount: 6_000,
        openAmount: 0,
        kind: "ANNUAL",
        periodYear: 2026,
        createdBy: "Test",
        createdOn: now,
      })
      .returning({ id: schema.fees.id });
    // Not even by a hand-made statement: the trigger refuses a donation on a membership fee.
    await refusedWith(
      db.insert(schema.donations).values({ personId, date: "2026-01-15", amount: 6_000, feeId: annual.id, createdBy: "Test", createdOn: now }),
      "donation: not a donation fee",
    );
    const cookie = await loginCookie("finance");
    // 'Bestätigung ausstellen' takes a donation's id: the fee's id names no donation of theirs.
    await postForm("/donations", cookie, { intent: "donation:receipt", id: annual.id });
    expect(await db.$count(schema.donationReceipts, eq(schema.donationReceipts.personId, personId))).toBe(0);
    // The year's Sammelbestätigungen pass them by.
    await postForm("/donations/receipts", cookie, { intent: "donationReceipt:save", year: 2026 });
    expect(await db.$count(schema.donationReceipts, eq(schema.donationReceipts.personId, personId))).toBe(0);
  });
});

describe("the Sammelbestätigung", () => {
  it("carries every field of the official template, is numbered, issued once and kept as PDF", async () => {
    const cookie = await loginCookie("finance");
    const personId = await newDonor("Sammelmann");
    const homeless = await newDonor("Ohneadresse", false);
    await donate(cookie, personId, "2026-02-03", "100,00");
    await donate(cookie, personId, "2026-07-19", "1.125,50");
    await donate(cookie, personId, "2026-10-01", "24,50");
    await donate(cookie, homeless, "2026-04-04", "10,00");

    const issue = await postForm("/donations/receipts", cookie, { intent: "donationReceipt:save", year: 2026 });
    expect(issue.status).toBe(302);
    const message = toastOf(issue)?.message ?? "";
    expect(message).toMatch(/Sammelbestätigung/);
    expect(message).toContain("Ohne Anschrift, daher nicht bestätigt: Sina Ohneadresse");

    const [receipt] = await db.select().from(schema.donationReceipts).where(eq(schema.donationReceipts.personId, personId));
    expect(receipt).toMatchObject({
      kind: "COLLECTIVE",
      amount: 125_000,
      periodFrom: "2026-02-03",
      periodTo: "2026-10-01",
      issuedOn: today,
      donorName: "Sina Sammelmann",
      donorAddress: "Spendenweg 7, 50670 Köln",
    });
    expect(receipt.number).toMatch(new RegExp(`^ZB-${YEAR}-\\d{4}$`));
    expect((await donationsOf(personId)).every((donation) => donation.receiptId === receipt.id)).toBe(true);
    expect(await db.$count(schema.donationReceipts, eq(schema.donationReceipts.personId, homeless))).toBe(0);

    // The Doppel: stored in R2 once, the download is that file.
    expect(receipt.pdfKey).toBe(`donation-receipts/${receipt.number}.pdf`);
    const stored = await env.INVOICES.get(receipt.pdfKey!);
    const storedBytes = new Uint8Array(await stored!.arrayBuffer());
    expect(await sha256Hex(storedBytes)).toBe(receipt.pdfSha256);
    const response = await fetchApp(`/donations/receipts/pdf/${receipt.id}`, { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(await sha256Hex(bytes)).toBe(receipt.pdfSha256);

    const text = plain((await extractText(await getDocumentProxy(bytes), { mergePages: true })).text);
    const fields = [
      // Aussteller
      "Aussteller (Bezeichnung und Anschrift der steuerbegünstigten Einrichtung)",
      "Hundesportverein Wuff e.V., Am Hundeplatz 1, 50667 Köln",
      // Title and legal basis
      "Sammelbestätigung über Geldzuwendungen",
      "im Sinne des § 10b des Einkommensteuergesetzes an eine der in § 5 Abs. 1 Nr. 9 des Körperschaftsteuergesetzes bezeichneten Körperschaften, Personenvereinigungen oder Vermögensmassen",
      // Donor
      "Name und Anschrift des Zuwendenden:",
      "Sina Sammelmann, Spendenweg 7, 50670 Köln",
      // Amount in figures and words, period
      "Gesamtbetrag der Zuwendung - in Ziffern -",
      "1.250,00 €",
      "- in Buchstaben -",
      "X eintausendzweihundertfünfzig Euro X",
      "Zeitraum der Sammelbestätigung:",
      "03.02.2026 bis 01.10.2026",
      // The notice
      "Wir sind wegen Förderung des Sports (§ 52 Abs. 2 Satz 1 Nr. 21 AO) nach dem Freistellungsbescheid bzw. nach der Anlage zum Körperschaftsteuerbescheid des Finanzamtes Köln-Altstadt, StNr. 214/5678/1234, vom 14.03.2025 für den letzten Veranlagungszeitraum 2023 nach § 5 Abs. 1 Nr. 9 des Körperschaftsteuergesetzes von der Körperschaftsteuer und nach § 3 Nr. 6 des Gewerbesteuergesetzes von der Gewerbesteuer befreit.",
      "Es wird bestätigt, dass die Zuwendung nur zur Förderung des Sports (§ 52 Abs. 2 Satz 1 Nr. 21 AO) verwendet wird.",
      "Es wird bestätigt, dass es sich nicht um Mitgliedsbeiträge handelt, deren Abzug nach § 10b Abs. 1 des Einkommensteuergesetzes ausgeschlossen ist.",
      "Es wird bestätigt, dass über die in der Gesamtsumme enthaltenen Zuwendungen keine weiteren Bestätigungen, weder formelle Zuwendungsbestätigungen noch Beitragsquittungen oder ähnliches ausgestellt wurden und werden.",
      "Ob es sich um den Verzicht auf Erstattung von Aufwendungen handelt, ist der Anlage zur Sammelbestätigung zu entnehmen.",
      // Place, date, signature
      `Köln, ${german(today)}`,
      "(Ort, Datum und Unterschrift des Zuwendungsempfängers)",
      // The two notes every receipt carries
      "Wer vorsätzlich oder grob fahrlässig eine unrichtige Zuwendungsbestätigung erstellt oder veranlasst, dass Zuwendungen nicht zu den in der Zuwendungsbestätigung angegebenen steuerbegünstigten Zwecken verwendet werden, haftet für die entgangene Steuer (§ 10b Abs. 4 EStG, § 9 Abs. 3 KStG, § 9 Nr. 5 GewStG).",
      "Diese Bestätigung wird nicht als Nachweis für die steuerliche Berücksichtigung der Zuwendung anerkannt, wenn das Datum des Freistellungsbescheides länger als 5 Jahre bzw. das Datum der Feststellung der Einhaltung der satzungsmäßigen Voraussetzungen nach § 60a Abs. 1 AO länger als 3 Jahre seit Ausstellung der Bestätigung zurückliegt (§ 63 Abs. 5 AO).",
      // The Anlage: each donation with date, kind, Verzicht and amount, and the same total
      `Anlage zur Sammelbestätigung vom ${german(today)}`,
      "Datum der Zuwendung",
      "Art der Zuwendung (Geldzuwendung/Mitgliedsbeitrag)",
      "Verzicht auf die Erstattung von Aufwendungen (ja/nein)",
      "Betrag",
      "03.02.2026 Geldzuwendung nein 100,00 €",
      "19.07.2026 Geldzuwendung nein 1.125,50 €",
      "01.10.2026 Geldzuwendung nein 24,50 €",
      "Gesamtsumme 1.250,00 €",
      `Nr. ${receipt.number}`,
    ];
    for (const field of fields) expect(text, field).toContain(field);

    // Issued once: a second run finds nothing to confirm for them; a confirmed donation is not cancelled.
    await postForm("/donations/receipts", cookie, { intent: "donationReceipt:save", year: 2026 });
    expect(await db.$count(schema.donationReceipts, eq(schema.donationReceipts.personId, personId))).toBe(1);
    const [first] = await donationsOf(personId);
    const cancel = await postForm("/donations", cookie, { intent: "donation:cancel", id: first.id });
    expect(cancel.status).toBe(409);
    expect((await donationsOf(personId)).every((donation) => donation.cancelledOn === null)).toBe(true);
    // Never changed, never deleted.
    await refusedWith(db.run(sql`UPDATE donation_receipts SET amount = 1 WHERE id = ${receipt.id}`), "frozen: donation receipt");
    await refusedWith(db.run(sql`DELETE FROM donation_receipts WHERE id = ${receipt.id}`), "frozen: donation receipt");
    // The receipts screen lists it.
    const html = (await (await fetchApp("/donations/receipts", { cookie })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain(receipt.number!);
  });

  it("a single Bestätigung names its day and 'Verzicht: Nein'; the numbers follow on", async () => {
    const cookie = await loginCookie("finance");
    const personId = await newDonor("Einzeln");
    await donate(cookie, personId, "2026-09-09", "75,00");
    const [donation] = await donationsOf(personId);
    const [before] = await db.all<{ seq: number | null }>(sql`SELECT max(seq) AS seq FROM donation_receipts WHERE year = ${YEAR}`);
    const response = await postForm("/donations", cookie, { intent: "donation:receipt", id: donation.id });
    expect(response.status).toBe(302);
    const [receipt] = await db
      .select()
      .from(schema.donationReceipts)
      .where(and(eq(schema.donationReceipts.personId, personId), eq(schema.donationReceipts.kind, "SINGLE")));
    expect(receipt.seq).toBe((before.seq ?? 0) + 1);
    const pdf = await fetchApp(`/donations/receipts/pdf/${receipt.id}`, { cookie });
    const text = plain((await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), { mergePages: true })).text);
    for (const field of [
      "Bestätigung über Geldzuwendungen",
      "Betrag der Zuwendung - in Ziffern -",
      "75,00 €",
      "X fünfundsiebzig Euro X",
      "Tag der Zuwendung:",
      "09.09.2026",
      "Es handelt sich um den Verzicht auf Erstattung von Aufwendungen: Ja ☐ Nein ☒",
      "Es wird bestätigt, dass es sich nicht um einen Mitgliedsbeitrag handelt, dessen Abzug nach § 10b Abs. 1 des Einkommensteuergesetzes ausgeschlossen ist.",
    ]) {
      expect(text, field).toContain(field);
    }
    expect(text).not.toContain("Sammelbestätigung");
    // Confirmed once: a second 'Bestätigung ausstellen' is refused.
    expect((await postForm("/donations", cookie, { intent: "donation:receipt", id: donation.id })).status).toBe(409);
  });

  it("is refused without the notice, or with one older than § 63 Abs. 5 AO allows", async () => {
    const cookie = await loginCookie("finance");
    const personId = await newDonor("Zualt");
    await donate(cookie, personId, "2026-03-03", "20,00");
    await setNotice({ exemptionNoticeDate: "2020-01-01" });
    const old = await postForm("/donations/receipts", cookie, { intent: "donationReceipt:save", year: 2026 });
    expect(old.status).toBe(400);
    expect((await old.text()).replaceAll("<!-- -->", "")).toContain("§ 63 Abs. 5 AO");
    await setNotice({ exemptionNoticeKind: null });
    const none = await postForm("/donations/receipts", cookie, { intent: "donationReceipt:save", year: 2026 });
    expect(none.status).toBe(400);
    expect(await db.$count(schema.donationReceipts, eq(schema.donationReceipts.personId, personId))).toBe(0);
    await setNotice(SETTINGS);
  });
});

describe("the Doppel's retention (§ 50 Abs. 7 EStDV, ten years)", () => {
  it("erases an erased donor's donation with its fee and the receipt with its PDF only after ten years", async () => {
    const cookie = await loginCookie("finance");
    const actor = { name: "Dana Datenschutz" };
    await setNotice({ exemptionNoticeDate: "2013-06-01" });
    const donorOf = async (lastName: string, donated: string, issued: string) => {
      const personId = await newDonor(lastName);
      await donate(cookie, personId, donated, "15,00");
      const [donation] = await donationsOf(personId);
      const outcome = await issueReceipts(db, { donationId: donation.id }, issued, actor);
      if (outcome.status !== "issued") throw new Error(outcome.status);
      const stored = await receiptPdf(env, db, outcome.receipts[0].id, async () => new TextEncoder().encode(`%PDF ${lastName}`));
      return { personId, receiptId: outcome.receipts[0].id, key: `donation-receipts/${stored!.number}.pdf` };
    };
    const old = await donorOf("Spendealt", "2014-05-05", "2015-01-10");
    const kept = await donorOf("Spendejung", "2016-05-05", "2017-01-10");
    await setNotice(SETTINGS);
    for (const donor of [old, kept]) {
      const plan = (await erasurePlan(db, donor.personId))!;
      await erasePerson(db, plan, plan.fingerprint, actor);
    }
    const remains = await eraseExpiredRemains(env, db, new Date("2026-11-25T06:00:00Z"));
    expect(remains.receiptIds).toEqual([old.receiptId]);
    expect(remains.receiptPdfKeys).toEqual([old.key]);
    expect(remains.personIds).toContain(old.personId);
    expect(await donationsOf(old.personId)).toEqual([]);
    expect(await env.INVOICES.head(old.key)).toBeNull();
    // The receipt of 2017 is kept until the end of 2027, and so is its donor's bare record.
    expect(await db.$count(schema.donationReceipts, eq(schema.donationReceipts.id, kept.receiptId))).toBe(1);
    expect(await env.INVOICES.head(kept.key)).not.toBeNull();
    const [person] = await db.select({ retainedUntil: schema.people.retainedUntil }).from(schema.people).where(eq(schema.people.id, kept.personId));
    expect(person.retainedUntil).toBe("2027-12-31");
  });
});
