import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import NoticeListPage from '../../../../src/pages/content/NoticeListPage';
import type { Notice } from '../../../../src/pages/content/NoticeListPage';
import { envelope, mockFetch } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/noticeLayout';
const T0 = Date.UTC(2026, 10, 20, 2, 30, 0);

function notice(id: number, status: 0 | 1 | 2, over: Partial<Notice> = {}): Notice {
  return {
    id,
    title: `公告${id}`,
    content: `<p>内容${id}</p><script>window.bad = 1</script><img src="x" onerror="window.bad = 2">`,
    pinned: false,
    status,
    publishedAt: status === 0 ? null : T0,
    createdAt: T0,
    updatedAt: T0,
    updatedBy: 'admin',
    ...over,
  };
}

function setup(opts: { codes?: string[] } = {}, path = PATH) {
  const calls: Array<{ path: string; query: Record<string, string>; body: any }> = [];
  const rows = [notice(3, 0, { pinned: true }), notice(2, 1), notice(1, 2)];
  mockFetch(async (request) => {
    const url = new URL(request.url);
    const p = url.pathname.replace('/v1/admin/', '');
    const query = Object.fromEntries(url.searchParams.entries());
    const body = request.method === 'POST' ? await request.json() : null;
    calls.push({ path: p, query, body });
    if (p === 'user/permissions') return envelope({ codes: opts.codes ?? ['notice:view', 'notice:opt'], tree: [] });
    if (p === 'notice/list') {
      const list = query.status ? rows.filter((r) => r.status === Number(query.status)) : rows;
      return envelope({ list, total: list.length, page: 1, size: 20 });
    }
    if (p === 'notice/opt') {
      const n = rows.find((r) => r.id === body.id)!;
      n.status = body.action === 'publish' ? 1 : 2;
      return envelope(n);
    }
    return envelope(null, 404, '接口不存在');
  });
  const view = renderAt(<NoticeListPage />, path, makeStore());
  return { ...view, calls, of: (p: string) => calls.filter((c) => c.path === p) };
}

const rowOf = (id: number) => document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;
const buttons = (id: number) =>
  within(rowOf(id))
    .queryAllByRole('button')
    .map((b) => b.textContent);

describe('NoticeListPage', () => {
  it('lists notices with 置顶, status and times, and offers each state only its actions', async () => {
    setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    for (const h of ['标题', '状态', '发布时间', '更新时间', '操作人', '操作'])
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    expect(within(rowOf(3)).getByText('置顶')).toBeInTheDocument();
    expect(within(rowOf(3)).getByText('草稿')).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('已发布')).toBeInTheDocument();
    await waitFor(() => expect(buttons(3)).toEqual(['预览', '编辑', '发布', '删除']));
    expect(buttons(2)).toEqual(['预览', '下线']);
    expect(buttons(1)).toEqual(['预览', '编辑', '发布', '删除']);
  });

  it('shows only 预览 and no 新增公告 without notice:opt', async () => {
    setup({ codes: ['notice:view'] });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    await waitFor(() => expect(buttons(2)).toEqual(['预览']));
    expect(screen.queryByRole('button', { name: '新增公告' })).toBeNull();
  });

  it('asks before taking a notice offline, then sends it and refetches the list', async () => {
    const { of, store } = setup();
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    fireEvent.click(await within(rowOf(2)).findByRole('button', { name: '下线' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('确认下线公告「公告2」？下线后会员将看不到它。');
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('notice/opt')).toHaveLength(1));
    expect(of('notice/opt')[0].body).toEqual({ action: 'offline', id: 2 });
    await waitFor(() => expect(store.getState().toast.items.map((t) => t.msg)).toContain('已下线'));
    await waitFor(() => expect(of('notice/list').length).toBeGreaterThan(1));
  });

  it('previews a notice as a member sees it, with the stored HTML sanitized again', async () => {
    setup();
    await waitFor(() => expect(rowOf(3)).toBeTruthy());
    fireEvent.click(await within(rowOf(3)).findByRole('button', { name: '预览' }));
    const region = await screen.findByRole('region', { name: '公告预览' });
    expect(within(region).getByRole('heading', { name: '公告3' })).toBeInTheDocument();
    expect(within(region).getByText('内容3')).toBeInTheDocument();
    expect(region.querySelector('script, img')).toBeNull();
  });

  it('keeps the filters in the URL and sends them', async () => {
    const { of } = setup({}, `${PATH}?status=1&keyword=${encodeURIComponent('公告')}`);
    await waitFor(() => expect(of('notice/list').length).toBeGreaterThan(0));
    expect(of('notice/list')[0].query).toMatchObject({ status: '1', keyword: '公告' });
  });
});
