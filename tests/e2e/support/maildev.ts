/** What the app's maildev (started by scripts/start.sh on E2E_MAILDEV_WEB_PORT) caught. */
export type CaughtMail = { id: string; subject: string; to: { address: string }[]; headers: Record<string, string>; text: string; html: string; attachments?: { filename: string; contentType: string }[] };

export async function caughtMails(subjectStart: string): Promise<CaughtMail[]> {
  const response = await fetch(`http://127.0.0.1:${process.env.E2E_MAILDEV_WEB_PORT}/api/email`);
  return ((await response.json()) as CaughtMail[]).filter((mail) => mail.subject.startsWith(subjectStart));
}
