/**
 * Mein Wuff's cookies and guards (issue 32 item 1), apart from the staff's: the portal session
 * (wuff_portal) and the browser's own mark (wuff_portal_browser), set when a link is asked for, so
 * that the link signs in only in the browser that asked. A portal route answers only to a portal
 * session; the staff's routes never read wuff_portal (app/services/auth.server.ts), so a portal
 * session opens none of them.
 */
import { createCookie, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { randomToken } from "~/lib/bytes";
import { formatDate, formatDateTime, formatDateTimeWithSeconds, formatMoney, formatWeekday } from "~/lib/format";
import { choosePersonPathTo, PORTAL_MAX_AGE_SECONDS, PORTAL_SOURCE, returnPathOf, SESSION_ENDED } from "~/lib/portal";
import { findPortalSession, isTokenShaped, type PortalPerson, type PortalSession } from "~/models/portal-auth.server";
import type { Db } from "~/db/client.server";
import { ownFeedDates } from "~/models/portal-courses.server";
import { ownData } from "~/models/portal-profile.server";
import { legalTextsByIds } from "~/models/consents.server";
import type { OfferToMail } from "~/models/waitlist.server";
import { confirmationSent } from "~/models/withdrawal-declarations.server";
import { noticeConfirmationSent } from "~/models/notice-declarations.server";
import { NOTICE_KIND_LABELS, type NoticeKind } from "~/lib/cards";
import { courseDatesCalendar } from "./ics.server";
import { setWriteActor, setWriteSource, type Actor } from "~/models/audit.server";
import { composeMail, loadTemplate, mailSettings } from "~/jobs/mails.server";
import { isSecureOrigin, readCookie } from "./cookies.server";
import { openTransport, type Attachment } from "./mail.server";
import { redirectWithToast } from "./toast.server";

const options = (env: Env) => ({ path: "/", httpOnly: true, sameSite: "lax" as const, secure: isSecureOrigin(env.APP_URL), secrets: [env.SESSION_SECRET] });

/** The signed id of the portal session. */
const portalCookie = (env: Env) => createCookie("wuff_portal", { ...options(env), maxAge: PORTAL_MAX_AGE_SECONDS });
/** The browser's mark: a random value the link's request remembers (its hash). A day is enough. */
const browserCookie = (env: Env) => createCookie("wuff_portal_browser", { ...options(env), maxAge: 24 * 60 * 60 });

const SIGN_IN_TEMPLATE = "Anmeldelink (Mein Wuff)";
const EMAIL_CHANGE_TEMPLATE = "Neue E-Mail-Adresse bestätigen (Mein Wuff)";
const MANDATE_TEMPLATE = "Lastschriftmandat bestätigen (Mein Wuff)";
const BOOKING_TEMPLATES = { CONFIRMED: "Buchungsbestätigung (Mein Wuff)", WAITLIST: "Warteliste (Mein Wuff)" } as const;
const OFFER_TEMPLATE = "Platz frei (Mein Wuff)";
const ENDED_TEMPLATES = { CANCELLED: "Stornierung bestätigt (Mein Wuff)", WITHDRAWN: "Widerruf bestätigt (Mein Wuff)" } as const;
const DECLARATION_TEMPLATE = "Widerruf eingegangen (Mein Wuff)";
const PURCHASE_TEMPLATE = "Kauf bestätigt (Mein Wuff)";
const NOTICE_TEMPLATE = "Kündigung eingegangen (Mein Wuff)";
const CARD_WITHDRAWAL_TEMPLATE = "Widerruf einer Karte bestätigt (Mein Wuff)";
const APPLICATION_TEMPLATES = {
  confirm: "Mitgliedsantrag bestätigen (Mein Wuff)",
  accepted: "Mitgliedsantrag angenommen (Mein Wuff)",
  declined: "Mitgliedsantrag abgelehnt (Mein Wuff)",
} as const;

/** The browser's mark, and the header that sets it when the browser has none yet. */
export async function browserMark(request: Request, env: Env): Promise<{ browserId: string; setCookie: string | null }> {
  const value = await readCookie(browserCookie(env), request);
  if (typeof value === "string" && isTokenShaped(value)) return { browserId: value, setCookie: null };
  const browserId = randomToken();
  return { browserId, setCookie: await browserCookie(env).serialize(browserId) };
}

/** The browser's mark if it has one (signing in with a link), else an empty string. */
export async function existingBrowserMark(request: Request, env: Env): Promise<string> {
  const value = await readCookie(browserCookie(env), request);
  return typeof value === "string" ? value : "";
}

export const portalSessionCookie = (env: Env, sessionId: string) => portalCookie(env).serialize(sessionId);
export const clearPortalSessionCookie = (env: Env) => portalCookie(env).serialize("", { maxAge: 0 });

type PortalArgs = { request: Request; context: AppLoadContext };

/** The portal session of this request, or null (no cookie, expired, idle, or nobody has its address). */
export async function optionalPortalSession({ request, context }: PortalArgs): Promise<PortalSession | null> {
  const value = await readCookie(portalCookie(context.cloudflare.env), request);
  if (typeof value !== "string" || !value) return null;
  return findPortalSession(context.db, value);
}

/** The portal session, or back to the sign-in with a German word why (a cookie that no longer works is cleared). */
export async function requirePortalSession(args: PortalArgs): Promise<PortalSession> {
  const session = await optionalPortalSession(args);
  if (session) return session;
  const { env } = args.context.cloudflare;
  const headers = new Headers({ "Set-Cookie": await clearPortalSessionCookie(env) });
  throw await redirectWithToast(env, "/mein", { type: "info", message: SESSION_ENDED }, headers);
}

/** A signed-in portal request acting for one person: the session, that person, and the name its
 *  writes are recorded under (audit fields and history: 'Erika Muster (Mein Wuff)'). */
export type PortalVisit = { session: PortalSession; person: PortalPerson; actor: Actor };

/**
 * The portal session and the person it acts for, or back to the sign-in (no session) or to the
 * choice of person (a family that has not chosen). From here on every write of the request is
 * recorded as that person's, made in Mein Wuff (the home page's 'Änderungen aus dem Portal').
 * Whatever a portal route reads or writes, it reads and writes for `person` only.
 */
export async function requirePortalPerson(args: PortalArgs): Promise<PortalVisit> {
  const session = await requirePortalSession(args);
  if (!session.person) throw redirect(choosePersonPath(args.request));
  const actor = { name: `${session.person.firstName} ${session.person.lastName} (${PORTAL_SOURCE})`.trim() };
  setWriteActor(args.context.db, actor.name);
  setWriteSource(args.context.db, PORTAL_SOURCE);
  return { session, person: session.person, actor };
}

/** The choice of person of a family, leading back to the page asked for (a portal page's GET). */
function choosePersonPath(request: Request): string {
  const url = new URL(request.url);
  const back = request.method === "GET" ? returnPathOf(url.pathname + url.search) : null;
  return choosePersonPathTo(back);
}

/** The client's address as Cloudflare names it (locally, where there is none, one shared 'local'). */
export const clientAddress = (request: Request) => request.headers.get("CF-Connecting-IP") ?? "local";

/** A mail of Mein Wuff (template with {{link}} when it carries one), once, to `email` (outside
 *  production to the test account, as every mail). Not in the mail log: a link is a secret, and an
 *  applicant is nobody's person yet. */
async function mailPortalLink(
  env: Env,
  db: Db,
  templateName: string,
  input: {
    email: string;
    person: Pick<PortalPerson, "firstName" | "lastName"> & { id?: number };
    link?: string;
    extra?: Record<string, unknown>;
    attachments?: Attachment[];
  },
): Promise<void> {
  const [settings, template] = await Promise.all([mailSettings(env, db), loadTemplate(db, templateName)]);
  const { person: who } = input;
  const person = { id: who.id ?? 0, salutation: null, title: null, firstName: who.firstName, lastName: who.lastName, email: input.email };
  const extra = input.link === undefined ? { ...input.extra } : { ...input.extra, link: input.link };
  const { rendered, route } = composeMail(env, settings, template, { person, extra });
  if (route.status === "blocked") throw new Error(route.message);
  const transport = await openTransport(env);
  try {
    await transport.send({ to: route.to, cc: null, intendedTo: input.email, ...rendered, attachments: input.attachments ?? [] });
  } finally {
    await transport.close();
  }
}

/** The mail with the sign-in link (template 'Anmeldelink (Mein Wuff)'); it lives 15 minutes. */
export const mailSignInLink = (env: Env, db: Db, input: { email: string; people: PortalPerson[]; link: string }) =>
  mailPortalLink(env, db, SIGN_IN_TEMPLATE, { email: input.email, person: input.people[0], link: input.link });

/** The mail that asks a new address to confirm itself (template 'Neue E-Mail-Adresse bestätigen (Mein Wuff)'). */
export const mailEmailChangeLink = (env: Env, db: Db, input: { email: string; person: PortalPerson; link: string }) =>
  mailPortalLink(env, db, EMAIL_CHANGE_TEMPLATE, input);

/** The mail that confirms a mandate given online (template 'Lastschriftmandat bestätigen (Mein Wuff)'),
 *  to the person's own address; it names the account only masked. */
export const mailMandateLink = (env: Env, db: Db, input: { email: string; person: PortalPerson; link: string; maskedIban: string }) =>
  mailPortalLink(env, db, MANDATE_TEMPLATE, { email: input.email, person: input.person, link: input.link, extra: { iban: input.maskedIban } });

type Applicant = { email: string; firstName: string; lastName: string };

/** The mail that asks an applicant to confirm their address (template 'Mitgliedsantrag bestätigen (Mein Wuff)'). */
export const mailApplicationLink = (env: Env, db: Db, applicant: Applicant, link: string) =>
  mailPortalLink(env, db, APPLICATION_TEMPLATES.confirm, { email: applicant.email, person: applicant, link });

/** The welcome when the club accepts (template 'Mitgliedsantrag angenommen (Mein Wuff)'), with the
 *  way into Mein Wuff. */
export const mailApplicationAccepted = (env: Env, db: Db, applicant: Applicant, input: { memberSince: string; portalLink: string }) =>
  mailPortalLink(env, db, APPLICATION_TEMPLATES.accepted, {
    email: applicant.email,
    person: applicant,
    link: input.portalLink,
    extra: { memberSince: formatDate(input.memberSince) },
  });

/** The refusal (template 'Mitgliedsantrag abgelehnt (Mein Wuff)'), with the reason if staff gave one. */
export const mailApplicationDeclined = (env: Env, db: Db, applicant: Applicant, reason: string | null) =>
  mailPortalLink(env, db, APPLICATION_TEMPLATES.declined, {
    email: applicant.email,
    person: applicant,
    extra: { reason: reason ? `Begründung: ${reason}` : "" },
  });

/** Sends a portal mail after the answer (waitUntil): the page does not wait for the mail server,
 *  and a failure is logged, never shown (the answer must not tell whether an address exists). */
export function sendAfterAnswer(context: AppLoadContext, mail: Promise<void>, what: string) {
  context.cloudflare.ctx.waitUntil(mail.catch((error: unknown) => console.error(`${what} konnte nicht gesendet werden`, error)));
}

/**
 * The confirmation of a notice given with 'Verträge hier kündigen' (§ 312k Abs. 4 BGB): its
 * content, date and time of receipt, and the end, at once; a notice staff apply later is confirmed
 * again with its end.
 */
export async function mailNoticeReceipt(
  env: Env,
  db: Db,
  input: {
    id: number;
    name: string;
    email: string;
    contract: string;
    kind: NoticeKind;
    reason: string | null;
    wantedEnd: string | null;
    receivedOn: string;
    end: string | null;
  },
): Promise<void> {
  await mailPortalLink(env, db, NOTICE_TEMPLATE, {
    email: input.email,
    person: { firstName: input.name, lastName: "" },
    extra: {
      name: input.name,
      email: input.email,
      contract: input.contract,
      kind: NOTICE_KIND_LABELS[input.kind],
      reason: input.reason ?? "",
      wanted: input.wantedEnd ? `zum ${formatDate(input.wantedEnd)}` : "zum nächstmöglichen Zeitpunkt",
      received: formatDateTimeWithSeconds(input.receivedOn),
      end: input.end ? formatDate(input.end) : "",
    },
  });
  await noticeConfirmationSent(db, input.id);
}

/** The confirmation of a card or Abo withdrawn in Mein Wuff (§ 356a BGB): the declaration, its receipt to the second, and what happens to the money. */
export async function mailCardWithdrawal(
  env: Env,
  db: Db,
  input: { person: PortalPerson; product: string; boughtOn: string; receivedOn: string; moneyText: string },
): Promise<void> {
  const contact = await ownData(db, input.person.id);
  if (!contact?.email) return;
  await mailPortalLink(env, db, CARD_WITHDRAWAL_TEMPLATE, {
    email: contact.email,
    person: input.person,
    extra: { product: input.product, bought: formatDate(input.boughtOn), received: formatDateTimeWithSeconds(input.receivedOn), money: input.moneyText },
  });
}

/** The contract's terms on a durable medium with its confirmation (§ 312f Abs. 2 BGB): each text as a file. */
const termsAttached = (texts: Awaited<ReturnType<typeof legalTextsByIds>>): Attachment[] =>
  texts.map((text) => ({
    filename: `${text.kind === "TERMS" ? "AGB" : "Widerrufsbelehrung"}-Fassung-${text.version}.txt`,
    content: new TextEncoder().encode(text.body),
    mimeType: "text/plain; charset=utf-8",
  }));

/** The mail that confirms a card or an Abo bought online (issue 34 item 2), with the AGB and the Widerrufsbelehrung accepted. */
export async function mailCardPurchase(
  env: Env,
  db: Db,
  input: { person: PortalPerson; product: string; validity: string; amount: number; earlyStart: boolean; textIds: number[] },
): Promise<void> {
  const [contact, texts] = await Promise.all([ownData(db, input.person.id), legalTextsByIds(db, input.textIds)]);
  if (!contact?.email) return;
  await mailPortalLink(env, db, PURCHASE_TEMPLATE, {
    email: contact.email,
    person: input.person,
    extra: { product: input.product, validity: input.validity, amount: formatMoney(input.amount), earlyStart: input.earlyStart },
    attachments: termsAttached(texts),
  });
}

/**
 * The mail that confirms a course booked online (issue 33 item 2): the place with every date to
 * come in the text and as a calendar file (termine.ics), or the place on the waiting list.
 */
export async function mailCourseBooking(
  env: Env,
  db: Db,
  input: {
    person: PortalPerson;
    courseId: number;
    booking: { place: "CONFIRMED" | "WAITLIST"; courseName: string; dogName: string; amount: number; waitlistPosition: number | null };
    /** The ids of the AGB and Widerrufsbelehrung accepted: sent along as text files. */
    textIds: number[];
    now: Date;
  },
): Promise<void> {
  const { person, booking } = input;
  const [contact, dates, texts] = await Promise.all([
    ownData(db, person.id),
    booking.place === "CONFIRMED" ? ownFeedDates(db, person.id, input.now.toISOString(), input.courseId) : Promise.resolve([]),
    legalTextsByIds(db, input.textIds),
  ]);
  if (!contact?.email) return;
  const encoder = new TextEncoder();
  const calendar = dates.length
    ? [{ filename: "termine.ics", content: encoder.encode(courseDatesCalendar(booking.courseName, dates)), mimeType: "text/calendar" }]
    : [];
  const terms = termsAttached(texts);
  await mailPortalLink(env, db, BOOKING_TEMPLATES[booking.place], {
    email: contact.email,
    person,
    extra: {
      course: booking.courseName,
      dog: booking.dogName,
      amount: formatMoney(booking.amount),
      position: String(booking.waitlistPosition ?? ""),
      dates: dates.map((date) => ({
        text: `${formatWeekday(date.startDateTime)}, ${formatDateTime(date.startDateTime)} Uhr${date.locationName ? `, ${date.locationName}` : ""}`,
      })),
    },
    attachments: [...calendar, ...terms],
  });
}

/** The mail that offers a freed place to the first on a waiting list (issue 33 item 3), with the
 *  link to the booking page that accepts it and the time it stands until. */
export const mailWaitlistOffer = (env: Env, db: Db, offer: OfferToMail, origin: string) =>
  mailPortalLink(env, db, OFFER_TEMPLATE, {
    email: offer.person.email,
    person: offer.person,
    link: `${origin}/mein/buchen/${offer.courseId}?angebot=${offer.id}`,
    extra: { course: offer.courseName, dog: offer.dogName, expires: formatDateTime(offer.expiresOn) },
  });

/**
 * The confirmation of a booking ended in Mein Wuff (issue 33 item 4), with the date and time it was
 * received and what became of the fee: a cancellation, or a withdrawal (§ 356a BGB asks for its
 * content and the time of receipt on a durable medium without delay).
 */
export async function mailBookingEnded(
  env: Env,
  db: Db,
  input: { person: PortalPerson; kind: "CANCELLED" | "WITHDRAWN"; courseName: string; dogName: string; feeText: string; receivedOn: string },
): Promise<void> {
  const contact = await ownData(db, input.person.id);
  if (!contact?.email) return;
  await mailPortalLink(env, db, ENDED_TEMPLATES[input.kind], {
    email: contact.email,
    person: input.person,
    extra: { course: input.courseName, dog: input.dogName, received: formatDateTimeWithSeconds(input.receivedOn), fee: input.feeText },
  });
}

/**
 * The confirmation of a withdrawal declared without signing in (§ 356a BGB): its content and the
 * date and time it was received, to the address it names, without delay; the declaration then
 * records that it went out.
 */
export async function mailWithdrawalReceipt(
  env: Env,
  db: Db,
  input: { id: number; name: string; email: string; contract: string; receivedOn: string },
): Promise<void> {
  await mailPortalLink(env, db, DECLARATION_TEMPLATE, {
    email: input.email,
    person: { firstName: input.name, lastName: "" },
    extra: { name: input.name, email: input.email, contract: input.contract, received: formatDateTimeWithSeconds(input.receivedOn) },
  });
  await confirmationSent(db, input.id);
}
