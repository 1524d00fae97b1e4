/**
 * Mein Wuff (issue 32), the rules of signing in by e-mail link, pure: how long a link lives, how
 * often one may be asked for, and the texts a person reads. The answer to a request is the same
 * whether the address is known or not, so the form tells nobody who is a member.
 */

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
