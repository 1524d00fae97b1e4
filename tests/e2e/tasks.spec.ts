import { expect, test, type Page } from "@playwright/test";
import { loginAs } from "./support/login";
import { saveReminderLevels } from "./support/reminder-levels";
import { extractText, getDocumentProxy } from "unpdf";
import { caughtAttachment, caughtMails } from "./support/maildev";
import { berlinDaysAgo, getOnOwnConnection, waitForHydration } from "./support/journeys";
import { testDataFor } from "./support/test-data";

/**
 * Tasks as the treasurer's Sunday: Jahresbeiträge for next year, Rechnungen schreiben with its
 * preview, the progress followed to the end (with JavaScript the page follows by itself, without
 * it the page reloads itself while a run is under way), and the run undone. Bulk runs change the
 * whole club's books: this file runs after every other browser test, one project after the other
 * (tests/playwright.config.ts).
 */

/** Reads a count from the preview's row ('neue Rechnungen' -> 12). */
async function previewCount(dialog: ReturnType<Page["getByRole"]>, label: string) {
  const text = await dialog
    .getByRole("row", { name: new RegExp(`^${label}`) })
    .getByRole("cell")
    .textContent();
  return Number(text!.replace(/\D/g, ""));
}

/** The preview's counts of the Abo-Beiträge: subscriptions with a period to bill, and the periods. */
async function subscriptionPreview(dialog: ReturnType<Page["getByRole"]>) {
  await expect(dialog.getByRole("table", { name: "Vorschau" })).toBeVisible();
  return { subscriptions: await previewCount(dialog, "Abos mit offenem Zeitraum"), periods: await previewCount(dialog, "neue Abo-Beiträge") };
}

