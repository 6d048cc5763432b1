import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface EncryptionKey {
  id: string;
  key: Buffer;
}

const PREFIX = 'enc:v1';

// IVs are drawn from the CSPRNG a pool at a time: one randomBytes call of 12 bytes costs more than the AES-GCM
// it feeds (step save bench, docs/adr/0014). Each IV is used once, as before.
const IV_BYTES = 12;
const IV_POOL_SIZE = IV_BYTES * 4096;
let ivPool = Buffer.alloc(0);
let ivAt = 0;

function nextIv(): Buffer {
  if (ivAt + IV_BYTES > ivPool.length) {
    ivPool = randomBytes(IV_POOL_SIZE);
    ivAt = 0;
  }
  const iv = ivPool.subarray(ivAt, ivAt + IV_BYTES);
  ivAt += IV_BYTES;
  return iv;
}

/**
 * AES-256-GCM for sensitive lead fields. Each value carries the id of the key that sealed it, so keys can be
 * rotated: new values use the first key; older values stay readable while their key is still configured.
 * The lead id and field name are bound as associated data, so a ciphertext copied to another lead or field
 * fails to open.
 */
export class FieldCipher {
  private readonly byId: Map<string, Buffer>;
  private readonly current: EncryptionKey;

  constructor(keys: readonly EncryptionKey[]) {
    const [first] = keys;
    if (!first) throw new Error('FieldCipher needs at least one key');
    this.current = first;
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  seal(plaintext: string, context: string): string {
    const iv = nextIv();
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [
      PREFIX,
      this.current.id,
      iv.toString('base64url'),
      tag.toString('base64url'),
      body.toString('base64url'),
    ].join(':');
  }

  open(sealed: string, context: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== PREFIX) throw new Error('Not a sealed value');
    const [, , keyId, iv, tag, body] = parts as [string, string, string, string, string, string];
    const key = this.byId.get(keyId);
    if (!key) throw new Error(`No encryption key with id ${keyId} is configured`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  static isSealed(value: string): boolean {
    return value.startsWith(`${PREFIX}:`);
  }
}
