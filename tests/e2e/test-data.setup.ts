import { writeFile } from "node:fs/promises";
import { test } from "@playwright/test";
import { appSql } from "./support/app-db";
import {
  TEST_DATA_FILE,
  type CardBuyer,
  type CardCustomer,
  type CardDesk,
  type CatalogueCourse,
  type CourseBooker,
  type WaitlistBooker,
  type DraftOfOwn,
  type InterestReminder,
  type InvoiceOfOwn,
  type PortalCourseOwner,
  type PortalDogOwner,
  type PortalPerson,
  type TestData,
  type TwoInvoicesOfOwn,
  type UnsentReminder,
} from "./support/test-data";
import { berlinDaysAgo } from "./support/journeys";

/**
 * Data no screen makes, written into the app's D1 before any other browser test runs (project
 * 'Testdaten', tests/playwright.config.ts). Written while tests ran, wrangler's second process held
 * SQLite's lock and the app's own requests failed with SQLITE_BUSY (a Kalender test got a 500).
 * Per project: one person with a fee, its sent Zahlungserinnerung and an unsent 1. Mahnung (every
 * run sends its letters, so only the database makes one unsent); and two people with an invoice
 * of their own and two with a draft (invoices come only from the invoicing run, which would bill
 * every open fee).
 * Read here too, before the tests run: what the demo data holds that a test looks for.
 */
test("Testdaten: je Browser-Projekt eine unversandte Mahnung und zwei eigene Rechnungen", async () => {
  // About 40 wrangler processes one after the other, each a few seconds on a loaded machine: 1.5 min
  // at a load of 5, over the 2 min limit while another checkout built beside it.
  test.slow();
  const data: Record<string, TestData> = {};
  const umlaut = await umlautName();
  for (const project of ["js", "html"]) {
    const stamp = `${project}${Date.now().toString(36)}`;
    data[project] = {
      unsentReminder: await unsentReminder(`Grid${stamp}`),
      invoiceToMail: await invoiceOfOwn(`Versand${stamp}`),
      invoiceToKeep: await invoiceOfOwn(`Beleg${stamp}`),
      draftToIssue: await draftOfOwn(`Entwurf${stamp}`),
      draftToDelete: await draftOfOwn(`Papierkorb${stamp}`),
      invoiceToCredit: await invoiceOfOwn(`Gutschrift${stamp}`),
      twoInvoices: await twoInvoicesOfOwn(`Zweimal${stamp}`),
      // The first project's Mahnlauf (level 2 after 14 days) reminds the first; the second project's
      // finds its own only once it shortened level 2 to 3 days (tasks.spec.ts).
      interestReminder: await interestReminder(`Verzug${stamp}`, project === "js" ? 30 : 10, project === "js" ? null : `verzug-${stamp}@example.org`),
      portalPerson: await portalPerson(`Portal${stamp}`),
      portalDogOwner: await portalDogOwner(`Halter${stamp}`),
      portalCourseOwner: await portalCourseOwner(`Kursler${stamp}`),
      portalPayer: await portalPayer(`Zahler${stamp}`),
      catalogueCourse: await catalogueCourse(`Kursangebot${stamp}`),
      courseBooker: await courseBooker(`Bucher${stamp}`),
      waitlistBooker: await waitlistBooker(`Warter${stamp}`),
      cardCustomer: await cardCustomer(`Karte${stamp}`),
      cardBuyer: await cardBuyer(`Kauf${stamp}`),
      cardDesk: await cardDesk(`Theke${stamp}`),
      umlautName: umlaut,
    };
  }
  await writeFile(TEST_DATA_FILE, JSON.stringify(data));
});

async function unsentReminder(lastName: string): Promise<UnsentReminder> {
  const text = `Kursgebühr ${lastName}`;
  const [{ personId, feeId }] = await appSql<{ personId: number; feeId: number }>(`
    INSERT INTO people (first_name, last_name, member_type_id) VALUES ('Greta', '${lastName}', 1);
    INSERT INTO fees (person_id, date, due_date, text, amount, open_amount, send_invoice) SELECT id, '2026-09-01', '2026-09-15', '${text}', 2000, 2000, 0 FROM people WHERE last_name = '${lastName}';
    INSERT INTO fees (person_id, date, due_date, text, amount, open_amount, send_invoice, kind, reminded_fee_id) SELECT person_id, '2026-10-20', '2026-11-03', 'Mahngebühr ${lastName}', 500, 500, 0, 'REMINDER', id FROM fees WHERE text = '${text}';
    INSERT INTO reminders (target_type, target_id, person_id, level, date, new_due_date, open_amount, status, channel, sent_on) SELECT 'FEE', id, person_id, 1, '2026-10-06', '2026-10-20', 2000, 'SENT', 'PRINT', '2026-10-06T10:00:00Z' FROM fees WHERE text = '${text}';
    INSERT INTO reminders (target_type, target_id, person_id, level, date, new_due_date, open_amount, fee_id, status) SELECT 'FEE', f.id, f.person_id, 2, '2026-10-20', '2026-11-03', 2000, (SELECT id FROM fees WHERE text = 'Mahngebühr ${lastName}'), 'PENDING' FROM fees f WHERE f.text = '${text}';
    SELECT person_id AS personId, id AS feeId FROM fees WHERE text = '${text}';`);
  return { lastName, text, personId, feeId };
}

