/**
 * `npm run test:compose` (issue 22): the docker-compose stack, end to end, on a real Docker engine.
 *
 * Builds the three app images from infra/ (on local stand-ins for the official base images, see
 * scripts/compose-test/engine.ts), starts docker-compose.yml with the proxy, two BFFs, two workers, Redis,
 * PostgreSQL, Prometheus and the `sandbox` profile, waits for every healthcheck, then, through the proxy's port
 * published on 127.0.0.1 only: walks a funnel lead (create, every step, submit, outcome over the event stream) and
 * sends a partner lead whose signed webhook must arrive; checks the outcome is in PostgreSQL, that Prometheus
 * has every target up and every alert rule loaded, and that /readyz answers in every app container; kills one
 * BFF and one worker container during a burst and counts the leads lost (must be 0). Tears everything down:
 * containers, networks, volumes, its app images, and the dockerd it started.
 *
 * `--images-only` builds the images and stops there, keeping every build stage in the engine's image store under
 * ~/.cache, so a run that follows builds from the cache: npm test starts it at once, beside the type check and
 * the unit tests, and the full run once the unit tests are done.
 *
 * Exit code 1 on any failure. Prints image sizes, time to healthy, the lead's outcome, targets up, rules loaded
 * and the lost count.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { lookup as dnsLookup } from 'node:dns';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { Agent, fetch as undiciFetch, setGlobalDispatcher } from 'undici';
import type { PartnerLeadStatus } from '@funnel/contracts/partner-api';
import { verifyWebhookSignature } from '@funnel/server-runtime/webhook-signature';
import { FICTITIOUS_BRAND_SETTINGS } from '@funnel/testing/brand-settings';
import { freePort } from '@funnel/testing/processes';
import {
  awaitOutcomeEvent,
  borrowerLead,
  sendPartnerLead,
  walkFunnelLead,
} from '@funnel/testing/lead-traffic';
import {
  BASE_IMAGES,
  REPO_ROOT,
  buildBaseImages,
  buildImage,
  log,
  run,
  startEngine,
  type Engine,
} from './compose-test/engine.js';

/** Only the images (base and app), kept in the engine's store for the run that follows: npm test's first stage. */
const imagesOnly = process.argv.includes('--images-only');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

const APPS = {
  bff: 'infra/bff.Dockerfile',
  worker: 'infra/worker.Dockerfile',
  'lender-sandbox': 'infra/lender-sandbox.Dockerfile',
};
const APP_IMAGE_VARS = {
  bff: 'BFF_IMAGE',
  worker: 'WORKER_IMAGE',
  'lender-sandbox': 'SANDBOX_IMAGE',
} as const;
const BURST_PARTNER_LEADS = 40;
/** The version the images are built and labelled with, and that /healthz must then report. */
const APP_VERSION = `compose-test-${randomBytes(3).toString('hex')}`;
const BURST_FUNNEL_LEADS = 6;
const PARTNER = 'compose';
const WEBHOOK_RECEIVER = 'webhook-receiver';

function imageBuilt(env: NodeJS.ProcessEnv, image: string): boolean {
  return spawnSync('docker', ['image', 'inspect', image], { env, stdio: 'ignore' }).status === 0;
}

/** The compose command: `docker compose` (v2) when present, else `docker-compose` (v1). */
function composeCommand(env: NodeJS.ProcessEnv): string[] {
  return spawnSync('docker', ['compose', 'version'], { env, stdio: 'ignore' }).status === 0
    ? ['docker', 'compose']
    : ['docker-compose'];
}

