import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { loginAs } from "./support/login";

/** Every screen of the route table an admin sees (built or placeholder), and dialogs opened on them. */
const SCREENS = [
  "/",
  "/people",
  "/dogs",
  "/certifications",
  "/certificationMasters",
  "/calendarFeeds",
  "/recyclebin",
  "/configuration",
  "/templates",
  "/courses",
  "/courseSheet",
  "/scheduler",
  "/scheduler?view=week",
  "/scheduler?view=list",
  "/fees",
  "/bankstatements",
  "/directdebits",
  "/invoices",
  "/courseMasters",
  "/tasks",
  "/reminders",
  "/people/1/reminders",
  "/mailer",
  "/mailshots",
  "/hsvrmlist",
  "/birthdaylist",
  "/gdpr",
  "/courseDates",
  "/peoplemobile",
  "/dogsmobile",
  "/coursesmobile",
  "/coursesheetmobile",
  "/nextdatesmobile",
];

const DIALOGS = [
  "/people?dialog=person-add",
  "/people?dialog=person-edit&dialogId=1",
  "/people?dialog=person-delete&dialogId=1",
  "/people?dialog=mandate-person&dialogId=1",
  "/people?dialog=mandate-delete&dialogId=1",
  "/dogs?dialog=dog-add",
  "/dogs?dialog=dog-edit&dialogId=1",
  "/dogs?dialog=dog-delete&dialogId=1",
  "/certifications?dialog=certification-add",
  "/certificationMasters?dialog=certificationMaster-add",
  "/courseMasters?dialog=courseMaster-add",
  "/courses?dialog=course-add",
  "/courses?dialog=course-edit&dialogId=1",
  "/courses/1/coursememberships?dialog=courseMembership-add&dialogParent=COURSE:1",
  "/courses/1/coursememberships?dialog=courseMembership-edit&dialogId=1",
  "/courses/1/coursememberships?dialog=courseMembership-transfer&dialogId=1",
  "/courses/1/coursememberships?dialog=courseMembership-delete&dialogId=1",
  "/fees?dialog=fee-add",
  "/fees?dialog=fee-edit&dialogId=1",
  "/fees?dialog=fee-delete&dialogId=1",
  "/quickAdd",
  "/scheduler?dialog=courseDate-edit&dialogId=1",
  "/invoices/1/invoicerows?dialog=invoice-edit&dialogId=1",
  "/invoices/1/invoicerows?dialog=invoice-delete&dialogId=1",
  "/invoices/1/invoicerows?dialog=invoice-addrow&dialogId=1",
  "/invoices/1/invoicerows?dialog=invoiceRow-edit&dialogId=1",
  "/invoices/1/invoicerows?dialog=invoiceRow-delete&dialogId=1",
  "/tasks?dialog=task-invoices",
  `/tasks?dialog=task-annualFees&dialogId=${new Date().getFullYear()}`,
  "/tasks?dialog=pdfRun-start",
  "/directdebits?dialog=directDebit-start",
  "/reminders?dialog=reminderRun-start",
  "/invoices/1/invoicerows?dialog=invoicePdf-create&dialogId=1",
  "/templates?dialog=template-edit&dialogId=1",
  "/people/1/dogs?dialog=mail-person&dialogId=1&dialogList=1,2",
  "/invoices/1/invoicerows?dialog=mail-invoice&dialogId=1",
  "/fees?dialog=mail-fee&dialogId=1",
  "/mailshots?dialog=mailshot-add",
  "/tasks?dialog=mailing-birthdays",
  "/tasks?dialog=mailing-invoiceMails",
  "/tasks?dialog=mailing-mailshot&dialogId=1",
  "/people?dialog=erasure-preview&dialogId=1",
  "/gdpr?dialog=erasure-preview&dialogId=1",
];

const SIZES = [
  { name: "Desktop", width: 1366, height: 900 },
  { name: "Handy", width: 390, height: 844 },
];

async function violations(page: Page) {
  // The mail preview is a frame without scripts (sandbox=""): axe cannot run inside it and
  // @axe-core/playwright waits for it until the test's time is up. Its content is the rendered mail
  // (the club's template), not Wuff's screens; the frame element keeps its title.
  const results = await new AxeBuilder({ page }).exclude('iframe[sandbox=""]').analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    where: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
  }));
}

// One test per page and size: axe needs a while on a full grid page of a shared machine.
for (const size of SIZES) {
  for (const path of [...SCREENS, ...DIALOGS]) {
    const isDialog = DIALOGS.includes(path);
    test(`axe-core finds nothing on ${path} (${size.name}, ${size.width} px)`, async ({ page, javaScriptEnabled }) => {
      // axe runs as a script in the page: without JavaScript, see the test below.
      test.skip(!javaScriptEnabled, "axe braucht JavaScript in der Seite");
      test.setTimeout(90_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await loginAs(page, "admin", "/");
      await page.goto(path);
      // After hydration a dialog is modal (the element the server sent), named by its title.
      await page.locator("html[data-hydrated]").waitFor();
      await expect(isDialog ? page.getByRole("dialog", { name: /\S/ }) : page.locator("main")).toBeVisible();
      if (isDialog) await expect(page.locator("dialog:modal")).toHaveCount(1);
      // One h1 per page (a dialog's title is an h2).
      await expect(page.locator("h1")).toHaveCount(1);
      expect(await violations(page)).toEqual([]);
    });
  }
}

// The Änderungsverlauf of an edit dialog (the kit's 'Verlauf'), opened: the seed's insert lists
// every field of the record, the longest history a demo dialog has.
for (const size of SIZES) {
  test(`axe-core finds nothing in an edit dialog's opened Verlauf, no horizontal scroll (${size.name}, ${size.width} px)`, async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "axe braucht JavaScript in der Seite");
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await loginAs(page, "admin", "/");
    await page.goto("/people?dialog=person-edit&dialogId=1");
    await page.locator("html[data-hydrated]").waitFor();
    const history = page.getByRole("dialog", { name: /\S/ }).getByTestId("record-history");
    await history.getByText(/^Verlauf \(\d+\)$/).click();
    await expect(history.getByText(/^Angelegt/).first()).toBeVisible();
    expect(await violations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}

// Without JavaScript a dialog is static markup of its own: the page as the server sends it, its
// scripts removed, is scanned in a browser that runs axe.
for (const path of DIALOGS) {
  test(`axe-core finds nothing on ${path} as sent for browsers without JavaScript`, async ({ page, javaScriptEnabled, baseURL }) => {
    test.skip(!javaScriptEnabled, "axe braucht JavaScript in der Seite");
    test.setTimeout(90_000);
    await loginAs(page, "admin", "/");
    const html = await (await page.request.get(path)).text();
    const withoutScripts = html.replace(/<script\b[\s\S]*?<\/script>/gi, "").replace("<head>", `<head><base href="${baseURL}/">`);
    await page.setContent(withoutScripts, { waitUntil: "load" });
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

// The home page is scanned above as the admin sees it (every card); staff get fewer cards, which
// changes its headings and landmarks: scanned too, at both sizes.
for (const size of SIZES) {
  test(`axe-core finds nothing on the home page as staff see it (${size.name}, ${size.width} px)`, async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "axe braucht JavaScript in der Seite");
    test.setTimeout(180_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await loginAs(page, "staff", "/");
    await page.locator("html[data-hydrated]").waitFor();
    await expect(page.getByRole("region", { name: "Auf einen Blick" })).toBeVisible();
    await expect(page.locator("h1")).toHaveCount(1);
    expect(await violations(page)).toEqual([]);
  });
}