/** A family sharing one address, Paula and Paul (Mein Wuff's sign-in: whom the portal acts for). */
async function portalPerson(lastName: string): Promise<PortalPerson> {
  const email = `${lastName.toLowerCase()}@example.org`;
  await appSql(
    `INSERT INTO people (first_name, last_name, member_type_id, email) VALUES ('Paula', '${lastName}', 1, '${email}'), ('Paul', '${lastName}', 1, '${email}');`,
  );
  return { firstName: "Paula", lastName, email };
}

/** A person with an address of their own and a dog (Mein Wuff's data and papers). */
async function portalDogOwner(lastName: string): Promise<PortalDogOwner> {
  const email = `${lastName.toLowerCase()}@example.org`;
  const dogName = `Fiete${lastName}`;
  const [{ personId }] = await appSql<{ personId: number }>(`
    INSERT INTO people (first_name, last_name, member_type_id, email, street_number, zip, city) VALUES ('Hanna', '${lastName}', 1, '${email}', 'Alte Gasse 1', '35037', 'Marburg');
    INSERT INTO dogs (owner_id, common_name, chip_nr) SELECT id, '${dogName}', '276098100012345' FROM people WHERE last_name = '${lastName}';
    SELECT id AS personId FROM people WHERE last_name = '${lastName}';`);
  return { firstName: "Hanna", lastName, email, personId, dogName };
}

/** A person with an address of their own and two open fees billed directly (60,00 € and 25,00 €). */
async function portalPayer(lastName: string): Promise<PortalPerson & { personId: number }> {
  const email = `${lastName.toLowerCase()}@example.org`;
  const [{ personId }] = await appSql<{ personId: number }>(`
    INSERT INTO people (first_name, last_name, member_type_id, email, street_number, zip, city) VALUES ('Zora', '${lastName}', 1, '${email}', 'Bachweg 3', '35037', 'Marburg');
    INSERT INTO fees (person_id, date, due_date, text, amount, open_amount, send_invoice, kind)
      SELECT id, '${berlinDaysAgo(10)}', '${berlinDaysAgo(-20)}', 'Jahresbeitrag ${lastName}', 6000, 6000, 0, 'OTHER' FROM people WHERE last_name = '${lastName}'
      UNION ALL SELECT id, '${berlinDaysAgo(5)}', '${berlinDaysAgo(-25)}', 'Prüfungsgebühr ${lastName}', 2500, 2500, 0, 'OTHER' FROM people WHERE last_name = '${lastName}';
    SELECT id AS personId FROM people WHERE last_name = '${lastName}';`);
  return { firstName: "Zora", lastName, email, personId };
}

