/**
 * Invoice PDFs (issue 13 item 1; spec 001 §2, §4, §7-§9): real PDFs rendered by Chromium through the
 * Browser Rendering binding (it works inside the vitest pool: miniflare starts the local Chromium),
 * stored in the real local R2, read back and searched with unpdf. Create, recreate, show, the
 * rules for a file already stored under the name, '131 ...' with the upload removed, the missing
 * template, and malformed requests.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { DEFAULT_INVOICE_TEMPLATE, invoicePdfName } from "~/lib/invoice-document";
import { sha256Hex } from "~/lib/bytes";
import { createInvoicePdf, hashStoredPdfs, lazyRenderer, PDF_HEADER_UPDATE_FAILED } from "~/services/invoice-pdfs.server";
import worker from "../../workers/app";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS, loginCookie } from "../support/sessions";
import { issueTestInvoice } from "../support/invoices";

const db = createDb(env.DB);

const headerOf = async (id: number) => (await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, id)))[0];
const personOf = async (id: number) => (await db.select().from(schema.people).where(eq(schema.people.id, id)))[0];

/** The issued invoices (with rows) that have no PDF yet, lowest id first. */
async function invoicesWithoutPdf() {
  const rows = await env.DB.prepare(
    "SELECT h.id FROM invoice_headers h WHERE h.status = 'ISSUED' AND h.pdf_file_path IS NULL AND EXISTS (SELECT 1 FROM invoice_rows r WHERE r.invoice_id = h.id) ORDER BY h.id",
  ).all<{ id: number }>();
  return rows.results.map((row) => row.id);
}

async function pdfText(bytes: ArrayBuffer | Uint8Array) {
  const document = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(document, { mergePages: true })).text as string;
}

const post = async (fields: Record<string, string | number>, who: "admin" | "finance" = "finance", page = "/invoices") =>
  postForm(page, await loginCookie(who), fields);

/** One more invoice of the person, with two rows. */
async function makeInvoice(personId: number, invoiceNumber: number) {
  const [header] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId, date: "2026-11-02", dueDate: "2026-12-02", amount: 123_456, openAmount: 0 })
    .returning();
  await db.insert(schema.invoiceRows).values([
    { invoiceId: header.id, lineNumber: 1, text: "Jahresbeitrag 2026", amount: 6_000 },
    { invoiceId: header.id, lineNumber: 2, text: "Einzelstunden", amount: 117_456 },
  ]);
  await issueTestInvoice(header.id, invoiceNumber);
  return header.id;
}

let free: number[];
beforeAll(async () => {
  await loadDemoData();
  for (let index = 1; index <= 6; index++) await makeInvoice(index, 880_000 + index);
  free = await invoicesWithoutPdf();
  expect(free.length).toBeGreaterThan(8);
});

