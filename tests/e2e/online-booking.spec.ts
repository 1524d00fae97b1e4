import { expect, test } from "./support/fixtures";
import { getOnOwnConnection, waitForHydration } from "./support/journeys";
import { caughtAttachment, caughtMails } from "./support/maildev";
import { fitsWidth, noAxeViolations, portalMailsTo, signInToPortal } from "./support/portal";
import { testDataFor } from "./support/test-data";

/**
 * Kurs buchen (issue 33 item 2), as a dog owner does it on the phone: from the course's page in the
 * catalogue to the booking, signed in by the link from the mail and brought back, the dog chosen,
 * the terms accepted, 'Zahlungspflichtig buchen'; the booking under Meine Kurse and the
 * confirmation mail with every date as a calendar file; then 'Vertrag widerrufen' and the mail that
 * confirms its receipt. With JavaScript and without; axe, 390 px.
 */
test("Kurs buchen: from the catalogue, signed in by link, for the dog, with the confirmation and its dates as ICS", async ({ page, javaScriptEnabled }) => {
  const booker = (await testDataFor(javaScriptEnabled)).courseBooker;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/kurse/${booker.courseId}`);
  await expect(page.getByRole("heading", { level: 1, name: booker.courseName })).toBeVisible();
  await page.getByRole("link", { name: "Jetzt buchen" }).click();

  // Signed out: the sign-in, and from its link back to the booking.
  await expect(page).toHaveURL(/\/mein\?weiter=/);
  await signInToPortal(page, booker.email, { start: "here" });
  await expect(page.getByRole("heading", { level: 1, name: `${booker.courseName} buchen` })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);
  await expect(page.getByText("Dein Preis: 150,00")).toBeVisible();

  // Without the terms accepted: a German message, nothing booked.
  await page.getByRole("radio", { name: booker.dogName }).check();
  await page.getByRole("button", { name: "Zahlungspflichtig buchen" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Bitte bestätige, dass du die AGB akzeptierst" })).toBeVisible();

  await page.getByRole("radio", { name: booker.dogName }).check();
  await page.getByRole("checkbox", { name: /Ich akzeptiere die AGB/ }).check();
  await page.getByRole("button", { name: "Zahlungspflichtig buchen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Meine Kurse" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: `Gebucht: „${booker.courseName}“ mit ${booker.dogName}.` })).toBeVisible();
  await expect(page.getByRole("heading", { name: `${booker.courseName} mit ${booker.dogName}` })).toBeVisible();
  await fitsWidth(page);

  // The confirmation leaves after the answer: wait for it as the person does.
  await expect.poll(async () => (await portalMailsTo(booker.email, "Buchungsbestätigung")).length, { timeout: 30_000 }).toBe(1);
  const [mail] = (await caughtMails("Buchungsbestätigung")).filter((caught) => caught.headers["x-wuff-intended-to"] === booker.email);
  for (const date of booker.dates) expect(mail.text).toContain(date);
  const calendar = mail.attachments!.find((file) => file.filename === "termine.ics")!;
  const ics = new TextDecoder().decode(await caughtAttachment(mail, calendar.generatedFileName));
  expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(3);
  expect(ics).toContain(`SUMMARY:${booker.courseName}`);

  // The course held one place: the catalogue now offers its waiting list.
  await page.goto(`/kurse/${booker.courseId}`);
  await expect(page.getByRole("link", { name: "Auf die Warteliste" })).toBeVisible();

  // Second thoughts within 14 days: 'Vertrag widerrufen' from the footer, confirmed, with the receipt by mail.
  await page.getByRole("navigation", { name: "Rechtliches" }).getByRole("link", { name: "Vertrag widerrufen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Vertrag widerrufen" })).toBeVisible();
  await page.getByText("Du bist angemeldet").getByRole("link", { name: "Meine Kurse" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Meine Kurse" })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  await page.locator("summary", { hasText: "Vertrag widerrufen" }).filter({ hasText: booker.courseName }).click();
  await page
    .getByRole("form", { name: `Vertrag ${booker.courseName} mit ${booker.dogName} widerrufen` })
    .getByRole("button", { name: "Widerruf bestätigen" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: `Dein Widerruf der Buchung „${booker.courseName}“ mit ${booker.dogName} ist am` })).toBeVisible();
  await expect(page.getByText("Abgemeldet").first()).toBeVisible();
  await fitsWidth(page);
  await expect.poll(async () => (await portalMailsTo(booker.email, "Eingangsbestätigung deines Widerrufs")).length, { timeout: 30_000 }).toBe(1);
  const [receipt] = await portalMailsTo(booker.email, "Eingangsbestätigung deines Widerrufs");
  expect(receipt.text).toMatch(/wir bestätigen den Eingang deines Widerrufs am \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d Uhr/);
});

/**
 * Vertrag widerrufen without an account (§ 356a BGB): from the footer of the catalogue, the
 * declaration (name, address, which contract) and 'Widerruf bestätigen'; the page says when it was
 * received, the mail confirms its content. With JavaScript and without, axe, 390 px.
 */
test("Vertrag widerrufen ohne Konto: from the footer, the time of receipt on the page and the content by mail", async ({ page, javaScriptEnabled }) => {
  const email = `widerruf-ohne-konto-${javaScriptEnabled ? "js" : "html"}@example.org`;
  const contract = `Welpenkurs mit Bruno, gebucht ${javaScriptEnabled ? "mit" : "ohne"} JavaScript`;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/kurse");
  await page.getByRole("navigation", { name: "Rechtliches" }).getByRole("link", { name: "Vertrag widerrufen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Vertrag widerrufen" })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);

  // Nothing filled in: German messages at the fields, nothing received.
  await page.getByRole("button", { name: "Widerruf bestätigen" }).click();
  await expect(page.getByText("Bitte gib deinen Namen an.")).toBeVisible();
  await expect(page.getByText("Bitte gib an, welchen Vertrag du widerrufst")).toBeVisible();

  await page.getByLabel("Dein Name").fill("Wanda Widerruf");
  await page.getByLabel("E-Mail-Adresse für die Bestätigung").fill(email);
  await page.getByLabel(/Welchen Vertrag widerrufst du/).fill(contract);
  await page.getByRole("button", { name: "Widerruf bestätigen" }).click();
  await expect(page.getByRole("status")).toContainText(/Dein Widerruf ist am \d\d\.\d\d\.\d{4} \d\d:\d\d Uhr bei uns eingegangen\./);
  await expect(page.getByRole("status")).toContainText(`Die Bestätigung mit seinem Inhalt geht an ${email}.`);
  await expect(page.getByText(contract)).toBeVisible();
  await fitsWidth(page);
  await expect.poll(async () => (await portalMailsTo(email, "Eingangsbestätigung deines Widerrufs")).length, { timeout: 30_000 }).toBe(1);
  const [receipt] = await portalMailsTo(email, "Eingangsbestätigung deines Widerrufs");
  expect(receipt.text).toMatch(/wir bestätigen den Eingang deines Widerrufs am \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d Uhr/);
  expect(receipt.text).toContain(`Hiermit widerrufe ich den folgenden Vertrag: ${contract}`);
});

/**
 * Warteliste (issue 33 item 3): the course is full, so the booking puts the dog on its waiting list;
 * staff cancel the other booking in the participant dialog, the cron offers the freed place by
 * mail, and the link from the mail books it. With JavaScript and without, at 390 px.
 */
test("Warteliste: book a full course, get the offer by mail when staff cancel another booking, and take the place", async ({
  page,
  javaScriptEnabled,
  openAs,
}) => {
  const booker = (await testDataFor(javaScriptEnabled)).waitlistBooker;
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToPortal(page, booker.email);
  await page.goto(`/kurse/${booker.courseId}`);
  await page.getByRole("link", { name: "Auf die Warteliste" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `${booker.courseName} buchen` })).toBeVisible();
  await expect(page.getByText("Der Kurs ist voll.")).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  await page.getByRole("radio", { name: booker.dogName }).check();
  await page.getByRole("checkbox", { name: /Ich akzeptiere die AGB/ }).check();
  await page.getByRole("button", { name: "Auf die Warteliste setzen" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${booker.dogName} steht auf Platz 1 der Warteliste für „${booker.courseName}“.` })).toBeVisible();
  await expect.poll(async () => (await portalMailsTo(booker.email, "Warteliste:")).length, { timeout: 30_000 }).toBe(1);

  // The office cancels the booking that holds the place.
  await openAs("staff", `/courses/${booker.courseId}/coursememberships?dialog=courseMembership-edit&dialogId=${booker.takenMembershipId}`);
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Status").selectOption({ label: "Abgemeldet" });
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Teilnehmer wurde gespeichert" })).toBeVisible();

  // The cron (every five minutes; here fired at once) offers the place by mail.
  const fired = await getOnOwnConnection(undefined, "/__scheduled?cron=*/5+*+*+*+*");
  expect(fired.status()).toBe(200);
  await expect.poll(async () => (await portalMailsTo(booker.email, "Ein Platz ist frei:")).length, { timeout: 30_000 }).toBe(1);
  const [offer] = await portalMailsTo(booker.email, "Ein Platz ist frei:");
  const link = /http:\/\/\S+\/mein\/buchen\/\d+\?angebot=\d+/.exec(offer.text)![0];
  await page.goto(link);
  await expect(page.getByRole("status").filter({ hasText: `Für ${booker.dogName} ist ein Platz frei geworden.` })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);
  await page.getByRole("checkbox", { name: /Ich akzeptiere die AGB/ }).check();
  await page.getByRole("button", { name: "Zahlungspflichtig buchen" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Gebucht: „${booker.courseName}“ mit ${booker.dogName}.` })).toBeVisible();
  await expect(page.getByRole("heading", { name: `${booker.courseName} mit ${booker.dogName}` })).toBeVisible();
  await expect(page.getByText("Angemeldet").first()).toBeVisible();
});
