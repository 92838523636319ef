/**
 * The one export path of the console (payment, pledge, order exports…): fetch the file with the
 * session token, read the body as a stream so the caller can show progress, name it from
 * Content-Disposition and save it through an object URL.
 *
 * Not through RTK Query: a file is not cache state, and an export must not raise the loading overlay
 * (it has its own progress). Errors mirror the baseQuery: a JSON envelope instead of a file carries
 * the server's msg; 301/302 end the session (the caller clears the token and goes to login).
 */
import { ClientMessages as Messages, Code } from '../../domain/codes';
import { API_BASE } from './http';

export interface DownloadProgress {
  /** Bytes received so far. */
  received: number;
  /** Content-Length when the server sent one (a streamed export usually does not). */
  total: number | null;
  /** 0–100 when the total is known. */
  percent: number | null;
}

export interface DownloadResult {
  blob: Blob;
  filename: string;
}

/** A refused download: `code` is the envelope code, or 0 for a transport failure. */
export class DownloadError extends Error {
  readonly code: number;
  constructor(code: number, msg: string) {
    super(msg);
    this.name = 'DownloadError';
    this.code = code;
  }
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface DownloadOptions {
  /** Query parameters; empty values are left out. */
  params?: Record<string, QueryValue>;
  /** The raw session token, sent in Authorization like every API call. */
  token?: string | null;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Used when the response names no file. */
  fallbackName?: string;
}

/** `/v1/admin/payment/export` + params → the URL to fetch (same base as the RTK api). */
export function buildUrl(path: string, params: Record<string, QueryValue> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) query.append(key, String(v));
    else query.append(key, String(value));
  }
  const qs = query.toString();
  return `${API_BASE}${path}${qs ? `${path.includes('?') ? '&' : '?'}${qs}` : ''}`;
}

/**
 * Headers are byte strings: a server that writes a UTF-8 name into plain `filename=` arrives as one
 * Latin-1 character per byte. Re-decode such a name; leave anything else as it is.
 */
function fromLatin1Bytes(text: string): string {
  const codes = Array.from(text, (c) => c.charCodeAt(0));
  if (!codes.some((c) => c >= 0x80) || codes.some((c) => c > 0xff)) return text;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(codes));
  } catch {
    return text;
  }
}

/** Keeps a server-given name from reaching outside the downloads folder or carrying control chars. */
function safeName(name: string): string {
  const printable = Array.from(name)
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('');
  const cleaned = printable.replace(/[\\/]/g, '_').trim();
  return cleaned === '.' || cleaned === '..' ? '' : cleaned;
}

/**
 * The file name of a Content-Disposition header (RFC 6266): `filename*=UTF-8''…` (RFC 5987, percent
 * encoded, the way Chinese names travel) wins over plain `filename=`. Null when there is none.
 */
export function filenameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(header);
  if (extended) {
    const m = /^\s*"?([\w!#$&+.^`|~-]+)'([\w-]*)'([^"]*)"?\s*$/.exec(extended[1]);
    if (m) {
      const charset = m[1].toLowerCase();
      try {
        const decoded =
          charset === 'utf-8'
            ? decodeURIComponent(m[3])
            : // ISO-8859-1: each %XX is one character.
              m[3].replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
        const name = safeName(decoded);
        if (name) return name;
      } catch {
        // A malformed escape: fall back to the plain parameter.
      }
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(header);
  if (plain) {
    const raw = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2].trim();
    const name = safeName(fromLatin1Bytes(raw));
    if (name) return name;
  }
  return null;
}

function parseLength(header: string | null): number | null {
  if (!header || !/^\d+$/.test(header.trim())) return null;
  const n = Number(header.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

async function envelopeError(response: Response): Promise<DownloadError> {
  try {
    const body = (await response.json()) as { code?: unknown; msg?: unknown };
    const code = typeof body.code === 'number' ? body.code : Code.internal;
    const msg = typeof body.msg === 'string' && body.msg ? body.msg : Messages.busy;
    // A 200 envelope where a file was expected is still not a file.
    return new DownloadError(code === Code.ok ? Code.internal : code, code === Code.ok ? Messages.busy : msg);
  } catch {
    return new DownloadError(Code.internal, Messages.busy);
  }
}

/** Fetches a file, reporting progress; throws DownloadError (or the AbortError of `signal`). */
export async function downloadFile(path: string, options: DownloadOptions = {}): Promise<DownloadResult> {
  const headers = new Headers();
  if (options.token) headers.set('Authorization', options.token);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.params), { headers, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new DownloadError(0, Messages.requestFailed);
  }
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) throw await envelopeError(response);
  if (!response.ok) throw new DownloadError(Code.internal, Messages.busy);

  const total = parseLength(response.headers.get('content-length'));
  const report = (received: number) =>
    options.onProgress?.({
      received,
      total,
      percent: total ? Math.min(100, Math.floor((received * 100) / total)) : null,
    });

  const chunks: BlobPart[] = [];
  let received = 0;
  report(0);
  if (response.body) {
    const reader = response.body.getReader();
    // Cancelling the reader ends a pending read at once, whatever the fetch does with the signal.
    const onAbort = () => void reader.cancel().catch(() => undefined);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        report(received);
      }
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new DownloadError(0, Messages.requestFailed);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    if (options.signal?.aborted) throw options.signal.reason ?? new DOMException('已取消', 'AbortError');
  } else {
    const whole = await response.blob();
    chunks.push(whole);
    received = whole.size;
    report(received);
  }
  const blob = new Blob(chunks, { type: type || 'application/octet-stream' });
  const filename =
    filenameFromDisposition(response.headers.get('content-disposition')) ?? options.fallbackName ?? 'download';
  return { blob, filename };
}

/** Hands a blob to the browser as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked a moment later: some browsers start reading the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Human-readable size for the progress text: "512 B", "1.5 KB", "12.3 MB" (integer math only). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let unit = 0;
  let scale = 1024;
  while (bytes >= scale * 1024 && unit < units.length - 1) {
    scale *= 1024;
    unit += 1;
  }
  const tenths = Math.round((bytes * 10) / scale);
  return `${Math.floor(tenths / 10)}.${tenths % 10} ${units[unit]}`;
}
