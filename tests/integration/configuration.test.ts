import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { PHONE_MESSAGE, ZIP_MESSAGE } from "~/lib/form-fields";
import { getConfiguration, isRefusedValue } from "~/models/configuration.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);

const valid = {
  hsvrmVereinName: "Hundesportverein Wuff e.V.",
  hsvrmKG: "7",
  hsvrmVereinNr: "1234",
  smtpTestAccount: "test@wuff.example",
  clubMembershipEnrollmentFee: "1.234,5",
  clubMembershipPriceFull: "12,50 €",
  clubMembershipPriceReduced1: "30",
  clubMembershipPriceReduced2: "0,99",
  lastInvoiceNumber: "2026042",
  mollieIntegration: true,
  taxStatus: "SMALL_BUSINESS",
};

describe("Einstellungen", () => {
  beforeEach(async () => {
    await db.delete(schema.configuration);
  });

  it("inserts the settings when there are none, stores money exactly in cents and shows it German", async () => {
    const cookie = await loginCookie("admin");
    const response = await postForm("/configuration", cookie, valid);
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Einstellungen wurden angelegt" });
    expect(await getConfiguration(db)).toMatchObject({
      clubMembershipEnrollmentFee: 123450,
      clubMembershipPriceFull: 1250,
      clubMembershipPriceReduced1: 3000,
      clubMembershipPriceReduced2: 99,
      hsvrmKG: 7,
      lastInvoiceNumber: 2026042,
      mollieIntegration: true,
      createdBy: "Anna Admin",
    });
    const html = await (await fetchApp("/configuration", { cookie })).text();
    expect(html).toContain('value="1.234,50"');
    expect(html).toContain('value="12,50"');
  });

  it("number fields bring the number keypad on phones, amounts the one with the decimal comma", async () => {
    const html = await (await fetchApp("/configuration", { cookie: await loginCookie("admin") })).text();
    // React writes the attribute as inputMode: HTML attribute names are case-insensitive.
    const inputMode = (name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0].match(/inputmode="(\w+)"/i)?.[1];
    for (const name of ["hsvrmKG", "hsvrmVereinNr", "lastInvoiceNumber"]) expect(inputMode(name), name).toBe("numeric");
    for (const name of ["clubMembershipEnrollmentFee", "clubMembershipPriceFull", "clubMembershipPriceReduced1", "clubMembershipPriceReduced2"]) {
      expect(inputMode(name), name).toBe("decimal");
      // Text, not type=number: the German decimal comma must stay typeable.
      expect(html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0]).toContain('type="text"');
    }
  });

  it("keeps the club's PLZ and phone as people write them", async () => {
    const response = await postForm("/configuration", await loginCookie("admin"), { ...valid, clubZip: "35037", clubPhone: "+49 6421 / 98765-0" });
    expect(response.status).toBe(302);
    expect(await getConfiguration(db)).toMatchObject({ clubZip: "35037", clubPhone: "+49 6421 / 98765-0" });
  });

  it("updates existing settings quoting their version", async () => {
    const cookie = await loginCookie("admin");
    await postForm("/configuration", cookie, valid);
    const { rowVersion } = (await getConfiguration(db))!;
    const response = await postForm("/configuration", cookie, { ...valid, rowVersion, clubMembershipPriceFull: "60,00" });
    expect(toastOf(response)).toEqual({ type: "success", message: "Einstellungen wurden aktualisiert" });
    expect(await getConfiguration(db)).toMatchObject({ clubMembershipPriceFull: 6000, rowVersion: rowVersion + 1, lastModifiedBy: "Anna Admin" });

    const stale = await postForm("/configuration", cookie, { ...valid, rowVersion, clubMembershipPriceFull: "1,00" });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Die Einstellungen wurden inzwischen von Anna Admin am");
    expect((await getConfiguration(db))!.clubMembershipPriceFull).toBe(6000);
  });

  it.each([
    [{ clubMembershipPriceFull: "12.5" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    [{ clubMembershipPriceFull: "" }, "Bitte einen Betrag eingeben"],
    [{ clubMembershipEnrollmentFee: "99999999,99" }, "Der Betrag ist zu groß (höchstens 999.999,99 €)"],
    [{ clubMembershipPriceReduced1: "-5,00" }, "Der Betrag darf nicht negativ sein"],
    [{ hsvrmKG: "sieben" }, "HSVRM KG muss eine Zahl sein"],
    [{ lastInvoiceNumber: "99999999999" }, "Letzte Rechnungs Nr ist zu groß"],
    [{ lastInvoiceNumber: "" }, "Letzte Rechnungs Nr muss eine Zahl sein"],
    [{ smtpTestAccount: "kein-konto" }, "Bitte eine gültige E-Mail-Adresse eingeben"],
    [{ hsvrmVereinName: "x".repeat(10_000) }, "Höchstens 200 Zeichen"],
    // The PLZ and phone rules of people (issue 29: '31.02.2026' and '-1' were saved).
    [{ clubZip: "31.02.2026" }, ZIP_MESSAGE],
    [{ clubZip: "D-35037" }, ZIP_MESSAGE],
    [{ clubPhone: "-1" }, PHONE_MESSAGE],
    [{ clubPhone: "31.02.2026" }, PHONE_MESSAGE],
    // The club's VAT (issue 30): its status, Steuernummer, USt-IdNr. and the reason of an exemption.
    [{ taxStatus: "" }, "Bitte wählen, wie der Verein Umsatzsteuer berechnet"],
    [{ taxStatus: "MWST" }, "Bitte wählen, wie der Verein Umsatzsteuer berechnet"],
    [{ vatId: "DE123456789" }, "Die USt-IdNr. ist ungültig"],
    [{ vatId: "ATU12345678" }, "Die USt-IdNr. ist ungültig"],
    [{ taxNumber: "12/345" }, "Die Steuernummer bitte so eingeben, wie sie im Steuerbescheid steht"],
    [{ taxNumber: "DE123456788" }, "Das ist eine USt-IdNr.: bitte ins Feld „USt-IdNr.“ eintragen"],
    [{ taxStatus: "EXEMPT", taxExemptionNote: "  " }, "Bitte den Grund der Steuerbefreiung angeben"],
    // Regelbesteuerung: every invoice names the Steuernummer or the USt-IdNr. (§ 14 Abs. 4 Satz 1 Nr. 2 UStG).
    [{ taxStatus: "REGULAR", taxNumber: "" }, "Bei Regelbesteuerung steht die Steuernummer oder die USt-IdNr. auf jeder Rechnung"],
    [{ taxCaseCourse: "ZEHN" }, "Bitte wählen, wie die Umsatzsteuer berechnet wird"],
  ])("refuses %j with a German message and changes nothing", async (change, message) => {
    const response = await postForm("/configuration", await loginCookie("admin"), { ...valid, ...change });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await getConfiguration(db)).toBeUndefined();
  });

  it("stores the club's tax status, Steuernummer and USt-IdNr. (spaces gone, upper case) and offers the statuses it can invoice", async () => {
    const cookie = await loginCookie("admin");
    const response = await postForm("/configuration", cookie, {
      ...valid,
      taxStatus: "EXEMPT",
      taxNumber: "21/815/08150",
      vatId: "de 123 456 788",
      taxExemptionNote: "Steuerfrei nach § 4 Nr. 22 Buchst. a UStG.",
    });
    expect(response.status).toBe(302);
    expect(await getConfiguration(db)).toMatchObject({
      taxStatus: "EXEMPT",
      taxNumber: "21/815/08150",
      vatId: "DE123456788",
      taxExemptionNote: "Steuerfrei nach § 4 Nr. 22 Buchst. a UStG.",
    });
    const html = (await (await fetchApp("/configuration", { cookie })).text()).replaceAll("<!-- -->", "");
    for (const label of ["Regelbesteuerung", "Kleinunternehmer nach § 19 UStG", "steuerbefreit"]) expect(html).toContain(`>${label}</option>`);
    expect(html).toMatch(/<option value="EXEMPT" selected="">steuerbefreit<\/option>/);
  });

  it("takes Regelbesteuerung with a Steuernummer and the default tax case per kind of fee; a request without the defaults keeps them", async () => {
    const cookie = await loginCookie("admin");
    const regular = {
      ...valid,
      taxStatus: "REGULAR",
      taxNumber: "21/815/08150",
      taxCaseAnnual: "NOT_TAXABLE",
      taxCaseCourse: "REDUCED",
      taxCaseOther: "EXEMPT",
    };
    expect((await postForm("/configuration", cookie, { ...regular, taxCaseEnrollment: "STANDARD" })).status).toBe(302);
    expect(await getConfiguration(db)).toMatchObject({
      taxStatus: "REGULAR",
      taxCaseAnnual: "NOT_TAXABLE",
      taxCaseEnrollment: "STANDARD",
      taxCaseCourse: "REDUCED",
      taxCaseOther: "EXEMPT",
    });
    const { rowVersion } = (await getConfiguration(db))!;
    expect((await postForm("/configuration", cookie, { ...valid, taxStatus: "REGULAR", vatId: "DE123456788", rowVersion: String(rowVersion) })).status).toBe(
      302,
    );
    expect(await getConfiguration(db)).toMatchObject({ taxStatus: "REGULAR", taxCaseEnrollment: "STANDARD", taxCaseCourse: "REDUCED" });
  });

  it("refuses Regelbesteuerung while the club's own invoice template shows no VAT, and changes nothing", async () => {
    const cookie = await loginCookie("admin");
    const before = await env.DB.prepare("SELECT html FROM templates WHERE name = 'invoice'").first<{ html: string }>();
    await env.DB.prepare(
      "INSERT INTO templates (name, kind, html) VALUES ('invoice', 'INVOICE', '<p>{{invoiceNumber}}</p>') ON CONFLICT (name) DO UPDATE SET html = excluded.html",
    ).run();
    try {
      const response = await postForm("/configuration", cookie, { ...valid, taxStatus: "REGULAR", taxNumber: "21/815/08150" });
      expect(response.status).toBe(400);
      expect((await response.text()).replaceAll("<!-- -->", "")).toContain("die Vorlage „invoice“ tut das nicht");
      expect((await getConfiguration(db))?.taxStatus ?? "SMALL_BUSINESS").toBe("SMALL_BUSINESS");
    } finally {
      if (before) await env.DB.prepare("UPDATE templates SET html = ?1 WHERE name = 'invoice'").bind(before.html).run();
      else await env.DB.prepare("DELETE FROM templates WHERE name = 'invoice'").run();
    }
  });

  it("two first saves at once: one is stored, the other is a German 409 with the current values, never a 500", async () => {
    const cookie = await loginCookie("admin");
    const responses = await Promise.all([postForm("/configuration", cookie, valid), postForm("/configuration", cookie, { ...valid, hsvrmKG: "8" })]);
    expect(responses.map((response) => response.status).sort()).toEqual([302, 409]);
    const refused = responses.find((response) => response.status === 409)!;
    expect(await refused.text()).toContain("Die Einstellungen wurden inzwischen von");
  });

  it("a value the database refuses counts as the user's to correct (422 in the action), a lost connection does not", async () => {
    await db.insert(schema.configuration).values({ id: 1, createdBy: "test", createdOn: new Date().toISOString() });
    const refusal = await db
      .update(schema.configuration)
      .set({ lastInvoiceNumber: -1 })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isRefusedValue(refusal)).toBe(true);
    expect(isRefusedValue(new Error("D1_ERROR: Network connection lost"))).toBe(false);
  });

  it("is for ADMIN only, also for direct posts", async () => {
    for (const who of ["staff", "gdpr", "finance"] as const) {
      const response = await postForm("/configuration", await loginCookie(who), valid);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
    }
    expect(await getConfiguration(db)).toBeUndefined();
  });

  it("the invoice counter is set before the first invoice is issued; afterwards only issuing moves it (numbers without gaps)", async () => {
    const cookie = await loginCookie("admin");
    expect((await postForm("/configuration", cookie, valid)).status).toBe(302);
    const [type] = await db.insert(schema.memberTypes).values({ code: "ZAEHLER", name: "Zählertest" }).returning();
    const [person] = await db.insert(schema.people).values({ firstName: "Zora", lastName: "Zähler", memberTypeId: type.id }).returning();
    const [draft] = await db.insert(schema.invoiceHeaders).values({ personId: person.id, date: "2026-11-01" }).returning();
    // A draft takes no number: the counter can still be set.
    let config = (await getConfiguration(db))!;
    expect((await postForm("/configuration", cookie, { ...valid, lastInvoiceNumber: "2026050", rowVersion: config.rowVersion })).status).toBe(302);
    await db
      .update(schema.invoiceHeaders)
      .set({ status: "ISSUED", invoiceNumber: 2026051, issuedOn: "2026-11-02T09:00:00.000Z" })
      .where(eq(schema.invoiceHeaders.id, draft.id));
    config = (await getConfiguration(db))!;
    const html = await (await fetchApp("/configuration", { cookie })).text();
    expect(html).toContain("Wird beim Ausstellen lückenlos weitergezählt.");
    expect(html).toMatch(/<input type="hidden" name="lastInvoiceNumber" value="2026050"/);
    const refused = await postForm("/configuration", cookie, { ...valid, lastInvoiceNumber: "2026100", rowVersion: config.rowVersion });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("lässt sich die „Letzte Rechnungs Nr“ nicht mehr ändern");
    expect(await getConfiguration(db)).toEqual(config);
    // Everything else is saved as before.
    const saved = await postForm("/configuration", cookie, { ...valid, lastInvoiceNumber: "2026050", hsvrmKG: "8", rowVersion: config.rowVersion });
    expect(saved.status).toBe(302);
    expect(await getConfiguration(db)).toMatchObject({ hsvrmKG: 8, lastInvoiceNumber: 2026050 });
  });
});