/** A person with a dog on two courses of a type cancellable in Mein Wuff until 7 days before the start. */
async function catalogueCourse(stamp: string): Promise<CatalogueCourse> {
  const days = [berlinDaysAgo(-9), berlinDaysAgo(-16)];
  const typeName = `Typ ${stamp}`;
  const name = `Welpen ${stamp}`;
  const weekday = new Date(`${days[0]}T12:00:00Z`).getUTCDay() || 7;
  await appSql(`
    INSERT INTO course_masters (name, online_booking, min_dog_age_weeks) VALUES ('${typeName}', 1, 8);
    INSERT INTO courses (name, start_year, status_code, course_master_id, location_id, max_dogs, cost_full, cost_reduced1, cost_reduced2)
      SELECT '${name}', ${Number(days[0].slice(0, 4))}, 'PLANNED', id, (SELECT min(id) FROM locations), 8, 12000, 9000, 7500 FROM course_masters WHERE name = '${typeName}';
    INSERT INTO course_dates (course_id, start_date_time, end_date_time)
      SELECT id, '${days[0]}T16:00:00.000Z', '${days[0]}T17:00:00.000Z' FROM courses WHERE name = '${name}'
      UNION ALL SELECT id, '${days[1]}T16:00:00.000Z', '${days[1]}T17:00:00.000Z' FROM courses WHERE name = '${name}';`);
  const weekdayName = ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"][weekday - 1];
  return { name, typeName, weekday, weekdayName, dates: days.map((day) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`) };
}

async function courseBooker(lastName: string): Promise<CourseBooker> {
  const email = `${lastName.toLowerCase()}@example.org`;
  const days = [berlinDaysAgo(-9), berlinDaysAgo(-16), berlinDaysAgo(-23)];
  const [typeName, courseName, dogName] = [`Typ ${lastName}`, `Junghunde ${lastName}`, `Fips${lastName}`];
  const [{ courseId }] = await appSql<{ courseId: number }>(`
    INSERT INTO people (first_name, last_name, member_type_id, email) VALUES ('Bea', '${lastName}', 1, '${email}');
    INSERT INTO dogs (owner_id, common_name, date_of_birth) SELECT id, '${dogName}', '${berlinDaysAgo(730)}' FROM people WHERE last_name = '${lastName}';
    INSERT INTO course_masters (name, online_booking, min_dog_age_weeks, portal_cancel_days, withdrawal_right) VALUES ('${typeName}', 1, 26, 3, 1);
    INSERT INTO courses (name, start_year, status_code, course_master_id, location_id, max_dogs, cost_full, cost_reduced1, cost_reduced2)
      SELECT '${courseName}', ${Number(days[0].slice(0, 4))}, 'PLANNED', id, (SELECT min(id) FROM locations), 1, 15000, 11000, 9000 FROM course_masters WHERE name = '${typeName}';
    INSERT INTO course_dates (course_id, start_date_time, end_date_time)
      SELECT c.id, d.day || 'T16:00:00.000Z', d.day || 'T17:00:00.000Z' FROM courses c, (SELECT '${days[0]}' AS day UNION ALL SELECT '${days[1]}' UNION ALL SELECT '${days[2]}') d
      WHERE c.name = '${courseName}';
    SELECT id AS courseId FROM courses WHERE name = '${courseName}';`);
  return {
    firstName: "Bea",
    lastName,
    email,
    dogName,
    courseId,
    courseName,
    dates: days.map((day) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`),
  };
}

async function waitlistBooker(lastName: string): Promise<WaitlistBooker> {
  const booker = await courseBooker(lastName);
  const [{ takenMembershipId }] = await appSql<{ takenMembershipId: number }>(`
    INSERT INTO people (first_name, last_name, member_type_id) VALUES ('Vera', 'Vorher${lastName}', 1);
    INSERT INTO dogs (owner_id, common_name) SELECT id, 'Erster${lastName}' FROM people WHERE last_name = 'Vorher${lastName}';
    INSERT INTO course_memberships (course_id, person_id, dog_id, status_id, price, amount)
      SELECT ${booker.courseId}, p.id, d.id, (SELECT id FROM membership_statuses WHERE code = 'CONFIRMED'), 15000, 15000
      FROM people p JOIN dogs d ON d.owner_id = p.id WHERE p.last_name = 'Vorher${lastName}';
    SELECT id AS takenMembershipId FROM course_memberships WHERE course_id = ${booker.courseId};`);
  return { ...booker, takenMembershipId };
}

