/**
 * Mein Wuff (issue 32), the rules of signing in by e-mail link, pure: how long a link lives, how
 * often one may be asked for, and the texts a person reads. The answer to a request is the same
 * whether the address is known or not, so the form tells nobody who is a member.
 */
import { formatDateTime } from "./format";

/** A link signs in once, within 15 minutes. */
export const LINK_MINUTES = 15;
/** Requests counted over the last 15 minutes: 5 per address, 29 per IP (the 6th and the 30th are refused). */
export const LIMIT_WINDOW_MINUTES = 15;
export const REQUESTS_PER_ADDRESS = 5;
export const REQUESTS_PER_IP = 29;
/** A portal session ends after 30 minutes without a request, and after 12 hours in any case. */
export const PORTAL_IDLE_MINUTES = 30;
export const PORTAL_MAX_AGE_SECONDS = 12 * 60 * 60;

export const LINK_SENT = "Wenn die Adresse bei uns bekannt ist, ist jetzt ein Anmeldelink an sie unterwegs. Er gilt 15 Minuten und nur in diesem Browser.";
export const TOO_MANY_REQUESTS = "Zu viele Anmeldelinks angefordert. Bitte in 15 Minuten noch einmal versuchen.";
export const LINK_UNUSABLE =
  "Dieser Anmeldelink gilt nicht (mehr): Er ist abgelaufen, schon benutzt oder in einem anderen Browser angefordert. Bitte einen neuen anfordern.";
export const SIGNED_OUT = "Du bist abgemeldet.";
export const SESSION_ENDED = "Deine Anmeldung ist abgelaufen. Bitte fordere einen neuen Anmeldelink an.";

/** An address as people and the portal compare it: trimmed, lower case. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The instant `minutes` before or after `now`, as stored (ISO). */
export const minutesFrom = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

/** The change history's 'über' of every write a person makes in Mein Wuff (the home page lists them). */
export const PORTAL_SOURCE = "Mein Wuff";

// Meine Daten (issue 32 item 2)
export const DATA_SAVED = "Deine Daten sind gespeichert.";
export const DATA_CHANGED_MEANWHILE =
  "Deine Daten wurden inzwischen geändert (z. B. vom Verein). Hier siehst du den aktuellen Stand: Bitte prüfe ihn und speichere erneut.";
export const EMAIL_LINK_SENT = (email: string) =>
  `Wir schicken einen Link an ${email}, wenn diese Adresse bei uns nicht schon zu jemand anderem gehört. Erst wenn du ihn öffnest, ändern wir deine E-Mail-Adresse. Er gilt 24 Stunden.`;
export const EMAIL_SAME = "Das ist schon deine E-Mail-Adresse.";
export const EMAIL_LIMITED = "Du hast heute schon oft eine neue Adresse angegeben. Bitte versuche es morgen wieder.";
export const CONSENT_RESULTS = {
  given: "Deine Einwilligung ist gespeichert.",
  withdrawn: "Deine Einwilligung ist widerrufen.",
  unchanged: "Es hat sich nichts geändert.",
};
export const EMAIL_CONFIRMED = (email: string) => `Deine neue E-Mail-Adresse ${email} ist bestätigt. Ab jetzt meldest du dich mit ihr an.`;
export const EMAIL_LINK_UNUSABLE =
  "Dieser Bestätigungslink gilt nicht (mehr): Er ist abgelaufen oder schon benutzt. Bitte gib die neue Adresse in Mein Wuff noch einmal an.";

// Meine Hunde (issue 32 item 3)
export const PAPER_UPLOADED = "Dein Nachweis ist hochgeladen. Der Verein prüft ihn; danach gilt das Datum.";

// Meine Zahlungen (issue 32 item 4)
export const PAYMENT_THANKS_PAID = (amount: string) => `Danke! Deine Zahlung über ${amount} ist eingegangen und gebucht.`;
export const PAYMENT_THANKS_PENDING =
  "Danke! Sobald der Zahlungsanbieter die Zahlung bestätigt, erscheint sie hier (das dauert meist nur Sekunden; lade die Seite dann neu).";
export const PAYMENT_UNAVAILABLE = "Online bezahlen geht gerade nicht. Bitte überweise den Betrag oder versuche es später noch einmal.";
export const MANDATE_LINK_SENT = (email: string) =>
  `Fast geschafft: Wir haben dir einen Link an ${email} geschickt. Erst wenn du ihn öffnest und bestätigst, gilt das Mandat (der Link gilt 24 Stunden).`;
export const MANDATE_LIMITED = "Du hast heute schon oft ein Mandat erteilt. Bitte versuche es morgen wieder.";
export const MANDATE_NOT_OFFERED = "Der Verein nimmt keine Lastschriftmandate online an. Bitte sprich uns an.";
export const MANDATE_CONFIRMED = (reference: string) =>
  `Dein Lastschriftmandat ${reference} gilt ab heute. Vor jeder Abbuchung sagen wir dir Betrag und Termin vorher an.`;
