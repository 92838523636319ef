import {
  buildUrl,
  DownloadError,
  downloadFile,
  filenameFromDisposition,
  formatBytes,
  type DownloadProgress,
} from '../../../src/services/download';
import { envelope, mockFetch, requestOf } from '../mockFetch';

const encoder = new TextEncoder();

/** A response whose body arrives in the given chunks. */
function fileResponse(chunks: string[], headers: Record<string, string> = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ...headers },
  });
}

describe('filenameFromDisposition', () => {
  it("prefers the RFC 5987 filename*=UTF-8'' name, decoding Chinese", () => {
    const name = encodeURIComponent('收款方式_20261123.xlsx');
    expect(filenameFromDisposition(`attachment; filename="payment.xlsx"; filename*=UTF-8''${name}`)).toBe(
      '收款方式_20261123.xlsx',
    );
    expect(filenameFromDisposition(`attachment; filename*=utf-8''${name}`)).toBe('收款方式_20261123.xlsx');
  });

  it('reads a quoted or bare plain filename, with escaped quotes', () => {
    expect(filenameFromDisposition('attachment; filename="a \\"b\\".csv"')).toBe('a "b".csv');
    expect(filenameFromDisposition('attachment; filename=report.csv')).toBe('report.csv');
  });

  it('re-decodes a raw UTF-8 name that arrived as Latin-1 bytes', () => {
    const latin1 = String.fromCharCode(...encoder.encode('账单.xlsx'));
    expect(filenameFromDisposition(`attachment; filename="${latin1}"`)).toBe('账单.xlsx');
  });

  it('falls back to the plain name when the extended one is malformed', () => {
    expect(filenameFromDisposition('attachment; filename*=UTF-8\'\'%E4%ZZ; filename="x.xlsx"')).toBe('x.xlsx');
  });

  it('strips path separators and returns null without a name', () => {
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('.._.._etc_passwd');
    expect(filenameFromDisposition('attachment')).toBeNull();
    expect(filenameFromDisposition(null)).toBeNull();
  });
});

describe('buildUrl', () => {
  it('leaves out empty values and repeats arrays', () => {
    expect(
      buildUrl('/v1/admin/payment/export', { uid: 12, phone: '', status: undefined, ids: [1, 2], q: '张 三' }),
    ).toBe('/v1/admin/payment/export?uid=12&ids=1&ids=2&q=%E5%BC%A0+%E4%B8%89');
    expect(buildUrl('/x', {})).toBe('/x');
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.5 KB'],
    [5 * 1024 * 1024 + 300 * 1024, '5.3 MB'],
  ])('%d bytes → %s', (n, text) => expect(formatBytes(n)).toBe(text));
});

describe('downloadFile', () => {
  it('sends the token, reports bytes and percent per chunk, and names the file from the header', async () => {
    const fetchMock = mockFetch(() =>
      fileResponse(['aaaa', 'bbbb', 'cc'], {
        'content-length': '10',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('会员.xlsx')}`,
      }),
    );
    const seen: DownloadProgress[] = [];
    const { blob, filename } = await downloadFile('/v1/admin/payment/export', {
      token: 'tok',
      params: { uid: 3 },
      onProgress: (p) => seen.push(p),
    });
    expect(filename).toBe('会员.xlsx');
    expect(await blob.text()).toBe('aaaabbbbcc');
    expect(seen.map((p) => [p.received, p.percent])).toEqual([
      [0, 0],
      [4, 40],
      [8, 80],
      [10, 100],
    ]);
    const request = requestOf(fetchMock);
    expect(request.headers.get('Authorization')).toBe('tok');
    expect(new URL(request.url).pathname + new URL(request.url).search).toBe('/v1/admin/payment/export?uid=3');
  });

  it('reports bytes without a percent when the length is unknown, and uses the fallback name', async () => {
    mockFetch(() => fileResponse(['x'.repeat(2048), 'y']));
    const seen: DownloadProgress[] = [];
    const { filename } = await downloadFile('/x', { fallbackName: '导出.xlsx', onProgress: (p) => seen.push(p) });
    expect(filename).toBe('导出.xlsx');
    expect(seen[seen.length - 1]).toEqual({ received: 2049, total: null, percent: null });
  });

  it("throws the envelope's code and msg when the server answers JSON instead of a file", async () => {
    mockFetch(() => envelope(null, 403, '无权限'));
    await expect(downloadFile('/x')).rejects.toEqual(new DownloadError(403, '无权限'));
    mockFetch(() => envelope(null, 302, '您的登录已失效，请重新登录'));
    await expect(downloadFile('/x')).rejects.toMatchObject({ code: 302 });
  });

  it('turns a transport failure or a non-JSON HTTP error into a Chinese message', async () => {
    mockFetch(() => Promise.reject(new TypeError('network')));
    await expect(downloadFile('/x')).rejects.toEqual(new DownloadError(0, '请求失败，请稍后重试！'));
    mockFetch(() => new Response('bad gateway', { status: 502, headers: { 'content-type': 'text/plain' } }));
    await expect(downloadFile('/x')).rejects.toEqual(new DownloadError(500, '系统繁忙，请稍后再试'));
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    mockFetch((req) => {
      abort.abort();
      return Promise.reject(req.signal.reason ?? new DOMException('aborted', 'AbortError'));
    });
    await expect(downloadFile('/x', { signal: abort.signal })).rejects.not.toBeInstanceOf(DownloadError);
  });
});

describe('downloadFile cancelled mid-stream', () => {
  it('ends a pending read on abort and rejects with the abort reason', async () => {
    const abort = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('part'));
      },
    });
    mockFetch(() => new Response(body, { headers: { 'content-type': 'text/csv' } }));
    const seen: number[] = [];
    const pending = downloadFile('/x', {
      signal: abort.signal,
      onProgress: (p) => {
        seen.push(p.received);
        if (p.received === 4) abort.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([0, 4]);
  });
});
