import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** What tests/e2e/test-data.setup.ts made, for the tests that use it. */
export const TEST_DATA_FILE = fileURLToPath(new URL("../../.artifacts/test-data.json", import.meta.url));

export type UnsentReminder = { lastName: string; text: string; personId: number; feeId: number };
/** A person with an e-mail address and one unsent invoice without a PDF (one row). */
export type InvoiceOfOwn = { lastName: string; personId: number; invoiceId: number; invoiceNumber: number };

/** A person with two issued invoices, open in full (issue 30: one bank payment for both). */
export type TwoInvoicesOfOwn = { lastName: string; personId: number; invoiceNumbers: [number, number] };

/** A person with a draft invoice of two rows billing two of their fees (issue 30). */
export type DraftOfOwn = { lastName: string; personId: number; invoiceId: number };

/** An issued invoice of 100,00 € whose Zahlungserinnerung was sent and whose new due date
 *  (`defaultSince`) has passed: the debtor is in default, its 1. Mahnung charges interest. */
export type InterestReminder = { lastName: string; personId: number; invoiceNumber: number; defaultSince: string; email: string | null };

/** A person with an address of their own, for Mein Wuff's sign-in. */
export type PortalPerson = { firstName: string; lastName: string; email: string };
/** A person with an address of their own and a dog, for Mein Wuff's data and papers. */
export type PortalDogOwner = PortalPerson & { personId: number; dogName: string };

/** A person with a dog booked on two courses of a type cancellable in Mein Wuff until 7 days before
 *  the start: one begun (a date held and attended, too late to cancel), one in three weeks with an
 *  invoiced course fee (cancellable; staff see it to credit). */
export type PortalCourseOwner = PortalDogOwner & { startedCourse: string; laterCourse: string };

/** A course of its own type, open for booking in the public catalogue (issue 33): two dates from
 *  nine days on, with a minimum age, on one weekday (ISO number and German name). */
export type CatalogueCourse = { name: string; typeName: string; weekday: number; weekdayName: string; dates: string[] };

/** A member with an address and a dog two years old, and a course of one place open for booking
 *  (issue 33 item 2): three dates from nine days on, its type with a right of withdrawal. */
export type CourseBooker = PortalPerson & { dogName: string; courseId: number; courseName: string; dates: string[] };

/** A course of one place taken by someone else's booking (staff cancel it), and a member with a dog
 *  who goes on its waiting list (issue 33 item 3). */
export type WaitlistBooker = CourseBooker & { takenMembershipId: number };

/** An open group (Fortlaufend) with eleven dates held, one a week, the last 78 days ago; a person whose
 *  dog takes part; and a 10er-Karte (10 units, 6 months) valid for the group alone (issue 34).
 *  `participant` is how the phone's Kursblatt names them ('Motte… mit Kira …'); a date's `day` is
 *  as the screens write it (dd.MM.yyyy). */
export type CardCustomer = {
  personId: number;
  personName: string;
  participant: string;
  courseId: number;
  courseName: string;
  productName: string;
  dates: { id: number; day: string }[];
};

/** Buys a 10er-Karte and an Abo in Mein Wuff and gives notice of the Abo (issue 34 item 2). */
export type CardBuyer = PortalPerson & { cardName: string; aboName: string };
/**
 * Issue 34's dialogs at the desk, in an open group of their own with four dates (the last 3 days
 * ago) and a 10er-Karte valid for it alone (50,00 € full price): `walkIn` was ticked on the last
 * date without a card; `refund` bought the card 22 days ago, used 3 units on the first three
 * dates, and its sale is on an issued invoice; `subscriber` is to buy `aboName` (monthly, 3 months'
 * minimum term, 1 month's notice). A day is as the screens write it (dd.MM.yyyy).
 */
export type CardDesk = {
  courseName: string;
  productName: string;
  aboName: string;
  walkIn: { personId: number; personName: string; attendanceId: number; day: string };
  refund: { personId: number; personName: string; invoiceNumber: number };
  subscriber: { personId: number; personName: string };
};

/** Per browser project ('js', 'html'). */
export type TestData = {
  /** A fee with its sent Zahlungserinnerung and an unsent 1. Mahnung. */
  unsentReminder: UnsentReminder;
  /** An invoice to send by mail (issue 29/17). */
  invoiceToMail: InvoiceOfOwn;
  /** A person to erase whose invoice stays (issue 29/16). */
  invoiceToKeep: InvoiceOfOwn;
  /** A draft to edit, issue and then find frozen (issue 30). */
  draftToIssue: DraftOfOwn;
  /** A draft to delete and bring back. */
  draftToDelete: DraftOfOwn;
  /** An invoice to credit in part with a Gutschrift (issue 30). */
  invoiceToCredit: InvoiceOfOwn;
  /** Two invoices one bank credit pays (issue 30). */
  twoInvoices: TwoInvoicesOfOwn;
  /** In default since 30 (js, by post) or 10 days (html, by mail): the Mahnlauf's 1. Mahnung with interest. */
  interestReminder: InterestReminder;
  /** Signs in to Mein Wuff (issue 32). */
  portalPerson: PortalPerson;
  /** In the public catalogue (issue 33). */
  catalogueCourse: CatalogueCourse;
  /** Books a course online in Mein Wuff (issue 33 item 2). */
  courseBooker: CourseBooker;
  /** Waits for a place, gets it offered when staff cancel another booking, and takes it. */
  waitlistBooker: WaitlistBooker;
  /** Keeps their data and their dog's papers in Mein Wuff (issue 32). */
  portalDogOwner: PortalDogOwner;
  /** Sees and cancels course bookings in Mein Wuff (issue 32 item 5). */
  portalCourseOwner: PortalCourseOwner;
  /** Two open fees billed directly (60,00 € and 25,00 €) to pay in Mein Wuff, no mandate yet. */
  portalPayer: PortalPerson & { personId: number };
  /** Uses up a 10er-Karte on the phone's Kursblatt and settles a tick 'ohne Karte' (issue 34). */
  cardCustomer: CardCustomer;
  /** Buys in Mein Wuff and gives notice with 'Verträge hier kündigen'. */
  cardBuyer: CardBuyer;
  /** Settles a tick 'ohne Karte' by the sale linked from its dialog, refunds a card, gives an Abo notice (issue 34). */
  cardDesk: CardDesk;
  /** The demo data's most common last name with an umlaut or ß (the name search). */
  umlautName: string;
};

/** The data made for this browser project. */
export async function testDataFor(javaScriptEnabled: boolean): Promise<TestData> {
  const all = JSON.parse(await readFile(TEST_DATA_FILE, "utf8")) as Record<string, TestData>;
  return all[javaScriptEnabled ? "js" : "html"];
}

/** The person, fee and unsent 1. Mahnung made for this browser project. */
export async function unsentReminderFor(javaScriptEnabled: boolean): Promise<UnsentReminder> {
  return (await testDataFor(javaScriptEnabled)).unsentReminder;
}
