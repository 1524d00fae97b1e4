/**
 * The participant dialogs: add and edit (Teilnehmer hinzufügen / bearbeiten), delete, and the
 * transfer into another course. Choices that depend on others (the person's dogs, the price of
 * the person's tier in the course, the copied proofs) are worked out on the server: a change of
 * course, person or dog posts the form as a draft and the dialog opens again with the new
 * choices, with JavaScript (in place, on change) and without it (the button Übernehmen).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { may } from "~/lib/access";
import { formatDate, formatMoney, formatMoneyInput, parseMoney, todayInBerlin } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { capacityWarning, overbooks } from "~/lib/capacity";
import { ATTENDANCE_WORDS } from "~/models/attendances.server";
import { dogOptions } from "~/models/certifications.server";
import {
  ALREADY_BOOKED,
  confirmedStatusId,
  courseCapacity,
  courseForBooking,
  deleteMembership,
  FINISHED_COURSE,
  getMembership,
  INVOICED_FEE_CHANGED,
  membershipDeletionContents,
  membershipStatusOptions,
  openCourseOptions,
  personForBooking,
  priceFor,
  proofWarnings,
  saveMembership,
  STATUS_CONFIRMED_NOT_FOUND,
  transferMembership,
  type MembershipRecord,
} from "~/models/course-memberships.server";
import { onlineBookingsOf } from "~/models/online-bookings.server";
import { moveOnWaitlist, waitlistOfCourseOf } from "~/models/waitlist.server";
import { onlineBookingText } from "~/lib/online-bookings";
import { getDog } from "~/models/dogs.server";
import type { Db } from "~/db/client.server";
import {
  auditText,
  conflictMessage,
  defineDialog,
  deleteOutcome,
  deletionDetails,
  postedId,
  refusedOn,
  type ConfirmData,
  type DialogViewContext,
} from "../define.server";
import { lookupOptions, personLookup, type LookupOption } from "../lookup.server";
import { membershipSchema, transferSchema, waitlistMoveSchema } from "./schema";
import { courseMembershipsGrid } from "~/grids/courseMemberships.grid";

/** The fields a draft carries (what the form holds, and for which course and person the amount was priced). */
const DRAFT_FIELDS = [
  "courseId",
  "personId",
  "dogId",
  "statusId",
  "amount",
  "isPaid",
  "comments",
  "personComments",
  "dogComments",
  "allDogs",
  "pricedFor",
] as const;
type Values = Partial<Record<(typeof DRAFT_FIELDS)[number], string>>;

const pricedFor = (courseId: unknown, personId: unknown) => (parseId(courseId) && parseId(personId) ? `${courseId}:${personId}` : "");

/** The price of a person in a course, for the form (empty when either is unknown or has no price). */
async function priceText(db: Db, courseId: number | null, personId: number | null) {
  if (!courseId || !personId) return null;
  const [course, person] = await Promise.all([courseForBooking(db, courseId), personForBooking(db, personId)]);
  if (!course || !person) return null;
  return formatMoneyInput(priceFor(course, person.tier));
}

/**
 * The form's values after a change of course, person or dog: the person's only dog is chosen,
 * a dog of another person is dropped (unless all dogs are shown), the amount is priced again
 * when course or person changed.
 */
async function settle(db: Db, values: Values): Promise<Values> {
  const next = { ...values };
  const personId = parseId(next.personId);
  const courseId = parseId(next.courseId);
  if (personId && next.allDogs !== "1") {
    const own = await dogOptions(db, { ownerId: personId });
    if (!own.some((dog) => String(dog.id) === next.dogId)) next.dogId = own.length === 1 ? String(own[0].id) : "";
  }
  const key = pricedFor(courseId, personId);
  if (key && key !== next.pricedFor) {
    next.amount = (await priceText(db, courseId, personId)) ?? next.amount ?? "";
    next.pricedFor = key;
  }
  return next;
}

function present(membership: MembershipRecord) {
  return {
    id: membership.id,
    rowVersion: membership.rowVersion,
    courseId: membership.courseId,
    personId: membership.personId,
    dogId: membership.dogId,
    statusId: membership.statusId,
    amount: formatMoneyInput(membership.amount),
    isPaid: membership.isPaid ? "on" : "",
    comments: membership.comments ?? "",
    personComments: membership.personComments ?? "",
    dogComments: membership.dogComments ?? "",
    courseName: membership.courseName,
    fullName: membership.fullName,
    dogCommonName: membership.dogCommonName,
    audit: auditText(membership),
  };
}
export type MembershipFormRecord = ReturnType<typeof present>;

