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
