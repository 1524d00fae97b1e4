import { test } from "@playwright/test";
import { loginAs } from "./support/login";

for (const width of [1366, 390]) {
  test(`shots ${width}`, async ({ page, javaScriptEnabled }) => {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    const tag = `${width}-${javaScriptEnabled ? "js" : "html"}`;
    await loginAs(page, "admin", "/courses");
    await page.screenshot({ path: `/tmp/shots/courses-${tag}.png`, fullPage: false });
    await page.goto("/courses?year=all&status=current");
    const link = page.getByRole("region", { name: /^Teilnehmer für/ }).getByRole("link", { name: "Hinzufügen" });
    await link.click();
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/shots/member-add-${tag}.png` });
    await page.goto("/courseMasters");
    await page.screenshot({ path: `/tmp/shots/masters-${tag}.png` });
    await page.goto("/people");
    await page.getByRole("navigation", { name: "Bereiche der Person" }).getByRole("link", { name: "Kurse" }).click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/shots/person-courses-${tag}.png` });
  });
}
