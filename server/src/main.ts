import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRemoteJWKSet } from 'jose';
import { localizePath } from '#domain/languages';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { startIdp } from './dev/idp';
import { localIdpAccess } from './dev/idp-access';
import { loadOrCreateIdpKeys } from './dev/keys';
import { DEMO_PASSWORD, DEMO_USERS, idpUsersRepository } from './dev/users';
import { mailSignUp } from './modules/notify/service';
import { clientOf, mailSecondFactorCode, recordSignIn, secondFactorChanged } from './modules/protection/service';

/**
 * `npm start`: the site and the API on one origin (http://localhost:8000 by default), the local
 * identity provider on http://localhost:4001 (unless AUTH0_DOMAIN is set), PGlite under DATA_DIR
 * unless DATABASE_URL is set. Builds the site first when there is no build.
 */
async function main() {
  const config = loadConfig();
  if (!fs.existsSync(path.join(config.PUBLIC_DIR, 'index.html'))) {
    console.log('No site build found: running `gatsby build` first (about a minute)…');
    const build = spawnSync('npx', ['gatsby', 'build'], {
      cwd: path.resolve(__dirname, '../..'),
      stdio: 'inherit',
      env: { ...process.env, GATSBY_TELEMETRY_DISABLED: '1' },
    });
    if (build.status !== 0) throw new Error('The site build failed; see the output above.');
  }

  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  await database.migrate();

  const keys = config.localIdp ? await loadOrCreateIdpKeys(config.DATA_DIR) : undefined;
  const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', config.authIssuer));
  const app = await buildApp(config, {
    database,
    jwks,
    localIdp:
      keys &&
      localIdpAccess({ keys, issuer: config.authIssuer, audience: config.authAudience, clientId: config.authClientId }),
    // Auth0 access tokens carry no email or name; the provider's userinfo endpoint has them.
    lookupProfile: async (token) => {
      const response = await fetch(new URL('userinfo', config.authIssuer), {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!response.ok) return {};
      const info = (await response.json()) as { email?: string; name?: string };
      return { email: info.email, name: info.name };
    },
  });

  let idp: { close(): Promise<void> } | undefined;
  if (keys) {
    for (const user of DEMO_USERS) await idpUsersRepository.ensure(database.db, { ...user, password: DEMO_PASSWORD });
    idp = await startIdpUnlessRunning({
      issuer: config.authIssuer,
      port: config.IDP_PORT,
      host: config.HOST,
      audience: config.authAudience,
      clientId: config.authClientId,
      siteOrigin: config.siteOrigin,
      keys,
      db: database.db,
      log: app.log,
      // Account protection hears of each login: a new device is a security event and an email.
      onSignIn: async (signIn) => {
        await recordSignIn(
          database.db,
          { links: app.protection.links, issuer: config.authIssuer },
          {
            subject: signIn.subject,
            deviceKey: signIn.deviceKey,
            client: clientOf(signIn.userAgent),
            at: signIn.at,
            language: signIn.language,
          },
        );
      },
      // The sign-up form's email (it answers a new address and a taken one alike).
      mailSignUp: (input) =>
        mailSignUp(database.db, {
          ...input,
          loginUrl: new URL(localizePath('/login/', input.language), config.siteOrigin).toString(),
        }),
      // Two-step login changes with a code emailed to the account, and as a security change.
      secondFactor: {
        mailCode: ({ userAgent, ...change }) =>
          mailSecondFactorCode(database.db, app.protection.links, {
            ...change,
            issuer: config.authIssuer,
            client: clientOf(userAgent),
          }),
        changed: (tx, { userAgent, ...change }) =>
          secondFactorChanged(tx, app.protection, {
            ...change,
            issuer: config.authIssuer,
            client: clientOf(userAgent),
          }),
      },
    });
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await idp?.close();
    await app.close(); // stops accepting, waits for in-flight requests, closes the database
    process.exit(0);
  };
  // `on`, not `once`: Ctrl-C reaches the server twice under `npm start` (from the terminal and
  // forwarded by npm), and a second signal without a listener would kill it mid-shutdown.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Background work (server/src/workers): the interval workers run since the app was built; the
  // faucet ticker starts now (every replica runs it; a PostgreSQL advisory lock lets one lead).
  await app.workers.start();
  const lines = [
    '',
    `  Muntly is running on ${config.siteOrigin}  (API: ${config.siteOrigin}/api, docs: ${config.siteOrigin}/api/docs)`,
    `  Database: ${database.kind === 'pglite' ? `PGlite in ${config.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)'}`,
  ];
  if (keys) {
    lines.push(`  Local identity provider: ${config.authIssuer}`);
    lines.push(`  Demo users (password "${DEMO_PASSWORD}"): ${DEMO_USERS.map((u) => u.email).join(', ')}`);
  } else {
    lines.push(`  Identity provider: Auth0 ${config.authIssuer}`);
  }
  console.log(`${lines.join('\n')}\n`);
}

/**
 * Two local replicas on one machine (the replica and crash tests) share one identity provider:
 * the second finds the port taken and uses the first one's (same keys in DATA_DIR, same issuer).
 */
async function startIdpUnlessRunning(
  options: Parameters<typeof startIdp>[0],
): Promise<{ close(): Promise<void> } | undefined> {
  try {
    return await startIdp(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    options.log.warn(`the identity provider's port ${options.port} is taken: using the provider already running there`);
    return undefined;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
