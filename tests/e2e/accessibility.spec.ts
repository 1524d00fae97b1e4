import AxeBuilder from "@axe-core/playwright";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { getOnOwnConnection } from "./support/journeys";

/** Every screen of the route table an admin sees (built or placeholder), and dialogs opened on them. */
const SCREENS = [
  "/",
  "/people",
  "/dogs",
  "/certifications",
  "/certificationMasters",
  "/calendarFeeds",
  "/legalTexts",
  "/dogPapers",
  "/applications",
  "/withdrawals",
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
  "/payments",
  "/people/1/payments",
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
  // Mein Wuff's sign-in (a staff member's session counts nothing there).
  "/mein",
  "/mein/datenschutz",
  "/mein/impressum",
  "/mein/satzung",
  "/mein/agb",
  "/mein/widerrufsbelehrung",
  "/mein/widerruf",
  "/mitglied-werden",
  // The pages the portal's mails link to (a token that is none: the same page with its refusal).
  "/mein/email/kein-gueltiger-link",
  "/mitglied-werden/bestaetigen/kein-gueltiger-link",
];

/** The screens made for a phone: scanned at phone size only, the size they are made for. */
const HANDSET_SCREENS = ["/peoplemobile", "/dogsmobile", "/coursesmobile", "/coursesheetmobile", "/nextdatesmobile"];

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
  "/courses/1/coursememberships?dialog=courseMembership-waitlist&dialogId=1",
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
  "/invoices/1/invoicerows?dialog=creditNote-create&dialogId=1",
  "/invoices/1/invoicerows?dialog=invoice-cancel&dialogId=1",
  "/tasks?dialog=task-invoices",
  `/tasks?dialog=task-annualFees&dialogId=${new Date().getFullYear()}`,
  "/tasks?dialog=pdfRun-start",
  "/directdebits?dialog=directDebit-start",
  "/reminders?dialog=reminderRun-start",
  "/payments?dialog=payment-reverse&dialogId=1",
  "/payments?dialog=payment-refund&dialogId=1",
  "/invoices?dialog=payment-creditInvoice&dialogId=1",
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

const DESKTOP = { width: 1366, height: 900 };
const HANDSET = { width: 390, height: 844 };

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

/**
 * Opens `path`, waits until it is hydrated and shows its main area (a dialog, named by its
 * title), and checks it: one h1 (a dialog's title is an h2),
 * nothing axe-core finds. The checks are soft, each message names the page: one test scans a
 * group of pages in the same logged-in page and reports every page that fails, not just the first.
 */
async function scan(page: Page, path: string, { dialog = false, before }: { dialog?: boolean; before?: () => Promise<void> } = {}) {
  await test.step(path, async () => {
    await page.goto(path);
    await page.locator("html[data-hydrated]").waitFor();
    await expect(dialog ? page.getByRole("dialog", { name: /\S/ }) : page.locator("main"), `${path} wird angezeigt`).toBeVisible();
    // After hydration a dialog is modal: the element the server sent, upgraded in place.
    if (dialog) await expect(page.locator("dialog:modal"), `${path}: der Dialog ist modal`).toHaveCount(1);
    await before?.();
    await expect.soft(page.locator("h1"), `genau eine h1 auf ${path}`).toHaveCount(1);
    expect.soft(await violations(page), `axe-core auf ${path}`).toEqual([]);
  });
}

/** `list` in groups of `size`: one test per group, so the two workers share the scans. */
function groups<T>(list: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(list.length / size) }, (_, index) => list.slice(index * size, (index + 1) * size));
}

// axe runs as a script in the page: the project without JavaScript has nothing to scan with. Its
// markup is scanned below as the server sends it (the static dialogs).
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe braucht JavaScript in der Seite");
test.use({ loggedInAs: "admin", viewport: DESKTOP });

// Each screen and each dialog once, at desktop size. A scan on a full grid page takes seconds on a
// shared machine: a few pages per test, the time limit grows with them.
for (const paths of groups(SCREENS, 6)) {
  test(`axe-core finds nothing on the screens ${paths.join(", ")}`, async ({ page }) => {
    test.setTimeout(paths.length * 30_000);
    for (const path of paths) await scan(page, path);
  });
}

for (const paths of groups(DIALOGS, 6)) {
  test(`axe-core finds nothing in the dialogs ${paths.join(", ")}`, async ({ page }) => {
    test.setTimeout(paths.length * 30_000);
    for (const path of paths) await scan(page, path, { dialog: true });
  });
}

