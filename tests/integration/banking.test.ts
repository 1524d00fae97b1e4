/**
 * Banking (issue 15 items 1, 2, 4): the club's bank data in Einstellungen (IBAN with its ISO 13616
 * checksum, BIC, Gläubiger-ID with its ISO 7064 checksum), SEPA mandates on the person (generated
 * unique references, one active per person, masked IBAN for everyone but ADMIN and FINANCE, the
 * Papierkorb), and the GiroCode: its EPC payload decoded back from the SVG and the PNG with
 * `qr/decode`, on a real invoice PDF rendered by Browser Rendering and in a real payment mail.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { unzlibSync } from "fflate";
import decodeQR from "qr/decode.js";
import { getDocumentProxy, getResolvedPDFJS } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { generateSeedData } from "~/db/seed/generate";
import { bicError, creditorIdError, ibanError, ibanWithCheckDigits, maskIban, normalizeCreditorId, normalizeIban } from "~/lib/banking";
import { epcPayload, girocodePng, girocodeSvg } from "~/lib/girocode";
import { DEFAULT_INVOICE_TEMPLATE, DEMO_CLUB, invoiceTemplateData, SAMPLE_INVOICE } from "~/lib/invoice-document";
import { MAIL_SENT } from "~/lib/mail";
import { getConfiguration } from "~/models/configuration.server";
import { createInvoicePdf, lazyRenderer } from "~/services/invoice-pdfs.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { attachmentOf, mailsTo, tinyPdf, useTestAccount } from "../support/mail-catcher";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS, loginCookie } from "../support/sessions";
import { ISSUED, issueTestInvoice } from "../support/invoices";

const db = createDb(env.DB);
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

const VALID_IBAN = "DE89370400440532013000";
const VALID_CREDITOR_ID = "DE98ZZZ09999999999";

// ---------------------------------------------------------------------------------------------
// Decoding helpers: the GiroCode read back as a banking app would, from the pixels.

/** An SVG of `qr` (one 1x1 square per dark module: 'M x y h1v1H..Z', then relative 'm dx dy')
 *  drawn into a greyscale image, `scale` pixels per module. */
function svgToImage(svg: string, scale = 4) {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const pixels = new Uint8Array(size * scale * size * scale * 3).fill(255);
  const path = /<path d="([^"]+)"/.exec(svg)![1];
  let start = { x: 0, y: 0 };
  for (const [, command, dx, dy] of path.matchAll(/([Mm])(-?\d+) (-?\d+)/g)) {
    start = command === "M" ? { x: Number(dx), y: Number(dy) } : { x: start.x + Number(dx), y: start.y + Number(dy) };
    for (let y = start.y * scale; y < (start.y + 1) * scale; y++) {
      for (let x = start.x * scale; x < (start.x + 1) * scale; x++) pixels.fill(0, (y * size * scale + x) * 3, (y * size * scale + x) * 3 + 3);
    }
  }
  return { width: size * scale, height: size * scale, data: pixels };
}

/** A PNG (8-bit greyscale, no filter: what girocodePng writes) back to RGB pixels. */
function pngToImage(png: Uint8Array) {
  expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  while (offset < png.length) {
    const length = view.getUint32(offset);
    const type = new TextDecoder().decode(png.slice(offset + 4, offset + 8));
    const data = png.slice(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      expect([...data.slice(8, 10)]).toEqual([8, 0]);
    }
    if (type === "IDAT") idat.push(data);
    offset += 12 + length;
  }
  const raw = unzlibSync(new Uint8Array(idat.flatMap((part) => [...part])));
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width + 1)]).toBe(0);
    for (let x = 0; x < width; x++) pixels.fill(raw[y * (width + 1) + 1 + x], (y * width + x) * 3, (y * width + x) * 3 + 3);
  }
  return { width, height, data: pixels };
}

/** The EPC069-12 fields of a payload. */
function epcFields(payload: string) {
  const [serviceTag, version, charset, identification, bic, name, iban, amount, purpose, structured, remittance] = payload.split("\n");
  return { serviceTag, version, charset, identification, bic, name, iban, amount, purpose, structured, remittance };
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  await loadDemoData();
});

