/**
 * @jest-environment node
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm start` as an operator or a process manager runs it: the signal goes to the npm process,
 * and the server behind it must shut down cleanly (exit code 0 comes only from the shutdown
 * handler; a process killed by the signal has none) and leave nothing listening.
 */
const root = path.resolve(__dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** Whether anything accepts connections on the port, on IPv4 or IPv6 loopback (`localhost` may be either). */
async function listening(port: number): Promise<boolean> {
  const tryHost = (host: string) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  return (await tryHost('127.0.0.1')) || (await tryHost('::1'));
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on to the server, which shuts down; npm exits 0 and nothing listens any more',
    async (signal) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-start-'));
      const publicDir = path.join(dir, 'public');
      fs.mkdirSync(publicDir);
      // A build is there, so `npm start` does not run `gatsby build`.
      fs.writeFileSync(path.join(publicDir, 'index.html'), '<!doctype html><title>Muntly</title>');
      const [port, idpPort] = [await freePort(), await freePort()];
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        IDP_PORT: String(idpPort),
        DATA_DIR: path.join(dir, 'data'),
        PUBLIC_DIR: publicDir,
        LOG_LEVEL: 'info',
      };
      for (const name of ['DATABASE_URL', 'AUTH0_DOMAIN', 'HOST', 'SMTP_URL']) delete env[name];
      // Its own process group, so that whatever it started can be cleaned up if the test fails.
      const npm = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let output = '';
      npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        npm.on('exit', (code, signal) => resolve({ code, signal })),
      );
      try {
        const deadline = Date.now() + 90_000;
        for (;;) {
          if (npm.exitCode !== null) throw new Error(`npm start exited early (${npm.exitCode}):\n${output}`);
          if (Date.now() > deadline) throw new Error(`the server never became ready:\n${output}`);
          const ready = await fetch(`http://localhost:${port}/api/ready`).then(
            (r) => r.ok,
            () => false,
          );
          if (ready) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(await listening(idpPort)).toBe(true);

        npm.kill(signal);
        let timer: NodeJS.Timeout | undefined;
        const result = await Promise.race([
          exited,
          new Promise((resolve) => (timer = setTimeout(() => resolve('still running after 30 s'), 30_000))),
        ]);
        clearTimeout(timer);
        expect(result).toEqual({ code: 0, signal: null });
        expect(output).toContain(`"signal":"${signal}"`); // the shutdown handler ran
        expect(await listening(port)).toBe(false);
        expect(await listening(idpPort)).toBe(false);
      } finally {
        try {
          process.kill(-npm.pid!, 'SIGKILL'); // anything left of the group (an orphaned server)
        } catch {
          // nothing left: the expected case
        }
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    150_000,
  );
});
