import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { ExportButton, progressText } from '../../../src/components/ExportButton';
import { setNavigator } from '../../../src/services/http';
import { createAppStore } from '../../../src/store';
import { envelope, mockFetch, requestOf } from '../mockFetch';

const encoder = new TextEncoder();

/** A file response whose chunks the test pushes one by one. */
function controlledFile(headers: Record<string, string>) {
  let push!: (text: string) => void;
  let end!: () => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (text) => controller.enqueue(encoder.encode(text));
      end = () => controller.close();
    },
  });
  const response = new Response(body, {
    status: 200,
    headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ...headers },
  });
  return { response, push: (t: string) => act(async () => push(t)), end: () => act(async () => end()) };
}

let saved: { href: string; download: string }[];
beforeEach(() => {
  saved = [];
  URL.createObjectURL = jest.fn(() => 'blob:http://localhost/file');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download });
  });
});
afterEach(() => jest.restoreAllMocks());

function setup(ui: React.ReactNode) {
  const store = createAppStore({ auth: { token: 'tok', username: 'admin' } }, null);
  render(<Provider store={store}>{ui}</Provider>);
  return store;
}

describe('ExportButton', () => {
  it('downloads with the filters and token, shows progress, saves under the server name', async () => {
    const file = controlledFile({
      'content-length': '8',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('收款方式_20261123.xlsx')}`,
    });
    const fetchMock = mockFetch(() => file.response);
    const store = setup(
      <ExportButton path="/v1/admin/payment/export" params={{ page: 3, size: 20, uid: 7, phone: '' }} />,
    );
    await userEvent.click(screen.getByRole('button', { name: '导出' }));
    await file.push('abcd');
    expect(await screen.findByRole('dialog', { name: '正在导出' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('已下载 4 B / 8 B（50%）');
    // Behind the modal progress dialog, hence hidden from the accessibility tree meanwhile.
    expect(screen.getByRole('button', { name: '导出中 50%', hidden: true })).toBeDisabled();
    expect(store.getState().loading.count).toBe(0); // no overlay for exports
    await file.push('efgh');
    await file.end();
    await waitFor(() =>
      expect(saved).toEqual([{ href: 'blob:http://localhost/file', download: '收款方式_20261123.xlsx' }]),
    );
    const request = requestOf(fetchMock);
    expect(new URL(request.url).search).toBe('?uid=7');
    expect(request.headers.get('Authorization')).toBe('tok');
    expect(store.getState().toast.items.map((t) => [t.msg, t.severity])).toEqual([['导出成功', 'success']]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: '导出' })).toBeEnabled();
  });

  it('offers Excel and CSV from a menu when both formats are allowed', async () => {
    const fetchMock = mockFetch(() => new Response('a,b\n', { headers: { 'content-type': 'text/csv' } }));
    setup(<ExportButton path="/v1/admin/payment/export" params={{ uid: 1 }} formats={['xlsx', 'csv']} />);
    await userEvent.click(screen.getByRole('button', { name: '导出' }));
    await userEvent.click(screen.getByRole('menuitem', { name: '导出 CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(new URL(requestOf(fetchMock).url).search).toBe('?uid=1&format=csv');
    expect(saved[0].download).toBe('导出.csv');
  });

  it("shows the envelope's msg as an error toast and saves nothing", async () => {
    mockFetch(() => envelope(null, 403, '无权限'));
    const store = setup(<ExportButton path="/v1/admin/payment/export" />);
    await userEvent.click(screen.getByRole('button', { name: '导出' }));
    await waitFor(() =>
      expect(store.getState().toast.items.map((t) => [t.msg, t.severity])).toEqual([['无权限', 'error']]),
    );
    expect(saved).toEqual([]);
    expect(store.getState().auth.token).toBe('tok');
  });

  it('clears the token and goes to login on 302, like the API calls', async () => {
    const go = jest.fn();
    setNavigator(go);
    mockFetch(() => envelope(null, 302, '您的登录已失效，请重新登录'));
    const store = setup(<ExportButton path="/v1/admin/payment/export" />);
    await userEvent.click(screen.getByRole('button', { name: '导出' }));
    await waitFor(() => expect(store.getState().auth.token).toBeNull());
    expect(go).toHaveBeenCalledWith('/login?redirect=%2F', { replace: true });
    expect(store.getState().toast.items).toEqual([]);
  });

  it('cancels from the progress dialog without a toast or a file', async () => {
    const file = controlledFile({});
    mockFetch(() => file.response);
    const store = setup(<ExportButton path="/x" />);
    await userEvent.click(screen.getByRole('button', { name: '导出' }));
    await file.push('x'.repeat(1536));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('已下载 1.5 KB'));
    await userEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.getByRole('button', { name: '导出' })).toBeEnabled());
    expect(saved).toEqual([]);
    expect(store.getState().toast.items).toEqual([]);
  });
});

describe('progressText', () => {
  it('shows bytes, and the percentage when known', () => {
    expect(progressText({ received: 2048, total: null, percent: null })).toBe('已下载 2.0 KB');
    expect(progressText({ received: 512, total: 1024, percent: 50 })).toBe('已下载 512 B / 1.0 KB（50%）');
  });
});
