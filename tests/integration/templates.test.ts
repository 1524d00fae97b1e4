/**
 * Vorlagen (issue 13 item 1: the invoice template editable by an ADMIN) and the club's invoice
 * data in Einstellungen: the grid, the dialog's rules on the server (unique names, templates that
 * parse, 'invoice' is the invoice template, stale versions), delete into the Papierkorb, the
 * preview with sample data (HTML and a real PDF), and the club data with the IBAN/BIC checks (banking.test.ts checks them in depth).
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { getConfiguration } from "~/models/configuration.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const byName = async (name: string) => (await db.select().from(schema.templates).where(eq(schema.templates.name, name)))[0];
const post = async (fields: Record<string, string | number>) => postForm("/templates", await loginCookie("admin"), fields);
const mail = {
  intent: "template:save",
  name: "geburtstag",
  kind: "MAIL",
  subject: "Alles Gute, {{firstName}}!",
  html: "<p>Hallo {{firstName}}</p>",
  text: "Hallo {{firstName}}",
};

beforeAll(async () => {
  await loadDemoData();
});

describe("Vorlagen", () => {
  it("lists the templates for ADMIN only, reached from Einstellungen", async () => {
    const html = await (await fetchApp("/templates", { cookie: await loginCookie("admin") })).text();
    expect(html).toContain("Vorlagen");
    expect(html).toContain(">invoice<");
    expect(html).toContain("Rechnung (PDF)");
    expect(await (await fetchApp("/configuration", { cookie: await loginCookie("admin") })).text()).toContain('href="/templates"');
    for (const who of ["finance", "staff", "gdpr"] as const) {
      const response = await fetchApp("/templates", { cookie: await loginCookie(who) });
      expect(response.status, who).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      const posted = await postForm("/templates", await loginCookie(who), mail);
      expect(posted.headers.get("Location"), who).toBe("/");
    }
    expect(await byName("geburtstag")).toBeUndefined();
  });

  it("adds, edits and deletes a template; names are unique, templates must parse, 'invoice' stays the invoice template", async () => {
    const added = await post(mail);
    expect(added.status).toBe(302);
    expect(toastOf(added)?.message).toBe("Vorlage wurde angelegt");
    const saved = await byName("geburtstag");
    expect(saved).toMatchObject({ kind: "MAIL", subject: "Alles Gute, {{firstName}}!", createdBy: "Anna Admin" });

    const twice = await post({ ...mail, name: "Geburtstag" });
    expect(twice.status).toBe(400);
    expect(await twice.text()).toContain("Eine Vorlage mit diesem Namen gibt es schon");
    const broken = await post({ ...mail, name: "kaputt", html: "<p>{{#rows}}offen</p>" });
    expect(broken.status).toBe(400);
    expect(await broken.text()).toContain("Die Vorlage enthält einen Fehler");
    const invoiceAsMail = await post({ ...mail, id: (await byName("invoice")).id, rowVersion: (await byName("invoice")).rowVersion, name: "invoice" });
    expect(invoiceAsMail.status).toBe(400);
    expect(await invoiceAsMail.text()).toContain("ist die Rechnungsvorlage");
    expect(await byName("kaputt")).toBeUndefined();

    const edited = await post({ ...mail, id: saved.id, rowVersion: saved.rowVersion, subject: "Herzlichen Glückwunsch" });
    expect(edited.status).toBe(302);
    expect((await byName("geburtstag")).subject).toBe("Herzlichen Glückwunsch");
    const stale = await post({ ...mail, id: saved.id, rowVersion: saved.rowVersion, subject: "veraltet" });
    expect(stale.status).toBe(409);
    expect((await byName("geburtstag")).subject).toBe("Herzlichen Glückwunsch");

    const deleted = await post({ intent: "template:delete", id: saved.id });
    expect(deleted.status).toBe(302);
    expect(toastOf(deleted)?.message).toBe("Vorlage wurde gelöscht");
    expect(await byName("geburtstag")).toBeUndefined();
    const [binned] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.tableName, "templates"));
    expect(binned.identifier1).toBe("geburtstag");
  });

  it("the delete of 'invoice' warns that no invoice PDF can be made without it; a new template then starts as the default", async () => {
    const invoice = await byName("invoice");
    const confirm = await (await fetchApp(`/templates?dialog=template-delete&dialogId=${invoice.id}`, { cookie: await loginCookie("admin") })).text();
    expect(confirm).toContain("No invoice template found");
    await db.update(schema.templates).set({ name: "invoice-alt" }).where(eq(schema.templates.id, invoice.id));
    try {
      const add = await (await fetchApp("/templates?dialog=template-add", { cookie: await loginCookie("admin") })).text();
      expect(add).toContain('value="invoice"');
      expect(add).toContain("{{documentTitle}} Nr. {{invoiceNumber}}");
    } finally {
      await db.update(schema.templates).set({ name: "invoice" }).where(eq(schema.templates.id, invoice.id));
    }
  });

  it("previews the invoice template with sample data, every value escaped, as HTML and as a PDF", async () => {
    const invoice = await byName("invoice");
    const cookie = await loginCookie("admin");
    const html = await fetchApp(`/templates/preview/${invoice.id}`, { cookie });
    expect(html.status).toBe(200);
    const text = await html.text();
    expect(text).toContain("Erika Mustermann");
    expect(text).toContain("Rechnungsnummer");
    expect(text).toContain("185,50");
    expect(text).toContain("DE89 3704 0044 0532 0130 00");
    const pdf = await fetchApp(`/templates/preview/${invoice.id}?format=pdf`, { cookie });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    const extracted = (await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), { mergePages: true })).text as string;
    expect(extracted).toContain("Rechnung Nr. 2026001");
    expect(extracted).toContain("ReNr 2026001");
    expect((await fetchApp(`/templates/preview/${invoice.id}`, { cookie: await loginCookie("finance") })).status).toBe(302);
    expect((await fetchApp("/templates/preview/999999", { cookie })).status).toBe(404);
    expect((await fetchApp("/templates/preview/abc", { cookie })).status).toBe(404);
  });
});

describe("Einstellungen: the club on its invoices", () => {
  const settings = async () => {
    const config = (await getConfiguration(db))!;
    return {
      rowVersion: config.rowVersion,
      hsvrmVereinName: config.hsvrmVereinName ?? "",
      smtpTestAccount: config.smtpTestAccount ?? "",
      clubMembershipEnrollmentFee: "25,00",
      clubMembershipPriceFull: "60,00",
      clubMembershipPriceReduced1: "30,00",
      clubMembershipPriceReduced2: "15,00",
      lastInvoiceNumber: String(config.lastInvoiceNumber),
      taxStatus: config.taxStatus,
    };
  };

  it("stores name, address, contact, tax number or exemption note and bank; the IBAN in one piece, upper case", async () => {
    const response = await postForm("/configuration", await loginCookie("admin"), {
      ...(await settings()),
      clubName: "Hundefreunde Köln e.V.",
      clubStreet: "Rheinufer 3",
      clubZip: "50667",
      clubCity: "Köln",
      clubPhone: "0221 98765",
      clubEmail: "kasse@hundefreunde.example",
      taxNumber: "214/5678/0123",
      taxExemptionNote: "Der Verein ist als gemeinnützig anerkannt.",
      bankAccountHolder: "Hundefreunde Köln e.V.",
      iban: "de89 3704 0044 0532 0130 00",
      bic: "cobadeffxxx",
      bankName: "Commerzbank",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("Einstellungen wurden aktualisiert");
    expect(await getConfiguration(db)).toMatchObject({
      clubName: "Hundefreunde Köln e.V.",
      taxNumber: "214/5678/0123",
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
    });
    const page = await (await fetchApp("/configuration", { cookie: await loginCookie("admin") })).text();
    expect(page).toContain("Verein auf Rechnungen");
    expect(page).toContain('value="Rheinufer 3"');
  });

  it("refuses an IBAN or BIC of the wrong shape with a German message and changes nothing", async () => {
    const before = await getConfiguration(db);
    for (const [field, value, message] of [
      ["iban", "12345", "Die IBAN ist ungültig"],
      ["bic", "COBA", "Die BIC ist ungültig (8 oder 11 Zeichen, z. B. COBADEFFXXX)"],
      ["clubEmail", "kasse-at-verein", "Bitte eine gültige E-Mail-Adresse eingeben"],
    ]) {
      const response = await postForm("/configuration", await loginCookie("admin"), { ...(await settings()), [field]: value });
      expect(response.status, field).toBe(400);
      expect(await response.text(), field).toContain(message);
    }
    expect(await getConfiguration(db)).toEqual(before);
  });
});