describe("one invoice's PDF", () => {
  it("'PDF erzeugen' renders the invoice through Chromium, stores it in R2 and names it on the header; 'PDF anzeigen' streams it back", async () => {
    // A last name with umlauts: the key spells them out, the download name keeps them. The
    // recipient is frozen when the invoice is issued (issue 30): a later rename changes nothing.
    await db.update(schema.people).set({ lastName: "Müßig-Ärger" }).where(eq(schema.people.id, 9));
    const id = await makeInvoice(9, 880_100);
    free.unshift(id);
    const before = await headerOf(id);
    const person = await personOf(before.personId);
    await db.update(schema.people).set({ lastName: "Umbenannt" }).where(eq(schema.people.id, 9));

    const response = await post({ intent: "invoicePdf:create", id });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toMatchObject({ type: "success", message: "PDF erfolgreich erstellt" });

    const header = await headerOf(id);
    const year = before.date.slice(0, 4);
    expect(header.pdfFilePath).toBe(`Rechnung_${before.invoiceNumber}_Muessig-Aerger_${year}.pdf`);
    expect(header.rowVersion).toBe(before.rowVersion + 1);
    expect(header.lastModifiedBy).toBe(DEMO_USERS.finance.name);

    const stored = await env.INVOICES.get(header.pdfFilePath!);
    expect(stored).not.toBeNull();
    expect(stored!.httpMetadata?.contentType).toBe("application/pdf");
    const bytes = new Uint8Array(await stored!.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const text = await pdfText(bytes.slice());
    const total = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(before.amount / 100).replace(/\s/g, " ");
    expect(text).toContain(String(before.invoiceNumber));
    expect(text).toContain(`${person.firstName} Müßig-Ärger`);
    expect(text.replace(/\s/g, " ")).toContain(total);
    expect(text).toContain(`ReNr ${before.invoiceNumber}`);
    // Each row's date of service (§ 14 Abs. 4 Nr. 6 UStG).
    expect(text).toContain("(Leistung: 02.11.2026)");
    expect(text).toContain("Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.");
    expect(text).toMatch(/Seite 1 von 1/);

    const shown = await fetchApp(`/invoices/pdf/${id}`, { cookie: await loginCookie("finance") });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("Content-Type")).toBe("application/pdf");
    const disposition = shown.headers.get("Content-Disposition")!;
    expect(disposition).toContain(`inline; filename="${header.pdfFilePath}"`);
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1])).toBe(`Rechnung_${before.invoiceNumber}_Müßig-Ärger_${year}.pdf`);
    expect(new Uint8Array(await shown.arrayBuffer())).toEqual(bytes);
  });

  it("an invoice with a PDF is not made again, nor rendered anew (issue 30): German 409, nothing changes; its SHA-256 is kept beside it", async () => {
    const id = free[0];
    const before = await headerOf(id);
    const stored = await env.INVOICES.get(before.pdfFilePath!);
    expect(before.pdfSha256).toBe(await sha256Hex(await stored!.arrayBuffer()));
    for (const [intent, message] of [
      ["invoicePdf:create", "Für diese Rechnung gibt es schon ein PDF"],
      ["invoicePdf:recreate", "wird nicht neu erzeugt"],
    ]) {
      const response = await post({ intent, id });
      expect(response.status, intent).toBe(409);
      expect(await response.text()).toContain(message);
    }
    expect(await headerOf(id)).toEqual(before);
  });

  it("a draft has no PDF yet: 'PDF erzeugen' is refused until it is issued", async () => {
    const [draft] = await db.insert(schema.invoiceHeaders).values({ personId: 2, date: "2026-11-02", amount: 0, openAmount: 0 }).returning();
    const response = await post({ intent: "invoicePdf:create", id: draft.id });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Ein Rechnungsentwurf hat noch kein PDF");
    expect(await headerOf(draft.id)).toEqual(draft);
  });

  it("the grid offers 'PDF anzeigen' on a row with a PDF and 'PDF erzeugen' on the others, on the invoices screen only", async () => {
    const cookie = await loginCookie("finance");
    const withPdf = await (await fetchApp(`/invoices/${free[0]}/invoicerows`, { cookie })).text();
    expect(withPdf).toContain(`href="/invoices/pdf/${free[0]}"`);
    expect(withPdf).toContain(`target="_blank"`);
    const dialogLink = (dialog: string, id: number) => new RegExp(`dialog=${dialog}&amp;dialogId=${id}(?!\\d)`);
    expect(withPdf).toMatch(dialogLink("invoicePdf-create", free[1]));
    expect(withPdf).not.toMatch(dialogLink("invoicePdf-recreate", free[1]));
    expect(withPdf).not.toMatch(dialogLink("invoicePdf-create", free[0]));
    expect(withPdf).not.toContain(`href="/invoices/pdf/${free[1]}"`);
    // Under a person (CHILD): no PDF actions.
    const header = await headerOf(free[0]);
    const tab = await (await fetchApp(`/people/${header.personId}/invoiceheaders`, { cookie })).text();
    expect(tab).toContain("Mail senden");
    expect(tab).not.toContain("PDF anzeigen");
    expect(tab).not.toContain("invoicePdf-");
    // The confirmation opens as a page (without JavaScript too).
    const dialog = await (await fetchApp(`/invoices?dialog=invoicePdf-create&dialogId=${free[1]}`, { cookie })).text();
    expect(dialog).toContain("PDF erzeugen");
    expect(dialog).toContain('name="intent" value="invoicePdf:create"');
  });

  it("'PDF erzeugen' takes a file already stored under the name (an interrupted attempt) as it is, with its hash; 'PDF erneut erzeugen' is refused", async () => {
    const [adoptId, keptId] = [free[2], free[3]];
    const names = await Promise.all(
      [adoptId, keptId].map(async (id) => {
        const header = await headerOf(id);
        return invoicePdfName({ invoiceNumber: header.invoiceNumber!, date: header.date }, (await personOf(header.personId)).lastName).key;
      }),
    );
    for (const key of names) await env.INVOICES.put(key, "%PDF-1.4 alt", { httpMetadata: { contentType: "application/pdf" } });

    expect((await post({ intent: "invoicePdf:create", id: adoptId })).status).toBe(302);
    expect(await headerOf(adoptId)).toMatchObject({ pdfFilePath: names[0], pdfSha256: await sha256Hex(new TextEncoder().encode("%PDF-1.4 alt")) });
    expect(await (await env.INVOICES.get(names[0]))!.text()).toBe("%PDF-1.4 alt");

    const before = await headerOf(keptId);
    const recreated = await post({ intent: "invoicePdf:recreate", id: keptId });
    expect(recreated.status).toBe(409);
    expect(await headerOf(keptId)).toEqual(before);
    expect(await (await env.INVOICES.get(names[1]))!.text()).toBe("%PDF-1.4 alt");
  });

  it("'131 error updating invoice header with pdf name' when the header cannot be set, and the uploaded file is removed", async () => {
    const id = free[5];
    const header = await headerOf(id);
    const key = invoicePdfName({ invoiceNumber: header.invoiceNumber!, date: header.date }, (await personOf(header.personId)).lastName).key;
    const renderer = lazyRenderer(env);
    try {
      const outcome = await createInvoicePdf(env, db, id, DEMO_USERS.admin, {
        // Another path names another file on the invoice while this one is being rendered.
        renderer: async () => {
          await db.update(schema.invoiceHeaders).set({ pdfFilePath: "Rechnung_anders.pdf" }).where(eq(schema.invoiceHeaders.id, id));
          return renderer.get();
        },
      });
      expect(outcome).toEqual({ status: "refused", message: PDF_HEADER_UPDATE_FAILED });
    } finally {
      await renderer.close();
    }
    expect(await env.INVOICES.head(key)).toBeNull();
  });

  it("without the template 'invoice' the spec's 'No invoice template found' is shown and nothing changes", async () => {
    const id = free[6];
    const before = await headerOf(id);
    await db.update(schema.templates).set({ name: "invoice-weg" }).where(eq(schema.templates.name, "invoice"));
    try {
      const response = await post({ intent: "invoicePdf:create", id }, "admin");
      expect(response.status).toBe(409);
      expect(await response.text()).toContain("No invoice template found");
      expect(await headerOf(id)).toEqual(before);
    } finally {
      await db.update(schema.templates).set({ name: "invoice" }).where(eq(schema.templates.name, "invoice-weg"));
    }
  });

  it("every value in the PDF is escaped: a name with HTML is printed as text", async () => {
    // The recipient is copied when the invoice is issued: the person's name is set before.
    await db.update(schema.people).set({ firstName: "<b>Fett</b>", streetNumber: "<script>x()</script> 1" }).where(eq(schema.people.id, 10));
    const id = await makeInvoice(10, 880_200);
    // The one raw value is the GiroCode: SVG markup Wuff draws itself (no user text in it, banking.test.ts).
    expect(DEFAULT_INVOICE_TEMPLATE.replaceAll("{{{girocode}}}", "")).not.toContain("{{{");
    expect((await post({ intent: "invoicePdf:create", id })).status).toBe(302);
    const stored = await env.INVOICES.get((await headerOf(id)).pdfFilePath!);
    const text = await pdfText(await stored!.arrayBuffer());
    expect(text).toContain("<b>Fett</b>");
    expect(text).toContain("<script>x()</script> 1");
  });
});

