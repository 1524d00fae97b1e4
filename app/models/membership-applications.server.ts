/**
 * Mitgliedsanträge (issue 32 item 6; app/lib/membership-applications.ts): made by the public form,
 * sent to the club by the link mailed to the applicant's address, accepted or declined by staff.
 * Accepting writes the person (or makes an existing one a member), the dogs, the membership, the
 * year's fees and the SEPA mandate in one batch that claims the application first: accepted twice
 * at once, the second claims nothing and writes nothing.
 */
import { and, asc, count, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { inValues } from "~/db/columns";
import { render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { memberTypes, membershipApplications, membershipStatuses, people, portalMandateRequests, sepaMandates } from "~/db/schema";
import { MANDATE_REFERENCE_PREFIX, mandateReference } from "~/lib/banking";
import { randomToken, sha256Base64Url } from "~/lib/bytes";
import { berlinDateOf, formatDateTime } from "~/lib/format";
import {
  APPLICATION_LINK_MINUTES,
  APPLICATIONS_PER_ADDRESS,
  APPLICATIONS_PER_IP,
  DECLINED_KEPT_DAYS,
  type ApplicationDog,
} from "~/lib/membership-applications";
import { minutesFrom, normalizeEmail } from "~/lib/portal";
import { annualFeePrices, annualFeeStatements } from "./annual-fees.server";
import type { Actor } from "./audit.server";
import { isTokenShaped } from "./portal-auth.server";
import { nextMandateNumber } from "./sepa-mandates.server";

export type ApplicationInput = {
  salutation: "Herr" | "Frau" | null;
  firstName: string;
  lastName: string;
  streetNumber: string;
  zip: string;
  city: string;
  email: string;
  phone: string | null;
  dateOfBirth: string;
  guardianName: string | null;
  memberTypeId: number;
  dogs: ApplicationDog[];
  mandate: { accountHolder: string; iban: string; bic: string | null } | null;
  message: string | null;
  statutesTextId: number;
  privacyTextId: number;
};

/** The member types the public form offers: all but the one for non-members (code NONE). */
export async function applicableMemberTypes(db: Db) {
  return db
    .select({ id: memberTypes.id, name: memberTypes.name, annualFeeTier: memberTypes.annualFeeTier })
    .from(memberTypes)
    .where(sql`${memberTypes.code} <> 'NONE'`)
    .orderBy(asc(memberTypes.id));
}

export type SubmitOutcome = { status: "limited" } | { status: "submitted"; token: string };

/** Stores an application awaiting its address's confirmation, unless the address or the network
 *  address made too many today. */
export async function submitApplication(db: Db, input: ApplicationInput, origin: { ip: string; now?: Date }): Promise<SubmitOutcome> {
  const now = origin.now ?? new Date();
  const email = normalizeEmail(input.email);
  const [emailHash, ipHash] = await Promise.all([sha256Base64Url(`email:${email}`), sha256Base64Url(`ip:${origin.ip}`)]);
  const since = minutesFrom(now, -24 * 60);
  const [{ perAddress, perIp }] = await db.all<{ perAddress: number; perIp: number }>(sql`SELECT
      (SELECT count(*) FROM ${membershipApplications} WHERE email_hash = ${emailHash} AND created_on > ${since}) AS perAddress,
      (SELECT count(*) FROM ${membershipApplications} WHERE ip_hash = ${ipHash} AND created_on > ${since}) AS perIp`);
  if (perAddress >= APPLICATIONS_PER_ADDRESS || perIp >= APPLICATIONS_PER_IP) return { status: "limited" };
  const token = randomToken();
  const { mandate, dogs, ...person } = input;
  await db.insert(membershipApplications).values({
    ...person,
    email,
    dogs: JSON.stringify(dogs),
    accountHolder: mandate?.accountHolder ?? null,
    iban: mandate?.iban ?? null,
    bic: mandate?.bic ?? null,
    emailHash,
    ipHash,
    tokenHash: await sha256Base64Url(token),
    createdOn: now.toISOString(),
    expiresOn: minutesFrom(now, APPLICATION_LINK_MINUTES),
  });
  return { status: "submitted", token };
}

/** Whether a confirmation link still works (unused, unexpired): what its page offers. */
export async function isConfirmableApplication(db: Db, token: string, now = new Date()): Promise<boolean> {
  if (!isTokenShaped(token)) return false;
  const [row] = await db
    .select({ id: membershipApplications.id })
    .from(membershipApplications)
    .where(
      and(
        eq(membershipApplications.tokenHash, await sha256Base64Url(token)),
        eq(membershipApplications.status, "UNCONFIRMED"),
        gt(membershipApplications.expiresOn, now.toISOString()),
      ),
    );
  return Boolean(row);
}

/** Confirms the address once: the application goes to the club. False when the link does not work. */
export async function confirmApplication(db: Db, token: string, now = new Date()): Promise<boolean> {
  if (!isTokenShaped(token)) return false;
  const iso = now.toISOString();
  const confirmed = await db
    .update(membershipApplications)
    .set({ status: "CONFIRMED", confirmedOn: iso })
    .where(
      and(
        eq(membershipApplications.tokenHash, await sha256Base64Url(token)),
        eq(membershipApplications.status, "UNCONFIRMED"),
        gt(membershipApplications.expiresOn, iso),
      ),
    )
    .returning({ id: membershipApplications.id });
  return confirmed.length === 1;
}

const applicationColumns = {
  id: membershipApplications.id,
  salutation: membershipApplications.salutation,
  firstName: membershipApplications.firstName,
  lastName: membershipApplications.lastName,
  streetNumber: membershipApplications.streetNumber,
  zip: membershipApplications.zip,
  city: membershipApplications.city,
  email: membershipApplications.email,
  phone: membershipApplications.phone,
  dateOfBirth: membershipApplications.dateOfBirth,
  guardianName: membershipApplications.guardianName,
  memberTypeId: membershipApplications.memberTypeId,
  dogs: membershipApplications.dogs,
  accountHolder: membershipApplications.accountHolder,
  iban: membershipApplications.iban,
  bic: membershipApplications.bic,
  message: membershipApplications.message,
  createdOn: membershipApplications.createdOn,
  confirmedOn: membershipApplications.confirmedOn,
  statutesVersion: sql<number>`(SELECT version FROM legal_texts WHERE id = ${membershipApplications.statutesTextId})`,
  privacyVersion: sql<number>`(SELECT version FROM legal_texts WHERE id = ${membershipApplications.privacyTextId})`,
};

export type OpenApplication = Omit<Awaited<ReturnType<typeof openApplicationRows>>[number], "dogs"> & {
  dogs: ApplicationDog[];
  /** People already in Wuff with the applicant's address (a course customer who now joins). */
  matches: { id: number; fullName: string; isMember: boolean }[];
};

const openApplicationRows = (db: Db) =>
  db.select(applicationColumns).from(membershipApplications).where(eq(membershipApplications.status, "CONFIRMED")).orderBy(asc(membershipApplications.id));

/** The applications waiting for the club's decision, the oldest first, each with the people
 *  who have its address already. */
export async function openApplications(db: Db): Promise<OpenApplication[]> {
  const rows = await openApplicationRows(db);
  const emails = [...new Set(rows.map((row) => row.email))];
  const known =
    emails.length === 0
      ? []
      : await db
          .select({ id: people.id, fullName: sql<string>`${people.fullName}`, isMember: people.isMember, email: sql<string>`lower(trim(${people.email}))` })
          .from(people)
          .where(and(inValues(sql`lower(trim(${people.email}))`, emails), isNull(people.erasedOn)))
          .orderBy(people.lastNameKey, people.firstNameKey, people.id);
  return rows.map((row) => ({
    ...row,
    dogs: JSON.parse(row.dogs) as ApplicationDog[],
    matches: known.filter((person) => person.email === row.email).map(({ email: _email, ...person }) => person),
  }));
}

export async function openApplicationCount(db: Db): Promise<number> {
  const [{ open }] = await db.select({ open: count() }).from(membershipApplications).where(eq(membershipApplications.status, "CONFIRMED"));
  return open;
}

export type Decision =
  | { status: "missing" }
  | { status: "already" }
  | { status: "refused"; message: string }
  | { status: "decided"; applicant: { email: string; firstName: string; lastName: string }; personId: number | null; mandateId: number | null };

async function applicationToDecide(db: Db, applicationId: number) {
  const [row] = await db
    .select({
      status: membershipApplications.status,
      email: membershipApplications.email,
      firstName: membershipApplications.firstName,
      lastName: membershipApplications.lastName,
      iban: membershipApplications.iban,
      createdOn: membershipApplications.createdOn,
      confirmedOn: membershipApplications.confirmedOn,
    })
    .from(membershipApplications)
    .where(and(eq(membershipApplications.id, applicationId), ne(membershipApplications.status, "UNCONFIRMED")));
  return row;
}

export type AcceptInput = {
  applicationId: number;
  memberSince: string;
  memberTypeId: number;
  membershipStatusId: number | null;
  /** An existing person (same address) who becomes the member, or null for a new person. */
  personId: number | null;
};

/**
 * Accepts a confirmed application: one batch claims it and makes (or updates) the person as a
 * member from `memberSince`, adds the dogs (for an existing person those not there by name),
 * gives the mandate (replacing an active one; dated the day the applicant confirmed by the link,
 * with its request row so its PDF is made like that of a mandate given in Mein Wuff), charges the
 * year's annual fee and the Aufnahmegebühr as the annual run would, and drops the IBAN from the
 * application (the mandate holds it now).
 */
export async function acceptApplication(db: Db, input: AcceptInput, actor: Actor, now = new Date()): Promise<Decision> {
  const application = await applicationToDecide(db, input.applicationId);
  if (!application) return { status: "missing" };
  if (application.status !== "CONFIRMED") return { status: "already" };
  const [type] = await db.select({ id: memberTypes.id }).from(memberTypes).where(eq(memberTypes.id, input.memberTypeId));
  if (!type) return { status: "refused", message: "Diese Mitgliedsart gibt es nicht." };
  if (input.membershipStatusId !== null) {
    const [status] = await db
      .select({ id: membershipStatuses.id })
      .from(membershipStatuses)
      .where(and(eq(membershipStatuses.id, input.membershipStatusId), eq(membershipStatuses.appliesTo, "PERSON")));
    // The person form's message (app/dialogs/person/dialog.server.ts): a hand-made id is no 500.
    if (!status) return { status: "refused", message: "Diesen Mitgliedsstatus gibt es für Personen nicht" };
  }
  if (input.personId !== null) {
    const [existing] = await db
      .select({ id: people.id })
      .from(people)
      .where(and(eq(people.id, input.personId), isNull(people.erasedOn), sql`lower(trim(${people.email})) = ${application.email}`));
    if (!existing) return { status: "refused", message: "Diese Person hat nicht die E-Mail-Adresse des Antrags." };
  }
  const prices = await annualFeePrices(db);
  const iso = now.toISOString();
  const key = randomToken();
  const app = sql`(SELECT * FROM ${membershipApplications} WHERE id = ${input.applicationId} AND accept_key = ${key})`;
  const claimed = sql`EXISTS (SELECT 1 FROM ${membershipApplications} WHERE id = ${input.applicationId} AND accept_key = ${key})`;
  const personOf = sql`(SELECT person_id FROM ${membershipApplications} WHERE id = ${input.applicationId} AND accept_key = ${key})`;
  const audit = sql`${actor.name}, ${iso}`;
  const statements: Statement[] = [
    render(sql`UPDATE ${membershipApplications} SET status = 'ACCEPTED', decided_by = ${actor.name}, decided_on = ${iso}, accept_key = ${key},
      person_id = ${input.personId} WHERE id = ${input.applicationId} AND status = 'CONFIRMED' RETURNING id`),
  ];
  if (input.personId === null) {
    statements.push(
      render(sql`INSERT INTO ${people} (salutation, first_name, last_name, street_number, zip, city, email, mobile_phone, date_of_birth,
          is_member, member_since, member_type_id, membership_status_id, comments, created_by, created_on)
        SELECT a.salutation, a.first_name, a.last_name, a.street_number, a.zip, a.city, a.email, a.phone, a.date_of_birth,
          1, ${input.memberSince}, ${input.memberTypeId}, ${input.membershipStatusId}, ${applicationComment(iso)} || coalesce(char(10) || 'Erziehungsberechtigt: ' || a.guardian_name, ''), ${audit}
        FROM ${app} a`),
      render(sql`UPDATE ${membershipApplications} SET person_id = last_insert_rowid() WHERE id = ${input.applicationId} AND accept_key = ${key}`),
    );
  } else {
    statements.push(
      render(sql`UPDATE ${people} SET (salutation, first_name, last_name, street_number, zip, city, mobile_phone, date_of_birth) =
          (SELECT coalesce(a.salutation, people.salutation), a.first_name, a.last_name, a.street_number, a.zip, a.city, coalesce(a.phone, people.mobile_phone), a.date_of_birth FROM ${app} a),
          is_member = 1, member_since = ${input.memberSince}, member_until = NULL, member_type_id = ${input.memberTypeId},
          membership_status_id = ${input.membershipStatusId}, last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
        WHERE id = ${input.personId} AND ${claimed}`),
    );
  }
  statements.push(
    render(sql`INSERT INTO dogs (owner_id, common_name, breed, gender, date_of_birth, chip_nr, created_by, created_on)
      SELECT a.person_id, json_extract(d.value, '$.commonName'), json_extract(d.value, '$.breed'), json_extract(d.value, '$.gender'),
        json_extract(d.value, '$.dateOfBirth'), json_extract(d.value, '$.chipNr'), ${audit}
      FROM ${app} a, json_each(a.dogs) d
      WHERE NOT EXISTS (SELECT 1 FROM dogs o WHERE o.owner_id = a.person_id AND o.archived = 0
        AND lower(trim(o.common_name)) = lower(trim(json_extract(d.value, '$.commonName'))))
      ORDER BY d.key`),
  );
  if (application.iban && application.confirmedOn) {
    const comment = `Online erteilt mit dem Mitgliedsantrag vom ${formatDateTime(application.createdOn)}, bestätigt am ${formatDateTime(application.confirmedOn)} über den Link an die E-Mail-Adresse des Antrags.`;
    // A new person's first mandate is number 1; an existing person's the next free number.
    const reference =
      input.personId === null
        ? sql`${`${MANDATE_REFERENCE_PREFIX}-`} || ${personOf} || '-1'`
        : sql`${mandateReference(input.personId, await nextMandateNumber(db, input.personId))}`;
    statements.push(
      render(sql`UPDATE ${sepaMandates} SET is_active = 0, last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
        WHERE person_id = ${personOf} AND is_active = 1`),
      render(sql`INSERT INTO ${sepaMandates} (person_id, account_holder, iban, bic, reference, mandate_date, is_active, comments, source, created_by, created_on)
        SELECT a.person_id, a.account_holder, a.iban, a.bic, ${reference}, ${berlinDateOf(application.confirmedOn)}, 1, ${comment}, 'PORTAL', ${audit}
        FROM ${app} a WHERE a.iban IS NOT NULL`),
      render(sql`INSERT INTO ${portalMandateRequests} (person_id, account_holder, iban, bic, token_hash, created_on, expires_on, confirmed_on, mandate_id)
        SELECT a.person_id, a.account_holder, a.iban, a.bic, a.token_hash, a.created_on, a.expires_on, a.confirmed_on, (SELECT id FROM ${sepaMandates} WHERE reference = ${reference})
        FROM ${app} a WHERE a.iban IS NOT NULL`),
    );
  }
  if (prices) {
    const year = Number(input.memberSince.slice(0, 4));
    statements.push(...annualFeeStatements(personOf, null, { year, date: berlinDateOf(now), ...prices }, actor, now));
  }
  statements.push(
    render(sql`UPDATE ${membershipApplications} SET account_holder = NULL, iban = NULL, bic = NULL WHERE id = ${input.applicationId} AND accept_key = ${key}`),
  );
  const [claim] = await runAtomically(db, statements);
  if (claim.results.length !== 1) return { status: "already" };
  const [decided] = await db
    .select({ personId: membershipApplications.personId })
    .from(membershipApplications)
    .where(eq(membershipApplications.id, input.applicationId));
  const [mandate] = application.iban
    ? await db
        .select({ id: sepaMandates.id })
        .from(sepaMandates)
        .where(and(eq(sepaMandates.personId, decided.personId!), eq(sepaMandates.isActive, true)))
    : [];
  return { status: "decided", applicant: application, personId: decided.personId, mandateId: mandate?.id ?? null };
}

const applicationComment = (iso: string) => `Mitgliedsantrag online gestellt, angenommen am ${formatDateTime(iso)}.`;

/** Declines a confirmed application (the reason, if any, goes to the applicant by mail). */
export async function declineApplication(db: Db, input: { applicationId: number; reason: string | null }, actor: Actor, now = new Date()): Promise<Decision> {
  const application = await applicationToDecide(db, input.applicationId);
  if (!application) return { status: "missing" };
  const declined = await db
    .update(membershipApplications)
    .set({ status: "DECLINED", decidedBy: actor.name, decidedOn: now.toISOString(), declineReason: input.reason, accountHolder: null, iban: null, bic: null })
    .where(and(eq(membershipApplications.id, input.applicationId), eq(membershipApplications.status, "CONFIRMED")))
    .returning({ id: membershipApplications.id });
  if (declined.length !== 1) return { status: "already" };
  return { status: "decided", applicant: application, personId: null, mandateId: null };
}

/** The daily cron's part: applications never confirmed once their link expired, and declined
 *  ones after DECLINED_KEPT_DAYS. */
export async function deleteExpiredApplications(db: Db, now: Date): Promise<void> {
  await runAtomically(db, [
    render(sql`DELETE FROM ${membershipApplications} WHERE status = 'UNCONFIRMED' AND expires_on < ${now.toISOString()}`),
    render(sql`DELETE FROM ${membershipApplications} WHERE status = 'DECLINED' AND decided_on < ${minutesFrom(now, -DECLINED_KEPT_DAYS * 24 * 60)}`),
  ]);
}