async function portalCourseOwner(lastName: string): Promise<PortalCourseOwner> {
  const email = `${lastName.toLowerCase()}@example.org`;
  const dogName = `Kira${lastName}`;
  const [startedCourse, laterCourse] = [`Begonnen ${lastName}`, `Später ${lastName}`];
  // 16:00 UTC (17:00 or 18:00 in Berlin), `days` from today.
  const at = (days: number) => `${berlinDaysAgo(-days)}T16:00:00.000Z`;
  const year = new Date().getUTCFullYear();
  const [{ personId }] = await appSql<{ personId: number }>(`
    INSERT INTO people (first_name, last_name, member_type_id, email) VALUES ('Kai', '${lastName}', 1, '${email}');
    INSERT INTO dogs (owner_id, common_name) SELECT id, '${dogName}' FROM people WHERE last_name = '${lastName}';
    INSERT INTO course_masters (name, portal_cancel_days) VALUES ('Typ ${lastName}', 7);
    INSERT INTO courses (name, start_year, status_code, course_master_id, location_id)
      SELECT '${startedCourse}', ${year}, 'RUNNING', id, (SELECT min(id) FROM locations) FROM course_masters WHERE name = 'Typ ${lastName}'
      UNION ALL SELECT '${laterCourse}', ${year}, 'PLANNED', id, (SELECT min(id) FROM locations) FROM course_masters WHERE name = 'Typ ${lastName}';
    INSERT INTO course_dates (course_id, start_date_time) SELECT id, '${at(-7)}' FROM courses WHERE name = '${startedCourse}'
      UNION ALL SELECT id, '${at(7)}' FROM courses WHERE name = '${startedCourse}'
      UNION ALL SELECT id, '${at(21)}' FROM courses WHERE name = '${laterCourse}'
      UNION ALL SELECT id, '${at(28)}' FROM courses WHERE name = '${laterCourse}';
    INSERT INTO course_memberships (course_id, person_id, dog_id, status_id, price, amount)
      SELECT c.id, p.id, d.id, (SELECT id FROM membership_statuses WHERE code = 'CONFIRMED'), 12000, 12000
      FROM courses c, people p JOIN dogs d ON d.owner_id = p.id WHERE p.last_name = '${lastName}' AND c.name IN ('${startedCourse}', '${laterCourse}');
    INSERT INTO attendances (course_date_id, course_membership_id, present)
      SELECT cd.id, m.id, 1 FROM course_dates cd JOIN course_memberships m ON m.course_id = cd.course_id JOIN courses c ON c.id = cd.course_id
      WHERE c.name = '${startedCourse}' AND cd.start_date_time < '${at(0)}';
    INSERT INTO fees (person_id, date, text, amount, open_amount, send_invoice, is_invoiced, course_membership_id, kind)
      SELECT m.person_id, '${berlinDaysAgo(0)}', 'Kursgebühr ${laterCourse} (${dogName})', 12000, 12000, 1, 1, m.id, 'COURSE'
      FROM course_memberships m JOIN courses c ON c.id = m.course_id WHERE c.name = '${laterCourse}';
    UPDATE course_memberships SET fee_id = (SELECT id FROM fees WHERE course_membership_id = course_memberships.id)
      WHERE person_id = (SELECT id FROM people WHERE last_name = '${lastName}');
    SELECT id AS personId FROM people WHERE last_name = '${lastName}';`);
  return { firstName: "Kai", lastName, email, personId, dogName, startedCourse, laterCourse };
}

/**
 * An open group with eleven weekly dates, a participant, and a 10er-Karte valid for the group alone.
 * The dates end 78 days ago: older than any tick in the demo's running courses (12 weekly dates at
 * most), so the tick 'ohne Karte' is among the oldest ten the home page lists; the card sold from
 * the first date (6 months) is still valid today.
 */
async function cardCustomer(lastName: string): Promise<CardCustomer> {
  const [dogName, courseName, productName] = [`Motte${lastName}`, `Spielgruppe ${lastName}`, `10er-Karte ${lastName}`];
  const days = Array.from({ length: 11 }, (_, index) => berlinDaysAgo(78 + 7 * (10 - index)));
  const rows = await appSql<{ personId: number; personName: string; courseId: number; dateId: number; day: string }>(`
    INSERT INTO people (first_name, last_name, member_type_id) VALUES ('Kira', '${lastName}', 1);
    INSERT INTO dogs (owner_id, common_name) SELECT id, '${dogName}' FROM people WHERE last_name = '${lastName}';
    INSERT INTO courses (name, start_year, status_code, duration_model, location_id)
      VALUES ('${courseName}', ${Number(days[0].slice(0, 4))}, 'RUNNING', 'ONGOING', (SELECT min(id) FROM locations));
    INSERT INTO course_dates (course_id, start_date_time, end_date_time)
      SELECT c.id, d.value || 'T16:00:00.000Z', d.value || 'T17:00:00.000Z' FROM courses c, json_each('${JSON.stringify(days)}') d WHERE c.name = '${courseName}';
    INSERT INTO course_memberships (course_id, person_id, dog_id, status_id)
      SELECT c.id, p.id, d.id, (SELECT id FROM membership_statuses WHERE code = 'CONFIRMED')
      FROM courses c, people p JOIN dogs d ON d.owner_id = p.id WHERE c.name = '${courseName}' AND p.last_name = '${lastName}';
    INSERT INTO card_products (name, kind, units, valid_months, price_full, price_reduced1, price_reduced2) VALUES ('${productName}', 'CARD', 10, 6, 5000, 4000, 3000);
    INSERT INTO card_product_scopes (product_id, course_id) SELECT p.id, c.id FROM card_products p, courses c WHERE p.name = '${productName}' AND c.name = '${courseName}';
    SELECT p.id AS personId, p.full_name AS personName, c.id AS courseId, cd.id AS dateId, substr(cd.start_date_time, 1, 10) AS day
      FROM courses c JOIN course_dates cd ON cd.course_id = c.id JOIN course_memberships m ON m.course_id = c.id JOIN people p ON p.id = m.person_id
      WHERE c.name = '${courseName}' ORDER BY cd.start_date_time;`);
  const { personId, personName, courseId } = rows[0];
  const dates = rows.map((row) => ({ id: row.dateId, day: `${row.day.slice(8, 10)}.${row.day.slice(5, 7)}.${row.day.slice(0, 4)}` }));
  return { personId, personName, participant: `${dogName} mit ${personName}`, courseId, courseName, productName, dates };
}

