/**
 * Invoice PDFs (issue 13 item 1; spec 001 §2, §4, §7-§9): real PDFs rendered by Chromium through the
 * Browser Rendering binding (it works inside the vitest pool: miniflare starts the local Chromium),
 * stored in the real local R2, read back and searched with unpdf. Create, recreate, show, the
 * rules for a file already stored under the name, '131 ...' with the upload removed, the missing
 * template, and malformed requests.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { DEFAULT_INVOICE_TEMPLATE, invoicePdfName } from "~/lib/invoice-document";
import { createInvoicePdf, lazyRenderer, PDF_HEADER_UPDATE_FAILED } from "~/services/invoice-pdfs.server";
import { deleteInvoiceHeader } from "~/models/invoices.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS, loginCookie } from "../support/sessions";

const db = createDb(env.DB);

const headerOf = async (id: number) => (await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, id)))[0];
const personOf = async (id: number) => (await db.select().from(schema.people).where(eq(schema.people.id, id)))[0];

/** The invoices (with rows) that have no PDF yet, lowest id first. */
async function invoicesWithoutPdf() {
  const rows = await env.DB.prepare(
    "SELECT h.id FROM invoice_headers h WHERE h.pdf_file_path IS NULL AND EXISTS (SELECT 1 FROM invoice_rows r WHERE r.invoice_id = h.id) ORDER BY h.id",
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
    .values({ personId, invoiceNumber, date: "2026-11-02", dueDate: "2026-12-02", amount: 123_456, openAmount: 123_456 })
    .returning();
  await db.insert(schema.invoiceRows).values([
    { invoiceId: header.id, lineNumber: 1, text: "Jahresbeitrag 2026", amount: 6_000 },
    { invoiceId: header.id, lineNumber: 2, text: "Einzelstunden", amount: 117_456 },
  ]);
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
    const id = free[0];
    // A last name with umlauts: the key spells them out, the download name keeps them.
    const before = await headerOf(id);
    await db.update(schema.people).set({ lastName: "Müßig-Ärger" }).where(eq(schema.people.id, before.personId));
    const person = await personOf(before.personId);

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

  it("an invoice with a PDF is not made again: German 409, nothing changes", async () => {
    const id = free[0];
    const before = await headerOf(id);
    for (const intent of ["invoicePdf:create", "invoicePdf:recreate"]) {
      const response = await post({ intent, id });
      expect(response.status, intent).toBe(409);
      expect(await response.text()).toContain("Für diese Rechnung gibt es schon ein PDF");
    }
    expect(await headerOf(id)).toEqual(before);
  });

  it("the grid offers 'PDF anzeigen' on a row with a PDF and 'PDF erzeugen'/'PDF erneut erzeugen' on the others, on the invoices screen only", async () => {
    const cookie = await loginCookie("finance");
    const withPdf = await (await fetchApp(`/invoices/${free[0]}/invoicerows`, { cookie })).text();
    expect(withPdf).toContain(`href="/invoices/pdf/${free[0]}"`);
    expect(withPdf).toContain(`target="_blank"`);
    const dialogLink = (dialog: string, id: number) => new RegExp(`dialog=${dialog}&amp;dialogId=${id}(?!\\d)`);
    expect(withPdf).toMatch(dialogLink("invoicePdf-create", free[1]));
    expect(withPdf).toMatch(dialogLink("invoicePdf-recreate", free[1]));
    expect(withPdf).not.toMatch(dialogLink("invoicePdf-create", free[0]));
    expect(withPdf).not.toContain(`href="/invoices/pdf/${free[1]}"`);
    // Under a person (CHILD): no PDF actions, 'Zeile hinzufügen' stays.
    const header = await headerOf(free[0]);
    const tab = await (await fetchApp(`/people/${header.personId}/invoiceheaders`, { cookie })).text();
    expect(tab).toContain("Zeile hinzufügen");
    expect(tab).not.toContain("PDF anzeigen");
    expect(tab).not.toContain("invoicePdf-");
    // The confirmation opens as a page (without JavaScript too).
    const dialog = await (await fetchApp(`/invoices?dialog=invoicePdf-create&dialogId=${free[1]}`, { cookie })).text();
    expect(dialog).toContain("PDF erzeugen");
    expect(dialog).toContain('name="intent" value="invoicePdf:create"');
  });

  it("'PDF erzeugen' takes a file already stored under the name (an interrupted attempt) as it is; 'PDF erneut erzeugen' replaces it", async () => {
    const [adoptId, replaceId] = [free[2], free[3]];
    const names = await Promise.all(
      [adoptId, replaceId].map(async (id) => {
        const header = await headerOf(id);
        return invoicePdfName(header, (await personOf(header.personId)).lastName).key;
      }),
    );
    for (const key of names) await env.INVOICES.put(key, "%PDF-1.4 alt", { httpMetadata: { contentType: "application/pdf" } });

    expect((await post({ intent: "invoicePdf:create", id: adoptId })).status).toBe(302);
    expect((await headerOf(adoptId)).pdfFilePath).toBe(names[0]);
    expect(await (await env.INVOICES.get(names[0]))!.text()).toBe("%PDF-1.4 alt");

    const recreated = await post({ intent: "invoicePdf:recreate", id: replaceId });
    expect(recreated.status).toBe(302);
    expect(toastOf(recreated)?.message).toBe("PDF erfolgreich erstellt");
    expect((await headerOf(replaceId)).pdfFilePath).toBe(names[1]);
    const replaced = await (await env.INVOICES.get(names[1]))!.arrayBuffer();
    expect(await pdfText(replaced)).toContain(String((await headerOf(replaceId)).invoiceNumber));
  });

  it("'PDF erneut erzeugen' never replaces a file stored after its rendering started", async () => {
    const id = free[4];
    const header = await headerOf(id);
    const key = invoicePdfName(header, (await personOf(header.personId)).lastName).key;
    // The rendering 'started' a minute ago; meanwhile another path stored the file.
    await env.INVOICES.put(key, "%PDF-1.4 neuer");
    const started = new Date(Date.now() - 60_000);
    const renderer = lazyRenderer(env);
    try {
      const outcome = await createInvoicePdf(env, db, id, DEMO_USERS.admin, { replace: true, renderer: renderer.get, now: () => started });
      expect(outcome.status).toBe("adopted");
    } finally {
      await renderer.close();
    }
    expect(await (await env.INVOICES.get(key))!.text()).toBe("%PDF-1.4 neuer");
    expect((await headerOf(id)).pdfFilePath).toBe(key);
  });

  it("'131 error updating invoice header with pdf name' when the header cannot be set, and the uploaded file is removed", async () => {
    const id = free[5];
    const header = await headerOf(id);
    const key = invoicePdfName(header, (await personOf(header.personId)).lastName).key;
    const renderer = lazyRenderer(env);
    try {
      const outcome = await createInvoicePdf(env, db, id, DEMO_USERS.admin, {
        // The invoice is deleted while its PDF is being rendered.
        renderer: async () => {
          await deleteInvoiceHeader(db, id, DEMO_USERS.admin);
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
    const id = free[7];
    const header = await headerOf(id);
    await db.update(schema.people).set({ firstName: "<b>Fett</b>", streetNumber: "<script>x()</script> 1" }).where(eq(schema.people.id, header.personId));
    // The one raw value is the GiroCode: SVG markup Wuff draws itself (no user text in it, banking.test.ts).
    expect(DEFAULT_INVOICE_TEMPLATE.replaceAll("{{{girocode}}}", "")).not.toContain("{{{");
    expect((await post({ intent: "invoicePdf:create", id })).status).toBe(302);
    const stored = await env.INVOICES.get((await headerOf(id)).pdfFilePath!);
    const text = await pdfText(await stored!.arrayBuffer());
    expect(text).toContain("<b>Fett</b>");
    expect(text).toContain("<script>x()</script> 1");
  });
});

describe("a PDF that no longer shows its invoice", () => {
  it("changing a printed field or a row detaches the PDF with a warning; the next 'PDF erzeugen' renders anew instead of taking the old file", async () => {
    // An invoice of its own: the other tests take theirs from `free`.
    const id = await makeInvoice(7, 880_107);
    const cookie = await loginCookie("finance");
    expect((await post({ intent: "invoicePdf:create", id })).status).toBe(302);
    const withPdf = await headerOf(id);
    const key = withPdf.pdfFilePath!;
    expect(key).not.toBeNull();
    const saveHeader = (header: typeof withPdf, fields: Record<string, string>) =>
      postForm(`/invoices/${id}/invoicerows`, cookie, {
        intent: "invoice:save",
        id,
        rowVersion: header.rowVersion,
        date: "02.11.2026",
        isOpen: "on",
        ...fields,
      });

    // Payment fields are not printed: the PDF stays.
    let response = await saveHeader(withPdf, { dueDate: "02.12.2026", paymentComments: "Teilzahlung angekündigt" });
    expect(toastOf(response)).toMatchObject({ type: "success", message: "Rechnung wurde gespeichert" });
    const paid = await headerOf(id);
    expect(paid.pdfFilePath).toBe(key);

    // The due date is printed: the PDF is detached, in the same write, and the toast says so.
    response = await saveHeader(paid, { dueDate: "24.12.2026", paymentComments: "Teilzahlung angekündigt" });
    expect(toastOf(response)?.type).toBe("warning");
    expect(toastOf(response)?.message).toContain("PDF erneut erzeugen");
    const changed = await headerOf(id);
    expect(changed).toMatchObject({ pdfFilePath: null, dueDate: "2026-12-24", rowVersion: paid.rowVersion + 1 });
    const oldFile = await env.INVOICES.head(key);
    expect(oldFile).not.toBeNull();

    // 'PDF erzeugen' must not take the stored file, which shows the old due date.
    expect((await post({ intent: "invoicePdf:create", id })).status).toBe(302);
    expect((await headerOf(id)).pdfFilePath).toBe(key);
    const text = await pdfText(await (await env.INVOICES.get(key))!.arrayBuffer());
    expect(text).toContain("24.12.2026");
    expect(text).not.toContain("02.12.2026");

    // A new row detaches it too; the row is on the next PDF.
    response = await postForm(`/invoices/${id}/invoicerows`, cookie, {
      intent: "invoiceRow:save",
      invoiceId: id,
      text: "Nachberechnung Leine",
      amount: "7,50",
    });
    expect(toastOf(response)?.type).toBe("warning");
    expect((await headerOf(id)).pdfFilePath).toBeNull();
    expect((await post({ intent: "invoicePdf:create", id })).status).toBe(302);
    expect(await pdfText(await (await env.INVOICES.get(key))!.arrayBuffer())).toContain("Nachberechnung Leine");
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
