/**
 * The whole Wuff data model (spec documents 000 and 001, §3).
 *
 * Conventions: snake_case plural table names in SQL, camelCase in TypeScript; money is integer
 * cents; calendar dates are 'YYYY-MM-DD' text; instants are UTC ISO strings; booleans are 0/1.
 * Ids use AUTOINCREMENT so the id of a deleted record is never handed out again: the recycle bin
 * restores records under their original id.
 */
import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { nameSortKeySql } from "../lib/collation";
import { MAX_CENTS } from "../lib/format";
import { SALUTATIONS } from "../lib/labels";
import { CLUB_TAX_STATUSES, DEFAULT_TAX_CASES, TAX_CASES } from "../lib/tax";
import { CONSENT_KINDS, CONSENT_SOURCES, LEGAL_TEXT_KINDS } from "../lib/consents";
import { PORTAL_SOURCE } from "../lib/portal";
import { DOG_PAPER_KINDS, DOG_PAPER_STATUSES, PAPER_CONTENT_TYPES } from "../lib/dog-papers";
import { MANDATE_SOURCES } from "../lib/banking";
import { MEMBERSHIP_APPLICATION_STATUSES } from "../lib/membership-applications";
import { CHARTS, PURPOSES, SPHERES } from "../lib/ledger";
import { DONATION_RECEIPT_KINDS, EXEMPTION_NOTICE_KINDS } from "../lib/donations";

export { SALUTATIONS };

const id = () => integer("id").primaryKey({ autoIncrement: true });
const flag = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);
const cents = (name: string) => integer(name).notNull().default(0);
/** The DIN 5007 sort key of a name column (app/lib/collation.ts): computed by SQLite, so no write
 *  can forget it. Virtual, because SQLite cannot add a stored column to an existing table; the
 *  index on it stores the key and serves the grid's order. */
const nameKey = (name: string, of: string) => text(name).generatedAlwaysAs(sql.raw(nameSortKeySql(of)), { mode: "virtual" });

/** createdBy/On and lastModifiedBy/On, set by the models from the logged-in user, plus the
 *  rowVersion that every update must quote (optimistic concurrency). */
/**
 * An item's standing in the Mahnwesen (issue 29 item 11), kept by triggers on reminders
 * (app/db/derived.ts) and never written by the app: the highest level of its reminders that are not
 * cancelled (0 without one), the date of its last reminder, and the new due date that reminder
 * named (NULL without one). 'Mahnung fällig', the reminder run and every list read these columns
 * instead of looking up the reminders of each item.
 */
const reminderStanding = () => ({
  reminderLevel: integer("reminder_level").notNull().default(0),
  lastReminderDate: text("last_reminder_date"),
  reminderDueDate: text("reminder_due_date"),
});

const auditColumns = () => ({
  createdBy: text("created_by").notNull().default("system"),
  createdOn: text("created_on")
    .notNull()
    .default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
  lastModifiedBy: text("last_modified_by"),
  lastModifiedOn: text("last_modified_on"),
  rowVersion: integer("row_version").notNull().default(1),
});

/** The account and sphere staff set for a course type, card product, fee or invoice row (issue 35
 *  item 1, app/lib/ledger.ts); NULL: what the next level decides, in the end the account of the
 *  fee's kind. (No check constraints: adding one would rebuild the tables; the models write only
 *  valid values.) */
const bookingOverride = () => ({
  accountNumber: text("account_number"),
  sphere: text("sphere", { enum: SPHERES }),
});

// Check constraints name SQL columns directly: they are table-local and must not be qualified.
const isDate = (table: string, column: string) => check(`${table}_${column}_is_date`, sql.raw(`${column} IS NULL OR date(${column}) IS ${column}`));
const isMoney = (table: string, column: string, min: number | string = 0) =>
  check(`${table}_${column}_is_money`, sql.raw(`${column} BETWEEN ${min} AND ${MAX_CENTS}`));
const oneOf = (table: string, column: string, values: readonly (string | number)[], nullable = false) =>
  check(
    `${table}_${column}_allowed`,
    sql.raw(`${nullable ? `${column} IS NULL OR ` : ""}${column} IN (${values.map((value) => (typeof value === "number" ? value : `'${value}'`)).join(", ")})`),
  );
const rule = (name: string, expression: string): ReturnType<typeof check> => check(name, sql.raw(expression));

const PRICE_TIERS = ["FULL", "REDUCED1", "REDUCED2"] as const;
const ANNUAL_FEE_TIERS = ["NONE", ...PRICE_TIERS] as const;
export type PriceTier = (typeof PRICE_TIERS)[number];

/** Mitgliedsart. Code NONE is given to people added by the quick add (non-members). */
export const memberTypes = sqliteTable(
  "member_types",
  {
    id: id(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    /** Which course price a person of this type pays: costFull, costReduced1 or costReduced2. */
    coursePriceTier: text("course_price_tier", { enum: PRICE_TIERS }).notNull().default("FULL"),
    /** Which annual fee of the configuration applies (NONE: no annual fee). */
    annualFeeTier: text("annual_fee_tier", { enum: ANNUAL_FEE_TIERS }).notNull().default("NONE"),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("member_types_code_unique").on(t.code),
    oneOf("member_types", "course_price_tier", PRICE_TIERS),
    oneOf("member_types", "annual_fee_tier", ANNUAL_FEE_TIERS),
  ],
);

const MEMBERSHIP_STATUS_SCOPES = ["PERSON", "COURSE"] as const;

/**
 * Status of a club membership (scope PERSON, e.g. Aktiv / Passiv) or of a course membership
 * (scope COURSE, e.g. CONFIRMED 'Bestätigt'). isFeeTrigger: a course membership in this status
 * owes the course fee.
 */
export const membershipStatuses = sqliteTable(
  "membership_statuses",
  {
    id: id(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    appliesTo: text("applies_to", { enum: MEMBERSHIP_STATUS_SCOPES }).notNull(),
    isFeeTrigger: flag("is_fee_trigger"),
    ...auditColumns(),
  },
  (t) => [uniqueIndex("membership_statuses_code_unique").on(t.code), oneOf("membership_statuses", "applies_to", MEMBERSHIP_STATUS_SCOPES)],
);

export const people = sqliteTable(
  "people",
  {
    id: id(),
    salutation: text("salutation", { enum: SALUTATIONS }),
    title: text("title"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    lastNameKey: nameKey("last_name_key", "last_name"),
    firstNameKey: nameKey("first_name_key", "first_name"),
    fullName: text("full_name").generatedAlwaysAs(sql`trim(first_name || ' ' || last_name)`, {
      mode: "virtual",
    }),
    streetNumber: text("street_number"),
    zip: text("zip"),
    city: text("city"),
    email: text("email"),
    homePhone: text("home_phone"),
    mobilePhone: text("mobile_phone"),
    dateOfBirth: text("date_of_birth"),
    /** 'MM-DD' of the birthday: what the birthday list and birthday mails look for. */
    annualBirthday: text("annual_birthday").generatedAlwaysAs(sql`substr(date_of_birth, 6, 5)`, {
      mode: "virtual",
    }),
    isMember: flag("is_member"),
    memberSince: text("member_since"),
    memberUntil: text("member_until"),
    memberTypeId: integer("member_type_id")
      .notNull()
      .references(() => memberTypes.id),
    membershipStatusId: integer("membership_status_id").references(() => membershipStatuses.id),
    hsvrmNr: text("hsvrm_nr"),
    isVorstand: flag("is_vorstand"),
    isTrainer: flag("is_trainer"),
    hasGdpr: flag("has_gdpr"),
    hasInsurance: flag("has_insurance"),
    /** Unternehmer (§ 14 BGB), not a consumer: default interest is 9 instead of 5 percentage points
     *  above the base rate (§ 288 Abs. 2 BGB). */
    isBusiness: flag("is_business"),
    comments: text("comments"),
    /** Erased (GDPR Art. 17) on this day: the row is only the pseudonymised holder ('Gelöschte
     *  Person', no contact data) of bookkeeping records kept until retainedUntil (§147 AO). */
    erasedOn: text("erased_on"),
    /** The last day a retained record of an erased person must be kept; the daily cron erases
     *  what has expired. */
    retainedUntil: text("retained_until"),
    ...auditColumns(),
  },
  (t) => [
    index("people_name_idx").on(t.lastName, t.firstName),
    // The grid's name orders (DIN 5007 keys, then id) read straight from these, no sorting.
    index("people_name_key_idx").on(t.lastNameKey, t.firstNameKey),
    index("people_first_name_key_idx").on(t.firstNameKey, t.lastNameKey),
    // A person's name keys by id (personNameKeys): lists that sort many joined rows by person read
    // them here instead of working out both keys for every row they sort.
    index("people_id_name_keys_idx").on(t.id, t.lastNameKey, t.firstNameKey),
    index("people_first_name_idx").on(t.firstName),
    index("people_member_type_idx").on(t.memberTypeId),
    index("people_membership_status_idx").on(t.membershipStatusId),
    index("people_is_trainer_idx").on(t.isTrainer),
    // Birthdays by day, and by name within a day: the name keys come from the index, where SQLite
    // would otherwise work out each one's DIN 5007 key (a hundred replace()s) to sort them.
    index("people_annual_birthday_idx").on(t.annualBirthday, t.lastNameKey, t.firstNameKey),
    // The retention overview's two lists (Datenschutz) read their candidates only, not every person.
    // people_left_idx by leaving date and name key: a page of the 'left' list is read in its order.
    index("people_left_idx")
      .on(t.memberUntil, t.lastNameKey)
      .where(sql`erased_on IS NULL`),
    index("people_not_member_created_idx")
      .on(t.createdOn)
      .where(sql`erased_on IS NULL AND is_member = 0`),
    // The erased people only: the retention schedule finds their kept records without reading
    // every person (SELECT id FROM people WHERE erased_on IS NOT NULL).
    index("people_erased_idx")
      .on(t.erasedOn)
      .where(sql`erased_on IS NOT NULL`),
    rule("people_names_present", "length(trim(last_name)) > 0"),
    oneOf("people", "salutation", SALUTATIONS, true),
    isDate("people", "date_of_birth"),
    isDate("people", "member_since"),
    isDate("people", "member_until"),
    rule("people_membership_period", "member_until IS NULL OR member_since IS NULL OR member_until >= member_since"),
  ],
);

/** 0 (unbekannt), 1 männlich, 2 weiblich: the spec's gender codes for dogs. */
const DOG_GENDERS = [0, 1, 2] as const;

export const dogs = sqliteTable(
  "dogs",
  {
    id: id(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => people.id),
    commonName: text("common_name").notNull(),
    commonNameKey: nameKey("common_name_key", "common_name"),
    breed: text("breed"),
    gender: integer("gender").notNull().default(0),
    dateOfBirth: text("date_of_birth"),
    rabiesValidUntil: text("rabies_valid_until"),
    /** The dog's liability insurance (Hundehaftpflicht), as its confirmed papers prove it (issue 32). */
    insuranceCompany: text("insurance_company"),
    insurancePolicyNr: text("insurance_policy_nr"),
    insuranceValidUntil: text("insurance_valid_until"),
    chipNr: text("chip_nr"),
    zuchtBuchNr: text("zucht_buch_nr"),
    comments: text("comments"),
    archived: flag("archived"),
    ...auditColumns(),
  },
  (t) => [
    // A dog's name key by id (dogNameKey): lists that sort joined rows by dog name read it here.
    index("dogs_id_name_key_idx").on(t.id, t.commonNameKey),
    // A person's dogs (the person's Hunde tab) in the grid's order, read from the index: without the
    // owner first, SQLite walked every current dog by name to find one owner's.
    index("dogs_owner_idx").on(t.ownerId, t.archived, t.commonNameKey),
    // The grid's order (DIN 5007 name key, then id) read straight from the index, no sorting.
    index("dogs_archived_name_key_idx").on(t.archived, t.commonNameKey),
    rule("dogs_name_present", "length(trim(common_name)) > 0"),
    oneOf("dogs", "gender", DOG_GENDERS),
    isDate("dogs", "date_of_birth"),
    isDate("dogs", "rabies_valid_until"),
    isDate("dogs", "insurance_valid_until"),
  ],
);

export const locations = sqliteTable(
  "locations",
  {
    id: id(),
    name: text("name").notNull(),
    streetNumber: text("street_number"),
    zip: text("zip"),
    city: text("city"),
    comments: text("comments"),
    ...auditColumns(),
  },
  (t) => [uniqueIndex("locations_name_unique").on(t.name)],
);

/** Kurs-Typ: the template a course is made from (defaults for sessions, size and prices). */
export const courseMasters = sqliteTable(
  "course_masters",
  {
    id: id(),
    name: text("name").notNull(),
    nrOfSessions: integer("nr_of_sessions"),
    maxDogs: integer("max_dogs"),
    costFull: cents("cost_full"),
    costReduced1: cents("cost_reduced1"),
    costReduced2: cents("cost_reduced2"),
    comments: text("comments"),
    /** The tax case of this course type's fees on an invoice (issue 30, app/lib/tax.ts); NULL: the
     *  default for courses in Einstellungen. */
    taxCase: text("tax_case", { enum: TAX_CASES }),
    /**
     * Mein Wuff (issue 32 item 5): a booking of this type may be cancelled in the portal until this
     * many days before the course begins; NULL: not in the portal (the club's contractual rule, as
     * §312g Abs. 2 Nr. 9 BGB gives consumers no right of withdrawal for dated leisure services).
     */
    portalCancelDays: integer("portal_cancel_days"),
    /** Issue 33 item 4: the share of the course fee (percent) still owed after a cancellation in
     *  Mein Wuff within the cut-off; 0: the fee is cancelled in full. */
    portalCancelFeePercent: integer("portal_cancel_fee_percent").notNull().default(0),
    /** Issue 33: this type's courses are in the public catalogue (/kurse) and booked online. */
    onlineBooking: flag("online_booking"),
    /** What a dog must bring to a course of this type, checked on booking online (issue 33): its
     *  age in weeks on the first date, a rabies vaccination and a liability insurance valid on
     *  every date, and a course of the named type attended before. */
    minDogAgeWeeks: integer("min_dog_age_weeks"),
    requiresRabies: flag("requires_rabies"),
    requiresInsurance: flag("requires_insurance"),
    priorCourseMasterId: integer("prior_course_master_id").references((): AnySQLiteColumn => courseMasters.id),
    /** Issue 33 item 4: a booking of this type made online may be withdrawn within 14 days (§ 355
     *  BGB). Off for dated leisure services, where the law gives none (§ 312g Abs. 2 Nr. 9 BGB). */
    withdrawalRight: flag("withdrawal_right"),
    ...bookingOverride(),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("course_masters_name_unique").on(t.name),
    rule("course_masters_portal_cancel_days_range", "portal_cancel_days IS NULL OR portal_cancel_days BETWEEN 0 AND 365"),
    rule("course_masters_portal_cancel_fee_percent_range", "portal_cancel_fee_percent BETWEEN 0 AND 100"),
    rule("course_masters_min_dog_age_range", "min_dog_age_weeks IS NULL OR min_dog_age_weeks BETWEEN 0 AND 520"),
    rule("course_masters_prior_not_itself", "prior_course_master_id IS NULL OR prior_course_master_id <> id"),
    isMoney("course_masters", "cost_full"),
    isMoney("course_masters", "cost_reduced1"),
    isMoney("course_masters", "cost_reduced2"),
  ],
);

const COURSE_STATUS_CODES = ["PLANNED", "RUNNING", "FINISHED"] as const;
export type CourseStatusCode = (typeof COURSE_STATUS_CODES)[number];
/** FIXED: a set number of sessions; ONGOING: open-ended group (e.g. Spielgruppe). */
const DURATION_MODELS = ["FIXED", "ONGOING"] as const;
/** PER_COURSE: one price for the course; PER_SESSION: the price is per session. */
const PRICING_MODELS = ["PER_COURSE", "PER_SESSION"] as const;

export const courses = sqliteTable(
  "courses",
  {
    id: id(),
    name: text("name").notNull(),
    startYear: integer("start_year").notNull(),
    webTimeInformation: text("web_time_information"),
    trainerId: integer("trainer_id").references(() => people.id),
    cotrainerId: integer("cotrainer_id").references(() => people.id),
    startDateTime: text("start_date_time"),
    maxDogs: integer("max_dogs"),
    /** Planned number of sessions (the actual number is counted from course_dates). */
    nrOfSessions: integer("nr_of_sessions"),
    /** Price for non-members; reduced 1 and 2 for the member tiers (see member_types). */
    costFull: cents("cost_full"),
    costReduced1: cents("cost_reduced1"),
    costReduced2: cents("cost_reduced2"),
    statusCode: text("status_code", { enum: COURSE_STATUS_CODES }).notNull().default("PLANNED"),
    durationModel: text("duration_model", { enum: DURATION_MODELS }).notNull().default("FIXED"),
    pricingModel: text("pricing_model", { enum: PRICING_MODELS }).notNull().default("PER_COURSE"),
    locationId: integer("location_id").references(() => locations.id),
    courseMasterId: integer("course_master_id").references(() => courseMasters.id),
    comments: text("comments"),
    ...auditColumns(),
  },
  (t) => [
    index("courses_course_master_idx").on(t.courseMasterId),
    index("courses_trainer_idx").on(t.trainerId),
    index("courses_cotrainer_idx").on(t.cotrainerId),
    index("courses_location_idx").on(t.locationId),
    index("courses_year_status_idx").on(t.startYear, t.statusCode),
    // The grid's default order (year, start, name): a page is read from the index and stops after
    // its rows; sorting instead counted participants and dates of every course first.
    index("courses_order_idx").on(t.startYear, t.startDateTime, sql`${t.name} COLLATE NOCASE`),
    index("courses_name_idx").on(t.name),
    rule("courses_name_present", "length(trim(name)) > 0"),
    rule("courses_start_year_range", "start_year BETWEEN 2000 AND 2100"),
    rule("courses_max_dogs_positive", "max_dogs IS NULL OR max_dogs >= 0"),
    rule("courses_nr_of_sessions_positive", "nr_of_sessions IS NULL OR nr_of_sessions >= 0"),
    oneOf("courses", "status_code", COURSE_STATUS_CODES),
    oneOf("courses", "duration_model", DURATION_MODELS),
    oneOf("courses", "pricing_model", PRICING_MODELS),
    isMoney("courses", "cost_full"),
    isMoney("courses", "cost_reduced1"),
    isMoney("courses", "cost_reduced2"),
  ],
);

/** Teilnehmer: a person with a dog in a course. */
export const courseMemberships = sqliteTable(
  "course_memberships",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    dogId: integer("dog_id")
      .notNull()
      .references(() => dogs.id),
    statusId: integer("status_id")
      .notNull()
      .references(() => membershipStatuses.id),
    /** The course fee of this membership (fees.course_membership_id points back). */
    feeId: integer("fee_id").references((): AnySQLiteColumn => fees.id, { onDelete: "set null" }),
    /** List price for the person's tier at registration; amount is what is actually owed. */
    price: cents("price"),
    amount: cents("amount"),
    isPaid: flag("is_paid"),
    /** Copied from the dog and the person when the membership is created (as spec'd). */
    rabiesValidUntil: text("rabies_valid_until"),
    hasGdpr: flag("has_gdpr"),
    hasInsurance: flag("has_insurance"),
    comments: text("comments"),
    personComments: text("person_comments"),
    dogComments: text("dog_comments"),
    /** The place on the course's waiting list (1 first) while the status is WAITLIST, else NULL:
     *  kept by triggers (migration 0059), moved by staff (issue 33 item 3). */
    waitlistRank: integer("waitlist_rank"),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("course_memberships_course_person_dog_unique").on(t.courseId, t.personId, t.dogId),
    index("course_memberships_person_idx").on(t.personId),
    index("course_memberships_dog_idx").on(t.dogId),
    index("course_memberships_status_idx").on(t.statusId),
    index("course_memberships_fee_idx").on(t.feeId),
    isMoney("course_memberships", "price"),
    isMoney("course_memberships", "amount"),
    isDate("course_memberships", "rabies_valid_until"),
  ],
);

export const courseDates = sqliteTable(
  "course_dates",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id),
    startDateTime: text("start_date_time").notNull(),
    endDateTime: text("end_date_time"),
    locationId: integer("location_id").references(() => locations.id),
    isAllDay: flag("is_all_day"),
    comments: text("comments"),
    ...auditColumns(),
  },
  (t) => [
    index("course_dates_course_start_idx").on(t.courseId, t.startDateTime),
    index("course_dates_start_idx").on(t.startDateTime),
    index("course_dates_location_idx").on(t.locationId),
    rule("course_dates_comments_length", "comments IS NULL OR length(comments) <= 100"),
    rule("course_dates_end_after_start", "end_date_time IS NULL OR end_date_time >= start_date_time"),
  ],
);