async function main(): Promise<number> {
  const started = Date.now();
  const tmp = mkdtempSync(path.join(tmpdir(), 'fct-'));
  const teardown: Array<() => Promise<void> | void> = [() => rmSync(tmp, { recursive: true, force: true })];
  const project = `funnelct${randomBytes(3).toString('hex')}`;
  const rows: Array<[string, string]> = [];
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
    log(`${ok ? 'ok' : 'FAILED'}: ${what}`);
  };
  // Once, from `finally` or from Ctrl-C / a SIGTERM, whichever comes first: an interrupted run leaves no engine,
  // bridge or /run folder behind either.
  let tornDown: Promise<void> | undefined;
  const tearDown = () =>
    (tornDown ??= (async () => {
      for (const step of teardown.reverse()) {
        try {
          await step();
        } catch (error) {
          failures.push(`teardown: ${(error as Error).message}`);
          console.error(error);
        }
      }
    })());
  const interrupted = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping what this run started`);
    void tearDown().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  function summary(): number {
    rows.push(['total', `${seconds(started)} s`]);
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log('\ncompose end-to-end');
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
    console.log(failures.length === 0 ? '\nPASS' : `\nFAIL\n  ${failures.join('\n  ')}`);
    return failures.length === 0 ? 0 : 1;
  }
  let engine: Engine | undefined;
  try {
    engine = await startEngine(tmp);
    const ownEngine = engine;
    teardown.push(() => ownEngine.stop());
    const env = engine.env;
    const docker = (...args: string[]) => run('docker', args, { env });

    // Images.
    const buildStarted = Date.now();
    await buildBaseImages(engine, tmp);
    log(`base images ready in ${seconds(buildStarted)} s`);
    const appImages: Record<string, string> = {};
    teardown.push(() => {
      for (const [app, image] of Object.entries(appImages)) {
        // In its own engine, the newest build of each app keeps a cache tag, so its layers (npm ci, the build)
        // stay for the next run's build of the same inputs; the previous generation goes with the prune below.
        if (ownEngine.own && imageBuilt(env, image))
          run('docker', ['tag', image, `funnel-test/app-cache:${app}`], { env });
        run('docker', ['image', 'rm', '--force', image], { env });
      }
      // In an engine of its own, every untagged image is a build stage of this run; with --images-only they are
      // the cache the run that follows builds from, and stay.
      if (ownEngine.own && !imagesOnly) run('docker', ['image', 'prune', '--force'], { env });
    });
    // The three Dockerfiles open with the same prune and build stages: the first image builds them, the other
    // two take them from the cache, side by side; then each is checked.
    const buildApp = async ([app, dockerfile]: [string, string]) => {
      const image = `${project}-${app}:test`;
      const appStarted = Date.now();
      appImages[app] = image;
      await buildImage(env, {
        dockerfile: path.join(REPO_ROOT, dockerfile),
        tag: image,
        args: { NODE_IMAGE: BASE_IMAGES.NODE_IMAGE, APP_VERSION },
        context: REPO_ROOT,
      });
      log(`image ${app} built in ${seconds(appStarted)} s`);
    };
    const [first, ...others] = Object.entries(APPS);
    await buildApp(first!);
    await Promise.all(others.map(buildApp));
    if (imagesOnly) {
      rows.push([
        'images only',
        'built and kept for the next run (--images-only); the stack was not started',
      ]);
      await tearDown();
      return summary();
    }
    for (const [app, image] of Object.entries(appImages)) {
      const size = Number(docker('image', 'inspect', '-f', '{{.Size}}', image).trim());
      rows.push([`image ${app}`, `${(size / 1e6).toFixed(0)} MB`]);
      const user = docker('image', 'inspect', '-f', '{{.Config.User}}', image).trim();
      check(user === 'node', `${app} image runs as the unprivileged user (${user || 'root'})`);
      const healthcheck = docker('image', 'inspect', '-f', '{{json .Config.Healthcheck}}', image).trim();
      check(healthcheck.includes('/readyz'), `${app} image has a HEALTHCHECK on /readyz`);
      const pglite = spawnRun(env, [
        'run',
        '--rm',
        '--entrypoint',
        'sh',
        image,
        '-c',
        'ls -d node_modules/@electric-sql/pglite 2>/dev/null | wc -l',
      ]);
      check(pglite.trim() === '0', `${app} image carries no PGlite`);
      const devTools = spawnRun(env, [
        'run',
        '--rm',
        '--entrypoint',
        'sh',
        image,
        '-c',
        'ls -d node_modules/typescript node_modules/pino-pretty 2>/dev/null | wc -l',
      ]);
      check(devTools.trim() === '0', `${app} image carries no TypeScript compiler and no pino-pretty`);
      const label = docker(
        'image',
        'inspect',
        '-f',
        '{{index .Config.Labels "org.opencontainers.image.version"}}',
        image,
      );
      check(label.trim() === APP_VERSION, `${app} image is labelled with its version (${label.trim()})`);
    }
    const baseNote = 'on the local stand-in base image (Debian minbase + Node 24), not node:24-bookworm-slim';
    rows.push(['images built on', baseNote]);

    // The stack's settings: one env file, as an operator writes it.
    const ports = {
      HTTPS_PORT: await freePort(),
      HTTP_PORT: await freePort(),
      PROMETHEUS_PORT: await freePort(),
      SANDBOX_PUBLISHED_PORT: await freePort(),
      GRAFANA_PORT: await freePort(),
    };
    const apiKey = `fpk_${randomBytes(24).toString('base64url')}`;
    const webhookSecret = randomBytes(24).toString('hex');
    const envFile = path.join(tmp, 'stack.env');
    // The webhook receiver stands for a partner on the internet: the stack's network uses a documentation range
    // (198.51.100.0/24) the worker's address guard treats as public, and the receiver's certificate is trusted by
    // the workers through the test override, so production's "https to public addresses only" rule holds.
    const settings: Record<string, string | number> = {
      ...FICTITIOUS_BRAND_SETTINGS,
      FIELD_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      COOKIE_SECRETS: randomBytes(32).toString('hex'),
      SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
      // Characters a URL would have to escape: the password travels as PGPASSWORD.
      POSTGRES_PASSWORD: `p@ss/w:rd#?%&${randomBytes(6).toString('hex')}`,
      GRAFANA_ADMIN_PASSWORD: randomBytes(12).toString('hex'),
      SITE_ADDRESS: 'localhost',
      APP_VERSION,
      LENDER_NETWORK_URL: 'http://lender-sandbox:4010',
      REFERENCE_DATA_DIR: process.env.REFERENCE_DATA_DIR ?? path.resolve(REPO_ROOT, '../shared/data'),
      PARTNER_API_KEYS: `${PARTNER}:aff-compose:${createHash('sha256').update(apiKey).digest('hex')}:100000`,
      PARTNER_WEBHOOK_SECRETS: `${PARTNER}:${webhookSecret}`,
      RATE_LIMIT_MAX: 100000,
      DUPLICATE_WINDOW_DAYS: 0,
      DECISION_DEADLINE_MS: 60000,
      RECONCILE_DEADLINE_GRACE_MS: 10000,
      LOG_LEVEL: 'info',
      SANDBOX_LOG_LEVEL: 'warn',
      SANDBOX_LATENCY_MIN_MS: 20,
      SANDBOX_LATENCY_MAX_MS: 150,
      SANDBOX_PENDING_MIN_MS: 500,
      SANDBOX_PENDING_MAX_MS: 3000,
      STACK_SUBNET: '198.51.100.0/24',
      STACK_DYNAMIC_RANGE: '198.51.100.128/25',
      PROXY_ADDRESS: '198.51.100.10',
      PUBLISH_ADDRESS: '127.0.0.1',
      ...ports,
      ...Object.fromEntries(Object.entries(BASE_IMAGES)),
      ...Object.fromEntries(Object.entries(APP_IMAGE_VARS).map(([app, key]) => [key, appImages[app]!])),
    };
    writeFileSync(
      envFile,
      Object.entries(settings)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
    );

    // Test-only additions: the webhook receiver and the workers' trust in its certificate.
    const certDir = path.join(tmp, 'receiver');
    run('mkdir', ['-p', certDir]);
    run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      path.join(certDir, 'key.pem'),
      '-out',
      path.join(certDir, 'cert.pem'),
      '-subj',
      `/CN=${WEBHOOK_RECEIVER}`,
      '-addext',
      `subjectAltName=DNS:${WEBHOOK_RECEIVER}`,
    ]);
    writeFileSync(path.join(certDir, 'server.mjs'), RECEIVER_SOURCE);
    run('chmod', ['-R', 'a+rX', certDir]);
    const override = path.join(tmp, 'compose.test.yml');
    writeFileSync(override, overrideFile(certDir));

    const compose = composeCommand(env);
    const composeEnv = { ...env, COMPOSE_HTTP_TIMEOUT: '600' };
    const composeArgs = [
      '-p',
      project,
      '-f',
      path.join(REPO_ROOT, 'docker-compose.yml'),
      '-f',
      override,
      '--env-file',
      envFile,
      '--profile',
      'sandbox',
    ];
    const dc = (...args: string[]) =>
      run(compose[0]!, [...compose.slice(1), ...composeArgs, ...args], { env: composeEnv, cwd: REPO_ROOT });
    dc('config', '-q');
    teardown.push(() => {
      dc('down', '--volumes', '--remove-orphans', '--timeout', '5');
      log('stack down: containers, networks and volumes removed');
    });

    // Start and wait for every healthcheck.
    const upStarted = Date.now();
    dc(
      'up',
      '-d',
      '--no-build',
      '--scale',
      'bff=2',
      '--scale',
      'worker=2',
      'proxy',
      'bff',
      'worker',
      'redis',
      'postgres',
      'prometheus',
      'lender-sandbox',
      WEBHOOK_RECEIVER,
    );
    const containers = () =>
      docker(
        'ps',
        '-a',
        '--filter',
        `label=com.docker.compose.project=${project}`,
        '--format',
        '{{.Names}}\t{{.Status}}\t{{.Label "com.docker.compose.service"}}',
      )
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [name, status, service] = line.split('\t') as [string, string, string];
          return { name, status, service };
        });
    let healthy = false;
    for (let i = 0; i < 240 && !healthy; i += 1) {
      const list = containers().filter((c) => c.service !== WEBHOOK_RECEIVER);
      healthy = list.length === 9 && list.every((c) => c.status.includes('(healthy)'));
      if (!healthy) await sleep(1000);
    }
    const list = containers();
    rows.push([
      'containers',
      list
        .map((c) => c.service)
        .sort()
        .join(', '),
    ]);
    check(healthy, `every container healthy (${list.map((c) => `${c.service}: ${c.status}`).join('; ')})`);
    rows.push(['time to healthy', `${seconds(upStarted)} s`]);
    if (!healthy) {
      for (const c of list) console.log(`--- ${c.name}\n${spawnRun(env, ['logs', '--tail', '30', c.name])}`);
      throw new Error('the stack did not become healthy');
    }

    // Through the proxy only: TLS with Caddy's own CA for localhost, the name resolving to the loopback port.
    const proxy = list.find((c) => c.service === 'proxy')!.name;
    const caFile = path.join(tmp, 'caddy-root.crt');
    docker('cp', `${proxy}:/data/caddy/pki/authorities/local/root.crt`, caFile);
    const ca = readFileSync(caFile);
    const loopback = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      options.all
        ? callback(null, [{ address: '127.0.0.1', family: 4 }])
        : callback(null, '127.0.0.1', 4)) as unknown as typeof dnsLookup;
    // undici's own fetch with its dispatcher, whatever undici the running Node bundles (the helpers call fetch).
    globalThis.fetch = undiciFetch as unknown as typeof fetch;
    setGlobalDispatcher(new Agent({ connect: { ca, lookup: loopback } }));
    const base = `https://localhost:${ports.HTTPS_PORT}`;
    const alpn = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect(
        {
          host: '127.0.0.1',
          port: ports.HTTPS_PORT,
          servername: 'localhost',
          ca,
          ALPNProtocols: ['h2', 'http/1.1'],
        },
        () => {
          resolve(String(socket.alpnProtocol));
          socket.end();
        },
      );
      socket.once('error', reject);
    });
    check(alpn === 'h2', `the proxy speaks TLS with HTTP/2 (ALPN ${alpn})`);
    const readyz = await fetch(`${base}/readyz`);
    check(readyz.status === 200, `/readyz through the proxy answers ${readyz.status}`);
    const metrics = await fetch(`${base}/metrics`);
    check(metrics.status === 404, `/metrics is not served through the proxy (${metrics.status})`);
    const health = (await (await fetch(`${base}/healthz`)).json()) as { version?: string };
    check(health.version === APP_VERSION, `/healthz says which build answers (${health.version})`);

    // Each container holds its own secrets only: the sandbox none, the worker not the BFF's cookie secrets.
    const environmentOf = (service: string) =>
      docker('inspect', '-f', '{{join .Config.Env "\\n"}}', list.find((c) => c.service === service)!.name)
        .split('\n')
        .map((line) => line.split('=')[0]!);
    const secretNames = /KEY|SECRET|PASSWORD|TOKEN/;
    const sandboxSecrets = environmentOf('lender-sandbox').filter((name) => secretNames.test(name));
    check(
      sandboxSecrets.length === 0,
      `the lender sandbox holds no secret (${sandboxSecrets.join(', ') || 'none'})`,
    );
    const workerHas = environmentOf('worker');
    check(
      !workerHas.includes('COOKIE_SECRETS') && !workerHas.includes('GRAFANA_ADMIN_PASSWORD'),
      "a worker holds neither the BFF's cookie secrets nor Grafana's password",
    );

    // A funnel lead, walked as a visitor walks it, its outcome read off the event stream.
    const leadStarted = Date.now();
    const funnel = await walkFunnelLead(base, borrowerLead(1));
    const outcome = await awaitOutcomeEvent(base, funnel.cookie, 120_000);
    rows.push([
      'funnel lead outcome (event stream)',
      `${outcome.outcome} for ${funnel.leadId} in ${seconds(leadStarted)} s`,
    ]);
    check(
      ['sold', 'rejected', 'no_lender'].includes(outcome.outcome),
      `the funnel lead reached a final outcome (${outcome.outcome})`,
    );

    // A partner lead with its webhook.
    const partnerLeadId = await sendPartnerLead({
      baseUrl: base,
      apiKey,
      idempotencyKey: `compose-${randomBytes(6).toString('hex')}`,
      body: borrowerLead(2, `https://${WEBHOOK_RECEIVER}:8443/hooks`),
    });
    const receiver = list.find((c) => c.service === WEBHOOK_RECEIVER)!.name;
    let hook: { signature: string; body: string } | undefined;
    for (let i = 0; i < 120 && !hook; i += 1) {
      hook = spawnRun(env, ['logs', receiver])
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { signature: string; body: string })
        .find((h) => h.body.includes(partnerLeadId));
      if (!hook) await sleep(1000);
    }
    const hookOk = !!hook && verifyWebhookSignature(webhookSecret, hook.signature, hook.body, 300);
    const hookOutcome = hook ? (JSON.parse(hook.body) as { outcome: string }).outcome : 'none';
    rows.push([
      'partner lead webhook',
      hook ? `${hookOutcome}, signature ${hookOk ? 'valid' : 'INVALID'}` : 'not received',
    ]);
    check(hookOk, "the partner lead's signed webhook arrived");
    if (!hook) {
      console.log(`--- ${receiver}\n${spawnRun(env, ['logs', '--tail', '20', receiver])}`);
      for (const c of list.filter((c) => c.service === 'worker')) {
        const lines = spawnRun(env, ['logs', c.name]).split('\n');
        console.log(
          `--- ${c.name}\n${lines
            .filter((l) => /webhook|partner/i.test(l))
            .slice(-15)
            .join('\n')}`,
        );
      }
    }

    // The system of record.
    const postgres = list.find((c) => c.service === 'postgres')!.name;
    let stored = '';
    for (let i = 0; i < 60 && !stored; i += 1) {
      stored = spawnRun(env, [
        'exec',
        postgres,
        'psql',
        '-U',
        'funnel',
        '-d',
        'funnel',
        '-At',
        '-c',
        `select outcome from lead_summary where lead_id = '${funnel.leadId}' and outcome is not null`,
      ]).trim();
      if (!stored) await sleep(1000);
    }
    rows.push(['outcome in PostgreSQL (lead_summary)', stored || 'missing']);
    check(stored === outcome.outcome, `PostgreSQL holds the funnel lead's outcome (${stored || 'missing'})`);

    // Prometheus: every BFF and worker scraped, every rule loaded.
    const prometheus = `http://127.0.0.1:${ports.PROMETHEUS_PORT}`;
    let targets: Array<{ labels: { job: string; instance: string }; health: string }> = [];
    for (let i = 0; i < 90; i += 1) {
      targets = (
        (await (await fetch(`${prometheus}/api/v1/targets`)).json()) as {
          data: { activeTargets: typeof targets };
        }
      ).data.activeTargets;
      if (targets.length === 4 && targets.every((t) => t.health === 'up')) break;
      await sleep(1000);
    }
    const up = targets.filter((t) => t.health === 'up');
    rows.push([
      'Prometheus targets up',
      `${up.length}/${targets.length} (${targets.map((t) => `${t.labels.job} ${t.labels.instance} ${t.health}`).join(', ')})`,
    ]);
    check(up.length === 4 && targets.length === 4, 'Prometheus scrapes 2 BFFs and 2 workers, all up');
    const rules = (
      (await (await fetch(`${prometheus}/api/v1/rules`)).json()) as {
        data: { groups: Array<{ rules: Array<{ name: string; health: string }> }> };
      }
    ).data.groups.flatMap((g) => g.rules);
    const expected = [
      ...readFileSync(path.join(REPO_ROOT, 'infra/prometheus/alerts.yml'), 'utf8').matchAll(
        /^\s+- alert: (\w+)/gm,
      ),
    ].map((m) => m[1]!);
    const loaded = rules.filter((r) => r.health !== 'err').map((r) => r.name);
    rows.push(['alert rules loaded', `${loaded.length}/${expected.length} (${loaded.join(', ')})`]);
    const promtool = spawnRun(env, [
      'exec',
      list.find((c) => c.service === 'prometheus')!.name,
      'promtool',
      'check',
      'rules',
      '/etc/prometheus/alerts.yml',
    ]);
    check(promtool.includes('SUCCESS'), `promtool check rules: ${promtool.trim().split('\n').at(-1)}`);
    check(
      expected.every((name) => loaded.includes(name)),
      'Prometheus loaded every alert rule',
    );

    // /readyz inside every app container (no port of theirs is published).
    const apps = containers().filter((c) => ['bff', 'worker', 'lender-sandbox'].includes(c.service));
    const readiness = apps.map((c) => {
      const port = c.service === 'bff' ? 3000 : c.service === 'worker' ? 9464 : 4010;
      const status = spawnRun(env, [
        'exec',
        c.name,
        'node',
        '-e',
        `fetch('http://127.0.0.1:${port}/readyz').then(r=>console.log(r.status),()=>console.log('down'))`,
      ]).trim();
      return `${c.service}: ${status}`;
    });
    rows.push(['/readyz in each app container', readiness.join(', ')]);
    check(
      readiness.every((r) => r.endsWith(': 200')),
      'every app container answers /readyz',
    );

    // The kill test: one BFF and one worker killed in the middle of a burst; every accepted lead must end.
    const burstStarted = Date.now();
    const partnerIds: string[] = [];
    const funnelLeads: Array<{ leadId: string; cookie: string }> = [];
    let borrower = 100;
    const pool = async (count: number, parallel: number, one: () => Promise<void>) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          while (next < count) {
            next += 1;
            await one();
          }
        }),
      );
    };
    const bffVictim = apps.find((c) => c.service === 'bff')!.name;
    const workerVictim = apps.find((c) => c.service === 'worker')!.name;
    await Promise.all([
      pool(BURST_PARTNER_LEADS, 6, async () => {
        partnerIds.push(
          await sendPartnerLead({
            baseUrl: base,
            apiKey,
            idempotencyKey: `burst-${randomBytes(6).toString('hex')}`,
            body: borrowerLead((borrower += 1)),
          }),
        );
      }),
      pool(BURST_FUNNEL_LEADS, 2, async () => {
        funnelLeads.push(await walkFunnelLead(base, borrowerLead((borrower += 1))));
      }),
      (async () => {
        await sleep(2500);
        docker('kill', bffVictim);
        docker('kill', workerVictim);
        log(`killed ${bffVictim} and ${workerVictim} ${seconds(burstStarted)} s into the burst`);
      })(),
    ]);
    const settleUntil = Date.now() + 150_000;
    const outcomes = new Map<string, string>();
    while (Date.now() < settleUntil) {
      for (const id of partnerIds) {
        if (['sold', 'rejected', 'no_lender'].includes(outcomes.get(id) ?? '')) continue;
        const status = await fetch(`${base}/api/v1/partner/leads/${id}`, {
          headers: { authorization: `Bearer ${apiKey}` },
        }).then(
          async (r) => (r.ok ? ((await r.json()) as PartnerLeadStatus).outcome : `http ${r.status}`),
          () => 'unreachable',
        );
        outcomes.set(id, status);
      }
      if (partnerIds.every((id) => ['sold', 'rejected', 'no_lender'].includes(outcomes.get(id)!))) break;
      await sleep(2000);
    }
    await Promise.all(
      funnelLeads.map(async (lead) => {
        const final = await awaitOutcomeEvent(
          base,
          lead.cookie,
          Math.max(1000, settleUntil - Date.now()),
        ).then(
          (o) => o.outcome,
          () => 'none',
        );
        outcomes.set(lead.leadId, final);
      }),
    );
    const accepted = partnerIds.length + funnelLeads.length;
    const lost = [...outcomes.values()].filter((o) => !['sold', 'rejected', 'no_lender'].includes(o)).length;
    const counts = [...outcomes.values()].reduce<Record<string, number>>(
      (acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }),
      {},
    );
    rows.push([
      'kill test (1 BFF + 1 worker killed mid-burst)',
      `${accepted} leads accepted, ${lost} lost, outcomes ${JSON.stringify(counts)}, settled in ${seconds(burstStarted)} s`,
    ]);
    check(
      lost === 0 && accepted === BURST_PARTNER_LEADS + BURST_FUNNEL_LEADS,
      `no lead lost across the kills (${lost} lost)`,
    );
  } catch (error) {
    failures.push((error as Error).message);
    console.error(error);
  } finally {
    await tearDown();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
  return summary();
}

