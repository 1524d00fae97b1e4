/** Anwesenheit: the pure rules the server and the pages share (app/models/attendances.server.ts). */

/** Participants on these statuses do not take part (the same rule as the course's actual dogs). */
const NOT_TAKING_PART = ["WAITLIST", "CANCELLED"] as const;
export const takesPart = (statusCode: string | null) => !(NOT_TAKING_PART as readonly (string | null)[]).includes(statusCode);

/** '3 von 5': attended of the dates held so far; empty while no date is held yet. */
export const attendanceText = (attended: number, held: number) => (held > 0 ? `${attended} von ${held}` : "");
