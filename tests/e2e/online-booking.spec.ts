import { expect, test } from "./support/fixtures";
import { waitForHydration } from "./support/journeys";
import { caughtAttachment, caughtMails } from "./support/maildev";
import { fitsWidth, noAxeViolations, portalMailsTo, signInToPortal } from "./support/portal";
import { testDataFor } from "./support/test-data";

/**
 * Kurs buchen (issue 33 item 2), as a dog owner does it on the phone: from the course's page in the
 * catalogue to the booking, signed in by the link from the mail and brought back, the dog chosen,
 * the terms accepted, 'Zahlungspflichtig buchen'; the booking under Meine Kurse and the
 * confirmation mail with every date as a calendar file. With JavaScript and without; axe, 390 px.
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
});
