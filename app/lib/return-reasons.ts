/**
 * What a returned direct debit (Rücklastschrift, an R-transaction of the SEPA Core scheme) means,
 * by its ISO 20022 reason code (EPC "Guidance on reason codes for SDD R-transactions"), and what
 * Wuff does next (issue 31 item 3):
 * - BLOCK_MANDATE: the mandate cannot carry further debits (the account is closed or blocked, there
 *   is no valid mandate, the debtor died or blocked the creditor): no further collection under it
 *   until staff enter a new mandate.
 * - STOP_ITEM: the debtor objected to this debit (MD06: a refund within 8 weeks, § 675x BGB; MS02:
 *   refused) or the reason is unclear: the item is not collected again by a run; staff settle it
 *   (reminded like any open fee).
 * - PRESENT_AGAIN: insufficient funds (AM04): the next run may present it once more; a second return
 *   of the same item stops it.
 * Unknown codes stop the item: a debit is never presented again without knowing why it came back.
 */
type ReturnConsequence = "BLOCK_MANDATE" | "STOP_ITEM" | "PRESENT_AGAIN";

type ReturnReason = { text: string; consequence: ReturnConsequence };

const REASONS: Record<string, ReturnReason> = {
  AC01: { text: "IBAN fehlerhaft", consequence: "BLOCK_MANDATE" },
  AC04: { text: "Konto erloschen", consequence: "BLOCK_MANDATE" },
  AC06: { text: "Konto gesperrt", consequence: "BLOCK_MANDATE" },
  AC13: { text: "Kontoart für diese Lastschrift ungültig", consequence: "BLOCK_MANDATE" },
  AG01: { text: "Lastschrift von diesem Konto nicht zulässig", consequence: "BLOCK_MANDATE" },
  AG02: { text: "Ungültiger Buchungsschlüssel oder Dateiformat", consequence: "STOP_ITEM" },
  AM04: { text: "Deckung unzureichend", consequence: "PRESENT_AGAIN" },
  AM05: { text: "Doppelte Einreichung", consequence: "STOP_ITEM" },
  BE05: { text: "Zahlungsempfänger unbekannt", consequence: "STOP_ITEM" },
  CNOR: { text: "Bank des Zahlungsempfängers nicht erreichbar", consequence: "STOP_ITEM" },
  DNOR: { text: "Bank des Zahlungspflichtigen nicht erreichbar", consequence: "STOP_ITEM" },
  FF01: { text: "Ungültiges Dateiformat", consequence: "STOP_ITEM" },
  FF05: { text: "Lastschriftart ungültig", consequence: "STOP_ITEM" },
  MD01: { text: "Kein gültiges Mandat", consequence: "BLOCK_MANDATE" },
  MD02: { text: "Mandatsdaten fehlen oder sind fehlerhaft", consequence: "BLOCK_MANDATE" },
  MD06: { text: "Erstattung auf Verlangen des Zahlungspflichtigen", consequence: "STOP_ITEM" },
  MD07: { text: "Zahlungspflichtiger verstorben", consequence: "BLOCK_MANDATE" },
  MS02: { text: "Widerspruch des Zahlungspflichtigen", consequence: "STOP_ITEM" },
  MS03: { text: "Grund nicht angegeben", consequence: "STOP_ITEM" },
  RC01: { text: "BIC fehlerhaft", consequence: "STOP_ITEM" },
  RR01: { text: "Regulatorische Gründe (Angaben zum Zahlungspflichtigen fehlen)", consequence: "STOP_ITEM" },
  RR02: { text: "Regulatorische Gründe (Name oder Anschrift des Zahlungspflichtigen fehlt)", consequence: "STOP_ITEM" },
  RR03: { text: "Regulatorische Gründe (Name oder Anschrift des Zahlungsempfängers fehlt)", consequence: "STOP_ITEM" },
  RR04: { text: "Regulatorische Gründe", consequence: "STOP_ITEM" },
  SL01: { text: "Lastschriftsperre der Bank des Zahlungspflichtigen", consequence: "BLOCK_MANDATE" },
  TM01: { text: "Nach Annahmeschluss eingegangen", consequence: "STOP_ITEM" },
};

const UNKNOWN: ReturnReason = { text: "Grund unbekannt", consequence: "STOP_ITEM" };

/**
 * The returns the debtor has to answer for: no funds, a closed or blocked account. Only their
 * bank charge may be claimed from the debtor as damages (§ 280 Abs. 1 BGB, the actual charge:
 * a flat sum must not exceed the damage to be expected, § 309 Nr. 5 BGB). A refund (MD06) is the
 * debtor's right, a missing mandate the club's fault: those charges stay with the club.
 */
const CHARGEABLE = new Set(["AM04", "AC04", "AC06"]);

/** Whether the bank's charge for a return of this reason may be passed on to the debtor. */
export const isChargeableReturn = (code: string | null) => code !== null && CHARGEABLE.has(code);

/** The reason of a code (null or an unknown code: 'Grund unbekannt', the item stopped). */
export const returnReasonOf = (code: string | null): ReturnReason => (code ? (REASONS[code] ?? UNKNOWN) : UNKNOWN);

/** 'AC04 Konto erloschen' (or 'Grund unbekannt'). */
export const returnReasonLabel = (code: string | null) => (code ? `${code} ${returnReasonOf(code).text}` : UNKNOWN.text);