/** A customer with an address for Mein Wuff, and a 10er-Karte and an Abo on sale only to be bought by them (a name of their own). */
async function cardBuyer(lastName: string): Promise<CardBuyer> {
  const email = `${lastName.toLowerCase()}@example.org`;
  const [cardName, aboName] = [`10er-Karte ${lastName}`, `Abo ${lastName}`];
  await appSql(`
    INSERT INTO people (first_name, last_name, member_type_id, email) VALUES ('Kim', '${lastName}', 1, '${email}');
    INSERT INTO card_products (name, kind, units, valid_months, price_full, price_reduced1, price_reduced2) VALUES ('${cardName}', 'CARD', 10, 6, 9000, 8000, 7000);
    INSERT INTO card_products (name, kind, period, min_term_months, notice_months, price_full, price_reduced1, price_reduced2)
      VALUES ('${aboName}', 'SUBSCRIPTION', 'MONTHLY', 0, 1, 3500, 3000, 2500);`);
  return { firstName: "Kim", lastName, email, cardName, aboName };
}

/**
 * The desk's card dialogs (issue 34): an open group with four weekly dates, the last 3 days ago, and
 * a 10er-Karte for it alone. One participant ticked on the last date without a card; another bought
 * the card 22 days ago (50,00 €, on an issued invoice as 'Rechnungen schreiben' issues it) and used
 * it on the first three dates; a third has nothing yet and is to buy the Abo (monthly, 3 months'
 * minimum term, 1 month's notice); a fourth took the Abo 40 days ago, its two periods begun not
 * billed yet (as the demo's Abos: for the run 'Abo-Beiträge').
 */