/**
 * Anwesenheit (beyond the spec): whether a participant was there on a course date, ticked on the
 * phone. One row per date and participant; `present` is the state the trainer wanted last (an
 * untick keeps the row with who unticked it and when). A date's and a participant's rows go into
 * the Papierkorb with them.
 */
export const attendances = sqliteTable(
  "attendances",
  {
    id: id(),
    courseDateId: integer("course_date_id")
      .notNull()
      .references(() => courseDates.id),
    courseMembershipId: integer("course_membership_id")
      .notNull()
      .references(() => courseMemberships.id),
    present: flag("present"),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("attendances_date_membership_unique").on(t.courseDateId, t.courseMembershipId),
    index("attendances_membership_idx").on(t.courseMembershipId),
  ],
);

export const certificationMasters = sqliteTable(
  "certification_masters",
  {
    id: id(),
    name: text("name").notNull(),
    nameKey: nameKey("name_key", "name"),
    isPersonCertification: flag("is_person_certification"),
    isDogCertification: flag("is_dog_certification"),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("certification_masters_name_unique").on(t.name),
    index("certification_masters_name_key_idx").on(t.nameKey),
    rule("certification_masters_has_subject", "is_person_certification = 1 OR is_dog_certification = 1"),
  ],
);

/** Erfolg: a certification of a person, a dog, or a person with a dog. */
export const certifications = sqliteTable(
  "certifications",
  {
    id: id(),
    personId: integer("person_id").references(() => people.id),
    dogId: integer("dog_id").references(() => dogs.id),
    certificationMasterId: integer("certification_master_id")
      .notNull()
      .references(() => certificationMasters.id),
    date: text("date"),
    comments: text("comments"),
    ...auditColumns(),
  },
  (t) => [
    index("certifications_person_idx").on(t.personId),
    index("certifications_dog_idx").on(t.dogId),
    index("certifications_master_idx").on(t.certificationMasterId),
    rule("certifications_has_subject", "person_id IS NOT NULL OR dog_id IS NOT NULL"),
    isDate("certifications", "date"),
  ],
);

/** Why a fee exists; ANNUAL and ENROLLMENT are unique per person (and year), so a retried
 *  bulk job can never charge them twice. REMINDER is a reminder fee (Mahngebühr) of a reminder
 *  (`reminders.fee_id`), linked to the reminded invoice or fee. */
const FEE_KINDS = ["COURSE", "ANNUAL", "ENROLLMENT", "OTHER", "REMINDER"] as const;

