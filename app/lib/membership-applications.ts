/**
 * Mitglied werden (issue 32 item 6): the rules and texts of an application for membership. The
 * public form makes an application; only the link mailed to the address sends it to the club
 * (so nobody can apply in somebody else's name, and bots that cannot read mail reach nobody);
 * staff accept or decline it, each with a mail.
 */

/** UNCONFIRMED: the address not yet confirmed (staff do not see it); CONFIRMED: waiting for the
 *  club's decision; ACCEPTED and DECLINED: decided. */
export const MEMBERSHIP_APPLICATION_STATUSES = ["UNCONFIRMED", "CONFIRMED", "ACCEPTED", "DECLINED"] as const;

/** The confirmation link lives a day. */
export const APPLICATION_LINK_MINUTES = 24 * 60;
/** Applications per address and per network address in 24 hours (each is a mail). */
export const APPLICATIONS_PER_ADDRESS = 3;
export const APPLICATIONS_PER_IP = 10;
/** A declined application is kept this long for questions, then deleted (Art. 5 Abs. 1 lit. e DSGVO). */
export const DECLINED_KEPT_DAYS = 90;
/** Dogs one application may name. */
export const MAX_APPLICATION_DOGS = 3;

/** A dog as the application names it (stored as JSON until staff accept). */
export type ApplicationDog = { commonName: string; breed: string | null; gender: number; dateOfBirth: string | null; chipNr: string | null };

/** Whether somebody born on `dateOfBirth` is under 18 on `today` (both 'YYYY-MM-DD'): a minor
 *  joins only with the consent of the parents or guardians (§§ 107, 108 BGB). */
export function isMinorOn(dateOfBirth: string, today: string): boolean {
  const [year, monthDay] = [Number(dateOfBirth.slice(0, 4)), dateOfBirth.slice(5)];
  const eighteenth = `${String(year + 18).padStart(4, "0")}-${monthDay}`;
  return eighteenth > today;
}

export const APPLICATION_SENT =
  "Fast geschafft: Wir haben dir eine E-Mail geschickt. Bitte bestätige deine E-Mail-Adresse mit dem Link darin (24 Stunden gültig). Erst dann erhält der Verein deinen Antrag.";
export const APPLICATION_CONFIRMED = "Danke! Dein Mitgliedsantrag ist beim Verein angekommen. Du bekommst eine E-Mail, sobald er entschieden ist.";
export const APPLICATION_LINK_UNUSABLE =
  "Dieser Link gilt nicht mehr: Er ist abgelaufen oder wurde schon benutzt. Ist dein Antrag noch nicht bestätigt, stelle ihn bitte neu.";
export const APPLICATIONS_LIMITED = "Von hier wurden gerade schon mehrere Anträge gestellt. Bitte versuche es morgen noch einmal.";
export const APPLICATIONS_CLOSED = "Der Verein nimmt Mitgliedsanträge hier noch nicht entgegen: Satzung und Datenschutzhinweise sind noch nicht hinterlegt.";
export const TEXTS_CHANGED =
  "Die Satzung oder die Datenschutzhinweise wurden gerade geändert. Bitte lies die aktuelle Fassung und sende den Antrag noch einmal.";
export const MINOR_NEEDS_GUARDIAN = "Für Minderjährige bitte den Namen eines Erziehungsberechtigten angeben, der dem Antrag zustimmt";
