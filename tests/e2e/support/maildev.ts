/** What the app's maildev (started by scripts/start.sh on E2E_MAILDEV_WEB_PORT) caught. */
export type CaughtMail = {
  id: string;
  subject: string;
  to: { address: string }[];
  headers: Record<string, string>;
  text: string;
  html: string;
  attachments?: { filename: string; contentType: string; generatedFileName: string }[];
};

export async function caughtMails(subjectStart: string): Promise<CaughtMail[]> {
  const response = await fetch(`http://127.0.0.1:${process.env.E2E_MAILDEV_WEB_PORT}/api/email`);
  return ((await response.json()) as CaughtMail[]).filter((mail) => mail.subject.startsWith(subjectStart));
}

/** An attachment of a caught mail, as bytes (maildev's /api/email/:id/attachment/:generatedFileName). */
export async function caughtAttachment(mail: CaughtMail, generatedFileName: string): Promise<Uint8Array> {
  const response = await fetch(`http://127.0.0.1:${process.env.E2E_MAILDEV_WEB_PORT}/api/email/${mail.id}/attachment/${encodeURIComponent(generatedFileName)}`);
  if (!response.ok) throw new Error(`Anhang ${generatedFileName} nicht lesbar: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
