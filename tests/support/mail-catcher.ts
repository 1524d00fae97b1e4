import { env } from "cloudflare:test";

/** A mail as maildev's REST API lists it (the fields the tests read). */
export type CaughtMail = {
  id: string;
  subject: string;
  to: { address: string; name?: string }[];
  cc?: { address: string; name?: string }[];
  headers: Record<string, string>;
  html: string;
  text: string;
  attachments?: { generatedFileName: string; filename: string; contentType: string; size: number }[];
};

/**
 * The mails maildev caught for `address` (it is shared by all test files running at once, so each
 * test mails its own test account and reads only that one's mails).
 */
export async function mailsTo(address: string): Promise<CaughtMail[]> {
  const response = await fetch(`${env.MAILDEV_API}/email`);
  const all = (await response.json()) as CaughtMail[];
  return all.filter((mail) => mail.to.some((to) => to.address === address));
}

/** An attachment's bytes as maildev keeps them. */
export async function attachmentOf(mail: CaughtMail, generatedFileName: string): Promise<Uint8Array> {
  const response = await fetch(`${env.MAILDEV_API}/email/${mail.id}/attachment/${encodeURIComponent(generatedFileName)}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** A unique SMTP test account for one test: mails outside production only go there. */
export async function useTestAccount(name: string): Promise<string> {
  const address = `${name}-${crypto.randomUUID().slice(0, 8)}@test.wuff.example`;
  await env.DB.prepare("UPDATE configuration SET smtp_test_account = ? WHERE id = 1").bind(address).run();
  return address;
}

/** A small real PDF (one page with text), as the invoice PDFs are stored in R2. */
export function tinyPdf(text: string): Uint8Array<ArrayBuffer> {
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}
