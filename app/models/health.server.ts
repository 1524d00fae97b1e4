import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { JobMessage } from "~/jobs/messages";

export type ProbeResult = { ok: true; detail: string } | { ok: false; error: string };

async function probe(run: () => Promise<string>): Promise<ProbeResult> {
  try {
    return { ok: true, detail: await run() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The public liveness answer's only question: does D1 answer a read? Counts and writes nothing. */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await db.all(sql`SELECT 1`);
    return true;
  } catch {
    return false;
  }
}

/** D1: a real query against the migrated schema. */
function probeDatabase(db: Db): Promise<ProbeResult> {
  return probe(async () => {
    const [row] = await db.all<{ people: number; migrations: number }>(
      sql`SELECT (SELECT count(*) FROM people) AS people, (SELECT count(*) FROM d1_migrations) AS migrations`,
    );
    return `${row.migrations} Migration(en), ${row.people} Personen`;
  });
}

/** R2: put, read back and delete a probe object. */
function probeBucket(bucket: R2Bucket): Promise<ProbeResult> {
  return probe(async () => {
    const key = `health/probe-${crypto.randomUUID()}.txt`;
    const body = `wuff ${new Date().toISOString()}`;
    await bucket.put(key, body);
    try {
      const stored = await bucket.get(key);
      if ((await stored?.text()) !== body) throw new Error("gelesener Inhalt weicht ab");
    } finally {
      await bucket.delete(key);
    }
    return "schreiben, lesen, löschen";
  });
}

/** Queue: send a probe message that the consumer acknowledges. */
function probeQueue(queue: Queue): Promise<ProbeResult> {
  return probe(async () => {
    const message: JobMessage = { type: "health-probe", sentOn: new Date().toISOString() };
    await queue.send(message);
    return "Nachricht gesendet";
  });
}

export type HealthReport = {
  healthy: boolean;
  message: string;
  checks: { d1: ProbeResult; r2: ProbeResult; queue: ProbeResult };
};

/** The self-test of ADMIN (GET /api/protected/test, the screen Test, Tasks → 'Server testen'): D1, R2 and the queue, each really used. */
export async function checkHealth(db: Db, env: Pick<Env, "INVOICES" | "JOBS">): Promise<HealthReport> {
  const [d1, r2, queue] = await Promise.all([probeDatabase(db), probeBucket(env.INVOICES), probeQueue(env.JOBS)]);
  const healthy = d1.ok && r2.ok && queue.ok;
  return { healthy, message: healthy ? "Wuff läuft: Datenbank, Speicher und Warteschlange arbeiten." : "Wuff ist gestört.", checks: { d1, r2, queue } };
}