async function cardDesk(stamp: string): Promise<CardDesk> {
  const [courseName, productName, aboName] = [`Spielgruppe ${stamp}`, `10er-Karte ${stamp}`, `Abo ${stamp}`];
  const [walkIn, refund, subscriber, monthly] = [`Ohne${stamp}`, `Rest${stamp}`, `Kuendigt${stamp}`, `Monatlich${stamp}`];
  const days = [21, 14, 7, 3].map((daysAgo) => berlinDaysAgo(daysAgo));
  const bought = berlinDaysAgo(22);
  const rows = await appSql<{
    role: string;
    personId: number;
    personName: string;
    attendanceId: number | null;
    day: string | null;
    invoiceNumber: number | null;
  }>(`
    INSERT INTO people (first_name, last_name, member_type_id, email, street_number, zip, city) VALUES
      ('Lotte', '${walkIn}', 1, NULL, NULL, NULL, NULL),
      ('Jonas', '${refund}', 1, '${refund.toLowerCase()}@example.org', 'Feldweg 4', '35390', 'Gießen'),
      ('Ida', '${subscriber}', 1, NULL, NULL, NULL, NULL),
      ('Mia', '${monthly}', 1, NULL, NULL, NULL, NULL);
    INSERT INTO dogs (owner_id, common_name) SELECT id, 'Bello' || last_name FROM people WHERE last_name IN ('${walkIn}', '${refund}');
    INSERT INTO courses (name, start_year, status_code, duration_model, location_id)
      VALUES ('${courseName}', ${Number(days[0].slice(0, 4))}, 'RUNNING', 'ONGOING', (SELECT min(id) FROM locations));
    INSERT INTO course_dates (course_id, start_date_time, end_date_time)
      SELECT c.id, d.value || 'T16:00:00.000Z', d.value || 'T17:00:00.000Z' FROM courses c, json_each('${JSON.stringify(days)}') d WHERE c.name = '${courseName}';
    INSERT INTO course_memberships (course_id, person_id, dog_id, status_id)
      SELECT c.id, p.id, d.id, (SELECT id FROM membership_statuses WHERE code = 'CONFIRMED')
      FROM courses c, people p JOIN dogs d ON d.owner_id = p.id WHERE c.name = '${courseName}' AND p.last_name IN ('${walkIn}', '${refund}');
    INSERT INTO card_products (name, kind, units, valid_months, price_full, price_reduced1, price_reduced2) VALUES ('${productName}', 'CARD', 10, 6, 5000, 4000, 3000);
    INSERT INTO card_product_scopes (product_id, course_id) SELECT p.id, c.id FROM card_products p, courses c WHERE p.name = '${productName}' AND c.name = '${courseName}';
    INSERT INTO card_products (name, kind, period, min_term_months, notice_months, price_full, price_reduced1, price_reduced2)
      VALUES ('${aboName}', 'SUBSCRIPTION', 'MONTHLY', 3, 1, 2000, 1500, 1200);
    INSERT INTO card_product_scopes (product_id, course_id) SELECT p.id, c.id FROM card_products p, courses c WHERE p.name = '${aboName}' AND c.name = '${courseName}';
    INSERT INTO cards (person_id, product_id, kind, name, price, valid_from, period, min_term_months, notice_months)
      SELECT p.id, cp.id, 'SUBSCRIPTION', cp.name, 2000, '${berlinDaysAgo(40)}', 'MONTHLY', 3, 1 FROM people p, card_products cp WHERE p.last_name = '${monthly}' AND cp.name = '${aboName}';
    INSERT INTO attendances (course_date_id, course_membership_id, present)
      SELECT cd.id, m.id, 1 FROM course_dates cd JOIN courses c ON c.id = cd.course_id JOIN course_memberships m ON m.course_id = c.id JOIN people p ON p.id = m.person_id
      WHERE c.name = '${courseName}' AND ((p.last_name = '${walkIn}' AND cd.start_date_time >= '${days[3]}') OR (p.last_name = '${refund}' AND cd.start_date_time < '${days[3]}'));
    INSERT INTO cards (person_id, product_id, kind, name, units, units_per_attendance, price, valid_from, valid_until)
      SELECT p.id, cp.id, 'CARD', cp.name, 10, 1, 5000, '${bought}', date('${bought}', '+6 months', '-1 day') FROM people p, card_products cp WHERE p.last_name = '${refund}' AND cp.name = '${productName}';
    INSERT INTO card_uses (card_id, kind, units, attendance_id, used_on)
      SELECT k.id, 'USE', 1, a.id, substr(cd.start_date_time, 1, 10) FROM cards k JOIN course_memberships m ON m.person_id = k.person_id
        JOIN attendances a ON a.course_membership_id = m.id JOIN course_dates cd ON cd.id = a.course_date_id
      WHERE k.name = '${productName}';
    INSERT INTO fees (person_id, date, text, amount, open_amount, send_invoice, is_invoiced, kind)
      SELECT id, '${bought}', '${productName}, gültig ab ${bought}', 5000, 5000, 1, 1, 'OTHER' FROM people WHERE last_name = '${refund}';
    INSERT INTO card_fees (card_id, fee_id) SELECT k.id, f.id FROM cards k JOIN fees f ON f.person_id = k.person_id WHERE k.name = '${productName}';
    INSERT INTO invoice_headers (person_id, date, due_date, amount, open_amount) SELECT id, '${bought}', '${berlinDaysAgo(8)}', 5000, 0 FROM people WHERE last_name = '${refund}';
    INSERT INTO invoice_rows (invoice_id, fee_id, line_number, text, amount, tax_case)
      SELECT h.id, f.id, 1, f.text, f.amount, (SELECT tax_case FROM card_products WHERE name = '${productName}')
      FROM invoice_headers h JOIN fees f ON f.person_id = h.person_id JOIN people p ON p.id = h.person_id WHERE p.last_name = '${refund}';
    UPDATE invoice_headers SET status = 'ISSUED', invoice_number = (SELECT max(coalesce(c.last_invoice_number, 0), coalesce((SELECT max(invoice_number) FROM invoice_headers), 0)) + 1 FROM configuration c WHERE c.id = 1),
      issued_on = '${bought}T09:00:00.000Z', open_amount = amount WHERE person_id = (SELECT id FROM people WHERE last_name = '${refund}');
    UPDATE configuration SET last_invoice_number = (SELECT max(invoice_number) FROM invoice_headers) WHERE id = 1;
    SELECT CASE p.last_name WHEN '${walkIn}' THEN 'walkIn' WHEN '${refund}' THEN 'refund' ELSE 'subscriber' END AS role, p.id AS personId, p.full_name AS personName,
        (SELECT a.id FROM attendances a JOIN course_memberships m ON m.id = a.course_membership_id WHERE m.person_id = p.id) AS attendanceId,
        (SELECT substr(cd.start_date_time, 1, 10) FROM attendances a JOIN course_memberships m ON m.id = a.course_membership_id JOIN course_dates cd ON cd.id = a.course_date_id WHERE m.person_id = p.id) AS day,
        (SELECT invoice_number FROM invoice_headers WHERE person_id = p.id) AS invoiceNumber
      FROM people p WHERE p.last_name IN ('${walkIn}', '${refund}', '${subscriber}');`);
  const of = (role: string) => rows.find((row) => row.role === role)!;
  const [w, r, s] = [of("walkIn"), of("refund"), of("subscriber")];
  const day = w.day!;
  return {
    courseName,
    productName,
    aboName,
    walkIn: { personId: w.personId, personName: w.personName, attendanceId: w.attendanceId!, day: `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}` },
    refund: { personId: r.personId, personName: r.personName, invoiceNumber: r.invoiceNumber! },
    subscriber: { personId: s.personId, personName: s.personName },
  };
}