/** Offener Posten (Kontenblatt). Open while openAmount > 0. */
export const fees = sqliteTable(
  "fees",
  {
    id: id(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    date: text("date").notNull(),
    dueDate: text("due_date"),
    text: text("text").notNull(),
    amount: cents("amount"),
    openAmount: cents("open_amount"),
    isOpen: integer("is_open", { mode: "boolean" }).generatedAlwaysAs(sql`open_amount > 0`, {
      mode: "virtual",
    }),
    comments: text("comments"),
    paymentComments: text("payment_comments"),
    /** Billed by invoice (true) or collected directly (false). */
    sendInvoice: flag("send_invoice"),
    isInvoiced: flag("is_invoiced"),
    paymentReference: text("payment_reference"),
    /** Why no Lastschriftlauf collects the fee any more: a returned debit that stopped it
     *  ('Rücklastschrift 23.11.2026: MD06 …', app/lib/return-reasons.ts); it is reminded instead. */
    collectionStop: text("collection_stop"),
    courseMembershipId: integer("course_membership_id").references((): AnySQLiteColumn => courseMemberships.id, {
      onDelete: "set null",
    }),
    kind: text("kind", { enum: FEE_KINDS }).notNull().default("OTHER"),
    /** The year an ANNUAL fee is for. */
    periodYear: integer("period_year"),
    /** The bulk run (Jahresbeiträge) that created the fee; NULL for fees entered by hand. */
    jobId: integer("job_id").references((): AnySQLiteColumn => jobs.id),
    /** The Mollie payment link of the fee (pl_...), its address and the open amount (cents) it
     *  was made for: a link for another amount is stale and made anew. */
    paymentLinkId: text("payment_link_id"),
    paymentLinkUrl: text("payment_link_url"),
    paymentLinkAmount: integer("payment_link_amount"),
    /** A reminder fee (kind REMINDER): the invoice or fee it was charged for. No foreign key: the
     *  reminded item may go into the Papierkorb (as the mail log's ids). */
    remindedInvoiceId: integer("reminded_invoice_id"),
    remindedFeeId: integer("reminded_fee_id"),
    ...bookingOverride(),
    ...reminderStanding(),
    ...auditColumns(),
  },
  (t) => [
    // By person and date: a person's fees in date order, and the newest up to a day (Datenschutz's
    // last activity) read from the index alone.
    index("fees_person_idx").on(t.personId, t.date),
    index("fees_job_idx").on(t.jobId),
    index("fees_course_membership_idx").on(t.courseMembershipId),
    index("fees_billing_idx").on(t.sendInvoice, t.isInvoiced),
    index("fees_date_idx").on(t.date),
    index("fees_due_date_idx").on(t.dueDate),
    // Covers the Kontenblatt's count and sums under every toggle (open/paid/due, invoiced or
    // not): read from this small index instead of the whole table (50,000 fees: about 3x faster).
    index("fees_totals_idx").on(t.openAmount, t.isInvoiced, t.dueDate, t.amount),
    // The fees reminded on their own that are open, by due date: 'Mahnung fällig' and the
    // reminder run read the overdue ones from here instead of every fee. send_invoice leads so
    // that SQLite prefers it to fees_billing_idx (equality there, equality and range here). It
    // also holds every column the overdue test and the due level read (and the sums), so the
    // toggle's count never reads the table (2,700 overdue fees: 6 to 2.6 ms).
    index("fees_remindable_idx")
      .on(t.sendInvoice, t.dueDate, t.personId, t.collectionStop, t.reminderLevel, t.reminderDueDate, t.kind, t.openAmount, t.amount)
      .where(sql`send_invoice = 0 AND kind <> 'REMINDER' AND open_amount > 0`),
    // The same fees by date: the Kontenblatt under 'Mahnung fällig' walks them newest first and
    // stops after its page (listFees), instead of walking every fee by date (issue 29).
    index("fees_remindable_date_idx")
      .on(t.date)
      .where(sql`send_invoice = 0 AND kind <> 'REMINDER' AND open_amount > 0`),
    // An item's reminder fees (what a payment beyond the item's open amount pays, bank statements):
    // found by the reminded item instead of reading every fee for each item.
    index("fees_reminded_invoice_idx")
      .on(t.remindedInvoiceId)
      .where(sql`reminded_invoice_id IS NOT NULL`),
    index("fees_reminded_fee_idx")
      .on(t.remindedFeeId)
      .where(sql`reminded_fee_id IS NOT NULL`),
    uniqueIndex("fees_annual_unique")
      .on(t.personId, t.periodYear)
      .where(sql`kind = 'ANNUAL'`),
    uniqueIndex("fees_enrollment_unique")
      .on(t.personId)
      .where(sql`kind = 'ENROLLMENT'`),
    rule("fees_text_length", "length(trim(text)) BETWEEN 1 AND 100"),
    isMoney("fees", "amount"),
    rule("fees_open_amount_range", "open_amount BETWEEN 0 AND amount"),
    isDate("fees", "date"),
    isDate("fees", "due_date"),
    oneOf("fees", "kind", FEE_KINDS),
    rule("fees_annual_has_year", "kind <> 'ANNUAL' OR period_year IS NOT NULL"),
  ],
);

/** An invoice's life (issue 30): a draft (Entwurf) is edited freely and has no number; issued
 *  (Ausgestellt), its number, recipient, rows, amounts and dates are frozen (§ 146 Abs. 4 AO,
 *  GoBD), enforced by the triggers of app/db/frozen.ts as well as by the models. */
const INVOICE_STATUSES = ["DRAFT", "ISSUED"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** A Stornorechnung or a Gutschrift corrects the invoice it names (corrects_invoice_id). */
const INVOICE_KINDS = ["INVOICE", "STORNO", "CREDIT_NOTE"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/**
 * The sums of all fees, kept by the database itself (app/db/derived.ts) in the statement that
 * writes a fee: per invoiced or not, open or paid, and for open fees per due date (a few hundred
 * rows, not every fee). The Kontenblatt's sums under its toggles and the home page's open and due
 * fees read these instead of every fee, so they cost the same with 300 fees or 50,000 (issue 29).
 */
export const feeTotals = sqliteTable(
  "fee_totals",
  {
    isInvoiced: integer("is_invoiced", { mode: "boolean" }).notNull(),
    isOpen: integer("is_open", { mode: "boolean" }).notNull(),
    /** The due date of open fees; '' for an open fee without one and for every paid fee. */
    dueDate: text("due_date").notNull(),
    fees: integer("fees").notNull(),
    amount: integer("amount").notNull(),
    openAmount: integer("open_amount").notNull(),
  },
  (t) => [primaryKey({ columns: [t.isInvoiced, t.isOpen, t.dueDate] })],
);

export const invoiceHeaders = sqliteTable(
  "invoice_headers",
  {
    id: id(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    /** From the counter (configuration.last_invoice_number) when issued; NULL for a draft. */
    invoiceNumber: integer("invoice_number"),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("DRAFT"),
    kind: text("kind", { enum: INVOICE_KINDS }).notNull().default("INVOICE"),
    correctsInvoiceId: integer("corrects_invoice_id").references((): AnySQLiteColumn => invoiceHeaders.id),
    /** When and by whom it was issued (the Rechnungsdatum is `date`, set to the day of issue). */
    issuedOn: text("issued_on"),
    issuedBy: text("issued_by"),
    /** SHA-256 (hex) of the stored PDF, set once with pdf_file_path: the document is provably the one issued. */
    pdfSha256: text("pdf_sha256"),
    date: text("date").notNull(),
    sentDate: text("sent_date"),
    dueDate: text("due_date"),
    /** Sum of the rows, kept by the model in the same batch as any row change. */
    amount: cents("amount"),
    openAmount: cents("open_amount"),
    isOpen: integer("is_open", { mode: "boolean" }).generatedAlwaysAs(sql`open_amount > 0`, {
      mode: "virtual",
    }),
    comments: text("comments"),
    paymentComments: text("payment_comments"),
    /** R2 key of the invoice PDF; NULL means 'PDF not yet created'. */
    pdfFilePath: text("pdf_file_path"),
    /** The invoicing run (Rechnungen schreiben) that created the invoice, which its undo removes. */
    jobId: integer("job_id").references((): AnySQLiteColumn => jobs.id),
    /** The recipient as the invoice was issued to them: copied when it is issued (and, for
     *  invoices from before issue 30, when the person is erased, GDPR Art. 17). A draft reads the
     *  person's current name and address. */
    issuedSalutation: text("issued_salutation"),
    issuedTitle: text("issued_title"),
    issuedFirstName: text("issued_first_name"),
    issuedLastName: text("issued_last_name"),
    issuedStreetNumber: text("issued_street_number"),
    issuedZip: text("issued_zip"),
    issuedCity: text("issued_city"),
    /** The club's tax status when the invoice was issued (NULL for a draft): the rows' cases are
     *  read with it, so a later change in Einstellungen changes no issued invoice. */
    issuedTaxStatus: text("issued_tax_status", { enum: CLUB_TAX_STATUSES }),
    ...reminderStanding(),
    ...auditColumns(),
  },
  (t) => [
    index("invoice_headers_job_idx").on(t.jobId),
    uniqueIndex("invoice_headers_invoice_number_unique").on(t.invoiceNumber),
    index("invoice_headers_person_idx").on(t.personId),
    index("invoice_headers_pdf_file_path_idx").on(t.pdfFilePath),
    // The open invoices by due date: 'Mahnung fällig' reads the overdue ones from here.
    index("invoice_headers_overdue_idx")
      .on(t.dueDate)
      .where(sql`open_amount > 0`),
    index("invoice_headers_date_idx").on(t.date),
    // The Stornorechnung of an invoice (its state 'Storniert' in every list): found by its key.
    index("invoice_headers_corrects_idx")
      .on(t.correctsInvoiceId)
      .where(sql`corrects_invoice_id IS NOT NULL`),
    rule("invoice_headers_invoice_number_positive", "invoice_number IS NULL OR invoice_number > 0"),
    oneOf("invoice_headers", "status", INVOICE_STATUSES),
    oneOf("invoice_headers", "kind", INVOICE_KINDS),
    rule("invoice_headers_number_when_issued", "(status = 'ISSUED') = (invoice_number IS NOT NULL)"),
    rule("invoice_headers_issued_on_when_issued", "(status = 'ISSUED') = (issued_on IS NOT NULL)"),
    rule("invoice_headers_correction_names_invoice", "(kind = 'INVOICE') = (corrects_invoice_id IS NULL)"),
    // A Stornorechnung negates every row of the invoice it cancels: its amount is below zero, and
    // nothing is open on it.
    isMoney("invoice_headers", "amount", -MAX_CENTS),
    // An invoice is never below zero, a correction (Storno, Gutschrift) never above.
    rule("invoice_headers_amount_sign", "(kind = 'INVOICE' AND amount >= 0) OR (kind <> 'INVOICE' AND amount <= 0)"),
    rule("invoice_headers_open_amount_range", "open_amount BETWEEN 0 AND max(amount, 0)"),
    isDate("invoice_headers", "date"),
    isDate("invoice_headers", "sent_date"),
    isDate("invoice_headers", "due_date"),
  ],
);

export const invoiceRows = sqliteTable(
  "invoice_rows",
  {
    id: id(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoiceHeaders.id),
    feeId: integer("fee_id").references(() => fees.id),
    lineNumber: integer("line_number").notNull().default(1),
    text: text("text").notNull().default(""),
    amount: cents("amount"),
    /** The date or period of the service (§ 14 Abs. 4 Nr. 6 UStG), set when the invoice is
     *  issued: a course's first to last date, a membership's year, else the fee's date. */
    serviceFrom: text("service_from"),
    serviceTo: text("service_to"),
    /** The row's tax case (app/lib/tax.ts): the default of its fee's kind or course type when the
     *  row is written, changeable while the invoice is a draft, frozen once it is issued. */
    // (tax_case here, in course_masters and configuration: no check constraint, adding one would
    // rebuild the table; the models write only TAX_CASES, parsed by zod.)
    taxCase: text("tax_case", { enum: TAX_CASES }).notNull().default("NOT_TAXABLE"),
    /** Set (once) when a Stornorechnung cancels the row's invoice: its fee may be billed again. */
    feeReleased: flag("fee_released"),
    /** The invoicing run that wrote the row (also onto a draft it extended). */
    jobId: integer("job_id").references((): AnySQLiteColumn => jobs.id),
    /** Frozen with the row once its invoice is issued. */
    ...bookingOverride(),
    ...auditColumns(),
  },
  (t) => [
    index("invoice_rows_invoice_line_idx").on(t.invoiceId, t.lineNumber),
    index("invoice_rows_job_idx").on(t.jobId),
    // A fee is billed on at most one invoice row that stands: a retried invoicing job cannot bill
    // it twice; a row whose invoice was cancelled (Storno) has released it.
    uniqueIndex("invoice_rows_fee_unique")
      .on(t.feeId)
      .where(sql`fee_released = 0`),
    rule("invoice_rows_line_number_positive", "line_number >= 1"),
    isDate("invoice_rows", "service_from"),
    isDate("invoice_rows", "service_to"),
    rule("invoice_rows_service_period", "service_to IS NULL OR service_from <= service_to"),
    // Rows may be negative (a discount); the header total stays >= 0 by its own check.
    isMoney("invoice_rows", "amount", -MAX_CENTS),
  ],
);

const TEMPLATE_KINDS = ["INVOICE", "MAIL"] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/**
 * Vorlagen: the invoice PDF's HTML and the mails' HTML and plain text, as mustache templates
 * ({{value}} escaped, {{{value}}} raw), edited by an ADMIN. The invoice template is named
 * 'invoice'; a mailshot names its template by `name`.
 */
export const templates = sqliteTable(
  "templates",
  {
    id: id(),
    name: text("name").notNull(),
    kind: text("kind", { enum: TEMPLATE_KINDS }).notNull(),
    /** The mail's subject (mustache); NULL for the invoice. */
    subject: text("subject"),
    html: text("html").notNull(),
    /** The mail's plain-text part (mustache); NULL for the invoice. */
    text: text("text"),
    comments: text("comments"),
    ...auditColumns(),
  },
  (t) => [uniqueIndex("templates_name_unique").on(t.name), oneOf("templates", "kind", TEMPLATE_KINDS)],
);

/** A predefined mail to a group of recipients. */
export const mailshots = sqliteTable(
  "mailshots",
  {
    id: id(),
    name: text("name").notNull(),
    /** Spec field storedProcedureName: names one query of the recipient-query registry. */
    recipientQuery: text("recipient_query").notNull(),
    templateName: text("template_name").notNull(),
    subject: text("subject").notNull(),
    cc: text("cc"),
    attachInvoice: flag("attach_invoice"),
    attachDocPath1: text("attach_doc_path1"),
    attachDocPath2: text("attach_doc_path2"),
    ...auditColumns(),
  },
  (t) => [uniqueIndex("mailshots_name_unique").on(t.name)],
);

/**
 * Mollie payments Wuff has booked (the webhook): the unique payment id makes a payment count
 * once however often Mollie calls, as it is written in the same batch as the fee's update.
 * No foreign key on the fee: the record of money received must outlive anything done to the fee.
 */
export const molliePayments = sqliteTable(
  "mollie_payments",
  {
    paymentId: text("payment_id").primaryKey(),
    feeId: integer("fee_id").notNull(),
    /** What Mollie says was paid, and what of it reduced the fee's open amount (cents). */
    amount: integer("amount").notNull(),
    applied: integer("applied").notNull(),
    paidAt: text("paid_at"),
    processedOn: text("processed_on").notNull(),
  },
  (t) => [index("mollie_payments_fee_idx").on(t.feeId)],
);

/**
 * SEPA direct-debit mandates (Lastschriftmandate) of a person: the account the club may collect
 * from, the generated reference (unique: 'WUFF-{personId}-{n}', at most 35 characters of the SEPA
 * set) and the mandate's date. FRST until its first collection (firstCollectionOn), RCUR after.
 * At most one active mandate per person. The IBAN leaves the server only for ADMIN and FINANCE.
 */
export const sepaMandates = sqliteTable(
  "sepa_mandates",
  {
    id: id(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    accountHolder: text("account_holder").notNull(),
    iban: text("iban").notNull(),
    bic: text("bic"),
    reference: text("reference").notNull(),
    mandateDate: text("mandate_date").notNull(),
    /** The day of the first collection under this mandate; NULL: the next one is FRST. */
    firstCollectionOn: text("first_collection_on"),
    /** The last collection under this mandate outside Wuff (before it was used), if known: with
     *  Wuff's own collections it tells when the mandate expires (36 months unused). */
    previousUseOn: text("previous_use_on"),
    /** The day the debtor's revocation (Widerruf) takes effect: nothing is collected on or after it. */
    revokedOn: text("revoked_on"),
    /** Why it ends then when not by the debtor's word: a returned debit that blocks the mandate
     *  ('Rücklastschrift 23.11.2026: AC04 Konto erloschen', app/lib/return-reasons.ts). */
    revocationReason: text("revocation_reason"),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    comments: text("comments"),
    /** Where it was given: STAFF (entered from paper) or PORTAL (given online in Mein Wuff and
     *  confirmed by the e-mail link, issue 32 item 4), and the R2 key (bucket PAPERS) of the
     *  mandate's PDF as it was given. */
    source: text("source", { enum: MANDATE_SOURCES }).notNull().default("STAFF"),
    documentKey: text("document_key"),
    ...auditColumns(),
  },
  (t) => [
    index("sepa_mandates_person_idx").on(t.personId),
    uniqueIndex("sepa_mandates_reference_unique").on(t.reference),
    // One active mandate per person: a second one must replace (deactivate) the first.
    uniqueIndex("sepa_mandates_one_active_per_person")
      .on(t.personId)
      .where(sql`is_active = 1`),
    isDate("sepa_mandates", "mandate_date"),
    isDate("sepa_mandates", "first_collection_on"),
    isDate("sepa_mandates", "previous_use_on"),
    isDate("sepa_mandates", "revoked_on"),
    rule("sepa_mandates_reference_sepa", "length(reference) BETWEEN 1 AND 35"),
    rule("sepa_mandates_iban_plain", "iban = upper(iban) AND instr(iban, ' ') = 0 AND length(iban) BETWEEN 15 AND 34"),
    oneOf("sepa_mandates", "source", MANDATE_SOURCES),
  ],
);

/** The club's settings: a single row with id 1. */
export const configuration = sqliteTable(
  "configuration",
  {
    id: integer("id").primaryKey(),
    hsvrmVereinName: text("hsvrm_verein_name"),
    hsvrmKG: integer("hsvrm_kg"),
    hsvrmVereinNr: integer("hsvrm_verein_nr"),
    smtpTestAccount: text("smtp_test_account"),
    clubMembershipEnrollmentFee: cents("club_membership_enrollment_fee"),
    clubMembershipPriceFull: cents("club_membership_price_full"),
    clubMembershipPriceReduced1: cents("club_membership_price_reduced1"),
    clubMembershipPriceReduced2: cents("club_membership_price_reduced2"),
    lastInvoiceNumber: integer("last_invoice_number").notNull().default(0),
    mollieIntegration: flag("mollie_integration"),
    // The club as an invoice names it (§14 UStG: name and address of the issuer, its tax number or
    // why no VAT is charged) and the bank account the invoice asks to pay to.
    clubName: text("club_name"),
    clubStreet: text("club_street"),
    clubZip: text("club_zip"),
    clubCity: text("club_city"),
    clubPhone: text("club_phone"),
    clubEmail: text("club_email"),
    /** The club's logo in R2 (bucket PAPERS, key 'club/logo-….png|jpg'): Mein Wuff shows it (issue 32 item 7). */
    clubLogoKey: text("club_logo_key"),
    /** How the club charges VAT (app/lib/tax.ts): Regelbesteuerung, Kleinunternehmer nach § 19
     *  UStG (what invoices without VAT said until issue 30, hence the default), steuerbefreit. */
    taxStatus: text("tax_status", { enum: CLUB_TAX_STATUSES }).notNull().default("SMALL_BUSINESS"),
    /** Steuernummer, as the Finanzamt writes it (§ 14 Abs. 4 Satz 1 Nr. 2 UStG: it or the USt-IdNr). */
    taxNumber: text("tax_number"),
    /** USt-IdNr ('DE' and nine digits, check digit tested). */
    vatId: text("vat_id"),
    /** The note on every invoice without VAT: a small business's own wording of the § 19 note
     *  (empty: SMALL_BUSINESS_NOTE), or the legal reason of an exempt club (required then). */
    taxExemptionNote: text("tax_exemption_note"),
    /** The default tax case of an invoice row per fee kind (a course type may have its own):
     *  membership fees are not taxable (echter Mitgliedsbeitrag), everything else 19 % until the
     *  club says otherwise. */
    taxCaseAnnual: text("tax_case_annual", { enum: TAX_CASES }).notNull().default(DEFAULT_TAX_CASES.annual),
    taxCaseEnrollment: text("tax_case_enrollment", { enum: TAX_CASES }).notNull().default(DEFAULT_TAX_CASES.enrollment),
    taxCaseCourse: text("tax_case_course", { enum: TAX_CASES }).notNull().default(DEFAULT_TAX_CASES.course),
    taxCaseOther: text("tax_case_other", { enum: TAX_CASES }).notNull().default(DEFAULT_TAX_CASES.other),
    bankAccountHolder: text("bank_account_holder"),
    iban: text("iban"),
    bic: text("bic"),
    bankName: text("bank_name"),
    /** SEPA creditor identifier (Gläubiger-ID, ISO 7064 checked) and the text of the club's mandate. */
    creditorId: text("creditor_id"),
    mandateText: text("mandate_text"),
    /** Days between a direct debit's pre-notification and its collection (SEPA Core rulebook: 14
     *  unless agreed otherwise with the debtor; at least 1). No check constraint: the form checks. */
    prenotificationDays: integer("prenotification_days").notNull().default(14),
    /** The bank's charge for a returned debit the debtor caused (cents; 0: not passed on). Booked,
     *  such a return charges it to the person as a fee (app/lib/return-reasons.ts). */
    returnCharge: integer("return_charge").notNull().default(0),
    /** Direct debits count as paid two TARGET2 business days after their collection date without
     *  waiting for the bank statement (issue 31 item 2); a later return undoes it. */
    debitAutoSettle: flag("debit_auto_settle"),
    /** Reminders after the one that put the debtor in default charge default interest (§§ 286, 288
     *  BGB) at the base rates of `base_rates` (issue 31 item 5). Off by default. */
    defaultInterest: flag("default_interest"),
    /** Aufbewahrungsübersicht (GDPR): members who left more than this many years ago, and
     *  people without activity for as long, are offered for erasure. */
    retentionYears: integer("retention_years").notNull().default(3),
    /** How long a place freed in a full course is offered to the first on its waiting list before
     *  it passes to the next (issue 33 item 3), in hours. No check constraint: the form checks. */
    waitlistOfferHours: integer("waitlist_offer_hours").notNull().default(48),
    /** The books for the tax adviser (issue 35): the chart of accounts (ledger_accounts holds its
     *  numbers), DATEV's Berater- and Mandantennummer, the fiscal year's first month and the
     *  length of a Sachkonto (a debtor's account is one digit longer). */
    chartOfAccounts: text("chart_of_accounts", { enum: CHARTS }).notNull().default("SKR42"),
    datevAdvisorNumber: integer("datev_advisor_number"),
    datevClientNumber: integer("datev_client_number"),
    fiscalYearStartMonth: integer("fiscal_year_start_month").notNull().default(1),
    accountLength: integer("account_length").notNull().default(5),
    /** Zuwendungsbestätigungen (issue 35 item 5): the tax office's notice that the club is
     *  steuerbegünstigt. A Freistellungsbescheid (or the Anlage zum Körperschaftsteuerbescheid) for
     *  the last assessment period, or the Feststellung nach § 60a AO; with the Finanzamt, the date
     *  and (Freistellungsbescheid) the Veranlagungszeitraum, and the purposes the statutes name.
     *  Without a notice Wuff issues no receipt (app/lib/donations.ts). */
    exemptionNoticeKind: text("exemption_notice_kind", { enum: EXEMPTION_NOTICE_KINDS }),
    exemptionTaxOffice: text("exemption_tax_office"),
    exemptionNoticeDate: text("exemption_notice_date"),
    exemptionAssessmentPeriod: text("exemption_assessment_period"),
    exemptionPurposes: text("exemption_purposes"),
    // (erased_on, retained_until, retention_years: no check constraints, adding one would rebuild
    // the table; the model writes only valid values.)
    comments: text("comments"),
    ...auditColumns(),
  },
  () => [
    rule("configuration_single_row", "id = 1"),
    isMoney("configuration", "club_membership_enrollment_fee"),
    isMoney("configuration", "club_membership_price_full"),
    isMoney("configuration", "club_membership_price_reduced1"),
    isMoney("configuration", "club_membership_price_reduced2"),
    rule("configuration_last_invoice_number_positive", "last_invoice_number >= 0"),
  ],
);

/** Papierkorb: every delete writes its records here, in the same batch, under one transaction. */
export const deletedRecords = sqliteTable(
  "deleted_records",
  {
    id: id(),
    transactionId: integer("transaction_id").notNull(),
    deletedOn: text("deleted_on").notNull(),
    deletedBy: text("deleted_by").notNull(),
    tableName: text("table_name").notNull(),
    identifier1: text("identifier1"),
    identifier2: text("identifier2"),
    identifier3: text("identifier3"),
    /** JSON array whose first element is the deleted record. */
    json: text("json").notNull(),
  },
  (t) => [
    index("deleted_records_transaction_idx").on(t.transactionId),
    index("deleted_records_table_idx").on(t.tableName),
    rule("deleted_records_json_valid", "json_valid(json) AND json_type(json) = 'array'"),
  ],
);

const JOB_STATUSES = ["QUEUED", "RUNNING", "DONE", "FAILED"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** One bulk run (annual fees, invoices, PDFs, mailshot, birthday mails) and its progress. */
export const jobs = sqliteTable(
  "jobs",
  {
    id: id(),
    type: text("type").notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("QUEUED"),
    total: integer("total").notNull().default(0),
    done: integer("done").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    message: text("message"),
    /** JSON of the job's parameters (e.g. the mailshot id). */
    params: text("params"),
    /** JSON array of the run's items (people) in slice order: a stalled run can send its
     *  unsettled slices again. (No check constraint: adding one would rebuild the table.) */
    items: text("items"),
    startedOn: text("started_on"),
    finishedOn: text("finished_on"),
    /** An undone run (Rechnungen schreiben): when and by whom its invoices were taken back. */
    undoneOn: text("undone_on"),
    undoneBy: text("undone_by"),
    /** A stalled run whose open slices were sent again: when last, by whom (null: automatically,
     *  by the cron or the start of a new run of its kind) and how often. */
    resumedOn: text("resumed_on"),
    resumedBy: text("resumed_by"),
    resumes: integer("resumes").notNull().default(0),
    ...auditColumns(),
  },
  (t) => [
    index("jobs_type_created_idx").on(t.type, t.createdOn),
    index("jobs_status_idx").on(t.status),
    // One run of a kind at a time: a second click (or a second tab) cannot start it twice.
    uniqueIndex("jobs_one_active_per_type")
      .on(t.type)
      .where(sql`status IN ('QUEUED', 'RUNNING')`),
    oneOf("jobs", "status", JOB_STATUSES),
    rule("jobs_counts_sane", "total >= 0 AND done >= 0 AND failed >= 0 AND done + failed <= total"),
    rule("jobs_params_json", "params IS NULL OR json_valid(params)"),
  ],
);

/**
 * The slices of a run that are settled: written in the same batch as the slice's work, so a
 * redelivered message finds its slice done and counts nothing twice. `failed` counts the items of
 * a slice that failed every retry (its message reached the dead-letter queue).
 */
export const jobSlices = sqliteTable(
  "job_slices",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id),
    slice: integer("slice").notNull(),
    done: integer("done").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    settledOn: text("settled_on").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.slice] }), rule("job_slices_counts_sane", "done >= 0 AND failed >= 0")],
);

/** An item (a person) of a run whose work failed, with the reason; gone once a retry succeeds. */
export const jobFailures = sqliteTable(
  "job_failures",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id),
    itemId: integer("item_id").notNull(),
    message: text("message").notNull(),
    attempts: integer("attempts").notNull().default(1),
    lastAttemptOn: text("last_attempt_on").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.itemId] })],
);

