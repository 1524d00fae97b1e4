/**
 * How staff read the evidence of a course booked in Mein Wuff (issue 33 item 5) on the participant:
 * when and from which address, the versions of the texts accepted, and the right of withdrawal the
 * course type gave at that moment.
 */
import { formatDateTimeWithSeconds } from "./format";

export type OnlineBookingEvidence = {
  act: "BOOKED" | "WAITLISTED" | "OFFER_ACCEPTED" | "CANCELLED" | "WITHDRAWN";
  bookedOn: string;
  bookedFrom: string;
  /** The versions accepted; null for a cancellation or a withdrawal. */
  termsVersion: number | null;
  withdrawalVersion: number | null;
  privacyVersion: number | null;
  withdrawalRight: boolean;
};

const ACT_WORDS: Record<OnlineBookingEvidence["act"], string> = {
  BOOKED: "Online gebucht",
  WAITLISTED: "Online auf die Warteliste",
  OFFER_ACCEPTED: "Angebotenen Platz online angenommen",
  CANCELLED: "Online storniert",
  WITHDRAWN: "Online widerrufen",
};

/** 'Online gebucht am 30.11.2026 14:03:07 (Adresse 203.0.113.5): AGB Fassung 2, …; Widerrufsrecht: ja' */
export function onlineBookingText(evidence: OnlineBookingEvidence): string {
  const from = evidence.bookedFrom === "local" ? "" : ` (Adresse ${evidence.bookedFrom})`;
  if (evidence.termsVersion === null) return `${ACT_WORDS[evidence.act]} am ${formatDateTimeWithSeconds(evidence.bookedOn)}${from}`;
  return (
    `${ACT_WORDS[evidence.act]} am ${formatDateTimeWithSeconds(evidence.bookedOn)}${from}: AGB Fassung ${evidence.termsVersion}, ` +
    `Widerrufsbelehrung Fassung ${evidence.withdrawalVersion}, Datenschutzhinweise Fassung ${evidence.privacyVersion} akzeptiert; ` +
    `Widerrufsrecht: ${evidence.withdrawalRight ? "ja" : "nein"}`
  );
}