export const MANDATE_LINK_UNUSABLE =
  "Dieser Link gilt nicht (mehr): Er ist abgelaufen oder wurde schon benutzt. Erteile das Mandat in Mein Wuff bitte noch einmal.";
// Meine Kurse (issue 32 item 5)
export const BOOKING_CANCELLED = (courseName: string, dogName: string, feeText: string) =>
  `Deine Buchung für „${courseName}“ mit ${dogName} ist storniert. ${feeText}`.trim();
/** After 'Widerruf bestätigen' (§ 356a BGB): when it was received; the mail confirms it. */
export const BOOKING_WITHDRAWN = (courseName: string, dogName: string, receivedOn: string, feeText: string) =>
  `Dein Widerruf der Buchung „${courseName}“ mit ${dogName} ist am ${formatDateTime(receivedOn)} Uhr eingegangen. ${feeText} Die Bestätigung kommt per E-Mail.`.replace(
    "  ",
    " ",
  );
/** 'Vertrag widerrufen' without signing in (§ 356a BGB): what the page says once it is received. */
export const DECLARATION_RECEIVED = (receivedOn: string, email: string) =>
  `Dein Widerruf ist am ${formatDateTime(receivedOn)} Uhr bei uns eingegangen. Die Bestätigung mit seinem Inhalt geht an ${email}.`;
export const DECLARATIONS_LIMITED =
  "Von dieser Adresse sind heute schon mehrere Widerrufe eingegangen. Bitte versuche es morgen wieder oder schreib uns eine E-Mail (Anschrift im Impressum).";
/** The booking page while the club has not published its AGB, Widerrufsbelehrung or privacy notice. */
/** The box every contract made online ticks (a booking, a purchase). */
export const ACCEPT_TEXTS = "Bitte bestätige, dass du die AGB akzeptierst und die Widerrufsbelehrung und die Datenschutzhinweise gelesen hast.";
export const PRODUCT_NOT_FOR_SALE = "Dieses Angebot gibt es online nicht (mehr). Bitte wähle eines aus der Liste.";
export const PURCHASE_TEXTS_MISSING = "Online kaufen geht gerade nicht: Der Verein hat seine AGB oder Widerrufsbelehrung noch nicht hinterlegt.";
export const TEXTS_MISSING = "Online-Buchungen sind gerade nicht möglich: Der Verein hat seine AGB oder Widerrufsbelehrung noch nicht hinterlegt.";
/** After booking a course online (issue 33 item 2): a place, or a place on the waiting list. */
export const COURSE_BOOKED = (courseName: string, dogName: string) =>
  `Gebucht: „${courseName}“ mit ${dogName}. Die Bestätigung mit allen Terminen kommt per E-Mail.`;
export const COURSE_WAITLISTED = (courseName: string, dogName: string, position: number) =>
  `${dogName} steht auf Platz ${position} der Warteliste für „${courseName}“. Wird ein Platz frei, bekommst du ein Angebot per E-Mail.`;
export const OFFER_DECLINED = "Du hast den angebotenen Platz abgelehnt; er geht an den Nächsten auf der Warteliste.";
export const BOOKING_CHANGED = "Diese Buchung wurde inzwischen geändert (z. B. vom Verein). Hier siehst du den aktuellen Stand: Bitte prüfe ihn.";
export const BOOKING_UNKNOWN = "Bitte eine Buchung aus der Liste wählen.";
export const FEED_REVOKED = "Dein Kalender-Link ist gelöscht. Kalender, die ihn abonniert haben, bekommen keine Termine mehr.";
export const FEED_NEW_LINK =
  "Dein neuer Kalender-Link (nur jetzt zu sehen, ein früherer gilt nicht mehr). Er zeigt nur die Termine deiner Kurse; gib ihn nicht weiter.";

/**
 * Where the sign-in leads back to (?weiter=): a page of Mein Wuff or of the course catalogue, as a
 * path of this site only (no '//', no scheme: never an open redirect). Anything else: null.
 */
/** The choice of person of a family that leads back to `returnPath` (a path returnPathOf kept). */
export const choosePersonPathTo = (returnPath: string | null) => (returnPath ? `/mein/wer?weiter=${encodeURIComponent(returnPath)}` : "/mein/wer");

export function returnPathOf(value: string | null | undefined): string | null {
  return value && /^\/(mein|kurse)(\/[a-z0-9-]+)*(\?[a-z]+=[A-Za-z0-9-]+(&[a-z]+=[A-Za-z0-9-]+)*)?$/.test(value) ? value : null;
}
