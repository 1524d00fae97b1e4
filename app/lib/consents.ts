/**
 * Consents (issue 32 item 2) and the club's versioned texts. A consent is given to one version of
 * a text, the one the person was shown, and is withdrawn as simply as it was given (Art. 7 Abs. 1
 * and 3 DSGVO: the club must be able to show who agreed to what and when; withdrawing must be as
 * easy as giving). A text once published is never changed: a new wording is a new version, and
 * earlier consents keep naming the version they were given to.
 */

/** The kinds of text the Einstellungen keep: three consent texts, the privacy notice
 *  (Art. 13 DSGVO), the imprint (§ 5 DDG), the statutes (Satzung), and for booking courses online
 *  the terms (AGB) and the withdrawal notice (Widerrufsbelehrung, Art. 246a § 1 Abs. 2 EGBGB). */
export const LEGAL_TEXT_KINDS = ["CONSENT_MAIL", "CONSENT_PHOTOS", "CONSENT_DATA", "PRIVACY", "IMPRINT", "STATUTES", "TERMS", "WITHDRAWAL"] as const;
export type LegalTextKind = (typeof LEGAL_TEXT_KINDS)[number];

export const LEGAL_TEXT_LABELS: Record<LegalTextKind, string> = {
  CONSENT_MAIL: "Einwilligung: Post per E-Mail",
  CONSENT_PHOTOS: "Einwilligung: Fotos",
  CONSENT_DATA: "Einwilligung: Datennutzung",
  PRIVACY: "Datenschutzhinweise",
  IMPRINT: "Impressum",
  STATUTES: "Satzung",
  TERMS: "Allgemeine Geschäftsbedingungen (AGB)",
  WITHDRAWAL: "Widerrufsbelehrung",
};

/** What a person may agree to and withdraw. */
export const CONSENT_KINDS = ["MAIL", "PHOTOS", "DATA"] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

export const CONSENT_LABELS: Record<ConsentKind, string> = {
  MAIL: "Post per E-Mail",
  PHOTOS: "Fotos",
  DATA: "Datennutzung",
};

/** The text a consent of a kind is given to. */
export const consentTextKind = (kind: ConsentKind): LegalTextKind => `CONSENT_${kind}`;

/** Who recorded a consent: the person in Mein Wuff, or the staff (from a paper form). */
export const CONSENT_SOURCES = ["PORTAL", "STAFF"] as const;
