/**
 * Uploads: a manager asks for a ticket (`GET oss`), then PUTs the file's bytes to its uploadUrl. The
 * ticket is for one key, works once and for ten minutes; the bytes are counted while they stream to a
 * temporary file (never held whole in memory) and refused past the ticket's size; the type is read from
 * the content (PNG, JPEG, GIF or WebP magic bytes, then decoded by sharp), never from the name; the image
 * is re-encoded as WebP with its metadata (EXIF, GPS) removed, and a thumbnail is made for lists.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Sharp } from 'sharp';
import type { Static } from '@sinclair/typebox';
import type { Ctx } from '../../context';
import { badInput } from '../../errors';
import type { OssTicket, UploadedImage } from './uploads.schema';
import { UPLOAD_ACCEPT, UploadMessages } from '../../../domain/uploads';
import { storeOf } from './store';
import { claimTicket, insertTicket, recordStored, ticketState } from './uploads.repository';

export { UploadMessages };

/** How long a ticket works. */
export const TICKET_MS = 10 * 60_000;
/** The stored image fits in this square (no enlargement); the thumbnail in THUMB. */
const MAX_SIDE = 2560;
const THUMB = 320;
/** Decoded pixels of all frames together (4 bytes each: at most ~160 MB per image being processed). */
const MAX_PIXELS = 40_000_000;
/** Images re-encoded at once per process; the rest wait their turn (memory stays bounded). */
const PROCESSING_SLOTS = 2;

let freeSlots = PROCESSING_SLOTS;
const waiting: Array<() => void> = [];
/** Runs `work` when one of the processing slots is free. */
async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (freeSlots > 0) freeSlots--;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else freeSlots++;
  }
}

let sharpLoading: Promise<typeof import('sharp')> | undefined;
/**
 * sharp (libvips, ~19 MB resident once loaded) on the first image operation, not at start: most server
 * processes never see an upload. A failed load (a missing native binary) is not remembered, and is a
 * server error, not a broken image.
 */