export type MembershipDialogData = {
  membership: MembershipFormRecord | null;
  /** This form's id: the key of the journal entry 'Bezahlt' becomes. */
  paymentKey: string;
  /** What the form shows: the draft, else the record, else a new membership's defaults. */
  values: Values;
  /** Changes whenever the values do (the form starts over with them). */
  valuesKey: string;
  courses: LookupOption[];
  courseLocked: boolean;
  people: LookupOption[];
  personSearch: string;
  dogs: LookupOption[];
  dogSearch: string;
  allDogs: boolean;
  statuses: LookupOption[];
  /** What the membership copies on saving: shown, not typed. */
  copied: { price: string | null; rabiesValidUntil: string | null; hasInsurance: boolean | null; hasGdpr: boolean | null };
  /** Red notes before saving: a finished course; missing proofs (saving stays possible). */
  warnings: string[];
  /** What the person did for it in Mein Wuff (time, address, text versions); empty for a booking made here. */
  onlineBookings: string[];
  /** A refusal known before saving (no CONFIRMED status). */
  error: string | null;
  /** Saving would take one place more than the course has: the warning, and whether the
   *  waiting list can be chosen (a status WAITLIST exists). Speichern gives way to the two choices. */
  capacity: { warning: string; waitlist: boolean } | null;
};

type StatusOption = Awaited<ReturnType<typeof membershipStatusOptions>>[number];
const codeOf = (statuses: StatusOption[], id: number | null | undefined) => statuses.find((status) => status.id === id)?.code ?? null;
const waitlistStatusId = (statuses: StatusOption[]) => statuses.find((status) => status.code === "WAITLIST")?.id ?? null;

async function defaults({ db, parent }: DialogViewContext): Promise<Values> {
  const dog = parent?.type === "DOG" ? await getDog(db, parent.id) : undefined;
  const statusId = await confirmedStatusId(db);
  return settle(db, {
    courseId: parent?.type === "COURSE" ? String(parent.id) : "",
    personId: parent?.type === "PERSON" ? String(parent.id) : dog ? String(dog.ownerId) : "",
    dogId: dog ? String(dog.id) : "",
    statusId: statusId ? String(statusId) : "",
    amount: "",
    pricedFor: "",
  });
}

async function dialogData(context: DialogViewContext, membership: MembershipRecord | null): Promise<MembershipDialogData> {
  const { db, parent, search, draft, user } = context;
  const fromDraft = Object.keys(draft).length > 0;
  const values: Values = fromDraft
    ? Object.fromEntries(DRAFT_FIELDS.map((field) => [field, draft[field] ?? ""]))
    : membership
      ? {
          ...present(membership),
          courseId: String(membership.courseId),
          personId: String(membership.personId),
          dogId: String(membership.dogId),
          statusId: String(membership.statusId),
          pricedFor: pricedFor(membership.courseId, membership.personId),
        }
      : await defaults(context);
  const courseId = membership ? membership.courseId : parseId(values.courseId);
  if (membership) values.courseId = String(membership.courseId);
  const personId = parseId(values.personId);
  const dogId = parseId(values.dogId);
  const allDogs = values.allDogs === "1";
  const [courses, statuses, person, dog, course, confirmed, ownDogs] = await Promise.all([
    openCourseOptions(db, courseId),
    membershipStatusOptions(db),
    personId ? personForBooking(db, personId) : undefined,
    dogId ? getDog(db, dogId) : undefined,
    courseId ? courseForBooking(db, courseId) : undefined,
    membership ? Promise.resolve(null) : confirmedStatusId(db),
    personId && !allDogs ? dogOptions(db, { ownerId: personId }) : Promise.resolve([]),
  ]);
  const keptDog = dog && !ownDogs.some((option) => option.id === dog.id) ? [{ id: dog.id, label: `${dog.commonName} (${dog.ownerFullName ?? ""})` }] : [];
  const [people, dogs] = await Promise.all([
    personLookup(db, search, person),
    allDogs
      ? lookupOptions(search, "dogId", (term) => dogOptions(db, { term }), keptDog)
      : Promise.resolve({ term: "", options: [...keptDog, ...ownDogs.map((option) => ({ id: option.id, label: option.fullName }))] }),
  ]);
  const today = todayInBerlin();
  const warnings = [
    ...(!membership && course?.statusCode === "FINISHED" ? [FINISHED_COURSE] : []),
    ...(course && dog && person
      ? proofWarnings({ rabiesValidUntil: dog.rabiesValidUntil, hasInsurance: Boolean(person.hasInsurance), courseEnd: course.courseEnd }, today)
      : []),
  ];
  const price = course && person ? priceFor(course, person.tier) : null;
  const [capacity, evidence] = await Promise.all([
    courseId ? courseCapacity(db, courseId, membership?.id ?? null) : null,
    membership ? onlineBookingsOf(db, membership.id) : [],
  ]);
  const full =
    capacity &&
    overbooks(capacity, codeOf(statuses, parseId(values.statusId)), membership ? { statusCode: codeOf(statuses, membership.statusId) ?? "" } : null);
  return {
    membership: membership && present(membership),
    paymentKey: crypto.randomUUID(),
    values,
    valuesKey: DRAFT_FIELDS.map((field) => values[field] ?? "").join("|"),
    courses: courses.map(({ id, label }) => ({ id, label })),
    courseLocked: Boolean(membership) || parent?.type === "COURSE",
    people: people.options,
    personSearch: people.term,
    dogs: dogs.options,
    dogSearch: dogs.term,
    allDogs,
    statuses: statuses.map(({ id, label }) => ({ id, label })),
    copied: {
      price: price === null ? null : formatMoney(price),
      rabiesValidUntil: dog ? formatDate(dog.rabiesValidUntil) || null : null,
      hasInsurance: person ? Boolean(person.hasInsurance) : null,
      hasGdpr: person && may(user, "protectedPersonData") ? Boolean(person.hasGdpr) : null,
    },
    warnings,
    onlineBookings: evidence.map(onlineBookingText),
    // A new membership starts as CONFIRMED: say so when there is no (single) such status.
    error: !membership && confirmed === null ? STATUS_CONFIRMED_NOT_FOUND : null,
    capacity: full ? { warning: capacityWarning(capacity), waitlist: waitlistStatusId(statuses) !== null } : null,
  };
}