describe("an invoice issued before issue 30 whose PDF an edit had detached", () => {
  it("'PDF erzeugen' renders it anew from its frozen data instead of taking the outdated file no header named", async () => {
    const id = await makeInvoice(7, 880_107);
    const header = await headerOf(id);
    const key = invoicePdfName({ invoiceNumber: header.invoiceNumber!, date: header.date }, (await personOf(header.personId)).lastName).key;
    await env.INVOICES.put(key, "%PDF-1.4 veraltet");
    // The invoice changed after that file was stored (its last change is now).
    await db
      .update(schema.invoiceHeaders)
      .set({ comments: "geändert", lastModifiedOn: new Date(Date.now() + 60_000).toISOString() })
      .where(eq(schema.invoiceHeaders.id, id));
    expect((await post({ intent: "invoicePdf:create", id })).status).toBe(302);
    const stored = await (await env.INVOICES.get(key))!.arrayBuffer();
    expect((await headerOf(id)).pdfSha256).toBe(await sha256Hex(stored));
    expect(await pdfText(stored)).toContain(String(header.invoiceNumber));
  });
});

describe("PDFs stored before issue 30", () => {
  it("the daily cron keeps the SHA-256 of each as it is stored, once; a missing file stays without one", async () => {
    const stored = await makeInvoice(11, 880_300);
    const missing = await makeInvoice(12, 880_301);
    await env.INVOICES.put("Rechnung_880300_alt.pdf", "%PDF-1.4 von früher");
    await db.update(schema.invoiceHeaders).set({ pdfFilePath: "Rechnung_880300_alt.pdf" }).where(eq(schema.invoiceHeaders.id, stored));
    await db.update(schema.invoiceHeaders).set({ pdfFilePath: "Rechnung_880301_weg.pdf" }).where(eq(schema.invoiceHeaders.id, missing));
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "0 6 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await headerOf(stored)).pdfSha256).toBe(await sha256Hex(new TextEncoder().encode("%PDF-1.4 von früher")));
    expect((await headerOf(missing)).pdfSha256).toBeNull();
    // Set once: a later file under the name does not change it (the trigger refuses it too).
    await env.INVOICES.put("Rechnung_880300_alt.pdf", "%PDF-1.4 untergeschoben");
    expect(await hashStoredPdfs(env, db)).toBe(0);
    expect((await headerOf(stored)).pdfSha256).toBe(await sha256Hex(new TextEncoder().encode("%PDF-1.4 von früher")));
  });
});