function loadSharp(): Promise<typeof import('sharp')> {
  sharpLoading ??= import('sharp').then(
    (m) => m.default,
    (err) => {
      sharpLoading = undefined;
      throw err;
    },
  );
  return sharpLoading;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
export const thumbKeyOf = (key: string) => key.replace(/\.webp$/, '_thumb.webp');

/** A ticket for one image upload by this manager. */
export async function issueTicket(ctx: Ctx, managerId: number): Promise<Static<typeof OssTicket>> {
  const now = ctx.clock.now();
  const token = randomBytes(24).toString('base64url');
  const d = new Date(now + 8 * 3600_000); // the Asia/Shanghai date names the folder
  const day = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}`;
  const key = `img/${day}/${randomBytes(12).toString('hex')}.webp`;
  const expiresAt = now + TICKET_MS;
  const maxSize = ctx.config.uploadMaxBytes;
  await insertTicket(ctx.db, { key, tokenHash: hashOf(token), managerId, maxSize, expiresAt, now });
  return {
    uploadUrl: `/v1/admin/oss/upload/${token}`,
    key,
    publicUrl: storeOf(ctx.config).urlOf(key),
    expiresAt,
    maxSize,
    accept: UPLOAD_ACCEPT,
  };
}

type Format = 'png' | 'jpeg' | 'gif' | 'webp';
const FORMAT_NAMES: Record<Format, string> = { png: 'PNG', jpeg: 'JPEG', gif: 'GIF', webp: 'WebP' };
const DECLARED: Record<string, Format> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The image type from the first bytes, or null. */
export function sniff(head: Buffer): Format | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.subarray(0, 6).toString('latin1'))) return 'gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return null;
}

/**
 * Streams `body` to `file`, counting; past `max` bytes it stops writing and reads on (up to as much again
 * plus 1 MB, then lets the connection go) so that the client gets its refusal on a connection still
 * open. Returns the size and the first bytes; a body that fails (a client gone, a bad encoding) is a
 * broken upload.
 */
async function spool(body: Readable, file: string, max: number): Promise<{ size: number; head: Buffer }> {
  let size = 0;
  const heads: Buffer[] = [];
  const out = fs.createWriteStream(file, { flags: 'wx' });
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) {
        if (size > 2 * max + 1024 * 1024) break;
        continue;
      }
      if (size - chunk.length < 16) heads.push(chunk.subarray(0, 16));
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } catch {
    throw badInput(UploadMessages.broken);
  } finally {
    out.end();
    await finished(out).catch(() => undefined);
  }
  if (size > max) throw badInput(UploadMessages.tooLarge(max));
  return { size, head: Buffer.concat(heads).subarray(0, 16) };
}

/**
 * Receives the bytes of the ticket `token`: checked, normalised and stored. `declaredType` is the
 * request's Content-Type (the browser's guess from the file name): an image type that is not the
 * content's (a PNG renamed .jpg) is refused; any other (application/octet-stream) leaves it to the content.
 */
export async function receiveUpload(
  ctx: Ctx,
  token: string,
  body: Readable,
  declaredType = '',
  declaredLength?: number,
): Promise<Static<typeof UploadedImage>> {
  const now = ctx.clock.now();
  const claimed = /^[A-Za-z0-9_-]{20,64}$/.test(token) ? await claimTicket(ctx.db, hashOf(token), now) : undefined;
  if (!claimed) {
    body.resume(); // drain: the answer goes out without waiting for a body nobody reads
    const state = /^[A-Za-z0-9_-]{20,64}$/.test(token) ? await ticketState(ctx.db, hashOf(token)) : undefined;
    if (state?.used_at != null) throw badInput(UploadMessages.usedTicket);
    if (state) throw badInput(UploadMessages.expiredTicket);
    throw badInput(UploadMessages.badTicket);
  }
  // A body announced larger than the ticket allows is refused before a byte is read.
  if (declaredLength !== undefined && declaredLength > Number(claimed.max_size)) {
    body.resume();
    throw badInput(UploadMessages.tooLarge(Number(claimed.max_size)));
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'upload-'));
  const file = path.join(dir, 'in');
  try {
    const { size, head } = await spool(body, file, Number(claimed.max_size));
    if (size === 0) throw badInput(UploadMessages.empty);
    const format = sniff(head);
    if (!format) throw badInput(UploadMessages.notImage);
    const declared = declaredType.split(';')[0].trim().toLowerCase();
    if (declared.startsWith('image/') && DECLARED[declared] !== format)
      throw badInput(UploadMessages.mismatch(FORMAT_NAMES[format], declared.slice(6).toUpperCase()));
    const animated = format === 'gif' || format === 'webp';
    const sharp = await loadSharp();
    const meta = await sharp(file, { animated, limitInputPixels: false })
      .metadata()
      .catch(() => {
        throw badInput(UploadMessages.broken);
      });
    if (meta.format !== format) throw badInput(UploadMessages.notImage);
    const width = meta.width ?? 0;
    const height = meta.pageHeight ?? meta.height ?? 0;
    const frames = meta.pages ?? 1;
    if (!width || !height) throw badInput(UploadMessages.broken);
    if (width > 10_000 || height > 10_000 || width * height * frames > MAX_PIXELS)
      throw badInput(UploadMessages.tooManyPixels);
    const lossless = format === 'png' || format === 'gif';
    const input = () => sharp(file, { animated, limitInputPixels: MAX_PIXELS });
    const encode = async (img: Sharp) =>
      img.webp(lossless ? { lossless: true, effort: 3 } : { quality: 85, effort: 3 }).toBuffer({ resolveWithObject: true });
    // autoOrient: a photo's EXIF orientation applied to the pixels before the metadata goes.
    const oriented = (img: Sharp) => (animated ? img : img.autoOrient());
    // One after the other, in one of the process's processing slots: one decoded image at a time.
    const { main, thumb } = await inSlot(async () => {
      const main = await encode(oriented(input()).resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true }));
      const thumb = await sharp(file, { limitInputPixels: MAX_PIXELS })
        .autoOrient()
        .resize(THUMB, THUMB, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80, effort: 3 })
        .toBuffer();
      return { main, thumb };
    }).catch(() => {
      throw badInput(UploadMessages.broken);
    });
    const store = storeOf(ctx.config);
    const key = claimed.key;
    await store.put(key, main.data, 'image/webp');
    await store.put(thumbKeyOf(key), thumb, 'image/webp');
    const stored = {
      size: main.data.length,
      width: main.info.width,
      height: main.info.pageHeight ?? main.info.height,
      type: 'image/webp',
    };
    await recordStored(ctx.db, Number(claimed.id), stored);
    return { key, url: store.urlOf(key), thumbUrl: store.urlOf(thumbKeyOf(key)), ...stored };
  } finally {
    body.resume();
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Stores an image the server made itself (demo data: product pictures drawn from SVG) as an upload is
 * stored — WebP under `<key>.webp` with its list thumbnail — in whichever store is configured; returns
 * its URL. `key` is a path without extension (segments of [a-z0-9_-]).
 */
export async function storeGeneratedImage(ctx: Ctx, key: string, image: Buffer): Promise<string> {
  const store = storeOf(ctx.config);
  const sharp = await loadSharp();
  const main = await sharp(image).webp({ quality: 82, effort: 3 }).toBuffer();
  const thumb = await sharp(image)
    .resize(THUMB, THUMB, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80, effort: 3 })
    .toBuffer();
  await store.put(`${key}.webp`, main, 'image/webp');
  await store.put(thumbKeyOf(`${key}.webp`), thumb, 'image/webp');
  return store.urlOf(`${key}.webp`);
}