/** The posted form as a draft: its values, settled (dogs, price) for the new choices. */
async function draftOf(db: Db, form: FormData): Promise<Record<string, string>> {
  const posted: Values = Object.fromEntries(DRAFT_FIELDS.map((field) => [field, String(form.get(field) ?? "").slice(0, 500)]));
  if (form.get("choose") === "allDogs") posted.allDogs = "1";
  if (posted.isPaid) posted.isPaid = "on";
  // Hand-made values never reach a query: ids are ids, an amount is an amount or nothing.
  for (const field of ["courseId", "personId", "dogId", "statusId"] as const) if (posted[field] && !parseId(posted[field])) posted[field] = "";
  if (posted.amount && !parseMoney(posted.amount).success) posted.amount = "";
  const id = parseId(form.get("id"));
  if (id) {
    const membership = await getMembership(db, id);
    if (membership) posted.courseId = String(membership.courseId);
  }
  return (await settle(db, posted)) as Record<string, string>;
}

export const WAITLISTED = "Teilnehmer wurde auf die Warteliste gesetzt";
const WAITLIST_NOT_MOVED = "Dieser Teilnehmer steht nicht (mehr) auf der Warteliste oder schon ganz oben bzw. unten.";
const WAITLIST_NOT_FOUND = "Es gibt keinen Status Warteliste (Code WAITLIST).";