/** An issued invoice of 100,00 € and its sent Zahlungserinnerung, whose deadline passed `daysAgo` days ago. */
async function interestReminder(lastName: string, daysAgo: number, email: string | null): Promise<InterestReminder> {
  const defaultSince = berlinDaysAgo(daysAgo);
  const remindedOn = berlinDaysAgo(daysAgo + 14);
  const [row] = await appSql<{ personId: number; invoiceNumber: number }>(`
    INSERT INTO people (first_name, last_name, member_type_id, email, street_number, zip, city) VALUES ('Greta', '${lastName}', 1, ${email ? `'${email}'` : "NULL"}, 'Feldweg 2', '35390', 'Gießen');
    INSERT INTO invoice_headers (person_id, date, due_date, amount, open_amount)
      SELECT p.id, '${berlinDaysAgo(daysAgo + 40)}', '${berlinDaysAgo(daysAgo + 26)}', 10000, 0 FROM people p WHERE p.last_name = '${lastName}';
    INSERT INTO invoice_rows (invoice_id, line_number, text, amount) SELECT h.id, 1, 'Kursgebühr Agility', 10000 FROM invoice_headers h JOIN people p ON p.id = h.person_id WHERE p.last_name = '${lastName}';
    UPDATE invoice_headers SET status = 'ISSUED', invoice_number = (SELECT max(coalesce(c.last_invoice_number, 0), coalesce((SELECT max(invoice_number) FROM invoice_headers), 0)) + 1 FROM configuration c WHERE c.id = 1),
      issued_on = '${berlinDaysAgo(daysAgo + 40)}T09:00:00.000Z', open_amount = amount WHERE person_id = (SELECT id FROM people WHERE last_name = '${lastName}');
    UPDATE configuration SET last_invoice_number = (SELECT max(invoice_number) FROM invoice_headers) WHERE id = 1;
    INSERT INTO reminders (target_type, target_id, person_id, level, date, new_due_date, open_amount, status, channel, sent_on)
      SELECT 'INVOICE', h.id, h.person_id, 1, '${remindedOn}', '${defaultSince}', 10000, 'SENT', 'PRINT', '${remindedOn}T10:00:00Z' FROM invoice_headers h JOIN people p ON p.id = h.person_id WHERE p.last_name = '${lastName}';
    SELECT p.id AS personId, h.invoice_number AS invoiceNumber FROM invoice_headers h JOIN people p ON p.id = h.person_id WHERE p.last_name = '${lastName}';`);
  return { lastName, ...row, defaultSince, email };
}

/** An issued invoice (issue 30: written as a draft, its rows, then issued with the next number of the Einstellungen's counter). */
async function invoiceOfOwn(lastName: string): Promise<InvoiceOfOwn> {
  const [row] = await appSql<Omit<InvoiceOfOwn, "lastName">>(`
    INSERT INTO people (first_name, last_name, member_type_id, email, street_number, zip, city) VALUES ('Greta', '${lastName}', 1, '${lastName.toLowerCase()}@example.org', 'Feldweg 1', '35390', 'Gießen');
    INSERT INTO invoice_headers (person_id, date, due_date, amount, open_amount)
      SELECT p.id, '2026-11-20', '2026-12-04', 3000, 0 FROM people p WHERE p.last_name = '${lastName}';
    INSERT INTO invoice_rows (invoice_id, line_number, text, amount) SELECT h.id, 1, 'Kursgebühr Welpen', 3000 FROM invoice_headers h JOIN people p ON p.id = h.person_id WHERE p.last_name = '${lastName}';
    UPDATE invoice_headers SET status = 'ISSUED', invoice_number = (SELECT max(coalesce(c.last_invoice_number, 0), coalesce((SELECT max(invoice_number) FROM invoice_headers), 0)) + 1 FROM configuration c WHERE c.id = 1),
      issued_on = '2026-11-20T09:00:00.000Z', open_amount = amount WHERE person_id = (SELECT id FROM people WHERE last_name = '${lastName}');
    UPDATE configuration SET last_invoice_number = (SELECT max(invoice_number) FROM invoice_headers) WHERE id = 1;
    SELECT p.id AS personId, h.id AS invoiceId, h.invoice_number AS invoiceNumber FROM invoice_headers h JOIN people p ON p.id = h.person_id WHERE p.last_name = '${lastName}';`);
  return { lastName, ...row };
}

