import { createExecutionContext, env } from "cloudflare:test";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { createDb } from "~/db/client.server";
import type { Role, User } from "~/lib/access";
import { sessionCookieFor } from "~/services/auth.server";

export const DEMO_USERS = {
  staff: { id: "staff", name: "Sven Mitarbeiter", email: "staff@wuff.example", roles: [] as Role[] },
  gdpr: { id: "gdpr", name: "Dana Datenschutz", email: "gdpr@wuff.example", roles: ["GDPR"] as Role[] },
  finance: { id: "finance", name: "Fritz Finanz", email: "finance@wuff.example", roles: ["FINANCE"] as Role[] },
  admin: { id: "admin", name: "Anna Admin", email: "admin@wuff.example", roles: ["ADMIN"] as Role[] },
} satisfies Record<string, User>;

export type DemoUserName = keyof typeof DEMO_USERS;

function testContext(): AppLoadContext {
  return { cloudflare: { env, ctx: createExecutionContext() }, db: createDb(env.DB), queryTimer: { count: 0, milliseconds: 0 }, nonce: "test-nonce" };
}

/** A logged-in session for the user, as the Cookie request header carries it. */
export async function loginCookie(user: DemoUserName | User, now = new Date()): Promise<string> {
  const setCookie = await sessionCookieFor(testContext(), typeof user === "string" ? DEMO_USERS[user] : user, now);
  return setCookie.split(";")[0];
}