export const dialog = defineDialog({
  area: "courses",
  history: { table: "course_memberships", grid: courseMembershipsGrid },
  views: {
    add: (context) => dialogData(context, null),
    edit: async (context) => {
      const membership = context.id ? await getMembership(context.db, context.id) : undefined;
      return membership ? dialogData(context, membership) : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const [membership, contents] = id ? await Promise.all([getMembership(db, id), membershipDeletionContents(db, id)]) : [];
      if (!membership || !contents) return null;
      return {
        confirm: {
          title: `Teilnehmer ${membership.fullName ?? ""} mit ${membership.dogCommonName} löschen`,
          message: "Bist du sicher?",
          details: [
            `Kurs: ${membership.courseName}`,
            ...deletionDetails("ihm", [
              [contents.feeCount, "Kursgebühr (offener Posten)", "Kursgebühren (offene Posten)"],
              [contents.attendanceCount, ...ATTENDANCE_WORDS],
            ]),
          ],
          intent: "courseMembership:delete",
          id: membership.id,
          confirmLabel: "Löschen",
        },
      };
    },
    transfer: async ({ db, id }) => {
      const membership = id ? await getMembership(db, id) : undefined;
      if (!membership) return null;
      const courses = (await openCourseOptions(db)).filter((course) => course.id !== membership.courseId);
      return {
        transfer: {
          id: membership.id,
          person: membership.fullName ?? "",
          dog: membership.dogCommonName,
          course: membership.courseName,
          courses: courses.map(({ id: value, label }) => ({ id: value, label })),
        },
      };
    },
    waitlist: async ({ db, id }) => {
      const list = id ? await waitlistOfCourseOf(db, id) : null;
      return list ? { waitlist: list } : null;
    },
  },
  actions: {
    save: async ({ db, user, form }) => {
      if (form.has("choose")) return { status: "draft", draft: await draftOf(db, form) };
      const submission = parseWithZod(form, { schema: membershipSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const value = submission.value;
      const before = value.id ? await getMembership(db, value.id) : undefined;
      if (value.id && !before) return { status: "missing" };
      if (before && !value.rowVersion) return { status: "invalid", result: submission.reply({ formErrors: ["Version fehlt"] }) };
      // The course is fixed once booked (a transfer moves it).
      const courseId = before ? before.courseId : value.courseId;
      const [course, person, dog, statuses, capacity] = await Promise.all([
        courseForBooking(db, courseId),
        personForBooking(db, value.personId),
        getDog(db, value.dogId),
        membershipStatusOptions(db),
        courseCapacity(db, courseId, before?.id ?? null),
      ]);
      if (!course) return refusedOn(submission.reply, "courseId", "Diesen Kurs gibt es nicht (mehr)");
      // A full course (issue 29/14): the first Speichern opens the dialog again with the warning and
      // the two choices; 'Trotzdem buchen' saves as chosen, 'Auf die Warteliste' with the status
      // Warteliste (no place taken, no fee).
      const choice = form.get("capacity");
      let statusId = value.statusId;
      if (choice === "waitlist") {
        const waitlist = waitlistStatusId(statuses);
        if (waitlist === null) return refusedOn(submission.reply, "statusId", WAITLIST_NOT_FOUND);
        statusId = waitlist;
      } else if (
        choice !== "book" &&
        overbooks(capacity ?? null, codeOf(statuses, statusId), before ? { statusCode: codeOf(statuses, before.statusId) ?? "" } : null)
      ) {
        return { status: "draft", draft: await draftOf(db, form) };
      }
      if (!person) return refusedOn(submission.reply, "personId", "Diese Person gibt es nicht (mehr)");
      if (!dog) return refusedOn(submission.reply, "dogId", "Diesen Hund gibt es nicht (mehr)");
      // Copied when booked, and again when the person, the dog or the course changes (spec 001 §4).
      const personChanged = !before || before.personId !== person.id;
      const price = !before || personChanged ? (priceFor(course, person.tier) ?? 0) : before.price;
      const outcome = await saveMembership(
        db,
        before ? { id: before.id, rowVersion: value.rowVersion! } : null,
        {
          courseId,
          personId: person.id,
          dogId: dog.id,
          statusId,
          price,
          amount: value.amount ?? price,
          isPaid: value.isPaid,
          rabiesValidUntil: !before || before.dogId !== dog.id ? dog.rabiesValidUntil : before.rabiesValidUntil,
          hasGdpr: personChanged ? Boolean(person.hasGdpr) : Boolean(before!.hasGdpr),
          hasInsurance: personChanged ? Boolean(person.hasInsurance) : Boolean(before!.hasInsurance),
          comments: value.comments,
          personComments: value.personComments,
          dogComments: value.dogComments,
          payment: { method: value.paidBy, date: value.paidOn ?? todayInBerlin(), key: value.paymentKey ?? null },
        },
        user,
        { stored: before },
      );
      switch (outcome.status) {
        case "saved": {
          const message = choice === "waitlist" ? WAITLISTED : before ? "Teilnehmer wurde gespeichert" : "Teilnehmer wurde hinzugefügt";
          if (outcome.invoiced === null) return { status: "saved", id: outcome.id, message };
          const invoice = outcome.invoiced ? ` (Rechnung ${outcome.invoiced})` : "";
          return {
            status: "saved",
            id: outcome.id,
            warning: true,
            message: `${INVOICED_FEE_CHANGED}${invoice}. Der offene Betrag bleibt bei der Rechnung; bitte prüfe sie.`,
          };
        }
        case "conflict":
          return {
            status: "conflict",
            result: submission.reply({ resetForm: true }),
            message: conflictMessage(outcome.current),
            current: present(outcome.current),
          };
        case "missing":
          return { status: "missing" };
        case "refused":
          return refusedOn(submission.reply, outcome.field ?? (outcome.message === ALREADY_BOOKED ? "dogId" : undefined), outcome.message);
      }
    },
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteMembership(db, id, user), "Teilnehmer wurde gelöscht"),
    waitlistMove: async ({ db, user, form }) => {
      const submission = parseWithZod(form, { schema: waitlistMoveSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const { id, direction } = submission.value;
      if (!(await moveOnWaitlist(db, id, direction, user))) return { status: "refused", message: WAITLIST_NOT_MOVED };
      return {
        status: "saved",
        id,
        message: direction === "up" ? "Auf der Warteliste einen Platz nach oben gesetzt" : "Auf der Warteliste einen Platz nach unten gesetzt",
      };
    },
    transfer: async ({ db, user, form }) => {
      const submission = parseWithZod(form, { schema: transferSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const outcome = await transferMembership(db, submission.value.id, submission.value.targetCourseId, user);
      if (outcome.status === "refused") return { status: "refused", message: outcome.message };
      return { status: "saved", id: submission.value.id, message: `${outcome.personName} wurde in Kurs '${outcome.courseName}' versetzt` };
    },
  },
});
