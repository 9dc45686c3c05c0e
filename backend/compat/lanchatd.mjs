// Starts a real lanchatd (the binary named by $LANCHATD) on a loopback port
// over a fresh data directory and stops it when the tests end.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export async function startLanchatd() {
  const binary = process.env.LANCHATD;
  if (!binary) throw new Error('set LANCHATD to the lanchatd binary (make test does)');
  const dataDir = mkdtempSync(join(tmpdir(), 'lanchat-compat-'));
  const proc = spawn(binary, ['serve', '--addr', '127.0.0.1:0', '--data', dataDir, '--dev'], {
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('lanchatd did not start within 15 s')), 15000);
    proc.on('exit', (code) => reject(new Error(`lanchatd exited early with ${code}`)));
    createInterface({ input: proc.stderr }).on('line', (line) => {
      const m = /^listening on (http:\/\/\S+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      } else if (!/ level=INFO msg=request /.test(line)) {
        // Each request is a log line; only warnings and errors are shown.
        process.stderr.write(`lanchatd: ${line}\n`);
      }
    });
  });
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => proc.on('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
