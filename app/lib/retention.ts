/**
 * How long each kind of record is kept (issue 30 item 5), by § 147 AO as amended by the Viertes
 * Bürokratieentlastungsgesetz (in force since 1.1.2025) and § 14b Abs. 1 UStG:
 * - books and records (Bücher und Aufzeichnungen, § 147 Abs. 1 Nr. 1 AO): 10 years. Wuff's book is
 *   the payment journal: its entries and their allocations to invoices and fees.
 * - booking vouchers (Buchungsbelege, § 147 Abs. 1 Nr. 4 AO; invoices also § 14b Abs. 1 UStG):
 *   8 years. Invoices, Stornorechnungen and Gutschriften with their rows and PDFs, the fees (what
 *   was charged), the bank statement entries booked, the Lastschriften and the Mollie payments.
 *   The shorter period applies to every voucher whose old period had not ended by then (§ 27
 *   Abs. 40 UStG for invoices).
 * - business letters sent (Wiedergaben der abgesandten Handels- oder Geschäftsbriefe, § 147
 *   Abs. 1 Nr. 2 und 3 AO): 6 years. The Mahnungen with their letters.
 * Each period starts at the end of the calendar year in which the record arose (§ 147 Abs. 4 AO):
 * an invoice of 2026 is kept until 31.12.2034. Wuff does not know of a tax assessment still open
 * (§ 147 Abs. 3 Satz 5 AO stops the period while it is): the club names such a case to whoever
 * runs Wuff before the cron erases (docs/gdpr.md).
 */
export const RETENTION_KINDS = ["books", "vouchers", "letters"] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

export const RETENTION: Record<RetentionKind, { years: number; label: string; one: string; records: string; rule: string }> = {
  books: {
    years: 10,
    label: "Bücher",
    one: "Eintrag im Zahlungsjournal (Buch)",
    records: "Zahlungsjournal: Buchungen und ihre Zuordnungen zu Rechnungen und Posten",
    rule: "§ 147 Abs. 1 Nr. 1, Abs. 3 AO",
  },
  vouchers: {
    years: 8,
    label: "Buchungsbelege",
    one: "Buchungsbeleg",
    records: "Rechnungen, Stornorechnungen und Gutschriften (mit Positionen und PDF), Posten, gebuchte Kontoauszug-Buchungen, Lastschriften, Online-Zahlungen",
    rule: "§ 147 Abs. 1 Nr. 4, Abs. 3 AO, § 14b Abs. 1 UStG",
  },
  letters: {
    years: 6,
    label: "Geschäftsbriefe",
    one: "Geschäftsbrief",
    records: "Mahnungen mit ihren Mahnschreiben",
    rule: "§ 147 Abs. 1 Nr. 2 und 3, Abs. 3 AO",
  },
};

/** Why a record of this kind is kept, as the erasure's preview says it. */
export const retentionReason = (kind: RetentionKind) =>
  `${RETENTION[kind].one}, aufzubewahren ${RETENTION[kind].years} Jahre ab Ende seines Jahres (${RETENTION[kind].rule})`;

/** The last day a record of `kind` dated in `column` (ISO) is kept, in SQL: the end of its calendar year plus the period. */
export const retentionEndSql = (column: string, kind: RetentionKind) => `(CAST(substr(${column}, 1, 4) AS INTEGER) + ${RETENTION[kind].years}) || '-12-31'`;