describe("Verzugszinsen in Einstellungen (issue 31 item 5)", () => {
  beforeEach(async () => {
    await db.delete(schema.configuration);
  });

  it("switches default interest on and off with the settings; off by default", async () => {
    const cookie = await loginCookie("admin");
    expect((await postForm("/configuration", cookie, valid)).status).toBe(302);
    expect((await getConfiguration(db))?.defaultInterest).toBe(false);
    const { rowVersion } = (await getConfiguration(db))!;
    expect((await postForm("/configuration", cookie, { ...valid, defaultInterest: "on", rowVersion: String(rowVersion) })).status).toBe(302);
    expect((await getConfiguration(db))?.defaultInterest).toBe(true);
    const html = await (await fetchApp("/configuration", { cookie })).text();
    expect(html).toContain("5 Prozentpunkte über dem");
    expect(html).toContain("01.01.2026");
  });

  it("keeps how long an offer from a waiting list stands: 48 hours unless set, 1 to 336, refused in German otherwise", async () => {
    const cookie = await loginCookie("admin");
    expect((await postForm("/configuration", cookie, valid)).status).toBe(302);
    expect((await getConfiguration(db))?.waitlistOfferHours).toBe(48);
    for (const [hours, message] of [
      ["0", "Das Angebot aus der Warteliste gilt mindestens 1 Stunde"],
      ["337", "Das Angebot aus der Warteliste darf höchstens 336 sein"],
    ]) {
      const { rowVersion } = (await getConfiguration(db))!;
      const refused = await postForm("/configuration", cookie, { ...valid, waitlistOfferHours: hours, rowVersion: String(rowVersion) });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(message);
    }
    const { rowVersion } = (await getConfiguration(db))!;
    expect((await postForm("/configuration", cookie, { ...valid, waitlistOfferHours: "24", rowVersion: String(rowVersion) })).status).toBe(302);
    expect((await getConfiguration(db))?.waitlistOfferHours).toBe(24);
  });

  it("enters a half-year's base rate, corrects it, and refuses what is no rate or no half-year in German, changing nothing", async () => {
    const cookie = await loginCookie("admin");
    const before = await db.select().from(schema.baseRates);
    const entered = await postForm("/configuration", cookie, { intent: "baseRate", validFrom: "07-01", year: "2031", rate: "-0,5" });
    expect(entered.status).toBe(302);
    expect(toastOf(entered)).toEqual({ type: "success", message: "Basiszinssatz ab 1. Juli 2031 eingetragen: -0,50 %" });
    const corrected = await postForm("/configuration", cookie, { intent: "baseRate", validFrom: "07-01", year: "2031", rate: "1,2" });
    expect(toastOf(corrected)).toEqual({ type: "success", message: "Basiszinssatz ab 1. Juli 2031 korrigiert: 1,20 %" });
    const [row] = await db.select().from(schema.baseRates).where(eq(schema.baseRates.validFrom, "2031-07-01"));
    expect(row).toMatchObject({ rate: 120, createdBy: "Anna Admin", lastModifiedBy: "Anna Admin", rowVersion: 2 });
    for (const [bad, message] of [
      [{ validFrom: "03-01", year: "2031", rate: "1" }, "Bitte das Halbjahr wählen: ab 1. Januar oder ab 1. Juli"],
      [{ validFrom: "01-01", year: "1999", rate: "1" }, "Jahr: ab 2002"],
      [{ validFrom: "01-01", year: "2032", rate: "1.27" }, "höchstens zwei Nachkommastellen"],
      [{ validFrom: "01-01", year: "2032", rate: "" }, "Bitte den Basiszinssatz in Prozent"],
    ] as const) {
      const refused = await postForm("/configuration", cookie, { intent: "baseRate", ...bad });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(message);
    }
    expect(await db.select().from(schema.baseRates)).toHaveLength(before.length + 1);
    await db.delete(schema.baseRates).where(eq(schema.baseRates.validFrom, "2031-07-01"));
    // Only ADMIN: anyone else is sent home, nothing entered.
    const refused = await postForm("/configuration", await loginCookie("finance"), { intent: "baseRate", validFrom: "01-01", year: "2032", rate: "1" });
    expect([refused.status, refused.headers.get("Location")]).toEqual([302, "/"]);
    expect(await db.select().from(schema.baseRates).where(eq(schema.baseRates.validFrom, "2032-01-01"))).toEqual([]);
  });
});
