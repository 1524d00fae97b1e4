/** A camt.053.001.08 statement of the demo club's account (its IBAN, unless another is given) with the given credits, booked on 25.11.2026. */
export function camtWith(credits: { ref: string; cents: number; text: string; mandateId?: string; name?: string }[], iban = "DE89370400440532013000") {
  const amount = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  const entries = credits.map(
    (credit) => `<Ntry><Amt Ccy="EUR">${amount(credit.cents)}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-25</Dt></BookgDt>
      <AcctSvcrRef>${credit.ref}</AcctSvcrRef><NtryDtls><TxDtls>${credit.mandateId ? `<Refs><MndtId>${credit.mandateId}</MndtId></Refs>` : ""}<Amt Ccy="EUR">${amount(credit.cents)}</Amt>
      <RltdPties><Dbtr><Pty><Nm>${credit.name ?? "Mitglied"}</Nm></Pty></Dbtr></RltdPties><RmtInf><Ustrd>${credit.text}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Id>MANDATE-TEST</Id>
    <Acct><Id><IBAN>${iban}</IBAN></Id></Acct>${entries.join("\n")}</Stmt></BkToCstmrStmt></Document>`;
}

const camtAmount = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/**
 * A camt.053.001.08 statement of the demo club's account with what the bank books for
 * Lastschriftläufe: credits of one transaction (its end-to-end id) or of a batch booked as one sum
 * (Btch with its PmtInfId or MsgId), and returned debits (Rücklastschriften, RtrInf with the reason).
 */
export function camtDebitBookings(
  bookings: (
    | { kind: "credit"; ref: string; cents: number; endToEndId?: string; batch?: string }
    | { kind: "return"; ref: string; cents: number; endToEndId: string; reason: string }
  )[],
  iban = "DE89370400440532013000",
) {
  const entries = bookings.map((booking) => {
    const amount = `<Amt Ccy="EUR">${camtAmount(booking.cents)}</Amt>`;
    const head = `<Ntry>${amount}<CdtDbtInd>${booking.kind === "credit" ? "CRDT" : "DBIT"}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
      <BookgDt><Dt>2026-11-27</Dt></BookgDt><ValDt><Dt>2026-11-26</Dt></ValDt><AcctSvcrRef>${booking.ref}</AcctSvcrRef>
      <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>IDDT</Cd><SubFmlyCd>${booking.kind === "credit" ? "ESDD" : "UPDD"}</SubFmlyCd></Fmly></Domn></BkTxCd>`;
    if (booking.kind === "return") {
      return `${head}<NtryDtls><TxDtls><Refs><EndToEndId>${booking.endToEndId}</EndToEndId></Refs>${amount}
        <RtrInf><Rsn><Cd>${booking.reason}</Cd></Rsn></RtrInf></TxDtls></NtryDtls><AddtlNtryInf>SEPA Lastschrift Retoure</AddtlNtryInf></Ntry>`;
    }
    const batch = booking.batch ? `<Btch><PmtInfId>${booking.batch}</PmtInfId></Btch>` : "";
    const transaction = booking.endToEndId ? `<TxDtls><Refs><EndToEndId>${booking.endToEndId}</EndToEndId></Refs>${amount}</TxDtls>` : "";
    return `${head}<NtryDtls>${batch}${transaction}</NtryDtls><AddtlNtryInf>SEPA-Lastschrift Gutschrift</AddtlNtryInf></Ntry>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Id>LASTSCHRIFT-TEST</Id>
    <Acct><Id><IBAN>${iban}</IBAN></Id></Acct>${entries.join("\n")}</Stmt></BkToCstmrStmt></Document>`;
}
