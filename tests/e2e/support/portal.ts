import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** A mail as maildev's REST API lists it (the fields the portal tests read). */
export type CaughtMail = { subject: string; text: string; headers: Record<string, string> };

/** The mails to `email` whose subject starts with `subject` (routed to the test account; the address in X-Wuff-Intended-To). */
export async function portalMailsTo(email: string, subject: string): Promise<CaughtMail[]> {
  const response = await fetch(`http://127.0.0.1:${process.env.E2E_MAILDEV_WEB_PORT}/api/email`);
  return ((await response.json()) as CaughtMail[]).filter((mail) => mail.subject.startsWith(subject) && mail.headers["x-wuff-intended-to"] === email);
}

/** The sign-in mails to `email`. */
export const signInMailsTo = (email: string) => portalMailsTo(email, "Dein Anmeldelink für Mein Wuff");

/** axe runs as a script in the page: checked where scripts run (the server's HTML is the same without). */
export async function noAxeViolations(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/** The page fits its width: nothing to scroll sideways. Measured once the page has loaded (after a
 *  form post the new page's DOM is there before its stylesheet, and an unstyled page is wider). A
 *  failure names the innermost elements that stick out (outside any box that scrolls itself). */
export async function fitsWidth(page: Page) {
  await page.waitForLoadState("load");
  const { scrollWidth, innerWidth, sticking } = await page.evaluate(() => {
    const scrollsItself = (element: Element | null): boolean => {
      for (let at = element?.parentElement; at && at !== document.body; at = at.parentElement) {
        if (/(auto|scroll|hidden|clip)/.test(getComputedStyle(at).overflowX)) return true;
      }
      return false;
    };
    const out = Array.from(document.body.querySelectorAll("*"))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1 && !scrollsItself(element))
      .filter((element) => !Array.from(element.children).some((child) => child.getBoundingClientRect().right > window.innerWidth + 1))
      .slice(0, 5)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}"> ${(element.textContent ?? "").trim().slice(0, 60)}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, sticking: out };
  });
  expect(scrollWidth, `Zu breit: ${sticking.join(" | ")}`).toBeLessThanOrEqual(innerWidth);
}

/** Signs in to Mein Wuff as a member does: the address typed in, the link from maildev, its button.
 *  `start`: the sign-in page the member is already on (sent there by a page that needs it), else /mein. */
export async function signInToPortal(page: Page, email: string, { start }: { start?: "here" } = {}) {
  const before = (await signInMailsTo(email)).length;
  if (start !== "here") await page.goto("/mein");
  await page.getByLabel("E-Mail-Adresse").fill(email);
  await page.getByRole("button", { name: "Anmeldelink anfordern" }).click();
  await expect(page.getByRole("status")).toHaveText(/^Wenn die Adresse bei uns bekannt ist/);
  // The mail leaves after the answer: wait until it is there, as the member waits for it.
  await expect.poll(async () => (await signInMailsTo(email)).length, { timeout: 30_000 }).toBe(before + 1);
  const mail = (await signInMailsTo(email))[before];
  const link = /http:\/\/\S+\/mein\/link\/[A-Za-z0-9_-]{43}(\?weiter=\S+)?/.exec(mail.text)![0];
  await page.goto(link);
  await page.getByRole("button", { name: "Jetzt anmelden" }).click();
  return link;
}