// The run of the Abo-Beiträge adds open items that Rechnungen schreiben bills: one after the other,
// so that the invoicing run's preview and result count the same items.
test.describe("Abo-Beiträge, then Jahresbeiträge and Rechnungen schreiben", () => {
  test.describe.configure({ mode: "serial" });

  test("Abo-Beiträge from Tasks: the preview, the run to its end, and a second run that bills nothing", async ({ page, javaScriptEnabled }) => {
    await loginAs(page, "admin", "/tasks");
    const card = page.getByRole("region", { name: "Abo-Beiträge" });
    const dialog = page.getByRole("dialog", { name: "Abo-Beiträge einstellen" });
    await waitForHydration(page, javaScriptEnabled);
    await card.getByRole("link", { name: "Abo-Beiträge einstellen …" }).click();
    // The first project bills every period begun: the demo's Abos and the two of the test data
    // (tests/e2e/test-data.setup.ts, cardDesk: taken 40 days ago, two months begun each). The
    // second project, after it, finds them billed and checks the second run without JavaScript.
    if (javaScriptEnabled) {
      const preview = await subscriptionPreview(dialog);
      expect(preview.subscriptions).toBeGreaterThanOrEqual(2);
      expect(preview.periods).toBeGreaterThanOrEqual(4);
      await expect(dialog).toContainText("Mit SEPA-Mandat werden die Beiträge per Lastschrift eingezogen, sonst per Rechnung abgerechnet");
      await dialog.getByRole("button", { name: "Abo-Beiträge einstellen" }).click();
      await expect(page.getByText("Abo-Beiträge gestartet: working ...")).toBeVisible();
      const result = card.getByRole("status", { name: "Ergebnis Abo-Beiträge" });
      await expect(result).toHaveText(`${preview.periods.toLocaleString("de-DE")} Abo-Beiträge eingestellt`, { timeout: 60_000 });
      const progress = card.getByRole("progressbar", { name: "Fortschritt Abo-Beiträge" });
      await expect(progress).toHaveAttribute("value", (await progress.getAttribute("max"))!);
      await waitForHydration(page, javaScriptEnabled);
      await card.getByRole("link", { name: "Abo-Beiträge einstellen …" }).click();
    }

    // A second run bills nothing: the preview says so, and the button stays disabled with the reason.
    expect(await subscriptionPreview(dialog)).toEqual({ subscriptions: 0, periods: 0 });
    await expect(dialog).toContainText("Alle begonnenen Zeiträume sind schon abgerechnet: Ein Lauf fügt jetzt nichts hinzu.");
    await expect(dialog.getByRole("button", { name: "Abo-Beiträge einstellen" })).toBeDisabled();
    await expect(dialog.getByText("Es ist nichts abzurechnen.")).toBeVisible();
  });

  test("Jahresbeiträge and Rechnungen schreiben (drafts only) from Tasks, followed to the end, and the invoicing run undone", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.setTimeout(180_000);
    const nextYear = new Date().getFullYear() + 1;
    await loginAs(page, "admin", "/tasks");
    await expect(page.getByRole("heading", { level: 1, name: "Tasks" })).toBeVisible();
    await waitForHydration(page, javaScriptEnabled);

    // Jahresbeiträge for next year: the preview, then the run to its end.
    const annual = page.getByRole("region", { name: "Jahresbeiträge" });
    await annual.getByLabel("Beitragsjahr").selectOption(String(nextYear));
    await annual.getByRole("button", { name: "Jahresbeiträge einstellen …" }).click();
    let dialog = page.getByRole("dialog", { name: `Jahresbeiträge ${nextYear} einstellen` });
    await expect(dialog.getByRole("table", { name: "Vorschau" })).toBeVisible();
    await dialog.getByRole("button", { name: "Jahresbeiträge einstellen" }).click();
    await expect(page.getByText(`Jahresbeiträge ${nextYear} gestartet: working ...`)).toBeVisible();
    const annualResult = annual.getByRole("status", { name: "Ergebnis Jahresbeiträge" });
    await expect(annualResult).toHaveText(/^\d+ offene Posten für Jahresbeiträge eingestellt$/, { timeout: 60_000 });
    const annualProgress = annual.getByRole("progressbar", { name: "Fortschritt Jahresbeiträge" });
    await expect(annualProgress).toHaveAttribute("value", (await annualProgress.getAttribute("max"))!);

    // Rechnungen schreiben: the preview says what will be billed.
    await waitForHydration(page, javaScriptEnabled);
    const invoices = page.getByRole("region", { name: "Rechnungen schreiben" });
    await invoices.getByRole("link", { name: "Rechnungen schreiben …" }).click();
    dialog = page.getByRole("dialog", { name: "Rechnungen schreiben" });
    const fees = await previewCount(dialog, "offene Posten");
    const newInvoices = await previewCount(dialog, "neue Rechnungen");
    expect(fees).toBeGreaterThan(0);
    expect(newInvoices).toBeGreaterThan(0);
    // Drafts only (issue 30): a run that issued its invoices is not undone, one of drafts is.
    await dialog.getByRole("checkbox", { name: /^Nur Entwürfe anlegen/ }).check();
    await dialog.getByRole("button", { name: "Rechnungen schreiben" }).click();
    await expect(page.getByText("Rechnungen schreiben gestartet: working ...")).toBeVisible();
    const result = invoices.getByRole("status", { name: "Ergebnis Rechnungen schreiben" });
    await expect(result).toHaveText(new RegExp(`^${newInvoices.toLocaleString("de-DE")} Rechnungen eingefügt`), { timeout: 60_000 });
    const progress = invoices.getByRole("progressbar", { name: "Fortschritt Rechnungen schreiben" });
    await expect(progress).toHaveAttribute("value", (await progress.getAttribute("max"))!);
    const history = page.getByRole("region", { name: /^Verlauf/ });
    // The mailshot test runs beside this one (same project): its run may be listed first.
    await expect(history.locator("tbody tr", { hasText: "Rechnungen schreiben" }).first()).toContainText("fertig");

    // Nothing is left to bill.
    await waitForHydration(page, javaScriptEnabled);
    await invoices.getByRole("link", { name: "Rechnungen schreiben …" }).click();
    dialog = page.getByRole("dialog", { name: "Rechnungen schreiben" });
    await expect(dialog.getByRole("alert")).toHaveText("Keine Offenen Posten zu berechnen");
    await expect(dialog.getByRole("button", { name: "Rechnungen schreiben" })).toBeDisabled();
    await dialog.getByRole("link", { name: "Abbruch" }).click();
    await expect(dialog).toHaveCount(0);

    // The run undone: its drafts go, the fees are billable again.
    await waitForHydration(page, javaScriptEnabled);
    await invoices.getByRole("link", { name: "Letzten Lauf rückgängig machen …" }).click();
    dialog = page.getByRole("dialog", { name: "Rechnungslauf rückgängig machen" });
    await expect(dialog).toContainText(`${newInvoices.toLocaleString("de-DE")} neue Rechnung`);
    await dialog.getByRole("button", { name: "Ja, rückgängig machen" }).click();
    await expect(
      page.getByText(
        new RegExp(
          `^Rechnungslauf rückgängig gemacht: ${newInvoices.toLocaleString("de-DE")} Rechnungen gelöscht, ${fees.toLocaleString("de-DE")} offene Posten wieder abzurechnen$`,
        ),
      ),
    ).toBeVisible();
    await expect(invoices.getByText("rückgängig gemacht", { exact: true })).toBeVisible();
    await expect(invoices.getByRole("link", { name: "Letzten Lauf rückgängig machen …" })).toHaveCount(0);
    await waitForHydration(page, javaScriptEnabled);
    await invoices.getByRole("link", { name: "Rechnungen schreiben …" }).click();
    dialog = page.getByRole("dialog", { name: "Rechnungen schreiben" });
    expect(await previewCount(dialog, "offene Posten")).toBe(fees);
  });
});