/** Two issued invoices of one person (30,00 € and 45,00 €), each issued as invoiceOfOwn issues one. */
async function twoInvoicesOfOwn(lastName: string): Promise<TwoInvoicesOfOwn> {
  const rows = await appSql<{ personId: number; invoiceNumber: number }>(`
    INSERT INTO people (first_name, last_name, member_type_id) VALUES ('Greta', '${lastName}', 1);
    INSERT INTO invoice_headers (person_id, date, due_date, amount, open_amount)
      SELECT id, '2026-11-20', '2026-12-04', 3000, 0 FROM people WHERE last_name = '${lastName}'
      UNION ALL SELECT id, '2026-11-21', '2026-12-05', 4500, 0 FROM people WHERE last_name = '${lastName}';
    INSERT INTO invoice_rows (invoice_id, line_number, text, amount)
      SELECT h.id, 1, 'Einzelstunde', h.amount FROM invoice_headers h JOIN people p ON p.id = h.person_id WHERE p.last_name = '${lastName}';
    UPDATE invoice_headers SET status = 'ISSUED', issued_on = '2026-11-21T09:00:00.000Z', open_amount = amount,
      invoice_number = (SELECT max(coalesce(c.last_invoice_number, 0), coalesce((SELECT max(invoice_number) FROM invoice_headers), 0)) FROM configuration c WHERE c.id = 1)
        + (SELECT count(*) FROM invoice_headers o WHERE o.person_id = invoice_headers.person_id AND o.id <= invoice_headers.id)
      WHERE person_id = (SELECT id FROM people WHERE last_name = '${lastName}');
    UPDATE configuration SET last_invoice_number = (SELECT max(invoice_number) FROM invoice_headers) WHERE id = 1;
    SELECT p.id AS personId, h.invoice_number AS invoiceNumber FROM invoice_headers h JOIN people p ON p.id = h.person_id WHERE p.last_name = '${lastName}' ORDER BY h.id;`);
  return { lastName, personId: rows[0].personId, invoiceNumbers: [rows[0].invoiceNumber, rows[1].invoiceNumber] };
}

/** A draft with two rows, each billing a fee of the person (as 'Nur Entwürfe anlegen' leaves it). */
async function draftOfOwn(lastName: string): Promise<DraftOfOwn> {
  const [row] = await appSql<Omit<DraftOfOwn, "lastName">>(`
    INSERT INTO people (first_name, last_name, member_type_id) VALUES ('Greta', '${lastName}', 1);
    INSERT INTO fees (person_id, date, text, amount, open_amount, send_invoice, is_invoiced)
      SELECT id, '2026-11-02', 'Einzelstunde ${lastName}', 4000, 4000, 1, 1 FROM people WHERE last_name = '${lastName}'
      UNION ALL SELECT id, '2026-11-09', 'Platzmiete ${lastName}', 1500, 1500, 1, 1 FROM people WHERE last_name = '${lastName}';
    INSERT INTO invoice_headers (person_id, date, due_date, amount, open_amount)
      SELECT id, '2026-11-20', '2026-12-04', 5500, 0 FROM people WHERE last_name = '${lastName}';
    INSERT INTO invoice_rows (invoice_id, fee_id, line_number, text, amount)
      SELECT h.id, f.id, row_number() OVER (ORDER BY f.id), f.text, f.amount FROM invoice_headers h JOIN fees f ON f.person_id = h.person_id JOIN people p ON p.id = h.person_id WHERE p.last_name = '${lastName}';
    SELECT p.id AS personId, h.id AS invoiceId FROM invoice_headers h JOIN people p ON p.id = h.person_id WHERE p.last_name = '${lastName}';`);
  return { lastName, ...row };
}

/** The demo's most common last name with an umlaut or ß: read before any erasure (gdpr.spec.ts)
 *  adds 'Gelöschte Person' rows, and before the app serves tests (a read by wrangler's process
 *  holds SQLite's lock against the app's writes). */
async function umlautName(): Promise<string> {
  const [row] = await appSql<{ lastName: string }>(
    `SELECT last_name AS lastName FROM people WHERE erased_on IS NULL AND instr(last_name, 'ä') + instr(last_name, 'ö') + instr(last_name, 'ü') + instr(last_name, 'ß') > 0
     GROUP BY last_name ORDER BY count(*) DESC, last_name LIMIT 1`,
  );
  if (!row) throw new Error("Die Demodaten haben keinen Nachnamen mit Umlaut");
  return row.lastName;
}
