import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWithProgress, choosePorts, portIsFree, waitUntilReady } from '../start-helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const servers: Server[] = [];

function listen(handler: Parameters<typeof createServer>[1] = (_req, res) => res.end('ok')) {
  const server = createServer(handler);
  servers.push(server);
  return new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('npm start: the build says what it is doing', () => {
  it('prints a line when each package is built, and how long the build took', async () => {
    const lines: string[] = [];
    const ok = await buildWithProgress({
      cwd: root,
      env: { ...process.env, TURBO_FORCE: 'true' },
      say: (line: string) => lines.push(line),
      filter: '@funnel/contracts',
    });
    expect(ok).toBe(true);
    expect(lines[0]).toMatch(/^Building (\d+) of \1 packages \(0 cached; a first build takes about 90 s\)…$/);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}@funnel\/contracts built \(\d+ s\)$/));
    expect(lines.at(-1)).toMatch(/^Built in \d+ s\.$/);
  });
});

describe('npm start: the address is printed once the apps answer', () => {
  it('waits while an app answers 503 or does not listen yet, and resolves once every one answers 200', async () => {
    let ready = false;
    const starting = await listen((_req, res) => {
      res.statusCode = ready ? 200 : 503;
      res.end();
    });
    const free = await listen();
    let resolved = false;
    const waiting = waitUntilReady([
      `http://127.0.0.1:${starting}/readyz`,
      `http://127.0.0.1:${free}/readyz`,
    ]).then((value) => {
      resolved = true;
      return value;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(resolved).toBe(false);
    ready = true;
    await expect(waiting).resolves.toBe(true);
  });

  it('gives up after its deadline naming the app that never answered', async () => {
    const port = await listen();
    await new Promise((resolve) => servers.pop()!.close(resolve));
    await expect(waitUntilReady([`http://127.0.0.1:${port}/readyz`], { timeoutMs: 1_000 })).rejects.toThrow(
      `not ready after 1 s: http://127.0.0.1:${port}/readyz`,
    );
  });
});

describe('npm start: a second copy takes free ports', () => {
  it('keeps a free preferred port, replaces a taken one and says so, and leaves a set port alone', async () => {
    const taken = await listen();
    const free = await listen();
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const env: Record<string, string | undefined> = { SET_PORT: '1234' };
    const said: string[] = [];
    const { secondCopy } = await choosePorts(
      env,
      [
        { name: 'FREE_PORT', preferred: free, what: 'the free one' },
        { name: 'TAKEN_PORT', preferred: taken, what: 'the taken one' },
        { name: 'SET_PORT', preferred: taken, what: 'the set one' },
      ],
      (line: string) => said.push(line),
    );
    expect(secondCopy).toBe(true);
    expect(env.FREE_PORT).toBe(String(free));
    expect(env.TAKEN_PORT).not.toBe(String(taken));
    expect(await portIsFree(Number(env.TAKEN_PORT))).toBe(true);
    expect(env.SET_PORT).toBe('1234');
    expect(said).toEqual([
      `Port ${taken} (the taken one) is taken, another copy may be running: using ${env.TAKEN_PORT} (set TAKEN_PORT to choose).`,
    ]);
  });
});
