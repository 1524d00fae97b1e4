/**
 * Migration 0058 (issue 33 item 5, the terms and the withdrawal notice) on a database as it stood
 * before it: the real migrations up to 0057, then texts in several versions, consents given to
 * them and membership applications naming the statutes and privacy notice they accepted, written
 * as Wuff wrote them then; the id counter stands past a text no longer there. 0058 rebuilds
 * legal_texts for its new CHECK: every text keeps its id, every consent and application still
 * names the same text, the counter goes on where it stood, no history of the copy is written, and
 * version 1 of the terms and the withdrawal notice is there.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TERMS, DEFAULT_WITHDRAWAL } from "~/db/seed/booking-texts";
import { migratedUpTo } from "../support/migrations";

let from58: Awaited<ReturnType<typeof migratedUpTo>>;

const all = async <T>(query: string) => (await env.DB.prepare(query).all<T>()).results;
const run = (...queries: string[]) => env.DB.batch(queries.map((query) => env.DB.prepare(query)));

/** Where each consent and application points, with the text's kind and version it meant. */
const REFERENCES = `
  SELECT 'consent' AS what, c.id, c.legal_text_id AS text_id, t.kind, t.version FROM consents c JOIN legal_texts t ON t.id = c.legal_text_id
  UNION ALL SELECT 'statutes', a.id, a.statutes_text_id, t.kind, t.version FROM membership_applications a JOIN legal_texts t ON t.id = a.statutes_text_id
  UNION ALL SELECT 'privacy', a.id, a.privacy_text_id, t.kind, t.version FROM membership_applications a JOIN legal_texts t ON t.id = a.privacy_text_id
  ORDER BY 1, 2`;