describe("IBAN, BIC and creditor identifier", () => {
  it("accepts valid IBANs, typed in lower case and with spaces, and stores them in one piece", () => {
    expect(ibanError(VALID_IBAN)).toBeNull();
    expect(normalizeIban("de89 3704 0044 0532 0130 00")).toBe(VALID_IBAN);
    expect(normalizeIban(" at61 1904-3002 3457 3201 ")).toBe("AT611904300234573201");
    expect(ibanError("AT611904300234573201")).toBeNull();
    expect(ibanError(ibanWithCheckDigits("DE", "500105170648489890"))).toBeNull();
  });

  it.each([
    ["DE88370400440532013000", "Die IBAN ist ungültig (Prüfsumme falsch)"],
    ["DE8937040044053201300", "Die IBAN ist ungültig (falsche Länge)"],
    ["DE893704004405320130001", "Die IBAN ist ungültig (falsche Länge)"],
    ["XX89370400440532013000", "Die IBAN ist ungültig (unbekanntes Länderkennzeichen)"],
    ["12345", "Die IBAN ist ungültig (unbekanntes Länderkennzeichen)"],
  ])("refuses %s: %s", (iban, message) => {
    expect(ibanError(normalizeIban(iban))).toBe(message);
  });

  it("checks the creditor identifier with ISO 7064 mod 97-10, skipping the business code", () => {
    expect(creditorIdError(VALID_CREDITOR_ID)).toBeNull();
    expect(creditorIdError(normalizeCreditorId("de98 zzz 0999 9999 999"))).toBeNull();
    // The business code (ZZZ) is not part of the checksum: another one is still valid.
    expect(creditorIdError("DE98ABC09999999999")).toBeNull();
    expect(creditorIdError("DE97ZZZ09999999999")).toBe("Die Gläubiger-ID ist ungültig (Prüfsumme falsch)");
    expect(creditorIdError("DE98ZZZ0999999999")).toBe("Die Gläubiger-ID ist ungültig (falsche Länge: eine deutsche hat 18 Zeichen)");
    expect(creditorIdError("DE98ZZ")).toMatch(/^Die Gläubiger-ID ist ungültig \(Format/);
  });

  it("checks the BIC's format and masks IBANs as 'DE89 **** **** **** **30 00'", () => {
    expect(bicError("COBADEFFXXX")).toBeNull();
    expect(bicError("COBADEFF")).toBeNull();
    expect(bicError("COBA")).not.toBeNull();
    expect(maskIban(VALID_IBAN)).toBe("DE89 **** **** **** **30 00");
    expect(maskIban("AT611904300234573201")).toBe("AT61 **** **** **** 3201");
  });
});

describe("the club's bank data in Einstellungen", () => {
  const settings = async () => {
    const config = (await getConfiguration(db))!;
    return {
      rowVersion: config.rowVersion,
      clubMembershipEnrollmentFee: "25,00",
      clubMembershipPriceFull: "60,00",
      clubMembershipPriceReduced1: "30,00",
      clubMembershipPriceReduced2: "15,00",
      lastInvoiceNumber: String(config.lastInvoiceNumber),
      taxStatus: config.taxStatus,
      clubName: config.clubName ?? "",
      bankAccountHolder: "Hundesportverein Wuff e.V.",
      iban: config.iban ?? "",
      bic: config.bic ?? "",
    };
  };

  it("stores holder, IBAN, BIC, Gläubiger-ID and mandate text normalised, with the audit fields", async () => {
    const response = await postForm("/configuration", await loginCookie("admin"), {
      ...(await settings()),
      iban: "de89 3704 0044 0532 0130 00",
      bic: "cobadeffxxx",
      creditorId: "de98 zzz 0999 9999 999",
      mandateText: "Ich ermächtige den Verein, Zahlungen von meinem Konto mittels Lastschrift einzuziehen.",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("Einstellungen wurden aktualisiert");
    expect(await getConfiguration(db)).toMatchObject({
      iban: VALID_IBAN,
      bic: "COBADEFFXXX",
      creditorId: VALID_CREDITOR_ID,
      mandateText: "Ich ermächtige den Verein, Zahlungen von meinem Konto mittels Lastschrift einzuziehen.",
      lastModifiedBy: "Anna Admin",
    });
    const page = await text(await fetchApp("/configuration", { cookie: await loginCookie("admin") }));
    expect(page).toContain("Bankverbindung und SEPA-Lastschrift");
    expect(page).toContain(`value="${VALID_CREDITOR_ID}"`);
    // One IBAN field for the club, not two.
    expect(page.match(/name="iban"/g)).toHaveLength(1);
  });

  it.each([
    ["iban", "DE88 3704 0044 0532 0130 00", "Die IBAN ist ungültig (Prüfsumme falsch)"],
    ["iban", "DE89 3704 0044 0532 0130", "Die IBAN ist ungültig (falsche Länge)"],
    ["bic", "COBADE", "Die BIC ist ungültig"],
    ["creditorId", "DE97ZZZ09999999999", "Die Gläubiger-ID ist ungültig (Prüfsumme falsch)"],
    ["creditorId", "DE98ZZZ099999", "Die Gläubiger-ID ist ungültig (falsche Länge"],
  ])("refuses %s '%s' in German and changes nothing", async (field, value, message) => {
    const before = await getConfiguration(db);
    const response = await postForm("/configuration", await loginCookie("admin"), { ...(await settings()), [field]: value });
    expect(response.status).toBe(400);
    expect(await text(response)).toContain(message);
    expect(await getConfiguration(db)).toEqual(before);
  });

  it("wants a BIC for an IBAN outside Germany", async () => {
    const response = await postForm("/configuration", await loginCookie("admin"), { ...(await settings()), iban: "AT611904300234573201", bic: "" });
    expect(response.status).toBe(400);
    expect(await text(response)).toContain("Für eine IBAN außerhalb Deutschlands ist die BIC erforderlich");
  });

  it("is ADMIN's only: others can neither open nor post it", async () => {
    const before = await getConfiguration(db);
    for (const who of ["staff", "gdpr", "finance"] as const) {
      const response = await postForm("/configuration", await loginCookie(who), { ...(await settings()), iban: "AT611904300234573201", bic: "BKAUATWW" });
      expect(response.status, who).toBe(302);
      expect(response.headers.get("Location"), who).toBe("/");
    }
    expect(await getConfiguration(db)).toEqual(before);
  });
});

describe("SEPA mandates on the person", () => {
  let personId: number;
  const mandates = () => db.select().from(schema.sepaMandates).where(eq(schema.sepaMandates.personId, personId)).orderBy(schema.sepaMandates.id);
  const save = async (fields: Record<string, string | number | boolean>, who: "admin" | "finance" = "finance") =>
    postForm("/people", await loginCookie(who), {
      intent: "mandate:save",
      personId,
      accountHolder: "Erika Mandat",
      mandateDate: "01.10.2026",
      isActive: true,
      ...fields,
    });

  beforeAll(async () => {
    [{ id: personId }] = await db
      .insert(schema.people)
      .values({ firstName: "Erika", lastName: "Mandat", memberTypeId: 2, isMember: true })
      .returning({ id: schema.people.id });
  });

  it("saves a mandate with a generated reference, the IBAN in one piece, FRST until its first collection", async () => {
    const response = await save({ iban: "de89 3704 0044 0532 0130 00", bic: "" });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe(`SEPA-Mandat WUFF-${personId}-1 wurde angelegt`);
    const [mandate] = await mandates();
    expect(mandate).toMatchObject({
      reference: `WUFF-${personId}-1`,
      iban: VALID_IBAN,
      bic: null,
      accountHolder: "Erika Mandat",
      mandateDate: "2026-10-01",
      isActive: true,
      firstCollectionOn: null,
      createdBy: "Fritz Finanz",
      rowVersion: 1,
    });
    const dialog = await text(await fetchApp(`/people?dialog=mandate-person&dialogId=${personId}`, { cookie: await loginCookie("finance") }));
    expect(dialog).toContain(`WUFF-${personId}-1`);
    expect(dialog).toContain("Erstlastschrift (FRST)");
    expect(dialog).toContain('value="DE89 3704 0044 0532 0130 00"');
  });

  it.each([
    ["DE88370400440532013000", "Die IBAN ist ungültig (Prüfsumme falsch)"],
    ["DE893704004405320130", "Die IBAN ist ungültig (falsche Länge)"],
    ["", "IBAN ist erforderlich"],
  ])("refuses the IBAN '%s' in German and stores nothing", async (iban, message) => {
    const before = await mandates();
    const response = await save({ iban });
    expect(response.status).toBe(400);
    expect(await text(response)).toContain(message);
    expect(await mandates()).toEqual(before);
  });

  it("a new active mandate replaces the active one: at most one active, references unique", async () => {
    const response = await save({ iban: "AT611904300234573201", bic: "BKAUATWW", accountHolder: "Erika Mandat" }, "admin");
    expect(toastOf(response)?.message).toBe(`SEPA-Mandat WUFF-${personId}-2 wurde angelegt; Mandat WUFF-${personId}-1 ist nicht mehr aktiv`);
    const rows = await mandates();
    expect(rows.map((row) => [row.reference, row.isActive])).toEqual([
      [`WUFF-${personId}-1`, false],
      [`WUFF-${personId}-2`, true],
    ]);
    // Activating the old one again while the new one is active is refused.
    const [old] = rows;
    const refused = await save({ id: old.id, rowVersion: old.rowVersion, iban: old.iban });
    expect(refused.status).toBe(409);
    expect(await text(refused)).toContain(`Die Person hat schon ein aktives Mandat (WUFF-${personId}-2)`);
    expect((await mandates()).filter((row) => row.isActive)).toHaveLength(1);
    // The database itself keeps it one.
    await expect(env.DB.prepare("UPDATE sepa_mandates SET is_active = 1 WHERE id = ?").bind(old.id).run()).rejects.toThrow(/UNIQUE/);
    await expect(
      env.DB.prepare("INSERT INTO sepa_mandates (person_id, account_holder, iban, reference, mandate_date) VALUES (?, 'x', ?, ?, '2026-01-01')")
        .bind(personId, VALID_IBAN, `WUFF-${personId}-2`)
        .run(),
    ).rejects.toThrow(/UNIQUE/);
  });

  it("edits and deactivates a mandate quoting its version; a changed IBAN keeps its series (the next file amends it)", async () => {
    const active = (await mandates()).find((row) => row.isActive)!;
    await env.DB.prepare("UPDATE sepa_mandates SET first_collection_on = '2026-10-15' WHERE id = ?").bind(active.id).run();
    const edited = await save({ id: active.id, rowVersion: active.rowVersion, iban: VALID_IBAN, bic: "COBADEFFXXX" });
    expect(toastOf(edited)?.message).toBe("SEPA-Mandat wurde gespeichert");
    const after = (await mandates()).find((row) => row.id === active.id)!;
    expect(after).toMatchObject({
      iban: VALID_IBAN,
      bic: "COBADEFFXXX",
      firstCollectionOn: "2026-10-15",
      rowVersion: active.rowVersion + 1,
      lastModifiedBy: "Fritz Finanz",
      reference: active.reference,
    });

    const stale = await save({ id: active.id, rowVersion: active.rowVersion, iban: VALID_IBAN, isActive: false });
    expect(stale.status).toBe(409);
    const deactivated = await save({ id: active.id, rowVersion: after.rowVersion, iban: VALID_IBAN, bic: "COBADEFFXXX", isActive: false });
    expect(deactivated.status).toBe(302);
    expect((await mandates()).every((row) => !row.isActive)).toBe(true);
  });

  it("goes into the Papierkorb and comes back exactly; its reference is never given again", async () => {
    const [first] = await mandates();
    const deleted = await postForm("/people", await loginCookie("admin"), { intent: "mandate:delete", id: first.id });
    expect(toastOf(deleted)).toMatchObject({ message: "SEPA-Mandat wurde gelöscht" });
    const undo = toastOf(deleted)!.undo!;
    const [binned] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.transactionId, undo));
    expect(binned).toMatchObject({ tableName: "sepa_mandates", identifier1: first.reference, identifier2: "Erika Mandat", identifier3: "inaktiv" });
    // A new mandate counts past the one in the bin.
    const created = await save({ iban: VALID_IBAN });
    expect(toastOf(created)?.message).toBe(`SEPA-Mandat WUFF-${personId}-3 wurde angelegt`);
    const restored = await postForm("/recyclebin", await loginCookie("admin"), { intent: "bin:undo", transactionId: undo });
    expect(toastOf(restored)?.message).toContain(`Rückgängig gemacht: SEPA-Mandat ${first.reference}`);
    expect((await mandates()).find((row) => row.id === first.id)).toEqual(first);
  });

  it("answers hand-made posts with a German 4xx and writes nothing", async () => {
    const before = JSON.stringify(await db.select().from(schema.sepaMandates).orderBy(schema.sepaMandates.id));
    const [someone] = await mandates();
    const unknownPerson = await save({ personId: 999_999, iban: VALID_IBAN });
    expect(unknownPerson.status).toBe(400);
    expect(await text(unknownPerson)).toContain("Diese Person gibt es nicht (mehr)");
    const tooLong = await save({ accountHolder: "x".repeat(71), iban: VALID_IBAN });
    expect(tooLong.status).toBe(400);
    expect(await text(tooLong)).toContain("Höchstens 70 Zeichen");
    const noDate = await save({ mandateDate: "31.02.2026", iban: VALID_IBAN });
    expect(noDate.status).toBe(400);
    const revokedBeforeSigned = await save({ revokedOn: "30.09.2026", iban: VALID_IBAN });
    expect(revokedBeforeSigned.status).toBe(400);
    expect(await text(revokedBeforeSigned)).toContain("Der Widerruf kann nicht vor dem Datum des Mandats liegen");
    // Another person's mandate named under this person: not found, nothing moves.
    const [foreign] = await db.select().from(schema.sepaMandates).where(eq(schema.sepaMandates.personId, 1)).limit(1);
    if (foreign) expect((await save({ id: foreign.id, rowVersion: foreign.rowVersion, iban: VALID_IBAN })).status).toBe(404);
    expect((await postForm("/people", await loginCookie("admin"), { intent: "mandate:delete", id: 999_999 })).status).toBe(404);
    expect((await postForm("/people", await loginCookie("admin"), { intent: "mandate:delete", id: "abc" })).status).toBe(404);
    expect(await text(await fetchApp("/people?dialog=mandate-person&dialogId=999999", { cookie: await loginCookie("admin") }))).not.toContain(
      "SEPA-Mandat von",
    );
    expect(JSON.stringify(await db.select().from(schema.sepaMandates).orderBy(schema.sepaMandates.id))).toBe(before);
    expect(someone).toBeDefined();
  });

  it("goes with its person into the Papierkorb and comes back with them", async () => {
    const before = await mandates();
    const confirm = await text(await fetchApp(`/people?dialog=person-delete&dialogId=${personId}`, { cookie: await loginCookie("admin") }));
    expect(confirm).toContain(`${before.length} SEPA-Mandate`);
    const deleted = await postForm("/people", await loginCookie("admin"), { intent: "person:delete", id: personId });
    expect(toastOf(deleted)?.message).toBe("Person wurde gelöscht");
    expect(await mandates()).toEqual([]);
    await postForm("/recyclebin", await loginCookie("admin"), { intent: "bin:undo", transactionId: toastOf(deleted)!.undo! });
    expect(await mandates()).toEqual(before);
  });
});

describe("IBANs never reach staff or GDPR users", () => {
  let person: { id: number; iban: string; reference: string };

  beforeAll(async () => {
    const mandate = (
      await db.select().from(schema.sepaMandates).where(eq(schema.sepaMandates.isActive, true)).orderBy(schema.sepaMandates.personId).limit(1)
    )[0];
    person = { id: mandate.personId, iban: mandate.iban, reference: mandate.reference };
  });

  const grouped = () => person.iban.replace(/(.{4})(?=.)/g, "$1 ");
  const leaks = (body: string) => body.includes(person.iban) || body.includes(grouped());
  /** Everyone asks for the mandate columns: the grid sends only what the user may see. */
  const chooseColumns = async (cookie: string) => {
    const choice = new URLSearchParams([["grid", "people"], ...["lastName", "firstName", "mandateReference", "mandateIban"].map((id) => ["visible", id])]);
    expect((await fetchApp("/preferences/columns", { method: "POST", cookie, body: choice })).status).toBe(200);
  };

  it.each(["staff", "gdpr"] as const)(
    "%s: neither the People grid (page and .data) nor the person dialog carries the full IBAN; the dialog shows it masked",
    async (who) => {
      const cookie = await loginCookie(who);
      await chooseColumns(cookie);
      for (const path of [
        "/people?sort=mandateReference",
        "/people.data?sort=-mandateReference",
        `/people/${person.id}/dogs`,
        `/people/${person.id}/dogs.data`,
      ]) {
        const body = await text(await fetchApp(path, { cookie }));
        expect(leaks(body), path).toBe(false);
        expect(body, path).not.toContain("mandateIban");
        expect(body, path).not.toContain(maskIban(person.iban));
      }
      for (const path of [
        `/people/${person.id}/dogs?dialog=person-edit&dialogId=${person.id}`,
        `/people/${person.id}/dogs.data?dialog=person-edit&dialogId=${person.id}`,
      ]) {
        const body = await text(await fetchApp(path, { cookie }));
        expect(leaks(body), path).toBe(false);
        expect(body, path).toContain(maskIban(person.iban));
        expect(body, path).not.toContain("Mandat bearbeiten");
      }
      // The mandate dialog does not open for them.
      for (const path of [`/people?dialog=mandate-person&dialogId=${person.id}`, `/people.data?dialog=mandate-person&dialogId=${person.id}`]) {
        const body = await text(await fetchApp(path, { cookie }));
        expect(leaks(body), path).toBe(false);
        expect(body, path).not.toContain("SEPA-Mandat von");
      }
      // Nor do they see the People grid's 'SEPA-Mandat' action.
      expect(await text(await fetchApp("/people", { cookie }))).not.toContain("SEPA-Mandat");
    },
  );

  it.each(["finance", "admin"] as const)(
    "%s: the person dialog shows the full IBAN; the grid's hidden columns the reference and the IBAN masked",
    async (who) => {
      const cookie = await loginCookie(who);
      const dialog = await text(await fetchApp(`/people/${person.id}/dogs?dialog=person-edit&dialogId=${person.id}`, { cookie }));
      expect(dialog).toContain(grouped());
      expect(dialog).toContain("Mandat bearbeiten");
      await chooseColumns(cookie);
      const page = await text(await fetchApp(`/people/${person.id}/dogs`, { cookie }));
      expect(page).toContain(person.reference);
      expect(page).toContain(maskIban(person.iban));
      expect(page).not.toContain(grouped());
      expect(page).toContain("SEPA-Mandat");
    },
  );
});

describe("the demo data", () => {
  it("has the club's valid bank data and valid mandates for about half the members", () => {
    const data = generateSeedData({ today: "2026-11-22" });
    const [config] = data.configuration;
    expect(ibanError(config.iban!)).toBeNull();
    expect(creditorIdError(config.creditorId!)).toBeNull();
    const members = data.people.filter((person) => person.isMember).length;
    expect(data.sepaMandates.length).toBeGreaterThan(members * 0.4);
    expect(data.sepaMandates.length).toBeLessThan(members * 0.6);
    for (const mandate of data.sepaMandates) expect(ibanError(mandate.iban), mandate.iban).toBeNull();
    expect(new Set(data.sepaMandates.map((mandate) => mandate.reference)).size).toBe(data.sepaMandates.length);
    expect(new Set(data.sepaMandates.map((mandate) => mandate.iban)).size).toBe(data.sepaMandates.length);
    // Both sequence types occur.
    expect(data.sepaMandates.some((mandate) => mandate.firstCollectionOn)).toBe(true);
    expect(data.sepaMandates.some((mandate) => !mandate.firstCollectionOn)).toBe(true);
  });
});

describe("the GiroCode (EPC QR code)", () => {
  const input = { name: "Hundesportverein Wuff e.V.", iban: VALID_IBAN, bic: "COBADEFFXXX", amount: 18_550, remittance: "ReNr 2026001" };

  it("writes the EPC069-12 payload: version 002, UTF-8, SCT, BIC, name, IBAN, EUR amount, 'ReNr {n}'", () => {
    expect(epcFields(epcPayload(input)!)).toEqual({
      serviceTag: "BCD",
      version: "002",
      charset: "1",
      identification: "SCT",
      bic: "COBADEFFXXX",
      name: "Hundesportverein Wuff e.V.",
      iban: VALID_IBAN,
      amount: "EUR185.50",
      purpose: "",
      structured: "",
      remittance: "ReNr 2026001",
    });
    expect(epcFields(epcPayload({ ...input, amount: 1 })!).amount).toBe("EUR0.01");
    expect(epcFields(epcPayload({ ...input, amount: 99_999_999_999 })!).amount).toBe("EUR999999999.99");
    expect(epcFields(epcPayload({ ...input, name: "Ä".repeat(80) })!).name).toBe("Ä".repeat(70));
    expect(epcFields(epcPayload({ ...input, bic: null })!).bic).toBe("");
  });

  it.each([0, -100, 100_000_000_000, 1.5])("refuses the amount %s (cents)", (amount) => {
    expect(epcPayload({ ...input, amount })).toBeNull();
  });

  it("decodes back from the SVG and from the PNG with every field, umlauts included", () => {
    const payload = epcPayload({ ...input, name: "Hundefreunde Müßig-Ärger e.V." })!;
    const svg = girocodeSvg(payload);
    expect(svg).toMatch(/^<svg /);
    expect(svg).not.toContain("http://www.w3.org/1999/xlink");
    // The markup carries only paths (the template puts it in raw): no text of the payload.
    const hostile = girocodeSvg(epcPayload({ ...input, name: "<script>alert(1)</script>", remittance: "ReNr 1 <img src=x>" })!);
    expect(hostile).not.toMatch(/script|<img|alert/);
    expect(hostile.match(/<[a-z]+/g)).toEqual(["<svg", "<path"]);
    expect(decodeQR(svgToImage(svg))).toBe(payload);
    expect(decodeQR(pngToImage(girocodePng(payload)))).toBe(payload);
    expect(epcFields(decodeQR(pngToImage(girocodePng(payload)))).name).toBe("Hundefreunde Müßig-Ärger e.V.");
  });

  it("is a variable of the invoice template and in the default template, only with the club's IBAN and an open amount", () => {
    const data = invoiceTemplateData(SAMPLE_INVOICE);
    expect(data.girocode).toMatch(/^<svg /);
    expect(decodeQR(svgToImage(data.girocode))).toBe(
      epcPayload({ name: DEMO_CLUB.bankAccountHolder!, iban: DEMO_CLUB.iban!, bic: DEMO_CLUB.bic, amount: 18_550, remittance: "ReNr 2026001" }),
    );
    expect(DEFAULT_INVOICE_TEMPLATE).toContain("{{{girocode}}}");
    expect(invoiceTemplateData({ ...SAMPLE_INVOICE, club: { ...DEMO_CLUB, iban: null } }).girocode).toBe("");
    expect(invoiceTemplateData({ ...SAMPLE_INVOICE, header: { ...SAMPLE_INVOICE.header, openAmount: 0 } }).girocode).toBe("");
    // The open amount, not the total.
    const partly = invoiceTemplateData({ ...SAMPLE_INVOICE, header: { ...SAMPLE_INVOICE.header, openAmount: 5_000 } });
    expect(epcFields(decodeQR(svgToImage(partly.girocode))).amount).toBe("EUR50.00");
  });

  it("is drawn on the invoice PDF rendered by Browser Rendering and decodes from it; none without the club's IBAN", async () => {
    const [person] = await db.select({ id: schema.people.id }).from(schema.people).limit(1);
    const make = async (invoiceNumber: number) => {
      const [header] = await db
        .insert(schema.invoiceHeaders)
        .values({ personId: person.id, date: "2026-11-02", dueDate: "2026-12-02", amount: 12_345, openAmount: 0 })
        .returning({ id: schema.invoiceHeaders.id });
      await db.insert(schema.invoiceRows).values({ invoiceId: header.id, lineNumber: 1, text: "Jahresbeitrag", amount: 12_345 });
      await issueTestInvoice(header.id, invoiceNumber);
      return header.id;
    };
    /**
     * The QR code read back from the PDF as drawn: Chromium prints the SVG as one path of unit
     * squares in module coordinates; every square's moveTo is a dark module. Null without one.
     */
    const qrInPdf = async (id: number) => {
      const header = (await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, id)))[0];
      const stored = await env.INVOICES.get(header.pdfFilePath!);
      const document = await getDocumentProxy(new Uint8Array(await stored!.arrayBuffer()));
      const { OPS } = await getResolvedPDFJS();
      const operators = await (await document.getPage(1)).getOperatorList();
      const paths = operators.fnArray.flatMap((fn, index) =>
        fn === OPS.constructPath ? [Array.from((operators.argsArray[index] as [number, ArrayLike<number>[]])[1][0] ?? [])] : [],
      );
      const longest = paths.sort((a, b) => b.length - a.length)[0] ?? [];
      const modules: [number, number][] = [];
      // pdf.js path data: 0 moveTo x y, 1 lineTo x y, 2 curveTo (6), 3 quadraticCurveTo (4), 4 closePath.
      for (let at = 0; at < longest.length;) {
        const op = longest[at];
        if (op === 0) modules.push([longest[at + 1], longest[at + 2]]);
        at += op === 0 || op === 1 ? 3 : op === 2 ? 7 : op === 3 ? 5 : 1;
      }
      if (modules.length < 100) return null;
      const size = Math.max(...modules.flat()) + 5;
      const svg = `<svg viewBox="0 0 ${size} ${size}"><path d="${modules.map(([x, y]) => `M${x} ${y}h1v1h-1Z`).join("")}"/></svg>`;
      return decodeQR(svgToImage(svg));
    };
    const renderer = lazyRenderer(env);
    try {
      const withCode = await make(990_001);
      expect((await createInvoicePdf(env, db, withCode, DEMO_USERS.admin, { renderer: renderer.get })).status).toBe("created");
      const iban = (await getConfiguration(db))!.iban;
      await env.DB.prepare("UPDATE configuration SET iban = NULL").run();
      const withoutCode = await make(990_002);
      expect((await createInvoicePdf(env, db, withoutCode, DEMO_USERS.admin, { renderer: renderer.get })).status).toBe("created");
      await env.DB.prepare("UPDATE configuration SET iban = ?").bind(iban).run();
      const config = (await getConfiguration(db))!;
      expect(epcFields((await qrInPdf(withCode))!)).toEqual({
        ...epcFields(epcPayload({ name: config.bankAccountHolder!, iban: config.iban!, bic: config.bic, amount: 12_345, remittance: "ReNr 990001" })!),
        amount: "EUR123.45",
        remittance: "ReNr 990001",
      });
      expect(await qrInPdf(withoutCode)).toBeNull();
    } finally {
      await renderer.close();
    }
  });

  it("goes with a payment mail as an inline PNG (Content-ID) that decodes to the invoice's payload", async () => {
    const account = await useTestAccount("girocode");
    const [person] = await db
      .insert(schema.people)
      .values({ firstName: "Gina", lastName: "Girocode", email: "gina@example.org", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    const [invoice] = await db
      .insert(schema.invoiceHeaders)
      .values({
        personId: person.id,
        invoiceNumber: 990_010,
        ...ISSUED,
        date: "2026-11-01",
        dueDate: "2026-12-01",
        amount: 4_500,
        openAmount: 2_500,
        pdfFilePath: "Rechnung_990010_Girocode_2026.pdf",
      })
      .returning({ id: schema.invoiceHeaders.id });
    await env.INVOICES.put("Rechnung_990010_Girocode_2026.pdf", tinyPdf("Rechnung 990010"), { httpMetadata: { contentType: "application/pdf" } });
    const cookie = await loginCookie("finance");
    const preview = await text(await fetchApp(`/invoices/${invoice.id}/invoicerows?dialog=mail-invoice&dialogId=${invoice.id}`, { cookie }));
    expect(preview).toContain("data:image/png;base64,");
    const response = await postForm(`/invoices/${invoice.id}/invoicerows`, cookie, {
      intent: "mail:send",
      source: "invoice",
      id: invoice.id,
      subject: "Rechnung 990010",
    });
    expect(toastOf(response)?.message).toBe(MAIL_SENT);
    const [mail] = await mailsTo(account);
    // maildev resolves the cid: reference to the attached image, as mail clients do: proof that
    // the part carries its Content-ID.
    const shown = /<img src="([^"]+)" alt="GiroCode zum Bezahlen"/.exec(mail.html)?.[1];
    expect(shown).toMatch(/^data:image\/png;base64,/);
    expect(mail.attachments?.map((file) => file.contentType)).toEqual(["application/pdf", "image/png"]);
    const attachment = mail.attachments!.find((file) => file.contentType === "image/png")!;
    expect(attachment).toMatchObject({ filename: "GiroCode.png" });
    expect((attachment as { contentId?: string }).contentId).toBe("girocode@wuff");
    const png = await attachmentOf(mail, attachment.generatedFileName);
    expect(shown).toBe(`data:image/png;base64,${btoa(String.fromCharCode(...png))}`);
    const payload = decodeQR(pngToImage(png));
    const config = (await getConfiguration(db))!;
    expect(epcFields(payload)).toMatchObject({
      iban: config.iban,
      bic: config.bic ?? "",
      amount: "EUR25.00",
      remittance: "ReNr 990010",
      name: config.bankAccountHolder,
    });
  });

  it("goes with a fee's mail too: its open amount and 'Posten {id} {text}'; none once the fee is paid", async () => {
    await env.DB.prepare("UPDATE configuration SET mollie_integration = 0").run();
    const account = await useTestAccount("girocode-fee");
    const [person] = await db
      .insert(schema.people)
      .values({ firstName: "Fiona", lastName: "Feemail", email: "fiona@example.org", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    const [fee] = await db
      .insert(schema.fees)
      .values({ personId: person.id, date: "2026-10-01", dueDate: "2026-10-15", text: "Einzelstunde", amount: 3_000, openAmount: 3_000 })
      .returning({ id: schema.fees.id });
    const response = await postForm("/fees", await loginCookie("finance"), { intent: "mail:send", source: "fee", id: fee.id, subject: "Offener Posten" });
    expect(toastOf(response)?.message).toBe(MAIL_SENT);
    const [mail] = await mailsTo(account);
    const attachment = mail.attachments!.find((file) => file.filename === "GiroCode.png")!;
    expect(epcFields(decodeQR(pngToImage(await attachmentOf(mail, attachment.generatedFileName))))).toMatchObject({
      amount: "EUR30.00",
      remittance: `Posten ${fee.id} Einzelstunde`,
    });

    await db.update(schema.fees).set({ openAmount: 0 }).where(eq(schema.fees.id, fee.id));
    const paid = await useTestAccount("girocode-paid");
    await postForm("/fees", await loginCookie("finance"), { intent: "mail:send", source: "fee", id: fee.id, subject: "Bezahlt" });
    const [paidMail] = await mailsTo(paid);
    expect(paidMail.attachments ?? []).toEqual([]);
    expect(paidMail.html).not.toContain("GiroCode");
  });
});
