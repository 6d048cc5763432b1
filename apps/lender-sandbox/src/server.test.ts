import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The shell prints its pid and becomes the server (exec), so the test can stop the server itself: under `script`
// it runs in a session of its own, out of reach of a signal to the test's child process group.
const serve = `echo "server pid $$"; exec "${process.execPath}" --import tsx --conditions=source src/server.ts`;

/** Stops the server by its pid and waits until it is gone (SIGKILL after 10 s). */
async function stopServer(output: string): Promise<void> {
  const pid = Number(/server pid (\d+)/.exec(output)?.[1]);
  if (!pid) return;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(pid, 'SIGTERM');
  for (let waited = 0; alive() && waited < 10_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (alive()) process.kill(pid, 'SIGKILL');
}

/** Starts the sandbox (on a free port) and returns what it printed up to its "ready" line, then stops it. */
function startupOutput(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: appDir,
      env: { ...process.env, SANDBOX_PORT: '0', NODE_ENV: undefined, ...env },
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    let output = '';
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      void stopServer(output).then(() =>
        reject(new Error(`no "lender sandbox ready" within 30 s:\n${output}`)),
      );
    }, 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (!output.includes('lender sandbox ready')) return;
      clearTimeout(timer);
      child.stdout.destroy();
      void stopServer(output).then(() => {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          // the wrapper ended with the server
        }
        resolve(output);
      });
    });
  });
}

describe('the sandbox’s logs', () => {
  it('are pretty lines at a terminal in development', async () => {
    // `script` gives the server a pseudo-terminal as its stdout, as a person's shell would.
    const output = await startupOutput('script', ['-qfec', serve, '/dev/null'], {});
    const ready = output.split(/\r?\n/).find((line) => line.includes('lender sandbox ready'))!;
    expect(ready.trimStart().startsWith('{')).toBe(false);
    expect(ready).toMatch(/INFO/);
  }, 60_000);

  it('stay JSON lines when stdout is not a terminal, and in production at a terminal', async () => {
    for (const output of [
      await startupOutput('sh', ['-c', serve], {}),
      await startupOutput('script', ['-qfec', serve, '/dev/null'], { NODE_ENV: 'production' }),
    ]) {
      const ready = output.split(/\r?\n/).find((line) => line.includes('lender sandbox ready'))!;
      expect(JSON.parse(ready)).toMatchObject({ msg: 'lender sandbox ready', level: 30 });
    }
  }, 120_000);
});