const OLD_TEXTS = "SELECT * FROM legal_texts WHERE kind NOT IN ('TERMS', 'WITHDRAWAL') ORDER BY id";
const sequence = async () => (await env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'legal_texts'").first<{ seq: number }>())?.seq;
const historyCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM change_history").first<{ n: number }>())!.n;

beforeAll(async () => {
  from58 = await migratedUpTo("0058_");
  expect(from58[0].name).toMatch(/^0058_/);
  // 0047 wrote version 1 of the three consent texts (ids 1 to 3); the club added more, as the
  // Einstellungen screen did, one of them since gone (the counter stands at 20).
  await run(
    "INSERT INTO member_types (id, code, name) VALUES (1, 'NONE', 'Kein Mitglied')",
    "INSERT INTO people (id, first_name, last_name, member_type_id) VALUES (1, 'Erika', 'Muster', 1), (2, 'Otto', 'Alt', 1)",
    `INSERT INTO legal_texts (id, kind, version, body, created_by, created_on) VALUES
      (4, 'STATUTES', 1, 'Satzung, Fassung 1', 'Anna Admin', '2026-01-10T09:00:00.000Z'),
      (5, 'PRIVACY', 1, 'Datenschutz, Fassung 1', 'Anna Admin', '2026-01-10T09:01:00.000Z'),
      (6, 'CONSENT_PHOTOS', 2, 'Fotos, Fassung 2', 'Anna Admin', '2026-02-01T09:00:00.000Z'),
      (7, 'PRIVACY', 2, 'Datenschutz, Fassung 2', 'Anna Admin', '2026-03-01T09:00:00.000Z'),
      (8, 'IMPRINT', 1, 'Hundefreunde e. V.', 'Anna Admin', '2026-03-01T09:05:00.000Z')`,
    "UPDATE sqlite_sequence SET seq = 20 WHERE name = 'legal_texts'",
    `INSERT INTO consents (person_id, kind, legal_text_id, given_on, withdrawn_on, source) VALUES
      (1, 'MAIL', 1, '2026-01-15', NULL, 'PORTAL'),
      (1, 'PHOTOS', 2, '2026-01-15', '2026-02-10', 'PORTAL'),
      (1, 'PHOTOS', 6, '2026-02-11', NULL, 'PORTAL'),
      (2, 'DATA', 3, '2026-01-20', NULL, 'STAFF')`,
    `INSERT INTO membership_applications (status, first_name, last_name, street_number, zip, city, email, date_of_birth, member_type_id, statutes_text_id, privacy_text_id, email_hash, ip_hash, token_hash, created_on, expires_on, confirmed_on)
      VALUES ('CONFIRMED', 'Karl', 'Kurz', 'Feldweg 1', '35390', 'Gießen', 'karl@example.org', '1990-05-01', 1, 4, 5, 'e1', 'i1', 't1', '2026-02-01T10:00:00.000Z', '2026-02-02T10:00:00.000Z', '2026-02-01T10:05:00.000Z'),
             ('UNCONFIRMED', 'Lena', 'Lang', 'Am Hang 2', '35037', 'Marburg', 'lena@example.org', '1985-07-12', 1, 4, 7, 'e2', 'i2', 't2', '2026-03-02T10:00:00.000Z', '2026-03-03T10:00:00.000Z', NULL)`,
  );
  await expect(run("INSERT INTO legal_texts (kind, version, body) VALUES ('TERMS', 1, 'AGB')")).rejects.toThrow(/CHECK constraint failed/);
});

describe("migration 0058 on texts, consents and applications written before it", () => {
  it("keeps every text with its id, what consents and applications name, and the id counter; writes no history of the copy", async () => {
    const textsBefore = await all(OLD_TEXTS);
    const referencesBefore = await all(REFERENCES);
    const historyBefore = await historyCount();
    expect(textsBefore).toHaveLength(8);
    expect(referencesBefore).toHaveLength(8);
    expect(await sequence()).toBe(20);

    for (const migration of from58) await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));

    expect(await all(OLD_TEXTS)).toEqual(textsBefore);
    expect(await all(REFERENCES)).toEqual(referencesBefore);
    expect(await all("PRAGMA foreign_key_check")).toEqual([]);
    // The new texts take the ids after the counter (not after the highest id left), which goes on.
    expect(await all("SELECT id, kind, version, created_by FROM legal_texts WHERE kind IN ('TERMS', 'WITHDRAWAL') ORDER BY id")).toEqual([
      { id: 21, kind: "TERMS", version: 1, created_by: "Wuff" },
      { id: 22, kind: "WITHDRAWAL", version: 1, created_by: "Wuff" },
    ]);
    expect(await sequence()).toBe(22);
    expect(await historyCount()).toBe(historyBefore);
    // The bodies are the wording the seed brings (app/db/seed/booking-texts.ts).
    const bodies = await all<{ kind: string; body: string }>("SELECT kind, body FROM legal_texts WHERE kind IN ('TERMS', 'WITHDRAWAL') ORDER BY kind");
    expect(bodies).toEqual([
      { kind: "TERMS", body: DEFAULT_TERMS },
      { kind: "WITHDRAWAL", body: DEFAULT_WITHDRAWAL },
    ]);
    // No scratch table left; the table has its unique index and its three history triggers again.
    expect(await all("SELECT name FROM sqlite_master WHERE name LIKE '%keep_legal_texts%' OR name LIKE '%new_legal_texts%'")).toEqual([]);
    expect(
      await all(
        "SELECT type, name FROM sqlite_master WHERE tbl_name = 'legal_texts' AND type IN ('index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY type, name",
      ),
    ).toEqual([
      { type: "index", name: "legal_texts_kind_version_unique" },
      { type: "trigger", name: "history_legal_texts_delete" },
      { type: "trigger", name: "history_legal_texts_insert" },
      { type: "trigger", name: "history_legal_texts_update" },
    ]);
  });

  it("takes a new version of the terms with its history, and still refuses an unknown kind and a version twice", async () => {
    const historyBefore = await historyCount();
    await run("INSERT INTO legal_texts (kind, version, body, created_by) VALUES ('TERMS', 2, 'AGB, Fassung 2', 'Anna Admin')");
    expect(await env.DB.prepare("SELECT id FROM legal_texts WHERE kind = 'TERMS' AND version = 2").first()).toEqual({ id: 23 });
    expect(await historyCount()).toBe(historyBefore + 1);
    await expect(run("INSERT INTO legal_texts (kind, version, body) VALUES ('COOKIES', 1, 'Cookies')")).rejects.toThrow(/CHECK constraint failed/);
    await expect(run("INSERT INTO legal_texts (kind, version, body) VALUES ('WITHDRAWAL', 1, 'Zweimal')")).rejects.toThrow(/UNIQUE constraint failed/);
    // A consent still has to name a text that exists.
    await expect(run("INSERT INTO consents (person_id, kind, legal_text_id, given_on, source) VALUES (2, 'MAIL', 999, '2026-04-01', 'STAFF')")).rejects.toThrow(
      /FOREIGN KEY constraint failed/,
    );
  });
});