test("Tasks on a phone: no horizontal scrolling, the buttons reachable", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, "admin", "/tasks");
  await expect(page.getByRole("region", { name: "Rechnungen schreiben" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

/** A PDF's text, whitespace (also no-break spaces) as single spaces. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return (text as string).replace(/\s+/g, " ");
}

/** The half-years (their first day) of the days from `from` to `to`. */
function halfYearsBetween(from: string, to: string): string[] {
  const halfOf = (date: string) => `${date.slice(0, 4)}-${Number(date.slice(5, 7)) <= 6 ? "01" : "07"}-01`;
  const halves = [halfOf(from)];
  while (halves.at(-1)! < halfOf(to)) {
    const last = halves.at(-1)!;
    halves.push(last.endsWith("01-01") ? `${last.slice(0, 4)}-07-01` : `${Number(last.slice(0, 4)) + 1}-01-01`);
  }
  return halves;
}

const germanDate = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
const isoOfGermanDate = (german: string) => `${german.slice(6, 10)}-${german.slice(3, 5)}-${german.slice(0, 2)}`;
const dayAfter = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const daysFromTo = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * Einstellungen as the treasurer sets up the Mahnwesen (both projects save it): level 1 with a
 * reminder fee of 2,50 € by letter and 0,50 € by mail, so that the letters of the run state a fee;
 * level 2 with the actual costs (1,50 € by letter, nothing by mail), after 14 days in the first
 * project and 3 in the second (so that each project's run finds its own debtor's 1. Mahnung due,
 * tests/e2e/test-data.setup.ts); default interest on,
 * with the base rate of every half-year since the debtors' default (issue 31 item 5).
 */
async function reminderSettings(page: Page, javaScriptEnabled: boolean) {
  await loginAs(page, "admin", "/configuration");
  const form = page.getByRole("form", { name: "Mahnwesen" });
  await waitForHydration(page, javaScriptEnabled);
  const first = form.getByRole("group", { name: "Stufe 1: Zahlungserinnerung" });
  const second = form.getByRole("group", { name: "Stufe 2: 1. Mahnung" });
  await saveReminderLevels(page, async () => {
    await first.getByLabel("Mahngebühr per Brief").fill("2,50");
    await first.getByLabel("Mahngebühr per Mail").fill("0,50");
    await second.getByLabel("Mahngebühr per Brief").fill("1,50");
    await second.getByLabel("Mahngebühr per Mail").fill("0,00");
    await second.getByLabel("Tage bis zur Mahnung").fill(javaScriptEnabled ? "14" : "3");
  });
  await expect(first.getByLabel("Mahngebühr per Brief")).toHaveValue("2,50");
  await expect(first.getByLabel("Mahngebühr per Mail")).toHaveValue("0,50");
  await expect(second.getByLabel("Mahngebühr per Brief")).toHaveValue("1,50");

  // The base rate of each half-year the interest runs over (the same 1,27 % throughout, as the
  // Bundesbank announced it for 2025-07-01 and 2026-01-01).
  const rates = page.getByRole("form", { name: "Basiszinssatz" });
  for (const half of halfYearsBetween(berlinDaysAgo(40), berlinDaysAgo(0))) {
    await rates.getByLabel("Halbjahr").selectOption(half.endsWith("01-01") ? "ab 1. Januar" : "ab 1. Juli");
    await rates.getByLabel("Jahr", { exact: true }).fill(half.slice(0, 4));
    await rates.getByLabel("Basiszinssatz in %").fill("1,27");
    await rates.getByRole("button", { name: "Basiszinssatz eintragen" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Basiszinssatz ab .* (eingetragen|korrigiert): 1,27 %$/ })).toBeVisible();
    await expect(rates.getByRole("row", { name: `${germanDate(half)} 1,27 %` })).toBeVisible();
    await waitForHydration(page, javaScriptEnabled);
  }

  const settings = page.getByRole("form", { name: "Einstellungen" });
  await settings.getByLabel("Verzugszinsen berechnen").check();
  await settings.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Einstellungen wurden aktualisiert" })).toBeVisible();
  await expect(settings.getByLabel("Verzugszinsen berechnen")).toBeChecked();
}

/** Default interest on 100,00 € for `days` days at 1,27 + 5 = 6,27 %, rounded once: '5,15 €'. */
const interestOn100 = (days: number) => `${(Math.round((10_000 * 627 * days) / 3_650_000) / 100).toFixed(2).replace(".", ",")} €`;

test("Mahnlauf (FINANCE): the preview, the confirmation, the run to its end with a 1. Mahnung of actual costs and interest, the history under a person", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(180_000);
  const debtor = (await testDataFor(javaScriptEnabled)).interestReminder;
  await reminderSettings(page, javaScriptEnabled);
  await loginAs(page, "finance", "/reminders");
  await expect(page.getByRole("heading", { level: 1, name: "Mahnwesen" })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  const card = page.getByRole("region", { name: "Mahnlauf" });
  await card.getByRole("link", { name: "Mahnlauf starten …" }).click();
  const dialog = page.getByRole("dialog", { name: "Mahnlauf starten" });
  const preview = dialog.getByRole("table", { name: /^Vorschau für den \d{2}\.\d{2}\.\d{4}$/ });
  await expect(preview).toBeVisible();
  const previewDay = isoOfGermanDate((await preview.locator("caption").textContent())!.slice(-10));
  await expect(preview.getByRole("row", { name: /^Zahlungserinnerung/ })).toBeVisible();
  const items = Number(
    (await preview
      .getByRole("row", { name: /^Summe/ })
      .getByRole("cell")
      .first()
      .textContent())!.replace(/\D/g, ""),
  );
  // The first project's run finds the demo data's overdue invoices and its own debtor, the second
  // its own debtor (and what the shorter level 2 made due), so the letters below are read.
  expect(items).toBeGreaterThan(0);
  // Per person: by mail or to print, and why not by mail.
  await expect(dialog.getByRole("table", { name: "Versand je Person" })).toBeVisible();
  // Default interest is on: a column of its own, and how it is computed.
  await expect(preview.getByRole("columnheader", { name: "Zinsen" })).toBeVisible();
  await expect(dialog).toContainText("5 Prozentpunkte über dem Basiszinssatz (Unternehmer 9)");
  await dialog.getByRole("button", { name: "Mahnlauf starten" }).click();
  const result = card.getByRole("status", { name: "Ergebnis Mahnlauf" });
  await expect(result).toHaveText(new RegExp(`^Fertig! ${items.toLocaleString("de-DE")} Mahnung(?:en)? geschrieben`), { timeout: 120_000 });
  // The letters went out: mails of the levels to the test account, each with its letter (PDF) attached.
  const mails = (await Promise.all(["Zahlungserinnerung: ", "1. Mahnung: ", "2. Mahnung: "].map((subject) => caughtMails(subject)))).flat();
  const letters = mails.filter((mail) =>
    mail.attachments?.some((file) => /^Mahnung_\d+_\d+_.+\.pdf$/.test(file.filename) && file.contentType === "application/pdf"),
  );
  expect(letters.length).toBeGreaterThan(0);
  expect(new Set(letters.flatMap((mail) => mail.to.map((to) => to.address)))).toEqual(new Set(["test@wuff.example"]));

  // A level-1 mail in German, and its letter: the reminded item, the reminder fee and the new due date.
  const mail = letters.find((caught) => caught.subject.startsWith("Zahlungserinnerung: "))!;
  expect(mail).toBeDefined();
  const body = mail.text.replace(/\s+/g, " ");
  expect(body).toContain("bei uns ist noch ein Betrag offen, dessen Zahlungsfrist abgelaufen ist:");
  const stated =
    /zuzüglich Mahngebühr (\d{1,3}(?:\.\d{3})*,\d{2} €), zusammen \d{1,3}(?:\.\d{3})*,\d{2} €\. Bitte überweise den Betrag bis zum (\d{2}\.\d{2}\.\d{4}) unter Angabe von /.exec(
      body,
    );
  expect(stated, body).not.toBeNull();
  const [, fee, dueDate] = stated!;
  expect(body).toContain("Das Schreiben liegt als PDF bei.");
  const attachment = mail.attachments!.find((file) => file.contentType === "application/pdf")!;
  const letter = await pdfText(await caughtAttachment(mail, attachment.generatedFileName));
  const item = mail.subject.slice("Zahlungserinnerung: ".length).split(", ")[0];
  expect(letter).toContain(item);
  expect(letter).toContain(`Zahlbar bis ${dueDate}`);
  expect(letter).toMatch(new RegExp(`Mahngebühr ${fee.replace(/[.]/g, "\\.")}`));
  expect(letter).toContain("Zahlungserinnerung");
  // The run's print PDF: a plain link (the letters of those without an e-mail address).
  const download = card.getByRole("link", { name: "Druck-PDF herunterladen" });
  await expect(download).toHaveAttribute("href", /^\/reminders\/print\/\d+$/);
  const printPdf = await getOnOwnConnection(page, (await download.getAttribute("href"))!);
  if (printPdf.status() === 200) expect(printPdf.headers()["content-type"]).toBe("application/pdf");
  else expect(await printPdf.text()).toBe("In diesem Mahnlauf gibt es keine Mahnung zum Drucken.");

  // This project's debtor in default: the 1. Mahnung charges the actual costs of its channel and
  // the interest from the day after the Zahlungserinnerung's deadline to the run's day, on the
  // letter. The run's day is the preview's, or the next one when the run started past midnight,
  // so it is read from the letter, not from the clock now.
  const interestLineOf = (text: string) => {
    const line = new RegExp(
      `Verzugszinsen Rechnung ${debtor.invoiceNumber}: (\\d{2}\\.\\d{2}\\.\\d{4}) bis (\\d{2}\\.\\d{2}\\.\\d{4}), 5 Prozentpunkte über dem Basiszinssatz \\(6,27 % p\\. a\\.\\) (\\d+,\\d{2} €)`,
    ).exec(text);
    expect(line, text).not.toBeNull();
    const [, from, to, charged] = line!;
    expect(isoOfGermanDate(from)).toBe(dayAfter(debtor.defaultSince));
    expect([previewDay, dayAfter(previewDay)]).toContain(isoOfGermanDate(to));
    const days = daysFromTo(debtor.defaultSince, isoOfGermanDate(to));
    expect(charged).toBe(interestOn100(days));
    return charged;
  };
  if (debtor.email === null) {
    // By post: in the print PDF, with the letter's 1,50 €.
    expect(printPdf.status()).toBe(200);
    const printed = await pdfText(new Uint8Array(await printPdf.body()));
    expect(printed).toContain(`Rechnung ${debtor.invoiceNumber}`);
    interestLineOf(printed);
    expect(printed).toContain("Mahngebühr 1,50 €");
  } else {
    // By mail: no costs, the interest in the mail and in its letter.
    const [mail] = await caughtMails(`1. Mahnung: Rechnung ${debtor.invoiceNumber}`);
    expect(mail, "Mail der 1. Mahnung").toBeDefined();
    const attachment = mail.attachments!.find((file) => file.contentType === "application/pdf")!;
    const interest = interestLineOf(await pdfText(await caughtAttachment(mail, attachment.generatedFileName)));
    const total = `${(100 + Number(interest.replace(" €", "").replace(",", "."))).toFixed(2).replace(".", ",")} €`;
    expect(mail.text.replace(/\s+/g, " ")).toContain(`offen 100,00 €, zuzüglich Verzugszinsen ${interest}, zusammen ${total}`);
  }

  // The history: the newest reminder's person, the tab 'Mahnungen' under them.
  const latest = page.getByRole("region", { name: "Mahnungen", exact: true });
  const firstPerson = latest.locator("tbody tr").first().getByRole("link").first();
  const name = (await firstPerson.textContent())!;
  await firstPerson.click();
  await expect(page.getByRole("heading", { name: `Mahnungen an ${name}` })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Zahlungserinnerung" }).first()).toBeVisible();
});

test("Tasks (ADMIN) offers the Mahnlauf beside the other runs: its preview opens there and leads to all reminders", async ({ page, javaScriptEnabled }) => {
  await loginAs(page, "admin", "/tasks");
  await waitForHydration(page, javaScriptEnabled);
  const card = page.getByRole("region", { name: "Mahnlauf" });
  await expect(card.getByRole("link", { name: "Alle Mahnungen" })).toHaveAttribute("href", "/reminders");
  await card.getByRole("link", { name: "Mahnlauf starten …" }).click();
  const dialog = page.getByRole("dialog", { name: "Mahnlauf starten" });
  await expect(dialog.getByRole("table", { name: /^Vorschau für den \d{2}\.\d{2}\.\d{4}$/ })).toBeVisible();
  await dialog.getByRole("link", { name: "Schließen" }).first().click();
  await expect(page.getByRole("dialog", { name: "Mahnlauf starten" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/tasks$/);
});
