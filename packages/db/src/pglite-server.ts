import { createServer, type Server, type Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSS_REQUEST = 80877104;

export interface PgliteServer {
  /** A `DATABASE_URL` for `pg` (and so Kysely) to connect with. */
  url: string;
  /** Closes every connection and the database (its data flushed to `dataDir`). */
  stop(): Promise<void>;
}

export interface PgliteServerOptions {
  /** Where the database lives; omitted: in memory (tests). */
  dataDir?: string;
  host?: string;
  /** 0 (the default): any free port. */
  port?: number;
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly, one backend in this process) served over the PostgreSQL wire
 * protocol on a loopback port, so the BFF and the worker reach it with the same `pg` code as a real server.
 *
 * PGlite has one session. Every client connection shares it, one at a time: a connection holds the session from
 * its first message until it ends a query cycle (Sync, or a simple Query) outside a transaction block; meanwhile
 * the others' messages wait. Interleaving at message level (what `@electric-sql/pglite-socket`'s multiplexer does)
 * lets one client's Parse replace another's unnamed statement between its Parse and Bind.
 *
 * PGlite ignores the startup message's parameters, so the server applies each connection's startup options
 * (`options=-c search_path=…`, as a test's schema of its own or a `DATABASE_URL` with `?options=` asks) itself:
 * whenever the session passes to a connection whose options differ from the last holder's, it resets those and
 * sets these. The limits: a client that opens a transaction and stalls holds everyone up, and a `SET` a client
 * runs itself stays shared by all connections.
 */
export async function startPgliteServer(options: PgliteServerOptions = {}): Promise<PgliteServer> {
  const db = await PGlite.create(options.dataDir);
  const host = options.host ?? '127.0.0.1';

  /** Who holds the session, and who waits for it (in arrival order). */
  let holder: object | undefined;
  const waiting: Array<{ owner: object; resolve: () => void }> = [];
  const acquire = (owner: object): Promise<void> | void => {
    if (holder === owner) return;
    if (!holder) {
      holder = owner;
      return;
    }
    return new Promise((resolve) => waiting.push({ owner, resolve }));
  };
  const release = (owner: object) => {
    if (holder !== owner) return;
    const next = waiting.shift();
    holder = next?.owner;
    next?.resolve();
  };

  /** The startup options the session carries now (set for the connection that last held it). */
  let applied = new Map<string, string>();
  const applyOptions = async (wanted: Map<string, string>) => {
    if (wanted === applied) return;
    for (const name of applied.keys()) if (!wanted.has(name)) await db.exec(`reset ${name}`);
    for (const [name, value] of wanted) {
      if (applied.get(name) !== value) await db.query('select set_config($1, $2, false)', [name, value]);
    }
    applied = wanted;
  };

  const sockets = new Set<Socket>();
  const serve = (socket: Socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const owner = {};
    let options = new Map<string, string>();
    let buffer = Buffer.alloc(0);
    let started = false;
    let closed = false;
    let work = Promise.resolve();

    /** Runs one protocol message on the session; `endsCycle`: it is a Sync or simple Query (ReadyForQuery follows). */
    const run = async (message: Buffer, endsCycle: boolean) => {
      await acquire(owner);
      if (closed) return;
      // Outside runExclusive: PGlite's own query() takes the same lock.
      if (!db.isInTransaction()) await applyOptions(options);
      await db.runExclusive(() =>
        db.execProtocolRawStream(new Uint8Array(message), {
          onRawData: (data) => {
            if (!socket.destroyed) socket.write(data);
          },
        }),
      );
      if (endsCycle && !db.isInTransaction()) release(owner);
    };

    /** Splits the buffered bytes into whole messages and queues them in order. */
    const take = () => {
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST || code === GSS_REQUEST) {
            socket.write('N');
            continue;
          }
          if (code === CANCEL_REQUEST) {
            // A query cannot be cancelled inside PGlite; the cancelling connection just closes.
            socket.end();
            return;
          }
          started = true;
          options = startupOptions(message);
          work = work.then(() => run(message, true));
          continue;
        }
        if (buffer.length < 5) return;
        const length = 1 + buffer.readInt32BE(1);
        if (buffer.length < length) return;
        const type = String.fromCharCode(buffer[0]!);
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (type === 'X') {
          socket.end();
          return;
        }
        work = work.then(() => run(message, type === 'S' || type === 'Q'));
      }
    };

    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      take();
      work = work.catch(() => {
        socket.destroy();
      });
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      sockets.delete(socket);
      const index = waiting.findIndex((w) => w.owner === owner);
      if (index >= 0) waiting.splice(index, 1);
      // A client gone mid-transaction: roll it back so the next one starts clean.
      void work
        .catch(() => undefined)
        .then(async () => {
          if (holder !== owner) return;
          if (db.isInTransaction()) await db.exec('rollback').catch(() => undefined);
          release(owner);
        });
    });
  };

  const server: Server = createServer(serve);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

/** A run-time parameter name PostgreSQL accepts in `-c name=value` (letters, digits, `_`, one `.` for classes). */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/**
 * The `-c name=value` / `--name=value` settings in a startup message's `options` parameter (space-separated,
 * a backslash escapes the next character), as PostgreSQL reads them.
 */
export function startupOptions(message: Buffer): Map<string, string> {
  const fields = message.subarray(8).toString('utf8').split('\0');
  const settings = new Map<string, string>();
  let raw = '';
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 'options') raw = fields[i + 1]!;
  const words: string[] = [];
  let word = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) word += raw[++i];
    else if (c === ' ') {
      if (word) words.push(word);
      word = '';
    } else word += c;
  }
  if (word) words.push(word);
  for (let i = 0; i < words.length; i++) {
    const setting =
      words[i] === '-c' ? words[++i] : words[i]!.startsWith('--') ? words[i]!.slice(2) : undefined;
    const eq = setting?.indexOf('=') ?? -1;
    if (!setting || eq <= 0) continue;
    const name = setting.slice(0, eq).replace(/-/g, '_');
    if (PARAMETER_NAME.test(name)) settings.set(name, setting.slice(eq + 1));
  }
  return settings;
}