/** The Änderungsverlauf of an edit dialog (the kit's 'Verlauf'), opened: the seed's insert lists every field of the record, the longest history a demo dialog has. */
async function openHistory(page: Page) {
  const history = page.getByRole("dialog", { name: /\S/ }).getByTestId("record-history");
  await history.getByText(/^Verlauf \(\d+\)$/).click();
  await expect(history.getByText(/^Angelegt/).first()).toBeVisible();
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test("axe-core finds nothing in an edit dialog's opened Verlauf, no horizontal scroll; nor on the home page as staff see it", async ({ page, openAs }) => {
  await scan(page, "/people?dialog=person-edit&dialogId=1", { dialog: true, before: () => openHistory(page) });
  expect.soft(await noSidewaysScroll(page), "kein seitliches Scrollen im Verlauf").toBe(true);
  // The home page is scanned above as the admin sees it (every card); staff get fewer cards, which
  // changes its headings and landmarks.
  await openAs("staff", "/");
  await scan(page, "/", { before: () => expect(page.getByRole("region", { name: "Auf einen Blick" })).toBeVisible() });
});

// At phone size only what has markup of its own there: the app shell's phone menu (the burger and
// its 'Mobiles Menü'), the screens made for a phone, one grid screen (the grid's toolbar and
// column chooser as a phone shows them), one dialog (with its Verlauf open, which must not
// scroll sideways) and the invoice's corrections. Every other screen and dialog is the same markup in a narrower window.
test.describe("at phone size", () => {
  test.use({ viewport: HANDSET });

  test(`axe-core finds nothing in the phone menu nor on ${HANDSET_SCREENS.join(", ")}`, async ({ page }) => {
    test.setTimeout(180_000);
    await scan(page, "/", {
      before: async () => {
        await page.locator("summary[aria-label='Menü']").click();
        await expect(page.getByRole("navigation", { name: "Mobiles Menü" })).toBeVisible();
      },
    });
    for (const path of HANDSET_SCREENS) await scan(page, path);
  });

  test("axe-core finds nothing on a grid screen nor in a dialog's opened Verlauf, which does not scroll sideways", async ({ page }) => {
    await scan(page, "/people");
    await scan(page, "/people?dialog=person-edit&dialogId=1", { dialog: true, before: () => openHistory(page) });
    expect.soft(await noSidewaysScroll(page), "kein seitliches Scrollen im Verlauf").toBe(true);
  });

  // The corrections of issue 30 have forms of their own (the Gutschrift's tax cases and amount).
  test("axe-core finds nothing in the Storno and Gutschrift dialogs, which do not scroll sideways", async ({ page }) => {
    for (const path of ["/invoices/1/invoicerows?dialog=invoice-cancel&dialogId=1", "/invoices/1/invoicerows?dialog=creditNote-create&dialogId=1"]) {
      await scan(page, path, { dialog: true });
      expect.soft(await noSidewaysScroll(page), `kein seitliches Scrollen: ${path}`).toBe(true);
    }
  });
});

// Without JavaScript a dialog is the server's open <dialog> in the page, not the modal one: the
// page as the server sends it, its scripts removed, is scanned in a browser that runs axe. One of each kind: a form
// with its Verlauf, a confirmation, a dialog with child grids, the mail dialog with its preview
// frame, a bulk run's start.
const STATIC_DIALOGS = [
  "/people?dialog=person-edit&dialogId=1",
  "/people?dialog=person-delete&dialogId=1",
  "/fees?dialog=fee-edit&dialogId=1",
  "/people/1/dogs?dialog=mail-person&dialogId=1&dialogList=1,2",
  "/tasks?dialog=task-invoices",
];

test(`axe-core finds nothing in the dialogs ${STATIC_DIALOGS.join(", ")} as sent for browsers without JavaScript`, async ({ page, baseURL }) => {
  test.setTimeout(STATIC_DIALOGS.length * 30_000);
  for (const path of STATIC_DIALOGS) {
    await test.step(path, async () => {
      const html = await (await getOnOwnConnection(page, path)).text();
      const withoutScripts = html.replace(/<script\b[\s\S]*?<\/script>/gi, "").replace("<head>", `<head><base href="${baseURL}/">`);
      await page.setContent(withoutScripts, { waitUntil: "load" });
      await expect(page.getByRole("dialog"), `${path} zeigt den Dialog`).toBeVisible();
      expect.soft(await violations(page), `axe-core auf ${path} ohne JavaScript`).toEqual([]);
    });
  }
});