/**
 * Login sessions, kept on the server so that logout and the idle timeout really end them. The
 * browser holds only the signed session id (cookie wuff_session); D1 only its SHA-256, so a copy
 * of the database hands out no live session (app/models/session.server.ts).
 */
export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 (base64url) of the session id in the cookie, never the id itself. */
    id: text("id").primaryKey(),
    /** The user as the identity provider described them (JSON: id, name, email, roles). */
    user: text("user").notNull(),
    /** Kept for the provider's end-session endpoint (id_token_hint). */
    idToken: text("id_token"),
    createdOn: text("created_on").notNull(),
    lastSeenOn: text("last_seen_on").notNull(),
    expiresOn: text("expires_on").notNull(),
  },
  (t) => [index("sessions_expires_idx").on(t.expiresOn), rule("sessions_user_json", "json_valid(user)")],
);

// ---------------------------------------------------------------------------------------------
// Mein Wuff (issue 32): the portal of members and course customers, signed in by e-mail link.

/**
 * Every request of a sign-in link, for the rate limits (per address and per IP, 15 minutes) and,
 * when the address is a person's, the one-time link itself. Only hashes of the address, the IP,
 * the link's token and the asking browser's cookie are kept (a copy of the database yields no
 * working link and names no stranger who typed an address); `email` only when it is a person's.
 */
export const portalSignInRequests = sqliteTable(
  "portal_sign_in_requests",
  {
    id: id(),
    emailHash: text("email_hash").notNull(),
    ipHash: text("ip_hash").notNull(),
    /** The person's address as stored (lower case, trimmed); NULL for an unknown address. */
    email: text("email"),
    tokenHash: text("token_hash"),
    browserHash: text("browser_hash"),
    createdOn: text("created_on").notNull(),
    expiresOn: text("expires_on").notNull(),
    usedOn: text("used_on"),
  },
  (t) => [
    index("portal_sign_in_requests_email_idx").on(t.emailHash, t.createdOn),
    index("portal_sign_in_requests_ip_idx").on(t.ipHash, t.createdOn),
    uniqueIndex("portal_sign_in_requests_token_unique")
      .on(t.tokenHash)
      .where(sql`token_hash IS NOT NULL`),
    index("portal_sign_in_requests_expires_idx").on(t.expiresOn),
  ],
);

/**
 * Portal sessions, apart from the staff's (cookie wuff_portal, own idle limit): the address that
 * signed in and the person it acts for (one of those sharing the address, a family; NULL until
 * chosen). D1 keeps the SHA-256 of the cookie's id only, as for staff sessions.
 */
export const portalSessions = sqliteTable(
  "portal_sessions",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** No foreign key: a person deleted or erased ends the session by the check of every request. */
    personId: integer("person_id"),
    createdOn: text("created_on").notNull(),
    lastSeenOn: text("last_seen_on").notNull(),
    expiresOn: text("expires_on").notNull(),
  },
  (t) => [index("portal_sessions_expires_idx").on(t.expiresOn)],
);

/**
 * A change of a person's e-mail address asked for in Mein Wuff: it takes effect only once the
 * new address confirmed it by the link mailed there (the portal session follows the address, so
 * an unconfirmed address must never open anything). D1 keeps the token's hash only.
 */
export const portalEmailChanges = sqliteTable(
  "portal_email_changes",
  {
    id: id(),
    personId: integer("person_id").notNull(),
    newEmail: text("new_email").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdOn: text("created_on").notNull(),
    expiresOn: text("expires_on").notNull(),
    usedOn: text("used_on"),
  },
  (t) => [uniqueIndex("portal_email_changes_token_unique").on(t.tokenHash), index("portal_email_changes_person_idx").on(t.personId, t.createdOn)],
);

/**
 * Mein Wuff's calendar of a person's courses (issue 32 item 5, GET /feeds/{token}.ics): one secret
 * address per person, only the token's SHA-256 kept (as for the staff's feeds). No foreign key, as
 * for portal sessions: the feed answers only while its person exists and is not erased, and a
 * person in the Papierkorb is not held by it. Renewing replaces the hash; deleting revokes.
 */
