// The Explain password crosses the language-server connection sealed, never as plain text: editors can
// trace every message to their output channel and log files (VS Code: insertlint.trace.server = verbose).
// The server makes an X25519 key pair when it starts and announces the public half in its initialize
// result; the client seals each password with a fresh key pair of its own (ECDH, HKDF-SHA256, AES-256-GCM).
// A trace then holds only public keys and ciphertext; the server's private key never leaves its memory.
import { createCipheriv, createDecipheriv, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';

/** A sealed secret as it travels in a request. */
export interface SealedSecret {
  /** The sender's one-time X25519 public key (SPKI DER, base64). */
  key: string;
  iv: string;
  data: string;
  tag: string;
}

const INFO = Buffer.from('insertlint sealed secret v1');

function aesKey(privateKey: KeyObject, publicKey: KeyObject): Buffer {
  const shared = diffieHellman({ privateKey, publicKey });
  return Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), INFO, 32));
}

function importPublicKey(base64: string): KeyObject {
  return createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
}

function exportPublicKey(key: KeyObject): string {
  return key.export({ format: 'der', type: 'spki' }).toString('base64');
}

/** Seals a secret for the holder of `recipientKey` (the server's announced public key). */
export function sealSecret(recipientKey: string, secret: string): SealedSecret {
  const mine = generateKeyPairSync('x25519');
  const iv = randomBytes(12);
  const ephemeral = exportPublicKey(mine.publicKey);
  const cipher = createCipheriv('aes-256-gcm', aesKey(mine.privateKey, importPublicKey(recipientKey)), iv);
  // The sender's key is bound to the ciphertext: swapping it breaks the tag.
  cipher.setAAD(Buffer.from(ephemeral));
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return { key: ephemeral, iv: iv.toString('base64'), data: data.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

/** The server's side: a key pair for this process's lifetime. */
export class SecretReceiver {
  private readonly pair = generateKeyPairSync('x25519');
  /** Announced to the client (initialize result: capabilities.experimental.insertlint.secretKey). */
  readonly publicKey = exportPublicKey(this.pair.publicKey);

  /** The secret, or undefined when the value is not a secret sealed for this key. */
  open(sealed: unknown): string | undefined {
    const s = sealed as Partial<SealedSecret> | undefined;
    if (!s || typeof s.key !== 'string' || typeof s.iv !== 'string' || typeof s.data !== 'string' || typeof s.tag !== 'string') return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', aesKey(this.pair.privateKey, importPublicKey(s.key)), Buffer.from(s.iv, 'base64'));
      decipher.setAAD(Buffer.from(s.key));
      decipher.setAuthTag(Buffer.from(s.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(s.data, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
