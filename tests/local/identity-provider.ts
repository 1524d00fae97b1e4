/**
 * A real OpenID Connect provider for local use and the tests (the npm package oidc-provider),
 * started by `npm start` and by the browser tests. It offers discovery, authorization code with
 * PKCE, signed ID tokens, and RP-initiated logout, like Auth0, Keycloak or Entra ID would.
 *
 * Demo users, all with the password "wuff": admin (ADMIN), finance (FINANCE), gdpr (GDPR),
 * staff (no role). Their roles are sent in a namespaced claim, Auth0 style.
 *
 *   IDP_PORT              port to listen on (default 8788); the issuer is http://localhost:IDP_PORT
 *   APP_URL               Wuff's origin (default http://localhost:8787): allowed redirect targets
 *   OIDC_CLIENT_ID        client id (default wuff)
 *   OIDC_CLIENT_SECRET    client secret (default wuff-local-secret)
 *   OIDC_ROLES_CLAIM      name of the roles claim (default https://wuff.example/roles)
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

const port = Number(process.env.IDP_PORT ?? 8788);
const issuer = `http://localhost:${port}`;
const appUrl = (process.env.APP_URL ?? "http://localhost:8787").replace(/\/$/, "");
const clientId = process.env.OIDC_CLIENT_ID ?? "wuff";
const clientSecret = process.env.OIDC_CLIENT_SECRET ?? "wuff-local-secret";
const rolesClaim = process.env.OIDC_ROLES_CLAIM ?? "https://wuff.example/roles";
export const DEMO_PASSWORD = "wuff";

type DemoUser = { name: string; email: string; roles: string[] };
const DEMO_USERS: Record<string, DemoUser> = {
  admin: { name: "Anna Admin", email: "admin@wuff.example", roles: ["ADMIN"] },
  finance: { name: "Fritz Finanz", email: "finance@wuff.example", roles: ["FINANCE"] },
  gdpr: { name: "Dana Datenschutz", email: "gdpr@wuff.example", roles: ["GDPR"] },
  staff: { name: "Sven Mitarbeiter", email: "staff@wuff.example", roles: [] },
};

// Both spellings of the app's origin may be used in a browser.
const appOrigins = [appUrl, appUrl.replace("://localhost", "://127.0.0.1")];
const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#f1f7f4;display:flex;justify-content:center;padding:3rem 1rem;margin:0}
main{background:#fff;border-radius:.5rem;box-shadow:0 1px 4px #0002;padding:2rem;width:100%;max-width:22rem}
h1{font-size:1.25rem;margin:0 0 1rem;color:#214a38}label{display:block;margin:.75rem 0 .25rem;font-size:.9rem}
input{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #aaa;border-radius:.25rem;font-size:1rem}
button{margin-top:1.25rem;width:100%;padding:.6rem;background:#275a43;color:#fff;border:0;border-radius:.25rem;font-size:1rem;cursor:pointer}
.error{color:#b91c1c;margin:.5rem 0}.hint{color:#555;font-size:.8rem;margin-top:1.25rem}</style></head>
<body><main>${body}</main></body></html>`;
}

function loginPage(uid: string, login = "", error?: string): string {
  return page(
    "Anmelden",
    `<h1>Bei Wuff anmelden</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="off">
<label for="login">Benutzername</label><input id="login" name="login" value="${escapeHtml(login)}" required autofocus>
<label for="password">Passwort</label><input id="password" name="password" type="password" required>
<button type="submit">Anmelden</button></form>
<p class="hint">Lokaler Identitätsanbieter. Demo-Benutzer: ${Object.keys(DEMO_USERS).join(", ")} (Passwort: ${DEMO_PASSWORD})</p>`,
  );
}

const configuration: Configuration = {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: appOrigins.map((origin) => `${origin}/auth/callback`),
      post_logout_redirect_uris: appOrigins.flatMap((origin) => [origin, `${origin}/`]),
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ],
  jwks: { keys: [{ ...signingKey, use: "sig", alg: "RS256", kid: "wuff-local" }] },
  cookies: { keys: [randomBytes(32).toString("hex")] },
  pkce: { required: () => true },
  // Roles travel in the ID token even though an access token is issued too (as Auth0 does).
  conformIdTokenClaims: false,
  claims: { openid: ["sub", rolesClaim], profile: ["name"], email: ["email"] },
  async findAccount(_ctx, accountId) {
    const user = DEMO_USERS[accountId];
    if (!user) return undefined;
    return {
      accountId,
      claims: async () => ({ sub: accountId, name: user.name, email: user.email, [rolesClaim]: user.roles }),
    };
  },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  features: {
    devInteractions: { enabled: false },
    rpInitiatedLogout: {
      enabled: true,
      // The provider asks the browser to confirm the logout (CSRF protection); with JavaScript
      // the form sends itself, without it the user presses the button.
      logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
        ctx.body = page(
          "Abmelden",
          `<h1>Von Wuff abmelden</h1>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Abmelden</button>
<script>var f=document.getElementById("op.logoutForm");var i=document.createElement("input");i.type="hidden";i.name="logout";i.value="yes";f.appendChild(i);f.submit();</script>`,
        );
      },
      postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
        ctx.body = page("Abgemeldet", `<h1>Du bist abgemeldet.</h1><p><a href="${escapeHtml(appUrl)}">Zurück zu Wuff</a></p>`);
      },
    },
  },
  renderError: async (ctx, out) => {
    ctx.type = "html";
    ctx.body = page("Fehler", `<h1>Anmeldung nicht möglich</h1><p class="error">${escapeHtml(String(out.error_description ?? out.error))}</p>`);
  },
  ttl: { Session: 12 * 60 * 60, Interaction: 60 * 60, Grant: 12 * 60 * 60 },
};

const provider = new Provider(issuer, configuration);

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function send(response: ServerResponse, status: number, html: string) {
  response.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  response.end(html);
}

/** Wuff is a first-party app: once logged in, the requested scopes are granted without asking. */
async function grantConsent(request: IncomingMessage, response: ServerResponse) {
  const { prompt, params, session } = await provider.interactionDetails(request, response);
  const grant = new provider.Grant({ accountId: session!.accountId, clientId: String(params.client_id) });
  const details = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(" "));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

