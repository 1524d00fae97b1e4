import { expect, test } from "./support/fixtures";
import { waitForHydration } from "./support/journeys";
import { caughtMails } from "./support/maildev";
import { testDataFor } from "./support/test-data";

/** The demo data's SMTP test account (Einstellungen): outside production every mail goes there. */
const TEST_ACCOUNT = "test@wuff.example";

test("a single mail from a person: the preview dialog (800 px x 80 vh), Previous/Next, the required subject, sent to the test account and listed under Mails", async ({
  page,
  openAs,
  javaScriptEnabled,
}) => {
  test.slow();
  const subject = `Browsertest ${javaScriptEnabled ? "js" : "html"} ${Date.now().toString(36)}`;
  await openAs("finance", "/people");
  const grid = page.getByRole("region", { name: "Personen" });
  // A person with an e-mail address (its cell is a mailto: link), not the first of the page.
  const row = grid.locator("tbody tr", { has: page.locator('a[href^="mailto:"]') }).nth(1);
  const name = (await row.locator("td").nth(1).textContent())!.trim();
  await row.locator("td").first().click();
  await expect(row).toHaveAttribute("aria-selected", "true");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await grid.getByRole("toolbar").getByRole("link", { name: "Mail senden" }).click();

  const dialog = page.getByRole("dialog", { name: /^Mail senden: / });
  await expect(dialog).toBeVisible();
  const title = await dialog.getByRole("heading").first().textContent();
  expect(title).toContain(name);
  // The panel: the title's header row sits directly in it.
  const box = await dialog.getByRole("heading").first().locator("xpath=../..").boundingBox();
  const viewport = page.viewportSize()!;
  expect(Math.round(box!.width)).toBe(800);
  expect(Math.abs(box!.height - viewport.height * 0.8)).toBeLessThan(2);
  await expect(dialog.getByRole("textbox", { name: "An", exact: true })).toHaveValue(/<.+@.+>/);
  await expect(dialog.getByText(`Testsystem: geht nur an den SMTP Test Account ${TEST_ACCOUNT}`)).toBeVisible();
  await expect(page.frameLocator('iframe[title="Vorschau der Mail"]').getByText("wir möchten Dich kurz über Neuigkeiten")).toBeVisible();

  // Previous and Next browse the rows of the page the dialog was opened from.
  await dialog.getByRole("link", { name: "Nächster ›" }).click();
  await expect(dialog.getByRole("heading").first()).not.toHaveText(title!);
  await dialog.getByRole("link", { name: "‹ Vorheriger" }).click();
  await expect(dialog.getByRole("heading").first()).toHaveText(title!);

  // The subject is required.
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await dialog.getByLabel("Betreff").fill("");
  await dialog.getByRole("button", { name: "Senden" }).click();
  await expect(page.getByRole("dialog", { name: /^Mail senden: / }).getByText("Betreff ist erforderlich")).toBeVisible();

  await page
    .getByRole("dialog", { name: /^Mail senden: / })
    .getByLabel("Betreff")
    .fill(subject);
  await page
    .getByRole("dialog", { name: /^Mail senden: / })
    .getByRole("button", { name: "Senden" })
    .click();
  await expect(page.getByRole("status")).toHaveText("Mail erfolgreich versandt");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await expect.poll(async () => (await caughtMails(subject)).length).toBe(1);
  const [mail] = await caughtMails(subject);
  expect(mail.to.map((to) => to.address)).toEqual([TEST_ACCOUNT]);
  expect(mail.text).toContain("Viele Grüße");

  await page.getByRole("navigation", { name: "Bereiche der Person" }).getByRole("link", { name: "Mails" }).click();
  const log = page.getByRole("region", { name: /^Mails an / });
  await expect(log.locator("tbody tr", { hasText: subject })).toContainText("versandt");
  await expect(log.locator("tbody tr", { hasText: subject })).toContainText(TEST_ACCOUNT);
});

test("an invoice by mail: Senden says it waits for the PDF, PDF erzeugen frees it, and the sent invoice shows its Versendet am", async ({
  page,
  openAs,
  javaScriptEnabled,
}) => {
  test.slow();
  // An invoice of this project's own, without a PDF (tests/e2e/test-data.setup.ts).
  const { invoiceId, invoiceNumber } = (await testDataFor(javaScriptEnabled)).invoiceToMail;
  await openAs("finance", `/invoices/${invoiceId}/invoicerows`);
  const invoices = page.getByRole("region", { name: /^Rechnungen/ });
  const toolbar = page.getByRole("toolbar", { name: /^Rechnungen.*Aktionen$/ });
  const row = invoices.locator(`tbody tr[data-row-id="${invoiceId}"]`);
  await expect(row).toHaveAttribute("aria-selected", "true");
  const sentColumn = (await invoices.getByRole("columnheader").allTextContents()).findIndex((text) => text.trim() === "Versendet am");
  expect(sentColumn).toBeGreaterThan(0);
  await expect(row.getByRole("cell").nth(sentColumn)).toHaveText("");

  // No PDF yet: Senden is disabled and says why.
  await waitForHydration(page, javaScriptEnabled);
  await toolbar.getByRole("link", { name: "Mail senden" }).click();
  let dialog = page.getByRole("dialog", { name: /^Mail senden: / });
  await expect(dialog.getByRole("alert")).toHaveText("Zu dieser Rechnung gibt es noch kein PDF. Bitte zuerst das PDF erzeugen.");
  await expect(dialog.getByRole("button", { name: "Senden" })).toBeDisabled();
  await dialog.getByRole("link", { name: "Abbruch" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await waitForHydration(page, javaScriptEnabled);
  await toolbar.getByRole("link", { name: "PDF erzeugen", exact: true }).click();
  await page.getByRole("dialog", { name: "PDF erzeugen" }).getByRole("button", { name: "PDF erzeugen" }).click();
  await expect(page.getByRole("status").filter({ hasText: "PDF erfolgreich erstellt" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // With the PDF: Senden is free, the mail goes with the invoice attached.
  await waitForHydration(page, javaScriptEnabled);
  await toolbar.getByRole("link", { name: "Mail senden" }).click();
  dialog = page.getByRole("dialog", { name: /^Mail senden: / });
  await expect(dialog.getByText(new RegExp(`^Rechnung anhängen: Rechnung_${invoiceNumber}_`))).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  const subject = (await dialog.getByLabel("Betreff").inputValue()).trim();
  expect(subject).not.toBe("");
  await dialog.getByRole("button", { name: "Senden" }).click();
  await expect(page.getByRole("status")).toHaveText("Mail erfolgreich versandt");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const today = new Intl.DateTimeFormat("de-DE", { timeZone: "Europe/Berlin", day: "2-digit", month: "2-digit", year: "numeric" }).format(new Date());
  await expect(row.getByRole("cell").nth(sentColumn)).toHaveText(today);
  await expect
    .poll(async () => (await caughtMails(subject)).some((mail) => mail.attachments?.some((file) => file.filename.startsWith(`Rechnung_${invoiceNumber}_`))))
    .toBe(true);
});

// Staff get no 'Mail senden': tests/integration/role-refusals.test.ts.