/** stdout and stderr of a docker command, whatever its exit code (logs, exec probes). */
function spawnRun(env: NodeJS.ProcessEnv, args: string[]): string {
  try {
    return run('docker', args, { env });
  } catch (error) {
    return (error as Error).message;
  }
}

/** The webhook receiver: logs each delivery (signature header and raw body) as one JSON line, answers 204. */
const RECEIVER_SOURCE = `import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';
createServer({ key: readFileSync('/receiver/key.pem'), cert: readFileSync('/receiver/cert.pem') }, (req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    console.log(JSON.stringify({ signature: String(req.headers['x-funnel-signature'] ?? ''), body }));
    res.writeHead(204).end();
  });
}).listen(8443, '0.0.0.0');
`;

function overrideFile(certDir: string): string {
  return `# Test only (npm run test:compose): a partner's webhook receiver, and the workers' trust in its certificate.
services:
  worker:
    environment:
      NODE_EXTRA_CA_CERTS: /receiver/cert.pem
    volumes:
      - ${certDir}:/receiver:ro
  ${WEBHOOK_RECEIVER}:
    image: ${BASE_IMAGES.NODE_IMAGE}
    command: ['node', '/receiver/server.mjs']
    user: node
    volumes:
      - ${certDir}:/receiver:ro
`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