export const portalCalendarFeeds = sqliteTable(
  "portal_calendar_feeds",
  {
    id: id(),
    personId: integer("person_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    uniqueIndex("portal_calendar_feeds_person_unique").on(t.personId),
    uniqueIndex("portal_calendar_feeds_token_hash_unique").on(t.tokenHash),
    rule("portal_calendar_feeds_token_shape", "length(token_hash) = 43"),
  ],
);

/**
 * The club's versioned texts (issue 32): consent texts, privacy notice, imprint, statutes. A
 * version is never changed once written (the model only adds versions); the newest of a kind is
 * the one shown, and a consent names the version it was given to.
 */
export const legalTexts = sqliteTable(
  "legal_texts",
  {
    id: id(),
    kind: text("kind", { enum: LEGAL_TEXT_KINDS }).notNull(),
    version: integer("version").notNull(),
    body: text("body").notNull(),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("legal_texts_kind_version_unique").on(t.kind, t.version),
    oneOf("legal_texts", "kind", LEGAL_TEXT_KINDS),
    rule("legal_texts_body_present", "length(trim(body)) > 0"),
    rule("legal_texts_version_positive", "version >= 1"),
  ],
);

/**
 * A person's consent of one kind to one version of its text: given on, and withdrawn on (the row
 * stays, so the club can show what was agreed when; giving again is a new row). At most one
 * consent of a kind is in force per person.
 */
export const consents = sqliteTable(
  "consents",
  {
    id: id(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    kind: text("kind", { enum: CONSENT_KINDS }).notNull(),
    legalTextId: integer("legal_text_id")
      .notNull()
      .references(() => legalTexts.id),
    givenOn: text("given_on").notNull(),
    withdrawnOn: text("withdrawn_on"),
    source: text("source", { enum: CONSENT_SOURCES }).notNull(),
    ...auditColumns(),
  },
  (t) => [
    index("consents_person_idx").on(t.personId, t.kind),
    uniqueIndex("consents_in_force_unique")
      .on(t.personId, t.kind)
      .where(sql`withdrawn_on IS NULL`),
    oneOf("consents", "kind", CONSENT_KINDS),
    oneOf("consents", "source", CONSENT_SOURCES),
    rule("consents_withdrawn_after_given", "withdrawn_on IS NULL OR withdrawn_on >= given_on"),
  ],
);

/** An offer of a freed place to one on the waiting list: open, taken, let lapse, declined, or
 *  withdrawn (the entry left the list otherwise). */
const WAITLIST_OFFER_STATUSES = ["OFFERED", "ACCEPTED", "LAPSED", "DECLINED", "WITHDRAWN"] as const;

/**
 * A place offered from a course's waiting list (issue 33 item 3): to whom (the waiting
 * participant), until when, how it ended, and when its mail went out (claimed before sending, so a
 * retried cron mails once). At most one open offer per participant.
 */
export const waitlistOffers = sqliteTable(
  "waitlist_offers",
  {
    id: id(),
    courseMembershipId: integer("course_membership_id")
      .notNull()
      .references(() => courseMemberships.id),
    offeredOn: text("offered_on").notNull(),
    expiresOn: text("expires_on").notNull(),
    status: text("status", { enum: WAITLIST_OFFER_STATUSES }).notNull().default("OFFERED"),
    decidedOn: text("decided_on"),
    mailClaimedOn: text("mail_claimed_on"),
    mailSentOn: text("mail_sent_on"),
    ...auditColumns(),
  },
  (t) => [
    index("waitlist_offers_membership_idx").on(t.courseMembershipId),
    uniqueIndex("waitlist_offers_open_unique")
      .on(t.courseMembershipId)
      .where(sql`status = 'OFFERED'`),
    index("waitlist_offers_open_expiry_idx")
      .on(t.expiresOn)
      .where(sql`status = 'OFFERED'`),
    oneOf("waitlist_offers", "status", WAITLIST_OFFER_STATUSES),
    rule("waitlist_offers_expires_after_offer", "expires_on > offered_on"),
  ],
);

/** What a person did in Mein Wuff that an online booking records: booked a place, went on the
 *  waiting list, accepted a place offered from it (each accepting the texts), cancelled it within
 *  the course type's cut-off, withdrew from the contract (§ 355 BGB). */
const ONLINE_BOOKING_ACTS = ["BOOKED", "WAITLISTED", "OFFER_ACCEPTED", "CANCELLED", "WITHDRAWN"] as const;

/**
 * A course booking made in Mein Wuff (issue 33 items 2, 3 and 5): the contract's evidence, kept
 * beside the participant, one row per act (a place on the waiting list, later the offer accepted).
 * Which versions of the AGB, the Widerrufsbelehrung and the privacy notice the person was shown
 * and accepted, when and from which address (Art. 246a EGBGB, Art. 7 Abs. 1 DSGVO: the club must
 * show what was agreed), and whether the course type gave a right of withdrawal at that moment
 * (the law of the contract is that of its conclusion). Never changed once written.
 */
export const onlineBookings = sqliteTable(
  "online_bookings",
  {
    id: id(),
    courseMembershipId: integer("course_membership_id")
      .notNull()
      .references(() => courseMemberships.id),
    act: text("act", { enum: ONLINE_BOOKING_ACTS }).notNull(),
    bookedOn: text("booked_on").notNull(),
    bookedFrom: text("booked_from").notNull(),
    /** The versions accepted (a booking's acts; NULL for a cancellation or withdrawal). */
    termsTextId: integer("terms_text_id").references(() => legalTexts.id),
    withdrawalTextId: integer("withdrawal_text_id").references(() => legalTexts.id),
    privacyTextId: integer("privacy_text_id").references(() => legalTexts.id),
    withdrawalRight: flag("withdrawal_right"),
    ...auditColumns(),
  },
  (t) => [
    index("online_bookings_membership_idx").on(t.courseMembershipId, t.bookedOn),
    oneOf("online_bookings", "act", ONLINE_BOOKING_ACTS),
    rule(
      "online_bookings_texts_accepted",
      "act IN ('CANCELLED', 'WITHDRAWN') OR (terms_text_id IS NOT NULL AND withdrawal_text_id IS NOT NULL AND privacy_text_id IS NOT NULL)",
    ),
  ],
);

const WITHDRAWAL_DECLARATION_STATUSES = ["OPEN", "APPLIED", "CLOSED"] as const;

/**
 * A withdrawal declared without signing in, on the public page 'Vertrag widerrufen' (§ 356a BGB:
 * the function must be at hand for everyone, also without an account): who declared it, for which
 * contract in their own words, when it was received and from where, and whether its confirmation
 * mail went out. Staff apply it to the booking it names (the booking ends as by the portal's
 * withdrawal, `course_membership_id`) or close it with a note.
 */
export const withdrawalDeclarations = sqliteTable(
  "withdrawal_declarations",
  {
    id: id(),
    receivedOn: text("received_on").notNull(),
    receivedFrom: text("received_from").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    contract: text("contract").notNull(),
    confirmationSentOn: text("confirmation_sent_on"),
    status: text("status", { enum: WITHDRAWAL_DECLARATION_STATUSES }).notNull().default("OPEN"),
    courseMembershipId: integer("course_membership_id").references(() => courseMemberships.id),
    settledOn: text("settled_on"),
    settledBy: text("settled_by"),
    settleNote: text("settle_note"),
    ...auditColumns(),
  },
  (t) => [
    index("withdrawal_declarations_open_idx")
      .on(t.receivedOn)
      .where(sql`status = 'OPEN'`),
    index("withdrawal_declarations_email_idx").on(t.email, t.receivedOn),
    index("withdrawal_declarations_membership_idx").on(t.courseMembershipId),
    oneOf("withdrawal_declarations", "status", WITHDRAWAL_DECLARATION_STATUSES),
    rule("withdrawal_declarations_applied_names_booking", "status <> 'APPLIED' OR course_membership_id IS NOT NULL"),
    rule("withdrawal_declarations_settled", "status = 'OPEN' OR (settled_on IS NOT NULL AND settled_by IS NOT NULL)"),
  ],
);

/**
 * A paper a member uploaded for a dog in Mein Wuff (issue 32 item 3): the file in R2 (type checked
 * by its content) and the dates it proves, which reach the dog only when staff confirm it.
 */
export const dogPapers = sqliteTable(
  "dog_papers",
  {
    id: id(),
    dogId: integer("dog_id")
      .notNull()
      .references(() => dogs.id),
    kind: text("kind", { enum: DOG_PAPER_KINDS }).notNull(),
    status: text("status", { enum: DOG_PAPER_STATUSES }).notNull().default("PENDING"),
    /** The R2 key of the file; the name it is downloaded as; its type by content; its size. */
    objectKey: text("object_key").notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type", { enum: PAPER_CONTENT_TYPES }).notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    /** What the member says it proves. */
    rabiesValidUntil: text("rabies_valid_until"),
    insuranceCompany: text("insurance_company"),
    insurancePolicyNr: text("insurance_policy_nr"),
    insuranceValidUntil: text("insurance_valid_until"),
    decidedBy: text("decided_by"),
    decidedOn: text("decided_on"),
    declineReason: text("decline_reason"),
    ...auditColumns(),
  },
  (t) => [
    index("dog_papers_dog_idx").on(t.dogId, t.id),
    index("dog_papers_pending_idx")
      .on(t.id)
      .where(sql`status = 'PENDING'`),
    uniqueIndex("dog_papers_object_key_unique").on(t.objectKey),
    oneOf("dog_papers", "kind", DOG_PAPER_KINDS),
    oneOf("dog_papers", "status", DOG_PAPER_STATUSES),
    oneOf("dog_papers", "content_type", PAPER_CONTENT_TYPES),
    isDate("dog_papers", "rabies_valid_until"),
    isDate("dog_papers", "insurance_valid_until"),
    rule("dog_papers_size", "size_bytes BETWEEN 1 AND 10485760"),
    rule("dog_papers_proves_its_kind", "(kind = 'RABIES' AND rabies_valid_until IS NOT NULL) OR (kind = 'INSURANCE' AND insurance_valid_until IS NOT NULL)"),
    rule("dog_papers_decided", "(status = 'PENDING') = (decided_on IS NULL)"),
  ],
);

/**
 * An online payment in Mein Wuff (issue 32 item 4): the open items the person chose, the Mollie
 * payment link for their sum and, once Mollie reports it paid, the payment's id. What was paid is
 * booked through the payment journal (entry 'mollie:{paymentId}'), never here: this only ties the
 * payment to the items it was meant for.
 */
export const portalCheckouts = sqliteTable(
  "portal_checkouts",
  {
    id: id(),
    /** No foreign key: a checkout is a log, the person's delete or erasure does not wait for it. */
    personId: integer("person_id").notNull(),
    amount: cents("amount"),
    linkId: text("link_id"),
    linkUrl: text("link_url"),
    paymentId: text("payment_id"),
    paidOn: text("paid_on"),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    index("portal_checkouts_person_idx").on(t.personId, t.id),
    uniqueIndex("portal_checkouts_payment_unique")
      .on(t.paymentId)
      .where(sql`payment_id IS NOT NULL`),
    rule("portal_checkouts_amount_positive", "amount > 0"),
  ],
);

/** What a checkout was for: an issued invoice or a fee, with its open amount then (cents). No
 *  foreign keys: the item may go into the Papierkorb (as the reminders' items). */
export const portalCheckoutItems = sqliteTable(
  "portal_checkout_items",
  {
    id: id(),
    checkoutId: integer("checkout_id")
      .notNull()
      .references(() => portalCheckouts.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id"),
    feeId: integer("fee_id"),
    amount: cents("amount"),
  },
  (t) => [
    index("portal_checkout_items_checkout_idx").on(t.checkoutId),
    rule("portal_checkout_items_one_target", "(invoice_id IS NULL) <> (fee_id IS NULL)"),
    rule("portal_checkout_items_amount_positive", "amount > 0"),
  ],
);

/**
 * A SEPA mandate given in Mein Wuff and not yet confirmed (issue 32 item 4): the account, the
 * mandate text as shown, and the hash of the link mailed to the person's address. Confirmed, it
 * becomes a mandate (sepa_mandates, source PORTAL); unconfirmed ones are deleted after a week.
 */
export const portalMandateRequests = sqliteTable(
  "portal_mandate_requests",
  {
    id: id(),
    personId: integer("person_id").notNull(),
    accountHolder: text("account_holder").notNull(),
    iban: text("iban").notNull(),
    bic: text("bic"),
    tokenHash: text("token_hash").notNull(),
    createdOn: text("created_on").notNull(),
    expiresOn: text("expires_on").notNull(),
    confirmedOn: text("confirmed_on"),
    mandateId: integer("mandate_id"),
  },
  (t) => [uniqueIndex("portal_mandate_requests_token_unique").on(t.tokenHash), index("portal_mandate_requests_person_idx").on(t.personId, t.createdOn)],
);

/**
 * An application for membership from the public form 'Mitglied werden' (issue 32 item 6): what the
 * applicant entered, the versions of the statutes and the privacy notice they accepted, and the
 * hash of the link mailed to their address. Staff see it only once that link confirmed the address
 * (CONFIRMED); they accept it (a person, their dogs, the membership, the fees and the mandate are
 * made in one batch, personId names the person) or decline it. Unconfirmed ones are deleted when
 * the link expires, declined ones 90 days after the decision (Art. 5 Abs. 1 lit. e DSGVO).
 */
export const membershipApplications = sqliteTable(
  "membership_applications",
  {
    id: id(),
    status: text("status", { enum: MEMBERSHIP_APPLICATION_STATUSES }).notNull().default("UNCONFIRMED"),
    salutation: text("salutation", { enum: SALUTATIONS }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    streetNumber: text("street_number").notNull(),
    zip: text("zip").notNull(),
    city: text("city").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    dateOfBirth: text("date_of_birth").notNull(),
    /** Who as the parent or guardian agreed, for an applicant under 18 (§§ 107, 108 BGB). */
    guardianName: text("guardian_name"),
    /** The member type asked for; no foreign key: staff choose the type when they accept. */
    memberTypeId: integer("member_type_id").notNull(),
    /** The dogs as entered: JSON [{commonName, breed, gender, dateOfBirth, chipNr}]. */
    dogs: text("dogs").notNull().default("[]"),
    /** The SEPA mandate given with the application (all three null: none). */
    accountHolder: text("account_holder"),
    iban: text("iban"),
    bic: text("bic"),
    message: text("message"),
    statutesTextId: integer("statutes_text_id")
      .notNull()
      .references(() => legalTexts.id),
    privacyTextId: integer("privacy_text_id")
      .notNull()
      .references(() => legalTexts.id),
    emailHash: text("email_hash").notNull(),
    ipHash: text("ip_hash").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdOn: text("created_on").notNull(),
    expiresOn: text("expires_on").notNull(),
    confirmedOn: text("confirmed_on"),
    decidedBy: text("decided_by"),
    decidedOn: text("decided_on"),
    declineReason: text("decline_reason"),
    /** The person the accepted application made (or joined); no foreign key: the person's erasure
     *  deletes the application. */
    personId: integer("person_id"),
    /** Set by the accepting batch so its later statements find this application and no other. */
    acceptKey: text("accept_key"),
  },
  (t) => [
    uniqueIndex("membership_applications_token_unique").on(t.tokenHash),
    index("membership_applications_status_idx").on(t.status, t.id),
    index("membership_applications_email_idx").on(t.emailHash, t.createdOn),
    index("membership_applications_ip_idx").on(t.ipHash, t.createdOn),
    index("membership_applications_person_idx").on(t.personId),
    oneOf("membership_applications", "status", MEMBERSHIP_APPLICATION_STATUSES),
    oneOf("membership_applications", "salutation", SALUTATIONS, true),
    isDate("membership_applications", "date_of_birth"),
    rule("membership_applications_names_present", "length(trim(first_name)) > 0 AND length(trim(last_name)) > 0"),
    rule("membership_applications_dogs_json", "json_valid(dogs) AND json_type(dogs) = 'array'"),
    rule("membership_applications_mandate_whole", "(iban IS NULL) = (account_holder IS NULL)"),
  ],
);

/** Per-user settings such as the visible columns of each grid (key 'grid:people'). */
export const userPreferences = sqliteTable(
  "user_preferences",
  {
    userId: text("user_id").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
    updatedOn: text("updated_on").notNull(),
  },
  (t) => [uniqueIndex("user_preferences_user_key_unique").on(t.userId, t.key), rule("user_preferences_value_json", "json_valid(value)")],
);

/** What a calendar feed covers: one course's dates, or every date a trainer trains or co-trains. */
export const CALENDAR_FEED_KINDS = ["COURSE", "TRAINER"] as const;
export type CalendarFeedKind = (typeof CALENDAR_FEED_KINDS)[number];

/**
 * Kalender-Abos: the secret address of an ICS feed (GET /feeds/{token}.ics) per course or per
 * trainer. subjectId is a course id (COURSE) or a person id (TRAINER): no foreign key, as it points
 * into one of two tables (and a course restored from the Papierkorb gets its feed back). The token
 * itself is kept so the ADMIN can show the link again; the feed is looked up by its SHA-256, so
 * the database never compares the secret itself (app/models/calendar-feeds.server.ts).
 */
export const calendarFeeds = sqliteTable(
  "calendar_feeds",
  {
    id: id(),
    kind: text("kind", { enum: CALENDAR_FEED_KINDS }).notNull(),
    subjectId: integer("subject_id").notNull(),
    /**
     * SHA-256 (base64url) of the token, 256 random bits handed out once: what a feed request is
     * looked up by. The token itself is never stored (issue 29), so a copy of the database opens
     * no feed.
     */
    tokenHash: text("token_hash").notNull(),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("calendar_feeds_kind_subject_unique").on(t.kind, t.subjectId),
    uniqueIndex("calendar_feeds_token_hash_unique").on(t.tokenHash),
    oneOf("calendar_feeds", "kind", CALENDAR_FEED_KINDS),
    rule("calendar_feeds_token_shape", "length(token_hash) = 43"),
  ],
);

/** Why a mail was sent: a single mail with preview, a mailshot's run, the daily birthday mails,
 *  a Mahnlauf's reminder, a Lastschriftlauf's pre-notification (each per run and person). */
const MAIL_KINDS = ["SINGLE", "MAILSHOT", "BIRTHDAY", "REMINDER", "DEBIT_NOTICE"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
/**
 * CLAIMED: recorded before the SMTP server was asked (so a retry never sends it again); SENT: the
 * server accepted it; FAILED: the server (or the connection) refused it, nothing went out.
 */
const MAIL_STATUSES = ["CLAIMED", "SENT", "FAILED"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * The mail log: every mail Wuff sent or tried to send, listed under the person and the invoice.
 * `recipient` is where it went (outside production the SMTP test account), `intendedRecipient`
 * whom it was for. The ids of what a mail belongs to carry no foreign keys on purpose: the log
 * is history and outlives a person, invoice or fee moved into the Papierkorb (a key would block
 * that delete). One birthday mail per person and year, one mail per person and mailshot run and
 * one reminder mail per person and Mahnlauf (unique indexes): the claim that makes a second cron
 * run or a retried queue message send nothing twice.
 */
export const mailLog = sqliteTable(
  "mail_log",
  {
    id: id(),
    kind: text("kind", { enum: MAIL_KINDS }).notNull(),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("CLAIMED"),
    recipient: text("recipient").notNull(),
    intendedRecipient: text("intended_recipient").notNull(),
    cc: text("cc"),
    intendedCc: text("intended_cc"),
    subject: text("subject").notNull(),
    /** Names of the attached files, comma-separated. */
    attachments: text("attachments"),
    /** When the SMTP server accepted it (or refused it). */
    sentOn: text("sent_on"),
    sentBy: text("sent_by").notNull(),
    personId: integer("person_id"),
    invoiceHeaderId: integer("invoice_header_id"),
    feeId: integer("fee_id"),
    mailshotId: integer("mailshot_id"),
    jobId: integer("job_id"),
    /** The year of a birthday mail (once per person and year). */
    birthdayYear: integer("birthday_year"),
    /** The SMTP server's answer, or the error. */
    smtpResponse: text("smtp_response"),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    index("mail_log_person_idx").on(t.personId, t.createdOn),
    index("mail_log_invoice_idx").on(t.invoiceHeaderId, t.createdOn),
    index("mail_log_created_idx").on(t.createdOn),
    uniqueIndex("mail_log_birthday_unique")
      .on(t.personId, t.birthdayYear)
      .where(sql`kind = 'BIRTHDAY'`),
    uniqueIndex("mail_log_mailshot_unique")
      .on(t.jobId, t.personId)
      .where(sql`kind = 'MAILSHOT'`),
    uniqueIndex("mail_log_reminder_unique")
      .on(t.jobId, t.personId)
      .where(sql`kind = 'REMINDER'`),
    uniqueIndex("mail_log_debit_notice_unique")
      .on(t.jobId, t.personId)
      .where(sql`kind = 'DEBIT_NOTICE'`),
    oneOf("mail_log", "kind", MAIL_KINDS),
    oneOf("mail_log", "status", MAIL_STATUSES),
    rule("mail_log_birthday_has_year", "kind <> 'BIRTHDAY' OR (birthday_year IS NOT NULL AND person_id IS NOT NULL)"),
    rule("mail_log_mailshot_has_run", "kind <> 'MAILSHOT' OR (job_id IS NOT NULL AND person_id IS NOT NULL)"),
    rule("mail_log_reminder_has_run", "kind <> 'REMINDER' OR (job_id IS NOT NULL AND person_id IS NOT NULL)"),
    rule("mail_log_debit_notice_has_run", "kind <> 'DEBIT_NOTICE' OR (job_id IS NOT NULL AND person_id IS NOT NULL)"),
  ],
);

// ---------------------------------------------------------------------------------------------
// Mahnwesen (issue 17): the reminder levels of Einstellungen and every reminder written.

/**
 * The reminder levels (1 Zahlungserinnerung, 2 1. Mahnung, 3 2. Mahnung), always the three rows
 * seeded by the migration; an ADMIN edits them in Einstellungen. `days`: the level becomes due that
 * many days after the item's due date (level 1) or after the previous reminder's new due date
 * (levels 2, 3), each moved to a working day first (app/lib/reminder-dates.ts).
 */
export const reminderLevels = sqliteTable(
  "reminder_levels",
  {
    level: integer("level").primaryKey(),
    enabled: flag("enabled"),
    /** The level's title on the letter and in the grids ('1. Mahnung'). */
    title: text("title").notNull(),
    days: integer("days").notNull(),
    /** What a reminder of this level costs the debtor by letter, and by mail (issue 31: the actual
     *  costs, postage and material; a flat sum above them is not enforceable against consumers,
     *  § 309 Nr. 5 BGB, and the reminder that puts the debtor in default costs nothing, § 286 BGB). */
    fee: cents("fee"),
    mailFee: cents("mail_fee"),
    /** The new payment term in days from the reminder's date. */
    paymentTermDays: integer("payment_term_days").notNull(),
    /** Names of the templates (Vorlagen): the mail (kind MAIL) and the letter (kind INVOICE). */
    mailTemplate: text("mail_template").notNull(),
    letterTemplate: text("letter_template").notNull(),
    ...auditColumns(),
  },
  () => [
    rule("reminder_levels_level_range", "level BETWEEN 1 AND 3"),
    rule("reminder_levels_days_range", "days BETWEEN 1 AND 365"),
    rule("reminder_levels_term_range", "payment_term_days BETWEEN 1 AND 365"),
    rule("reminder_levels_title_length", "length(trim(title)) BETWEEN 1 AND 50"),
    isMoney("reminder_levels", "fee"),
    isMoney("reminder_levels", "mail_fee"),
  ],
);

const REMINDER_TARGET_TYPES = ["INVOICE", "FEE"] as const;
export type ReminderTargetType = (typeof REMINDER_TARGET_TYPES)[number];
const REMINDER_STATUSES = ["PENDING", "SENT", "CANCELLED"] as const;
const REMINDER_CHANNELS = ["MAIL", "PRINT"] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

/**
 * A reminder (Zahlungserinnerung/Mahnung) of an overdue invoice or direct-billing fee. The partial
 * unique index is the claim: each item reaches each level at most once (a retried queue message or
 * a second run on the same day reminds nobody twice); a cancelled reminder frees its level. The
 * target has no foreign key on purpose (history, as the mail log).
 */
export const reminders = sqliteTable(
  "reminders",
  {
    id: id(),
    targetType: text("target_type", { enum: REMINDER_TARGET_TYPES }).notNull(),
    targetId: integer("target_id").notNull(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    level: integer("level").notNull(),
    date: text("date").notNull(),
    /** The item's due date the reminder was written for (level 1) and the new one it names. */
    newDueDate: text("new_due_date").notNull(),
    /** What was open on the item when it was reminded (cents). */
    openAmount: cents("open_amount"),
    /** The reminder fee (kind REMINDER), NULL when the level's fee is 0. */
    feeId: integer("fee_id").references(() => fees.id),
    channel: text("channel", { enum: REMINDER_CHANNELS }),
    status: text("status", { enum: REMINDER_STATUSES }).notNull().default("PENDING"),
    jobId: integer("job_id").references((): AnySQLiteColumn => jobs.id),
    sentOn: text("sent_on"),
    sentBy: text("sent_by"),
    cancelledOn: text("cancelled_on"),
    cancelledBy: text("cancelled_by"),
    mailLogId: integer("mail_log_id"),
    /** R2 key of the reminder's letter (PDF). */
    pdfKey: text("pdf_key"),
    /** Default interest this reminder charges (cents, part of its fee `fee_id`; 0 without), for the
     *  days from `interest_from` to `interest_to` (inclusive), and how it was computed (JSON of
     *  app/lib/default-interest.ts: principal, days and rate of each stretch). */
    interest: cents("interest"),
    interestFrom: text("interest_from"),
    interestTo: text("interest_to"),
    interestBasis: text("interest_basis"),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("reminders_target_level_unique")
      .on(t.targetType, t.targetId, t.level)
      .where(sql`status <> 'CANCELLED'`),
    index("reminders_target_idx").on(t.targetType, t.targetId, t.status),
    index("reminders_person_idx").on(t.personId, t.date),
    index("reminders_job_idx").on(t.jobId),
    oneOf("reminders", "target_type", REMINDER_TARGET_TYPES),
    oneOf("reminders", "status", REMINDER_STATUSES),
    oneOf("reminders", "channel", REMINDER_CHANNELS, true),
    rule("reminders_level_range", "level BETWEEN 1 AND 3"),
    isDate("reminders", "date"),
    isDate("reminders", "new_due_date"),
    isMoney("reminders", "open_amount"),
    isMoney("reminders", "interest"),
    isDate("reminders", "interest_from"),
    isDate("reminders", "interest_to"),
  ],
);

/**
 * The base rate (Basiszinssatz, § 247 BGB) of each half-year, as the Deutsche Bundesbank announces
 * it: valid from 1 January or 1 July until the next entry. In hundredths of a percent (1,27 % is
 * 127; it may be negative). Default interest needs the rate of every half-year it spans.
 */
export const baseRates = sqliteTable(
  "base_rates",
  {
    id: id(),
    validFrom: text("valid_from").notNull(),
    rate: integer("rate").notNull(),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("base_rates_valid_from_unique").on(t.validFrom),
    isDate("base_rates", "valid_from"),
    rule("base_rates_half_year", "substr(valid_from, 6, 5) IN ('01-01', '07-01')"),
    rule("base_rates_rate_range", "rate BETWEEN -2000 AND 2000"),
  ],
);

// ---------------------------------------------------------------------------------------------
// Bank statements (Kontoauszug-Import): an uploaded CAMT.053 or MT940 file and its bookings,
// each with the proposal the matching made and, once confirmed, what it booked.

const BANK_STATEMENT_FORMATS = ["CAMT053", "MT940"] as const;
const BANK_ENTRY_PROPOSALS = ["MATCHED", "AMBIGUOUS", "UNMATCHED", "RETURN", "IGNORED"] as const;
const BANK_ENTRY_STATUSES = ["OPEN", "BOOKED"] as const;
/** DEBIT_RUN: the credit of a Lastschriftlauf's submitted debits (the run, a PmtInf block of it, or one transaction). */
const BANK_TARGET_TYPES = ["INVOICE", "FEE", "DEBIT_RUN"] as const;

export const bankStatementImports = sqliteTable(
  "bank_statement_imports",
  {
    id: id(),
    fileName: text("file_name").notNull(),
    format: text("format", { enum: BANK_STATEMENT_FORMATS }).notNull(),
    accountIban: text("account_iban"),
    statementId: text("statement_id"),
    /** Bookings in the file, and of them those an earlier import already had ('bereits importiert'). */
    entryCount: integer("entry_count").notNull().default(0),
    duplicateCount: integer("duplicate_count").notNull().default(0),
    importedBy: text("imported_by").notNull(),
    importedOn: text("imported_on").notNull(),
    lastBookedBy: text("last_booked_by"),
    lastBookedOn: text("last_booked_on"),
  },
  (t) => [index("bank_statement_imports_imported_on_idx").on(t.importedOn), oneOf("bank_statement_imports", "format", BANK_STATEMENT_FORMATS)],
);

/**
 * The IBANs of erased people (GDPR Art. 17), only as SHA-256 hashes of the normalised IBAN, with no
 * person: a bank statement entry imported later from such an IBAN is stored without the payer's
 * name and IBAN and is never linked to anyone (docs/gdpr.md).
 */
export const erasedIbans = sqliteTable("erased_ibans", {
  ibanHash: text("iban_hash").primaryKey(),
  erasedOn: text("erased_on").notNull(),
});

export const bankStatementEntries = sqliteTable(
  "bank_statement_entries",
  {
    id: id(),
    importId: integer("import_id")
      .notNull()
      .references(() => bankStatementImports.id, { onDelete: "cascade" }),
    /** The booking's stable key (the bank's reference, else a hash): one row per booking, ever. */
    entryKey: text("entry_key").notNull(),
    position: integer("position").notNull(),
    direction: text("direction", { enum: ["CRDT", "DBIT"] }).notNull(),
    amount: cents("amount"),
    bookingDate: text("booking_date"),
    valueDate: text("value_date"),
    bankReference: text("bank_reference"),
    endToEndId: text("end_to_end_id"),
    mandateId: text("mandate_id"),
    /** The batch a collective booking names (CAMT Btch/PmtInfId or MsgId, MT940 KREF+). */
    batchReference: text("batch_reference"),
    counterpartyName: text("counterparty_name"),
    counterpartyIban: text("counterparty_iban"),
    remittance: text("remittance").notNull().default(""),
    isReturn: flag("is_return"),
    returnReason: text("return_reason"),
    proposal: text("proposal", { enum: BANK_ENTRY_PROPOSALS }).notNull(),
    targetType: text("target_type", { enum: BANK_TARGET_TYPES }),
    targetId: integer("target_id"),
    /** JSON list of the candidates ({type, id}) of an ambiguous booking. */
    candidates: text("candidates"),
    note: text("note"),
    status: text("status", { enum: BANK_ENTRY_STATUSES }).notNull().default("OPEN"),
    /** What the booking changed: cents taken off (a payment) or put back (a return). */
    applied: integer("applied"),
    bookedBy: text("booked_by"),
    bookedOn: text("booked_on"),
  },
  (t) => [
    uniqueIndex("bank_statement_entries_entry_key_unique").on(t.entryKey),
    index("bank_statement_entries_import_idx").on(t.importId, t.position),
    oneOf("bank_statement_entries", "proposal", BANK_ENTRY_PROPOSALS),
    oneOf("bank_statement_entries", "status", BANK_ENTRY_STATUSES),
    oneOf("bank_statement_entries", "target_type", BANK_TARGET_TYPES, true),
    isMoney("bank_statement_entries", "amount"),
  ],
);

// ---------------------------------------------------------------------------------------------
// Änderungsverlauf: one row per insert, update, delete, restore or erasure of a record, written
// in the same batch as the change. `changes` is a JSON object {column: [before, after]} of the
// columns that changed (an insert has only "after" values, a delete only "before" values). No
// foreign keys: the history outlives records moved into the Papierkorb; erasing a person (GDPR
// Art. 17) deletes the history of their records with them.

const HISTORY_ACTIONS = ["INSERT", "UPDATE", "DELETE", "RESTORE"] as const;

export const changeHistory = sqliteTable(
  "change_history",
  {
    id: id(),
    /** The SQL table name of the changed record ('people', 'dogs', ...). */
    tableName: text("table_name").notNull(),
    recordId: integer("record_id").notNull(),
    action: text("action", { enum: HISTORY_ACTIONS }).notNull(),
    changedBy: text("changed_by").notNull(),
    changedOn: text("changed_on").notNull(),
    changes: text("changes"),
    /** How the change was made ('Personendialog', 'Massenlauf', 'Seed/Import', ...). */
    source: text("source"),
  },
  (t) => [
    index("change_history_record_idx").on(t.tableName, t.recordId, t.id),
    // The home page's 'Änderungen aus dem Portal' reads the portal's changes only, newest first.
    index("change_history_portal_idx")
      .on(t.changedOn)
      .where(sql.raw(`source = '${PORTAL_SOURCE}'`)),
    oneOf("change_history", "action", HISTORY_ACTIONS),
  ],
);

// ---------------------------------------------------------------------------------------------
// Lastschriftläufe (issue 15 item 3): a SEPA direct-debit run collects the open fees billed
// directly (sendInvoice off) of people with an active mandate. The run is a bulk job (its id is
// the job's id); each item is one fee in one transaction (end-to-end id, shared by the fees of a
// person due on the same day). The mandate's data is copied into the item, so the run's pain.008
// file says what was collected even after the mandate changes. A fee is in at most one item that
// is not cancelled (partial unique index): nothing is collected twice.

const DIRECT_DEBIT_STATUSES = ["PREPARED", "SUBMITTED", "CANCELLED"] as const;
export type DirectDebitStatus = (typeof DIRECT_DEBIT_STATUSES)[number];
const SEQUENCE_TYPES = ["FRST", "RCUR"] as const;

export const directDebitRuns = sqliteTable(
  "direct_debit_runs",
  {
    /** The id of the run's job (jobs.id). */
    id: integer("id")
      .primaryKey()
      .references(() => jobs.id),
    status: text("status", { enum: DIRECT_DEBIT_STATUSES }).notNull().default("PREPARED"),
    /** The pain.008 file in R2 (INVOICES bucket), once the run has finished. */
    fileKey: text("file_key"),
    messageId: text("message_id").notNull(),
    transactions: integer("transactions").notNull().default(0),
    fees: integer("fees").notNull().default(0),
    total: cents("total"),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
    submittedBy: text("submitted_by"),
    submittedOn: text("submitted_on"),
    cancelledBy: text("cancelled_by"),
    cancelledOn: text("cancelled_on"),
  },
  () => [oneOf("direct_debit_runs", "status", DIRECT_DEBIT_STATUSES), rule("direct_debit_runs_total_positive", "total >= 0")],
);

export const directDebitItems = sqliteTable(
  "direct_debit_items",
  {
    id: id(),
    runId: integer("run_id")
      .notNull()
      .references(() => directDebitRuns.id),
    feeId: integer("fee_id")
      .notNull()
      .references(() => fees.id, { onDelete: "cascade" }),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    mandateId: integer("mandate_id").notNull(),
    mandateReference: text("mandate_reference").notNull(),
    mandateDate: text("mandate_date").notNull(),
    accountHolder: text("account_holder").notNull(),
    iban: text("iban").notNull(),
    bic: text("bic"),
    /** The IBAN the bank last collected from under this mandate, when the mandate's IBAN changed
     *  since: the transaction carries it as a mandate amendment (pain.008 AmdmntInfDtls). */
    originalIban: text("original_iban"),
    /** The transaction's end-to-end id (also the fee's paymentReference while collected). */
    endToEndId: text("end_to_end_id").notNull(),
    sequenceType: text("sequence_type", { enum: SEQUENCE_TYPES }).notNull(),
    /** The fee's due date (its date when it has none): the transaction's grouping. */
    dueDate: text("due_date").notNull(),
    /** RequestedCollectionDate: the due date, at the earliest the first TARGET2 day after the run's day. */
    collectionDate: text("collection_date").notNull(),
    /** Cents collected: the fee's open amount when the run took it. */
    amount: cents("amount"),
    /** What the fee had before, put back by a cancelled run. */
    previousPaymentReference: text("previous_payment_reference"),
    previousPaymentComments: text("previous_payment_comments"),
    cancelledOn: text("cancelled_on"),
  },
  (t) => [
    index("direct_debit_items_run_idx").on(t.runId, t.personId),
    index("direct_debit_items_end_to_end_idx").on(t.endToEndId),
    // A mandate's last use (its validity: 36 months unused) without reading every item.
    index("direct_debit_items_mandate_idx").on(t.mandateId, t.collectionDate),
    // Nothing collected twice: a fee is in one item at most that is not cancelled.
    uniqueIndex("direct_debit_items_fee_once")
      .on(t.feeId)
      .where(sql`cancelled_on IS NULL`),
    oneOf("direct_debit_items", "sequence_type", SEQUENCE_TYPES),
    isDate("direct_debit_items", "due_date"),
    isDate("direct_debit_items", "collection_date"),
    rule("direct_debit_items_amount_positive", "amount > 0"),
    rule("direct_debit_items_end_to_end_sepa", "length(end_to_end_id) BETWEEN 1 AND 35"),
  ],
);

const NOTICE_CHANNELS = ["MAIL", "PRINT"] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

/**
 * The pre-notification (Vorabankündigung, SEPA Core rulebook) of a person's collections in a
 * Lastschriftlauf: once per run and person, before the run's file is written. MAIL: the mail went
 * to the SMTP server (mail log kind DEBIT_NOTICE); PRINT: a letter in the run's print PDF, for a
 * person without e-mail or whose mail failed (`mailProblem` says why). What it announced is the
 * run's items of the person (amounts, collection dates, mandate): records that never change.
 */
export const directDebitNotices = sqliteTable(
  "direct_debit_notices",
  {
    id: id(),
    runId: integer("run_id")
      .notNull()
      .references(() => directDebitRuns.id),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: NOTICE_CHANNELS }).notNull(),
    mailProblem: text("mail_problem"),
    createdOn: text("created_on").notNull(),
  },
  (t) => [uniqueIndex("direct_debit_notices_once").on(t.runId, t.personId), oneOf("direct_debit_notices", "channel", NOTICE_CHANNELS)],
);

// ---------------------------------------------------------------------------------------------
// Zahlungsjournal (issue 30 item 4, § 146 Abs. 1 and 4 AO, GoBD): every payment that comes in or
// goes out is one entry that is never changed or deleted (app/db/frozen.ts); a wrong one is undone
// by a counter-entry that names it. What an entry paid is its allocations (Zuordnungen) to
// invoices and fees; the open amount of an invoice or fee goes down by each allocation (a trigger
// of app/db/frozen.ts, so nothing else can lower it), and what an entry did not allocate is the
// payer's credit (Guthaben). A Stornorechnung or Gutschrift books as an entry 'Verrechnung'.

const PAYMENT_METHODS = ["TRANSFER", "DIRECT_DEBIT", "MOLLIE", "CASH", "OFFSET"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** Where an entry came from: a bank statement entry, a direct-debit item, a Mollie payment, a cash
 *  receipt or a hand booking, a correction document (Storno, Gutschrift), a counter-entry, or the
 *  amounts paid before the journal existed (migration 0033). */
const PAYMENT_SOURCES = ["BANK_ENTRY", "DIRECT_DEBIT", "MOLLIE", "CASH_RECEIPT", "MANUAL", "CORRECTION", "REVERSAL", "MIGRATION"] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

export const payments = sqliteTable(
  "payments",
  {
    id: id(),
    /** The entry's idempotency key ('bank:17', 'mollie:tr_x', 'debit:5', 'manual:<form id>'): a
     *  retried webhook, import or form books nothing twice. */
    entryKey: text("entry_key").notNull(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    date: text("date").notNull(),
    /** Cents: above zero money in, below zero money out (a refund, a returned debit). */
    amount: integer("amount").notNull(),
    method: text("method", { enum: PAYMENT_METHODS }).notNull(),
    source: text("source", { enum: PAYMENT_SOURCES }).notNull(),
    /** The source's own reference, as a person reads it: the bank's reference, the Mollie payment
     *  id, the end-to-end id, the receipt number, the correction's number. */
    sourceRef: text("source_ref"),
    /** A counter-entry names the entry it undoes; an entry is undone at most once. */
    reversesPaymentId: integer("reverses_payment_id").references((): AnySQLiteColumn => payments.id),
    text: text("text").notNull().default(""),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    uniqueIndex("payments_entry_key_unique").on(t.entryKey),
    index("payments_person_idx").on(t.personId, t.date),
    index("payments_date_idx").on(t.date),
    uniqueIndex("payments_reverses_unique")
      .on(t.reversesPaymentId)
      .where(sql`reverses_payment_id IS NOT NULL`),
    oneOf("payments", "method", PAYMENT_METHODS),
    oneOf("payments", "source", PAYMENT_SOURCES),
    isDate("payments", "date"),
    rule("payments_amount_not_zero", `amount <> 0 AND amount BETWEEN -${MAX_CENTS} AND ${MAX_CENTS}`),
    rule("payments_reversal_source", "(source = 'REVERSAL') = (reverses_payment_id IS NOT NULL)"),
  ],
);

export const paymentAllocations = sqliteTable(
  "payment_allocations",
  {
    id: id(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    invoiceId: integer("invoice_id").references(() => invoiceHeaders.id),
    feeId: integer("fee_id").references(() => fees.id),
    /** Cents the entry pays on the invoice or fee; below zero in a counter-entry. */
    amount: integer("amount").notNull(),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    index("payment_allocations_payment_idx").on(t.paymentId),
    index("payment_allocations_invoice_idx")
      .on(t.invoiceId)
      .where(sql`invoice_id IS NOT NULL`),
    index("payment_allocations_fee_idx")
      .on(t.feeId)
      .where(sql`fee_id IS NOT NULL`),
    rule("payment_allocations_one_target", "(invoice_id IS NULL) <> (fee_id IS NULL)"),
    rule("payment_allocations_amount_not_zero", `amount <> 0 AND amount BETWEEN -${MAX_CENTS} AND ${MAX_CENTS}`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Kassenbuch (issue 35 item 2; § 146 Abs. 1 AO, GoBD Rz. 48 ff.): every cash movement of a Kasse,
// one ordered sequence per Kasse, each entry with its receipt number (Belegnummer 'K-2026-0001',
// consecutive per calendar year), never changed or deleted, never below zero (app/db/cash-book.ts).

/** A Kasse. One today (id 1, from migration 0067_cash_book), which takes the journal's cash. */
export const cashBoxes = sqliteTable("cash_boxes", {
  id: id(),
  name: text("name").notNull(),
  createdBy: text("created_by").notNull().default("system"),
  createdOn: text("created_on")
    .notNull()
    .default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
});

/** What an entry of the Kasse is: a cash payment of the journal (in or out, with its person), or
 *  one without a person: Anfangsbestand, Einlage, Bankeinzahlung (Geldtransit), Ausgabe, Entnahme. */
const CASH_ENTRY_KINDS = ["PAYMENT", "OPENING", "DEPOSIT", "BANK_DEPOSIT", "EXPENSE", "WITHDRAWAL"] as const;
export type CashEntryKind = (typeof CASH_ENTRY_KINDS)[number];

/**
 * An entry of the Kassenbuch. `balance` is the Kassenbestand after it, `seq` its number in its
 * Kasse and calendar year (the receipt number is derived from both). The insert computes both from
 * the Kasse's last entry, and a trigger (app/db/cash-book.ts) refuses an entry whose figures do not
 * follow from it, that is dated before it, or that would take the balance below zero. A journal
 * cash payment's entry is written by a trigger on payments, in the payment's own statement.
 * A counter-entry names the entry it reverses (at most once) and has the negated amount.
 */
export const cashEntries = sqliteTable(
  "cash_entries",
  {
    id: id(),
    cashBoxId: integer("cash_box_id")
      .notNull()
      .references(() => cashBoxes.id),
    /** An entry booked by hand: the form's id ('form:{id}'), so a form sent twice books once. */
    entryKey: text("entry_key"),
    seq: integer("seq").notNull(),
    /** 'K-2026-0001'': the Belegnummer, consecutive per Kasse and calendar year. */
    receiptNumber: text("receipt_number").generatedAlwaysAs(sql.raw("printf('K-%s-%04d', substr(date, 1, 4), seq)"), { mode: "virtual" }),
    date: text("date").notNull(),
    kind: text("kind", { enum: CASH_ENTRY_KINDS }).notNull(),
    /** Cents: above zero cash in, below zero cash out. */
    amount: integer("amount").notNull(),
    /** The Kassenbestand after this entry (never below zero). */
    balance: integer("balance").notNull(),
    text: text("text").notNull().default(""),
    /** The journal's cash payment (set NULL only by the GDPR erasure of what has outlived its retention). */
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "set null" }),
    reversesEntryId: integer("reverses_entry_id").references((): AnySQLiteColumn => cashEntries.id),
    /** The account (Sachkonto) and sphere of an Ausgabe (issue 35); NULL: Buchhaltung's account for
     *  cash expenses. The money side is the Kasse's account, the other side of a Bankeinzahlung the
     *  bank's, of an Einlage or Entnahme the Geldtransit's. */
    account: text("account"),
    sphere: text("sphere", { enum: SPHERES }),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    uniqueIndex("cash_entries_number_unique").on(t.cashBoxId, t.receiptNumber),
    index("cash_entries_box_date_idx").on(t.cashBoxId, t.date, t.seq),
    uniqueIndex("cash_entries_entry_key_unique")
      .on(t.entryKey)
      .where(sql`entry_key IS NOT NULL`),
    uniqueIndex("cash_entries_payment_unique")
      .on(t.paymentId)
      .where(sql`payment_id IS NOT NULL`),
    uniqueIndex("cash_entries_reverses_unique")
      .on(t.reversesEntryId)
      .where(sql`reverses_entry_id IS NOT NULL`),
    oneOf("cash_entries", "kind", CASH_ENTRY_KINDS),
    isDate("cash_entries", "date"),
    rule("cash_entries_amount_not_zero", `amount <> 0 AND amount BETWEEN -${MAX_CENTS} AND ${MAX_CENTS}`),
    rule("cash_entries_balance_not_negative", `balance BETWEEN 0 AND ${MAX_CENTS}`),
    rule("cash_entries_seq_positive", "seq > 0"),
    rule(
      "cash_entries_direction",
      "reverses_entry_id IS NOT NULL OR kind = 'PAYMENT' OR (kind IN ('OPENING', 'DEPOSIT') AND amount > 0) OR (kind IN ('BANK_DEPOSIT', 'EXPENSE', 'WITHDRAWAL') AND amount < 0)",
    ),
  ],
);

/**
 * Who is writing right now: one row (id 1) that the D1 wrapper (app/db/client.server.ts) sets as
 * the first statement of every write batch and deletes as the last, so the history triggers
 * (app/db/history.ts) read the actor, the action (RESTORE: re-inserted from the Papierkorb; ERASE:
 * no history) and the source of exactly this batch. Empty between batches.
 */
export const writeContext = sqliteTable(
  "write_context",
  {
    id: integer("id").primaryKey(),
    actor: text("actor").notNull(),
    action: text("action"),
    source: text("source"),
  },
  () => [rule("write_context_single_row", "id = 1")],
);

// ---------------------------------------------------------------------------------------------
// 10er-Karten and subscriptions (issue 34)

const CARD_KINDS = ["CARD", "SUBSCRIPTION"] as const;
const SUBSCRIPTION_PERIODS = ["MONTHLY", "QUARTERLY"] as const;

/**
 * A card or subscription product (Einstellungen → Karten & Abos): a Karte of `units` valid for
 * `valid_months` after purchase, or an Abo billed per `period` with a minimum term and a notice
 * period (§ 309 Nr. 9 BGB for consumers: at most 24 months first, then at most one month's notice).
 * Prices per tier as courses have them; `units_per_attendance` is what one attendance takes (a
 * double lesson 2). Where it is valid: its scopes. `is_offered`: still sold.
 */
export const cardProducts = sqliteTable(
  "card_products",
  {
    id: id(),
    name: text("name").notNull(),
    nameKey: nameKey("name_key", "name"),
    kind: text("kind", { enum: CARD_KINDS }).notNull(),
    units: integer("units"),
    validMonths: integer("valid_months"),
    period: text("period", { enum: SUBSCRIPTION_PERIODS }),
    minTermMonths: integer("min_term_months"),
    noticeMonths: integer("notice_months"),
    priceFull: cents("price_full"),
    priceReduced1: cents("price_reduced1"),
    priceReduced2: cents("price_reduced2"),
    taxCase: text("tax_case", { enum: TAX_CASES }).notNull().default("STANDARD"),
    unitsPerAttendance: integer("units_per_attendance").notNull().default(1),
    isOffered: integer("is_offered", { mode: "boolean" }).notNull().default(true),
    comments: text("comments"),
    ...bookingOverride(),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("card_products_name_unique").on(t.name),
    rule("card_products_name_present", "length(trim(name)) > 0"),
    oneOf("card_products", "kind", CARD_KINDS),
    oneOf("card_products", "period", SUBSCRIPTION_PERIODS, true),
    oneOf("card_products", "tax_case", TAX_CASES),
    rule(
      "card_products_card_terms",
      "kind <> 'CARD' OR (units BETWEEN 1 AND 100 AND valid_months BETWEEN 1 AND 60 AND period IS NULL AND min_term_months IS NULL AND notice_months IS NULL)",
    ),
    rule(
      "card_products_subscription_terms",
      "kind <> 'SUBSCRIPTION' OR (period IS NOT NULL AND min_term_months BETWEEN 0 AND 24 AND notice_months BETWEEN 0 AND 1 AND units IS NULL AND valid_months IS NULL)",
    ),
    rule("card_products_units_per_attendance", "units_per_attendance BETWEEN 1 AND 10"),
    isMoney("card_products", "price_full"),
    isMoney("card_products", "price_reduced1"),
    isMoney("card_products", "price_reduced2"),
  ],
);

/** Where a product is valid: a course type (each of its open groups) or one course. */
export const cardProductScopes = sqliteTable(
  "card_product_scopes",
  {
    id: id(),
    productId: integer("product_id")
      .notNull()
      .references(() => cardProducts.id),
    courseMasterId: integer("course_master_id").references(() => courseMasters.id),
    courseId: integer("course_id").references(() => courses.id),
  },
  (t) => [
    uniqueIndex("card_product_scopes_course_master_unique")
      .on(t.courseMasterId, t.productId)
      .where(sql`course_master_id IS NOT NULL`),
    uniqueIndex("card_product_scopes_course_unique")
      .on(t.courseId, t.productId)
      .where(sql`course_id IS NOT NULL`),
    index("card_product_scopes_product_idx").on(t.productId),
    rule("card_product_scopes_one_target", "(course_master_id IS NULL) <> (course_id IS NULL)"),
  ],
);

/**
 * A card or subscription sold to a person: the product's terms as sold (units, units per
 * attendance, validity; a subscription's period, minimum term and notice), its price, and for a
 * subscription the notice received and the end it sets. Its balance is derived from its uses.
 */
export const cards = sqliteTable(
  "cards",
  {
    id: id(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    productId: integer("product_id")
      .notNull()
      .references(() => cardProducts.id),
    kind: text("kind", { enum: CARD_KINDS }).notNull(),
    name: text("name").notNull(),
    units: integer("units"),
    unitsPerAttendance: integer("units_per_attendance").notNull().default(1),
    price: cents("price"),
    validFrom: text("valid_from").notNull(),
    /** A card's last day; a subscription's end once notice is given (NULL while it runs on). */
    validUntil: text("valid_until"),
    period: text("period", { enum: SUBSCRIPTION_PERIODS }),
    minTermMonths: integer("min_term_months"),
    noticeMonths: integer("notice_months"),
    noticeReceivedOn: text("notice_received_on"),
    /** When the mail 'only one attendance left' went out (once per card). */
    lowBalanceMailedOn: text("low_balance_mailed_on"),
    /** When the mail 'your card expires in 14 days' went out (once per card). */
    expiryMailedOn: text("expiry_mailed_on"),
    ...auditColumns(),
  },
  (t) => [
    index("cards_person_idx").on(t.personId, t.validUntil),
    index("cards_product_idx").on(t.productId),
    oneOf("cards", "kind", CARD_KINDS),
    oneOf("cards", "period", SUBSCRIPTION_PERIODS, true),
    rule("cards_card_terms", "kind <> 'CARD' OR (units BETWEEN 1 AND 100 AND valid_until IS NOT NULL AND period IS NULL)"),
    rule("cards_subscription_terms", "kind <> 'SUBSCRIPTION' OR (units IS NULL AND period IS NOT NULL)"),
    rule("cards_valid_order", "valid_until IS NULL OR valid_until >= valid_from"),
    rule("cards_units_per_attendance", "units_per_attendance BETWEEN 1 AND 10"),
    isMoney("cards", "price"),
  ],
);

/** The fees of a card: its sale (`period_start` NULL) and a subscription's fee per period; one each. */
export const cardFees = sqliteTable(
  "card_fees",
  {
    id: id(),
    cardId: integer("card_id")
      .notNull()
      .references(() => cards.id),
    feeId: integer("fee_id")
      .notNull()
      .references(() => fees.id),
    periodStart: text("period_start"),
    jobId: integer("job_id").references((): AnySQLiteColumn => jobs.id),
    createdOn: text("created_on")
      .notNull()
      .default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
  },
  (t) => [
    uniqueIndex("card_fees_fee_unique").on(t.feeId),
    uniqueIndex("card_fees_sale_unique")
      .on(t.cardId)
      .where(sql`period_start IS NULL`),
    uniqueIndex("card_fees_period_unique")
      .on(t.cardId, t.periodStart)
      .where(sql`period_start IS NOT NULL`),
  ],
);

/**
 * The refund of a card's unused units on request (issue 34 item 5): once per card, by a credit
 * note on the invoice of its sale (the journal books it). The units are gone from the card.
 */
export const cardRefunds = sqliteTable(
  "card_refunds",
  {
    id: id(),
    cardId: integer("card_id")
      .notNull()
      .references(() => cards.id),
    units: integer("units").notNull(),
    amount: cents("amount"),
    creditNoteId: integer("credit_note_id")
      .notNull()
      .references((): AnySQLiteColumn => invoiceHeaders.id),
    refundedOn: text("refunded_on").notNull(),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    uniqueIndex("card_refunds_card_unique").on(t.cardId),
    rule("card_refunds_units", "units BETWEEN 1 AND 100"),
    rule("card_refunds_amount", "amount > 0"),
  ],
);

/**
 * A card or subscription bought in Mein Wuff (issue 34 item 2): when, from which address, which
 * versions of the AGB, the Widerrufsbelehrung and the privacy notice were accepted (Art. 246a
 * EGBGB), and whether the buyer asked that the service may begin before the withdrawal period ends
 * (§ 356 Abs. 4, § 357a Abs. 2 BGB: only then is value owed for units used before a withdrawal).
 * Never changed once written, but for the withdrawal's receipt, once.
 */
export const cardPurchases = sqliteTable(
  "card_purchases",
  {
    id: id(),
    cardId: integer("card_id")
      .notNull()
      .references(() => cards.id),
    boughtOn: text("bought_on").notNull(),
    boughtFrom: text("bought_from").notNull(),
    termsTextId: integer("terms_text_id")
      .notNull()
      .references(() => legalTexts.id),
    withdrawalTextId: integer("withdrawal_text_id")
      .notNull()
      .references(() => legalTexts.id),
    privacyTextId: integer("privacy_text_id")
      .notNull()
      .references(() => legalTexts.id),
    earlyStart: flag("early_start"),
    /** The withdrawal in Mein Wuff (§ 355 BGB): when it was received and from where; written once. */
    withdrawnOn: text("withdrawn_on"),
    withdrawnFrom: text("withdrawn_from"),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [uniqueIndex("card_purchases_card_unique").on(t.cardId)],
);

const NOTICE_KINDS = ["ORDINARY", "EXTRAORDINARY"] as const;

/**
 * A notice given with the button 'Verträge hier kündigen' (§ 312k BGB), signed in or not: who,
 * the address for the confirmation, the contract (an Abo chosen, or described in words), ordinary
 * or for cause with the reason, and the end wished (NULL: the earliest possible, § 312k Abs. 5).
 * An ordinary notice of an Abo chosen while signed in is applied at once (APPLIED, with the end it
 * set); the others wait for staff on the screen 'Widerrufe', who apply it to an Abo or close it with
 * a note. Kept like the withdrawals (§ 195, § 199 BGB).
 */
export const noticeDeclarations = sqliteTable(
  "notice_declarations",
  {
    id: id(),
    receivedOn: text("received_on").notNull(),
    receivedFrom: text("received_from").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    contract: text("contract").notNull(),
    kind: text("kind", { enum: NOTICE_KINDS }).notNull(),
    reason: text("reason"),
    wantedEnd: text("wanted_end"),
    confirmationSentOn: text("confirmation_sent_on"),
    status: text("status", { enum: WITHDRAWAL_DECLARATION_STATUSES }).notNull().default("OPEN"),
    cardId: integer("card_id").references(() => cards.id),
    endOn: text("end_on"),
    settledOn: text("settled_on"),
    settledBy: text("settled_by"),
    settleNote: text("settle_note"),
    ...auditColumns(),
  },
  (t) => [
    index("notice_declarations_open_idx")
      .on(t.receivedOn)
      .where(sql`status = 'OPEN'`),
    index("notice_declarations_email_idx").on(t.email, t.receivedOn),
    index("notice_declarations_card_idx").on(t.cardId),
    oneOf("notice_declarations", "kind", NOTICE_KINDS),
    oneOf("notice_declarations", "status", WITHDRAWAL_DECLARATION_STATUSES),
    rule("notice_declarations_reason", "kind <> 'EXTRAORDINARY' OR length(trim(coalesce(reason, ''))) > 0"),
    rule("notice_declarations_applied_names_card", "status <> 'APPLIED' OR (card_id IS NOT NULL AND end_on IS NOT NULL)"),
    rule("notice_declarations_settled", "status = 'OPEN' OR (settled_on IS NOT NULL AND settled_by IS NOT NULL)"),
  ],
);

const ATTENDANCE_SETTLEMENT_KINDS = ["FEE", "WAIVED"] as const;

/**
 * How staff settled an attendance 'ohne Karte' other than by selling a card: a single visit
 * charged as a fee, or waived with a reason. Once per attendance; never changed.
 */
export const attendanceSettlements = sqliteTable(
  "attendance_settlements",
  {
    id: id(),
    attendanceId: integer("attendance_id")
      .notNull()
      .references(() => attendances.id),
    kind: text("kind", { enum: ATTENDANCE_SETTLEMENT_KINDS }).notNull(),
    feeId: integer("fee_id").references(() => fees.id),
    note: text("note"),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    uniqueIndex("attendance_settlements_attendance_unique").on(t.attendanceId),
    uniqueIndex("attendance_settlements_fee_unique")
      .on(t.feeId)
      .where(sql`fee_id IS NOT NULL`),
    oneOf("attendance_settlements", "kind", ATTENDANCE_SETTLEMENT_KINDS),
    rule("attendance_settlements_fee", "(kind = 'FEE') = (fee_id IS NOT NULL)"),
    rule("attendance_settlements_waiver_reason", "kind <> 'WAIVED' OR length(trim(coalesce(note, ''))) > 0"),
  ],
);

const CARD_USE_KINDS = ["USE", "RETURN"] as const;

/**
 * What an attendance took from a card (USE: the units, 0 under a subscription) and what un-ticking
 * gave back (RETURN, naming the use it reverses): never changed, so a card's balance is its units
 * minus its uses plus its returns.
 */
export const cardUses = sqliteTable(
  "card_uses",
  {
    id: id(),
    cardId: integer("card_id")
      .notNull()
      .references(() => cards.id),
    kind: text("kind", { enum: CARD_USE_KINDS }).notNull(),
    units: integer("units").notNull(),
    attendanceId: integer("attendance_id")
      .notNull()
      .references(() => attendances.id),
    /** The day of the course date attended (Berlin). */
    usedOn: text("used_on").notNull(),
    reversesId: integer("reverses_id").references((): AnySQLiteColumn => cardUses.id),
    ...auditColumns(),
  },
  (t) => [
    index("card_uses_card_idx").on(t.cardId),
    index("card_uses_attendance_idx").on(t.attendanceId),
    uniqueIndex("card_uses_reverses_unique")
      .on(t.reversesId)
      .where(sql`reverses_id IS NOT NULL`),
    oneOf("card_uses", "kind", CARD_USE_KINDS),
    rule("card_uses_units", "units BETWEEN 0 AND 10"),
    rule("card_uses_return_names_use", "(kind = 'RETURN') = (reverses_id IS NOT NULL)"),
  ],
);

/**
 * The accounts Wuff books to (issue 35 item 1), one per purpose (app/lib/ledger.ts PURPOSES):
 * preset from the chart of accounts chosen in Buchhaltung, each number, name and sphere editable.
 */
export const ledgerAccounts = sqliteTable(
  "ledger_accounts",
  {
    id: id(),
    purpose: text("purpose", { enum: PURPOSES }).notNull(),
    number: text("number").notNull(),
    name: text("name").notNull(),
    sphere: text("sphere", { enum: SPHERES }),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex("ledger_accounts_purpose_unique").on(t.purpose),
    oneOf("ledger_accounts", "purpose", PURPOSES),
    oneOf("ledger_accounts", "sphere", SPHERES, true),
    rule("ledger_accounts_number_digits", "number GLOB '[1-9]*' AND number NOT GLOB '*[^0-9]*' AND length(number) <= 9"),
    rule("ledger_accounts_name_length", "length(trim(name)) BETWEEN 1 AND 60"),
  ],
);

const DATEV_EXPORT_KINDS = ["BOOKINGS", "DEBTORS"] as const;

/**
 * Every DATEV file handed out (issue 35 item 3): what, for which period, when, by whom, and the
 * SHA-256 of its records. A second export of the same records is the same file (it takes the
 * first one's creation time); records changed since are a new export the screen points out.
 */
export const datevExports = sqliteTable(
  "datev_exports",
  {
    id: id(),
    kind: text("kind", { enum: DATEV_EXPORT_KINDS }).notNull(),
    dateFrom: text("date_from"),
    dateTo: text("date_to"),
    /** DATEV's 'Erzeugt am' (YYYYMMDDHHMMSSFFF, Berlin time). */
    createdAt: text("created_at").notNull(),
    recordsSha256: text("records_sha256").notNull(),
    records: integer("records").notNull(),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    index("datev_exports_period_idx").on(t.kind, t.dateFrom, t.dateTo),
    oneOf("datev_exports", "kind", DATEV_EXPORT_KINDS),
    isDate("datev_exports", "date_from"),
    isDate("datev_exports", "date_to"),
  ],
);

// ---------------------------------------------------------------------------------------------
// Spenden and Zuwendungsbestätigungen (issue 35 item 5; § 10b EStG, § 50 EStDV, § 63 Abs. 5 AO)

/**
 * A donation of money (Geldzuwendung) and its donor. It is booked as a fee of its own (kind
 * 'OTHER', not invoiced, on Buchhaltung's donations account) that its journal entry pays in the
 * same batch: the books, the Kasse and the reports take it like any paid fee, and the open amount
 * stays derived. A membership fee is never a donation (§ 10b Abs. 1 Satz 8 EStG): a trigger
 * refuses a donation whose fee is of another kind or is billed on an invoice. Never changed; a
 * wrong one is cancelled (its payment undone by a counter-entry) while no receipt names it.
 */
export const donations = sqliteTable(
  "donations",
  {
    id: id(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    /** Tag der Zuwendung: when the money came. */
    date: text("date").notNull(),
    amount: integer("amount").notNull(),
    feeId: integer("fee_id")
      .notNull()
      .references(() => fees.id),
    text: text("text").notNull().default(""),
    /** The Zuwendungsbestätigung that confirms it (at most one: single or Sammelbestätigung). */
    receiptId: integer("receipt_id").references((): AnySQLiteColumn => donationReceipts.id),
    cancelledBy: text("cancelled_by"),
    cancelledOn: text("cancelled_on"),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    uniqueIndex("donations_fee_unique").on(t.feeId),
    index("donations_person_idx").on(t.personId, t.date),
    index("donations_date_idx").on(t.date),
    index("donations_receipt_idx")
      .on(t.receiptId)
      .where(sql`receipt_id IS NOT NULL`),
    isDate("donations", "date"),
    rule("donations_amount_positive", `amount BETWEEN 1 AND ${MAX_CENTS}`),
    rule("donations_cancelled_or_receipted", "cancelled_on IS NULL OR receipt_id IS NULL"),
  ],
);

/**
 * A Zuwendungsbestätigung as issued: its number ('ZB-2026-0001', consecutive per year of issue),
 * the donor's name and address and the club's notice as they were (the Doppel the club keeps,
 * § 50 Abs. 7 EStDV), the total and the period; its PDF in R2 (stored once). Never changed.
 */
export const donationReceipts = sqliteTable(
  "donation_receipts",
  {
    id: id(),
    year: integer("year").notNull(),
    seq: integer("seq").notNull(),
    number: text("number").generatedAlwaysAs(sql.raw("printf('ZB-%d-%04d', year, seq)"), { mode: "virtual" }),
    kind: text("kind", { enum: DONATION_RECEIPT_KINDS }).notNull(),
    personId: integer("person_id")
      .notNull()
      .references(() => people.id),
    issuedOn: text("issued_on").notNull(),
    periodFrom: text("period_from").notNull(),
    periodTo: text("period_to").notNull(),
    amount: integer("amount").notNull(),
    donorName: text("donor_name").notNull(),
    donorAddress: text("donor_address").notNull(),
    /** The issuer as printed (JSON: club, address, notice, purposes, place): the PDF is the same whenever it is made. */
    issuer: text("issuer").notNull(),
    pdfKey: text("pdf_key"),
    pdfSha256: text("pdf_sha256"),
    createdBy: text("created_by").notNull(),
    createdOn: text("created_on").notNull(),
  },
  (t) => [
    uniqueIndex("donation_receipts_number_unique").on(t.year, t.seq),
    index("donation_receipts_person_idx").on(t.personId),
    oneOf("donation_receipts", "kind", DONATION_RECEIPT_KINDS),
    isDate("donation_receipts", "issued_on"),
    isDate("donation_receipts", "period_from"),
    isDate("donation_receipts", "period_to"),
    rule("donation_receipts_amount_positive", `amount BETWEEN 1 AND ${MAX_CENTS}`),
    rule("donation_receipts_seq_positive", "seq > 0"),
  ],
);
