import { expect, test } from "./support/fixtures";
import { fitsWidth, noAxeViolations, signInToPortal } from "./support/portal";
import { testDataFor } from "./support/test-data";

/**
 * Mein Wuff, Meine Kurse (issue 32 item 5), as a course customer does it on the phone and the club
 * office sees it at the desk: the bookings with next dates and attendance, the course begun too
 * late to cancel, the later one cancelled within its cut-off, the own calendar link; then the home
 * page names the cancellation with its fee to credit. With JavaScript and without; axe on the page.
 */
test("Mein Wuff: see my courses, cancel a booking within the cut-off, subscribe to my dates", async ({ page, openAs, javaScriptEnabled }) => {
  const owner = (await testDataFor(javaScriptEnabled)).portalCourseOwner;
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToPortal(page, owner.email);
  await page.getByRole("navigation", { name: "Mein Wuff" }).getByRole("link", { name: "Meine Kurse" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Meine Kurse" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);

  // The course begun: attendance so far, its next date, too late to cancel.
  const started = page.getByRole("region", { name: `${owner.startedCourse} mit ${owner.dogName}` });
  await expect(started.getByText("1 von 1 Terminen besucht")).toBeVisible();
  await expect(started.getByRole("listitem")).toHaveCount(1);
  await expect(started.getByText(/^Die Frist zum Stornieren in Mein Wuff ist abgelaufen/)).toBeVisible();
  await expect(started.getByText("Buchung stornieren")).toHaveCount(0);

  // The later course: cancelled in two steps (works without JavaScript: details, then the form).
  const later = page.getByRole("region", { name: `${owner.laterCourse} mit ${owner.dogName}` });
  await expect(later.getByRole("listitem")).toHaveCount(2);
  await later.getByText("Buchung stornieren").click();
  await expect(later.getByText(/^In Mein Wuff stornierbar bis \d\d\.\d\d\.\d{4}\./)).toBeVisible();
  await later.getByRole("button", { name: "Stornierung bestätigen" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Deine Buchung für „${owner.laterCourse}“ mit ${owner.dogName} ist storniert.` })).toBeVisible();
  await expect(later.getByText("Abgemeldet")).toBeVisible();
  await expect(later.getByText("Buchung stornieren")).toHaveCount(0);
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);

  // The own calendar: the address once, holding the begun course's dates, not the cancelled one.
  await page.getByRole("button", { name: "Kalender-Link erzeugen" }).click();
  const link = page.getByRole("status").filter({ hasText: "Dein neuer Kalender-Link" });
  await expect(link).toBeVisible();
  const feedUrl = (await link.getByText(/\/feeds\/[A-Za-z0-9_-]{43}\.ics$/).textContent())!;
  await expect(link.getByRole("link", { name: "Abonnieren" })).toHaveAttribute("href", feedUrl.replace(/^https?:/, "webcal:"));
  await fitsWidth(page);
  const ics = await (await page.request.get(feedUrl)).text();
  expect(ics).toContain(`SUMMARY:${owner.startedCourse} (${owner.dogName})`);
  expect(ics).not.toContain(owner.laterCourse);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/mein/kurse");
  await expect(page.getByText(/^Dein Kalender-Link ist aktiv seit/)).toBeVisible();
  await fitsWidth(page);
  await noAxeViolations(page, javaScriptEnabled);

  // The club office: the home page names the cancellation and the fee to check.
  await openAs("staff", "/");
  const card = page.getByRole("region", { name: "Änderungen aus dem Portal" });
  await expect(
    card
      .getByRole("listitem")
      .filter({ hasText: `${owner.firstName} ${owner.lastName}` })
      .filter({ hasText: `Kursbuchung storniert: ${owner.laterCourse} (${owner.dogName}), Kursgebühr prüfen (Gutschrift?)` }),
  ).toBeVisible();
});
