/**
 * Kontenblatt: the list with both toggle groups and the sums, the person's tab, every rule of the
 * fee dialog on the server (spec 001 §4 fee dialog), delete, Kontenblatt.xlsx with the sums.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { formatMoney, todayInBerlin } from "~/lib/format";
import { fetchApp, postForm, toastOf } from "../support/app";
import { readXlsx } from "../support/excel";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
let data: Awaited<ReturnType<typeof loadDemoData>>;
let person: { id: number };

const page = async (path: string, who: "finance" | "admin" | "staff" = "finance") =>
  (await (await fetchApp(path, { cookie: await loginCookie(who) })).text()).replaceAll("<!-- -->", "");
const countIn = (html: string, title: string) =>
  Number(new RegExp(`${title} <span class="font-normal text-slate-500">\\(([\\d.]+)\\)</span>`).exec(html)?.[1].replaceAll(".", ""));
const feesOf = (personId: number) => db.select().from(schema.fees).where(eq(schema.fees.personId, personId));
const save = async (fields: Record<string, string | number | boolean | undefined>, who: "finance" | "admin" | "staff" = "finance") =>
  postForm("/fees", await loginCookie(who), {
    intent: "fee:save",
    personId: person.id,
    date: "01.11.2026",
    text: "Leine vergessen",
    amount: "12,50",
    isOpen: true,
    ...fields,
  });

beforeAll(async () => {
  data = await loadDemoData();
  [person] = await db.insert(schema.people).values({ firstName: "Karla", lastName: "Konto", memberTypeId: 1 }).returning({ id: schema.people.id });
});

describe("the Kontenblatt list", () => {
  it("shows every fee, newest first, with the sums of amount and open amount", async () => {
    const html = await page("/fees");
    expect(countIn(html, "Kontenblatt")).toBe(data.fees.length);
    const amount = data.fees.reduce((total, fee) => total + fee.amount!, 0);
    const open = data.fees.reduce((total, fee) => total + fee.openAmount!, 0);
    expect(html).toContain(formatMoney(amount));
    expect(html).toContain(formatMoney(open));
    expect(html).toMatch(/aria-sort="descending"[^>]*><a[^>]*>Datum/);
  });

  it.each([
    ["state=open", (fee: (typeof data.fees)[number]) => fee.openAmount! > 0],
    ["state=paid", (fee: (typeof data.fees)[number]) => fee.openAmount === 0],
    ["state=due", (fee: (typeof data.fees)[number]) => fee.openAmount! > 0 && fee.dueDate !== null && fee.dueDate! < todayInBerlin()],
    ["billing=invoiced", (fee: (typeof data.fees)[number]) => Boolean(fee.isInvoiced)],
    ["billing=notInvoiced", (fee: (typeof data.fees)[number]) => !fee.isInvoiced],
    ["state=open&billing=notInvoiced", (fee: (typeof data.fees)[number]) => fee.openAmount! > 0 && !fee.isInvoiced],
  ])("?%s counts what it says", async (query, keep) => {
    expect(countIn(await page(`/fees?${query}`), "Kontenblatt")).toBe(data.fees.filter(keep).length);
  });

  it("a person's tab: 'Kontenblatt für {person}' without the person column", async () => {
    const owner = data.fees[0].personId!;
    const name = data.people.find((p) => p.id === owner)!;
    const html = await page(`/people/${owner}/fees`);
    expect(countIn(html, `Kontenblatt für ${name.firstName} ${name.lastName}`)).toBe(data.fees.filter((fee) => fee.personId === owner).length);
    expect(html.split("Kontenblatt für")[1]).not.toContain(">Person</a></th>");
  });

  it("a course fee's text leads to its course", async () => {
    const fee = data.fees.find((f) => f.courseMembershipId)!;
    const membership = data.courseMemberships.find((m) => m.id === fee.courseMembershipId)!;
    const html = await page(`/people/${fee.personId}/fees`);
    expect(html).toContain(`href="/courses?selectedCourseId=${membership.courseId}"`);
  });

  it("Kontenblatt.xlsx: amounts as euro numbers and a last row with the sums", async () => {
    const response = await fetchApp(`/fees/export?parent=PERSON:${data.fees[0].personId}`, { cookie: await loginCookie("finance") });
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="Kontenblatt.xlsx"');
    const rows = await readXlsx(response);
    const header = rows[0];
    const own = data.fees.filter((fee) => fee.personId === data.fees[0].personId);
    expect(rows).toHaveLength(own.length + 2);
    const last = rows.at(-1)!;
    expect(last[0]).toBe("Summe");
    expect(last[header.indexOf("Betrag")]).toBe(own.reduce((total, fee) => total + fee.amount!, 0) / 100);
    expect(last[header.indexOf("Offener Betrag")]).toBe(own.reduce((total, fee) => total + fee.openAmount!, 0) / 100);
  });
});

describe("the fee dialog's rules, on the server", () => {
  it("adds an open fee: the open amount is the amount unless typed", async () => {
    const response = await save({ text: "Mitgliedsausweis", dueDate: "15.11.2026", sendInvoice: false });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Offener Posten wurde angelegt" });
    const [fee] = (await feesOf(person.id)).filter((f) => f.text === "Mitgliedsausweis");
    expect(fee).toMatchObject({
      amount: 1250,
      openAmount: 1250,
      dueDate: "2026-11-15",
      sendInvoice: false,
      isInvoiced: false,
      kind: "OTHER",
      createdBy: "Fritz Finanz",
    });
  });

  it("unticking open sets the open amount to 0 and clears the due date", async () => {
    await save({ text: "Bar bezahlt", isOpen: false, openAmount: "12,50", dueDate: "15.11.2026", sendInvoice: false, paymentComments: "bar am Platz" });
    const [fee] = (await feesOf(person.id)).filter((f) => f.text === "Bar bezahlt");
    expect(fee).toMatchObject({ openAmount: 0, dueDate: null, paymentComments: "bar am Platz" });
  });

  it("with sendInvoice the open flag is locked (a new fee is open), and the Buchungskommentar is not kept", async () => {
    await save({ text: "Per Rechnung", isOpen: false, sendInvoice: true, paymentComments: "soll nicht bleiben" });
    const [fee] = (await feesOf(person.id)).filter((f) => f.text === "Per Rechnung");
    expect(fee).toMatchObject({ openAmount: 1250, sendInvoice: true, paymentComments: null });
  });

  it("editing keeps the person and sendInvoice, whatever is posted; the open flag stays locked", async () => {
    const [fee] = (await feesOf(person.id)).filter((f) => f.text === "Per Rechnung");
    const other = data.people[0].id!;
    const response = await save({
      id: fee.id,
      rowVersion: fee.rowVersion,
      personId: other,
      text: "Per Rechnung (geändert)",
      amount: "20,00",
      isOpen: false,
      sendInvoice: false,
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("Offener Posten wurde gespeichert");
    const [after] = await db.select().from(schema.fees).where(eq(schema.fees.id, fee.id));
    expect(after).toMatchObject({
      personId: person.id,
      sendInvoice: true,
      text: "Per Rechnung (geändert)",
      amount: 2000,
      // Issue 30: open is what the payments leave (none were booked), so the whole new amount.
      openAmount: 2000,
      rowVersion: fee.rowVersion + 1,
    });
  });

  it("an open amount above the amount is refused", async () => {
    const response = await save({ text: "Zu viel offen", openAmount: "20,00", sendInvoice: false });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Der offene Betrag darf nicht größer als der Betrag sein");
    expect((await feesOf(person.id)).some((f) => f.text === "Zu viel offen")).toBe(false);
  });

  it("saving a fee already invoiced warns with the spec's text", async () => {
    const invoiced = data.fees.find((fee) => fee.isInvoiced)!;
    const [stored] = await db.select().from(schema.fees).where(eq(schema.fees.id, invoiced.id!));
    const response = await postForm("/fees", await loginCookie("admin"), {
      intent: "fee:save",
      id: stored.id,
      rowVersion: stored.rowVersion,
      personId: stored.personId,
      date: "01.01.2026",
      text: stored.text,
      amount: "99,00",
      comments: "korrigiert",
    });
    expect(response.status).toBe(302);
    const toast = toastOf(response)!;
    expect(toast.type).toBe("warning");
    expect(toast.message).toMatch(/^Es wurde ein offener Posten geändert, für den bereits die Rechnung erzeugt wurde/);
  });

  it("a stale rowVersion is refused (409) and nothing changes", async () => {
    const [fee] = (await feesOf(person.id)).filter((f) => f.text === "Mitgliedsausweis");
    const response = await save({ id: fee.id, rowVersion: fee.rowVersion + 5, text: "zu spät", sendInvoice: false });
    expect(response.status).toBe(409);
    const [after] = await db.select().from(schema.fees).where(eq(schema.fees.id, fee.id));
    expect(after).toEqual(fee);
  });

  it.each([
    [{ text: "" }, "Text is required"],
    [{ text: "x".repeat(101) }, "Höchstens 100 Zeichen"],
    [{ personId: "" }, "Person ist erforderlich"],
    [{ personId: 999_999 }, "Diese Person gibt es nicht (mehr)"],
    [{ date: "" }, "Datum ist erforderlich"],
    [{ date: "30.02.2026" }, "Das Datum 30.02.2026 gibt es nicht"],
    [{ dueDate: "morgen" }, "Bitte ein Datum im Format TT.MM.JJJJ eingeben"],
    [{ amount: "" }, "Betrag ist erforderlich"],
    [{ amount: "12,345" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    [{ amount: "-5,00" }, "Der Betrag darf nicht negativ sein"],
    [{ amount: "1.000.000,00" }, "Der Betrag ist zu groß"],
    [{ id: "abc" }, "Bitte eine Zahl eingeben"],
  ])("refuses %j with a German message and changes nothing", async (change, message) => {
    const before = await db.$count(schema.fees);
    const response = await save({ sendInvoice: false, ...change });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await db.$count(schema.fees)).toBe(before);
  });

  it("is not for staff: the fee intents are refused on a page staff may use", async () => {
    const before = await db.$count(schema.fees);
    const response = await postForm("/people", await loginCookie("staff"), {
      intent: "fee:save",
      personId: person.id,
      date: "01.11.2026",
      text: "heimlich",
      amount: "1,00",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(await db.$count(schema.fees)).toBe(before);
  });
});

describe("deleting a fee", () => {
  it("moves a fee into the bin with 'Offenen Posten '{text}' löschen' / 'Bist du sicher?'", async () => {
    const [fee] = (await feesOf(person.id)).filter((f) => f.text === "Mitgliedsausweis");
    const confirm = await page(`/fees?dialog=fee-delete&dialogId=${fee.id}`);
    expect(confirm).toContain("Offenen Posten &#x27;Mitgliedsausweis&#x27; löschen");
    expect(confirm).toContain("Bist du sicher?");
    const response = await postForm("/fees", await loginCookie("finance"), { intent: "fee:delete", id: fee.id });
    expect(toastOf(response)).toMatchObject({ message: "Offener Posten wurde gelöscht", undo: expect.any(Number) });
    expect(await db.$count(schema.fees, eq(schema.fees.id, fee.id))).toBe(0);
  });

  it("refuses a fee a payment was booked on: the journal keeps it (GoBD)", async () => {
    const [fee] = (await feesOf(person.id)).filter((f) => f.text === "Bar bezahlt");
    const response = await postForm("/fees", await loginCookie("finance"), { intent: "fee:delete", id: fee.id });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Auf den Posten ist eine Zahlung gebucht");
    expect(await db.$count(schema.fees, eq(schema.fees.id, fee.id))).toBe(1);
  });

  it("refuses a fee on an invoice and a participant's course fee", async () => {
    const onInvoice = data.invoiceRows[0].feeId!;
    const courseFee = data.fees.find((fee) => fee.courseMembershipId && !fee.isInvoiced)!.id!;
    for (const [id, message] of [
      [onInvoice, "steht auf der Rechnung"],
      [courseFee, "Das ist die Kursgebühr einer Kursteilnahme"],
    ] as const) {
      const response = await postForm("/fees", await loginCookie("finance"), { intent: "fee:delete", id });
      expect(response.status).toBe(409);
      expect(await response.text()).toContain(message);
      expect(await db.$count(schema.fees, eq(schema.fees.id, id))).toBe(1);
    }
  });
});