describe("malformed requests get a German 4xx and change nothing", () => {
  it("unknown or malformed invoice ids", async () => {
    const before = await env.DB.prepare("SELECT id, pdf_file_path, row_version FROM invoice_headers ORDER BY id").all();
    for (const id of ["999999", "abc", "-1", ""]) {
      for (const intent of ["invoicePdf:create", "invoicePdf:recreate"]) {
        const response = await post({ intent, id });
        expect(response.status, `${intent} ${id}`).toBe(404);
        expect(await response.text()).toContain("Der Datensatz existiert nicht mehr");
      }
    }
    const cookie = await loginCookie("finance");
    const unknown = await fetchApp("/invoices/pdf/999999", { cookie });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("getPDF error: Diese Rechnung gibt es nicht (mehr).");
    const bad = await fetchApp("/invoices/pdf/abc", { cookie });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^getPDF error: /);
    const none = await fetchApp(`/invoices/pdf/${free[8]}`, { cookie });
    expect(none.status).toBe(404);
    expect(await none.text()).toBe("getPDF error: Für diese Rechnung wurde noch kein PDF erzeugt.");
    expect((await env.DB.prepare("SELECT id, pdf_file_path, row_version FROM invoice_headers ORDER BY id").all()).results).toEqual(before.results);
  });

  it("only the file a header names is ever read: a key in the request is ignored", async () => {
    const cookie = await loginCookie("finance");
    const named = (await headerOf(free[0])).pdfFilePath!;
    await env.INVOICES.put("geheim.pdf", "%PDF-1.4 geheim");
    for (const path of [
      `/invoices/pdf/${free[8]}?filename=geheim.pdf`,
      "/invoices/pdf/geheim.pdf",
      `/invoices/pdf/${free[8]}?key=${encodeURIComponent(named)}`,
    ]) {
      const response = await fetchApp(path, { cookie });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(await response.text(), path).not.toContain("geheim");
    }
    const own = await fetchApp(`/invoices/pdf/${free[0]}?filename=geheim.pdf`, { cookie });
    expect(own.headers.get("Content-Disposition")).toContain(named);
    expect(await own.text()).not.toContain("geheim");
  });

  it("a stored path whose file is gone answers 'getPDF error:' (404), not a 500", async () => {
    const id = free[8];
    await db.update(schema.invoiceHeaders).set({ pdfFilePath: "Rechnung_weg.pdf" }).where(eq(schema.invoiceHeaders.id, id));
    const response = await fetchApp(`/invoices/pdf/${id}`, { cookie: await loginCookie("admin") });
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/^getPDF error: Die PDF-Datei Rechnung_weg\.pdf fehlt/);
  });
});

describe("the Stornorechnung's PDF (issue 30)", () => {
  it("is headed 'Stornorechnung', names the invoice it cancels with number and date, negates its rows and asks for no payment", async () => {
    const id = await makeInvoice(13, 880_400);
    const original = await headerOf(id);
    const response = await post({ intent: "invoice:cancel", id });
    expect(response.status).toBe(302);
    const [storno] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.correctsInvoiceId, id));
    expect((await post({ intent: "invoicePdf:create", id: storno.id })).status).toBe(302);
    const stored = await env.INVOICES.get((await headerOf(storno.id)).pdfFilePath!);
    const text = (await pdfText(await stored!.arrayBuffer())).replace(/\s+/g, " ");
    expect(text).toContain(`Stornorechnung Nr. ${storno.invoiceNumber}`);
    expect(text).toContain(`hiermit stornieren wir unsere Rechnung Nr. ${original.invoiceNumber} vom 02.11.2026 vollständig. Es ist nichts zu zahlen.`);
    expect(text).toContain("-60,00 €");
    expect(text).toContain("-1.234,56 €");
    expect(text).not.toContain("Bitte überweisen");
    expect(text).not.toContain("GiroCode");
  });
});
