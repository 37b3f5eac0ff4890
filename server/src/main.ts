import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadConfig } from './config';
import { buildApp } from './app';

/**
 * `npm start`: serves the production build of the site (building it first when absent) on
 * one origin, http://localhost:8000 by default.
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

  const app = await buildApp(config);
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  console.log(`Muntly is running on ${address.replace('127.0.0.1', 'localhost').replace('[::1]', 'localhost')}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