async function handleInteraction(request: IncomingMessage, response: ServerResponse, path: string[]) {
  const [uid, step] = path;
  if (request.method === "GET" && !step) {
    const { prompt } = await provider.interactionDetails(request, response);
    if (prompt.name === "consent") return grantConsent(request, response);
    return send(response, 200, loginPage(uid));
  }
  if (request.method === "POST" && step === "login") {
    const form = await readForm(request);
    const login = (form.get("login") ?? "").trim().toLowerCase();
    if (!DEMO_USERS[login] || form.get("password") !== DEMO_PASSWORD) {
      return send(response, 401, loginPage(uid, login, "Benutzername oder Passwort ist falsch."));
    }
    await provider.interactionFinished(request, response, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    return;
  }
  send(response, 404, page("Nicht gefunden", "<h1>Nicht gefunden</h1>"));
}

const handleProvider = provider.callback();

const server = createServer((request, response) => {
  const url = new URL(request.url ?? "/", issuer);
  const [first, ...rest] = url.pathname.split("/").filter(Boolean);
  if (first === "interaction") {
    handleInteraction(request, response, rest).catch((error: unknown) => {
      console.error(error);
      send(response, 400, page("Fehler", `<h1>Anmeldung nicht möglich</h1><p class="error">${escapeHtml(String(error))}</p>`));
    });
    return;
  }
  handleProvider(request, response);
});

server.listen(port, "127.0.0.1", () => {
  console.info(`Lokaler OpenID-Provider: ${issuer} (Client ${clientId}, Benutzer ${Object.keys(DEMO_USERS).join(", ")}, Passwort ${DEMO_PASSWORD})`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.close(() => process.exit(0)));
