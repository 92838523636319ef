/**
 * Where uploaded images live: a folder on disk (UPLOAD_DIR, the default, served by the API server at
 * /uploads/…) or an S3-compatible bucket (S3_ENDPOINT + S3_BUCKET + credentials: the way a platform on
 * several servers runs), served at /uploads/… by streaming from the bucket, or from S3_PUBLIC_URL when
 * set (a CDN or the bucket's own public address). Keys are made by the server (`img/2026/11/24/<hex>.webp`),
 * never by a client.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';

export interface StoredObject {
  body: Readable;
  type: string;
  size: number;
}

export interface UploadStore {
  readonly kind: 'disk' | 's3';
  /** Writes an object (replacing nothing: keys are unique). */
  put(key: string, body: Buffer, type: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** The address a browser loads the object from. */
  urlOf(key: string): string;
}

/** A key the server made: path segments of [a-z0-9_-], a dot only before the extension. */
export const SAFE_KEY = /^(?:[a-z0-9_-]+\/)*[a-z0-9_-]+\.(?:webp|png|jpe?g|gif)$/;

const TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};
export const typeOfKey = (key: string) => TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

export class DiskStore implements UploadStore {
  readonly kind = 'disk';
  constructor(readonly dir: string) {}

  private file(key: string) {
    if (!SAFE_KEY.test(key)) throw new Error(`bad upload key ${key}`);
    return path.join(this.dir, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // wx: never overwrite; written to a temporary name first so a reader never sees half a file.
    const tmp = `${file}.${process.pid}.part`;
    await fs.promises.writeFile(tmp, body, { flag: 'wx' });
    await fs.promises.rename(tmp, file);
  }

  async get(key: string): Promise<StoredObject | null> {
    if (!SAFE_KEY.test(key)) return null;
    try {
      const file = this.file(key);
      const st = await fs.promises.stat(file);
      return { body: fs.createReadStream(file), type: typeOfKey(key), size: st.size };
    } catch {
      return null;
    }
  }

  urlOf(key: string): string {
    return `/uploads/${key}`;
  }
}

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style addresses (http://host/bucket/key): MinIO, s3rver and most self-hosted stores. */
  forcePathStyle: boolean;
  /** Where browsers load objects from; empty: through this server at /uploads/…. */
  publicUrl: string;
}

/**
 * The S3 store. The AWS SDK (~22 MB resident once loaded) is loaded on the bucket's first use, never in a
 * server that stores on disk; a failed load is not remembered.
 */
export class S3Store implements UploadStore {
  readonly kind = 's3';
  private sdk?: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }>;
  constructor(readonly s: S3Settings) {}

  private connect() {
    this.sdk ??= import('@aws-sdk/client-s3').then(
      (sdk) => ({
        sdk,
        client: new sdk.S3Client({
          endpoint: this.s.endpoint,
          region: this.s.region,
          forcePathStyle: this.s.forcePathStyle,
          credentials: { accessKeyId: this.s.accessKeyId, secretAccessKey: this.s.secretAccessKey },
        }),
      }),
      (err) => {
        this.sdk = undefined;
        throw err;
      },
    );
    return this.sdk;
  }

  async put(key: string, body: Buffer, type: string): Promise<void> {
    if (!SAFE_KEY.test(key)) throw new Error(`bad upload key ${key}`);
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.s.bucket,
        Key: key,
        Body: body,
        ContentType: type,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    if (!SAFE_KEY.test(key)) return null;
    const { sdk, client } = await this.connect();
    try {
      const r = await client.send(new sdk.GetObjectCommand({ Bucket: this.s.bucket, Key: key }));
      return { body: r.Body as Readable, type: typeOfKey(key), size: Number(r.ContentLength ?? 0) };
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      // A bucket answers 403 for a missing key when the credentials may not list it (least privilege).
      if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404 || e.$metadata?.httpStatusCode === 403)
        return null;
      throw err;
    }
  }

  urlOf(key: string): string {
    return this.s.publicUrl ? `${this.s.publicUrl.replace(/\/+$/, '')}/${key}` : `/uploads/${key}`;
  }
}

const stores = new WeakMap<object, UploadStore>();

/** The store the configuration names, one per configuration object. */
export function storeOf(config: { uploadDir: string; s3: S3Settings | null }): UploadStore {
  let s = stores.get(config);
  if (!s) {
    s = config.s3 ? new S3Store(config.s3) : new DiskStore(config.uploadDir);
    stores.set(config, s);
  }
  return s;
}
