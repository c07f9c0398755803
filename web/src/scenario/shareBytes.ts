// The bytes of a shared link (share.ts): the browser's own deflate-raw and
// gzip (for its CRC-32), and base64url. A problem is a LinkProblem naming it.
//
// DOM-free: CompressionStream, Blob, Response, atob/btoa (browsers and Node >= 20).

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A problem with a link; the message names it. */
export class LinkProblem extends Error {}

export const fail = (message: string): never => {
  throw new LinkProblem(message);
};

export async function pipe(bytes: Uint8Array, through: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(through)).arrayBuffer());
}

/** The CRC-32 of `bytes` as the gzip trailer stores it (little-endian). */
export async function checksum(bytes: Uint8Array): Promise<Uint8Array> {
  const gzip = await pipe(bytes, new CompressionStream('gzip'));
  // RFC 1952: the member ends with CRC32 then ISIZE, four bytes each.
  return gzip.slice(gzip.length - 8, gzip.length - 4);
}

/** Inflates raw deflate data, refusing output larger than `limit` bytes. */
export async function inflate(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      // The browser's own words, without their stop: the notice ends the sentence.
      const why = (error instanceof Error ? error.message : String(error)).replace(/\.+$/, '');
      return fail(`damaged payload: it does not decompress, so the link was cut or changed (${why})`);
    }
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return fail(`payload too large: it inflates to more than ${limit} bytes`);
    }
    chunks.push(chunk.value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array {
  if (!BASE64URL.test(text)) {
    const at = text.search(/[^A-Za-z0-9_-]/);
    fail(`bad base64: the payload (s=) may hold only A-Z, a-z, 0-9, "-" and "_"; character ${at + 1} is ${JSON.stringify(text[at])}`);
  }
  if (text.length % 4 === 1) fail(`bad base64: no base64 text is ${text.length} characters long (the link was cut?)`);
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
