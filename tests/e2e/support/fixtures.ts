import { test as base, expect, type BrowserContextOptions } from "@playwright/test";
import { DEMO_NAMES, sessionCookieFromProvider, type DemoUser } from "./login";

type StorageState = Exclude<BrowserContextOptions["storageState"], string | undefined>;

/**
 * A session younger than this is handed out again. The server ends a session idle for 610 s (the
 * idle time and its countdown, app/services/auth.server.ts); each test that gets it uses it, so a
 * session handed out less than five minutes ago has been idle for less than that.
 */
const REUSE_MS = 5 * 60_000;

type RoleSessions = {
  /** The browser state of a logged-in `user` (the session cookie), made once per worker and role. */
  stateFor(user: DemoUser): Promise<StorageState>;
};

type TestFixtures = {
  /**
   * The demo user whose session every page of the test starts with (`test.use({ loggedInAs })`),
   * or none: the test is logged out, or logs in itself (the login tests).
   */
  loggedInAs: DemoUser | undefined;
  /** For a test that needs another role than the file's: opens `path` logged in as `user`. */
  openAs: (user: DemoUser, path: string) => Promise<void>;
};

/**
 * Playwright's test with one login per role and worker: the first test of a worker that asks for a
 * role logs in over HTTP through the real provider (sessionCookieFromProvider, a real session row
 * in D1); later tests of that worker start with the same cookie as their storageState instead of
 * logging in anew. Tests that end their session (logout, idle logout) log in on their own
 * (loginThroughProvider) and never use these.
 */
export const test = base.extend<TestFixtures, { sessions: RoleSessions }>({
  sessions: [
    // Playwright reads the fixtures a fixture needs from its first parameter: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL;
      if (!baseURL) throw new Error("sessions: kein baseURL in der Playwright-Konfiguration");
      const origin = new URL(baseURL).origin;
      const made = new Map<DemoUser, { state: Promise<StorageState>; at: number }>();
      await provide({
        stateFor(user) {
          const known = made.get(user);
          if (known && Date.now() - known.at < REUSE_MS) return known.state;
          const state = sessionCookieFromProvider(origin, user, "/").then((cookie) => ({
            cookies: [
              {
                name: cookie.name,
                value: cookie.value,
                domain: cookie.domain ?? new URL(origin).hostname,
                path: cookie.path ?? "/",
                expires: cookie.expires ?? -1,
                httpOnly: cookie.httpOnly ?? false,
                secure: cookie.secure ?? false,
                sameSite: cookie.sameSite ?? "Lax",
              },
            ],
            origins: [],
          }));
          made.set(user, { state, at: Date.now() });
          // A failed login is not kept: the next test tries again.
          state.catch(() => made.delete(user));
          return state;
        },
      });
    },
    { scope: "worker" },
  ],
  loggedInAs: [undefined, { option: true }],
  storageState: async ({ loggedInAs, sessions, storageState }, provide) => {
    await provide(loggedInAs ? await sessions.stateFor(loggedInAs) : storageState);
  },
  openAs: async ({ page, sessions }, provide) => {
    await provide(async (user, path) => {
      await test.step(`Als ${user} öffnen: ${path}`, async () => {
        await page.context().addCookies((await sessions.stateFor(user)).cookies);
        await page.goto(path);
        await expect(page.getByText(`Willkommen, ${DEMO_NAMES[user]}`)).toBeVisible();
      });
    });
  },
});

export { expect };
