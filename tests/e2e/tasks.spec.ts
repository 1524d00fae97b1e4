import { expect, test, type Page } from "@playwright/test";
import { loginAs } from "./support/login";
import { saveReminderLevels } from "./support/reminder-levels";
import { extractText, getDocumentProxy } from "unpdf";
import { caughtAttachment, caughtMails } from "./support/maildev";
import { getOnOwnConnection, waitForHydration } from "./support/journeys";

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

/** Einstellungen → Mahnwesen: level 1 with a reminder fee of 2,50 € by letter and 0,50 € by mail
 *  (both projects save it), so that the letters of the run state a fee. */
async function levelOneFee(page: Page, javaScriptEnabled: boolean) {
  await loginAs(page, "admin", "/configuration");
  const form = page.getByRole("form", { name: "Mahnwesen" });
  await waitForHydration(page, javaScriptEnabled);
  const first = form.getByRole("group", { name: "Stufe 1: Zahlungserinnerung" });
  await saveReminderLevels(page, async () => {
    await first.getByLabel("Mahngebühr per Brief").fill("2,50");
    await first.getByLabel("Mahngebühr per Mail").fill("0,50");
  });
  await expect(first.getByLabel("Mahngebühr per Brief")).toHaveValue("2,50");
  await expect(first.getByLabel("Mahngebühr per Mail")).toHaveValue("0,50");
}

test("Mahnlauf (FINANCE): the preview, the confirmation, the run to its end and the history under a person", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(180_000);
  await levelOneFee(page, javaScriptEnabled);
  await loginAs(page, "finance", "/reminders");
  await expect(page.getByRole("heading", { level: 1, name: "Mahnwesen" })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  const card = page.getByRole("region", { name: "Mahnlauf" });
  await card.getByRole("link", { name: "Mahnlauf starten …" }).click();
  const dialog = page.getByRole("dialog", { name: "Mahnlauf starten" });
  const preview = dialog.getByRole("table", { name: /^Vorschau für den \d{2}\.\d{2}\.\d{4}$/ });
  await expect(preview).toBeVisible();
  await expect(preview.getByRole("row", { name: /^Zahlungserinnerung/ })).toBeVisible();
  const items = Number(
    (await preview
      .getByRole("row", { name: /^Summe/ })
      .getByRole("cell")
      .first()
      .textContent())!.replace(/\D/g, ""),
  );
  // The first project's run finds the demo data's overdue invoices, so the letters below are read.
  if (javaScriptEnabled) expect(items).toBeGreaterThan(0);
  // Per person: by mail or to print, and why not by mail.
  if (items > 0) await expect(dialog.getByRole("table", { name: "Versand je Person" })).toBeVisible();
  await dialog.getByRole("button", { name: "Mahnlauf starten" }).click();
  const result = card.getByRole("status", { name: "Ergebnis Mahnlauf" });
  // The first project's run reminds what is due; the second finds nothing due any more.
  await expect(result).toHaveText(items > 0 ? new RegExp(`^Fertig! ${items.toLocaleString("de-DE")} Mahnungen? geschrieben`) : /Keine Mahnung fällig$/, {
    timeout: 120_000,
  });
  if (items > 0) {
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
  }
  // The run's print PDF: a plain link (the letters of those without an e-mail address).
  const download = card.getByRole("link", { name: "Druck-PDF herunterladen" });
  await expect(download).toHaveAttribute("href", /^\/reminders\/print\/\d+$/);
  const printPdf = await getOnOwnConnection(page, (await download.getAttribute("href"))!);
  if (printPdf.status() === 200) expect(printPdf.headers()["content-type"]).toBe("application/pdf");
  else expect(await printPdf.text()).toBe("In diesem Mahnlauf gibt es keine Mahnung zum Drucken.");

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
