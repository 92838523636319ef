/**
 * The image field: a ticket from GET oss (fetch, mocked), the bytes PUT to its uploadUrl with progress
 * (XMLHttpRequest, a stand-in here), the stored URL handed to the form; refusals shown under the field,
 * those the ticket allows checked before anything is sent.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Provider } from 'react-redux';
import ImageUpload from '../../../src/components/ImageUpload';
import { NOT_IMAGE } from '../../../src/services/uploads';
import { createAppStore } from '../../../src/store';
import { envelope, mockFetch } from '../mockFetch';

const TICKET = {
  uploadUrl: '/v1/admin/oss/upload/tok123',
  key: 'img/2026/11/24/abc.webp',
  publicUrl: '/uploads/img/2026/11/24/abc.webp',
  expiresAt: 0,
  maxSize: 1024,
  accept: 'image/png,image/jpeg,image/gif,image/webp',
};

/** A stand-in XMLHttpRequest: records what was sent; the test drives progress and the answer. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.last = this;
  }
  answer(body: unknown) {
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

let changes: string[];
function Field({ initial = '' }: { initial?: string }) {
  const [v, setV] = useState(initial);
  return (
    <ImageUpload
      label="二维码图片"
      value={v}
      onChange={(url) => {
        changes.push(url);
        setV(url);
      }}
    />
  );
}

beforeEach(() => {
  changes = [];
  FakeXhr.last = null;
  (globalThis as unknown as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
});

function setup(ui: React.ReactNode) {
  const store = createAppStore({ auth: { token: 'tok', username: 'admin' } }, null);
  render(<Provider store={store}>{ui}</Provider>);
}

const png = (size = 100) => new File([new Uint8Array(size)], 'qr.png', { type: 'image/png' });

it('uploads a chosen file with progress and hands the stored URL to the form', async () => {
  const fetchMock = mockFetch(() => envelope(TICKET));
  setup(<Field />);
  await userEvent.upload(screen.getByLabelText('上传二维码图片'), png());
  await waitFor(() => expect(FakeXhr.last).not.toBeNull());
  expect(fetchMock).toHaveBeenCalledTimes(1);
  const xhr = FakeXhr.last!;
  expect([xhr.method, xhr.url, xhr.headers['Content-Type']]).toEqual(['PUT', TICKET.uploadUrl, 'image/png']);
  expect((xhr.body as File).name).toBe('qr.png');
  act(() => xhr.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 }));
  expect(screen.getByLabelText('上传进度')).toHaveAttribute('aria-valuenow', '40');
  act(() => xhr.answer({ code: 200, msg: 'ok', data: { url: TICKET.publicUrl, thumbUrl: '', key: TICKET.key } }));
  await waitFor(() => expect(changes).toEqual([TICKET.publicUrl]));
  expect(screen.getByRole('img', { name: '二维码图片' })).toHaveAttribute('src', TICKET.publicUrl);
  expect(screen.queryByLabelText('上传进度')).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: '移除' }));
  expect(changes).toEqual([TICKET.publicUrl, '']);
});

it('shows the server’s refusal under the field and keeps the value', async () => {
  mockFetch(() => envelope(TICKET));
  setup(<Field initial="/uploads/old.webp" />);
  await userEvent.upload(screen.getByLabelText('上传二维码图片'), png());
  await waitFor(() => expect(FakeXhr.last).not.toBeNull());
  act(() => FakeXhr.last!.answer({ code: 400, msg: '图片已损坏或无法识别', data: null }));
  expect(await screen.findByText('图片已损坏或无法识别')).toBeInTheDocument();
  expect(changes).toEqual([]);
  expect(screen.getByRole('img', { name: '二维码图片' })).toHaveAttribute('src', '/uploads/old.webp');
});

it('refuses a file the ticket does not allow before sending it: too large, or not an image type', async () => {
  mockFetch(() => envelope(TICKET));
  setup(<Field />);
  await userEvent.upload(screen.getByLabelText('上传二维码图片'), png(2048));
  expect(await screen.findByText('文件超过 1 KB 上限，请压缩后再上传')).toBeInTheDocument();
  const input = screen.getByLabelText('上传二维码图片');
  await userEvent.upload(input, new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' }), { applyAccept: false });
  expect(await screen.findByText(NOT_IMAGE)).toBeInTheDocument();
  expect(FakeXhr.last).toBeNull();
  expect(changes).toEqual([]);
});
