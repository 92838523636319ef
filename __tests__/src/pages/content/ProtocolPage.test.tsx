import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import ProtocolPage, { LEAVE_TEXT, NEWER_TEXT } from '../../../../src/pages/content/ProtocolPage';
import { envelope, mockFetch } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const T0 = Date.UTC(2026, 10, 20, 2, 30, 0);

function setup(opts: { codes?: string[]; conflict?: boolean } = {}) {
  const calls: Array<{ path: string; query: Record<string, string>; body: any }> = [];
  let version = T0;
  mockFetch(async (request) => {
    const url = new URL(request.url);
    const p = url.pathname.replace('/v1/admin/', '');
    const query = Object.fromEntries(url.searchParams.entries());
    const body = request.method === 'POST' ? await request.json() : null;
    calls.push({ path: p, query, body });
    if (p === 'user/permissions') return envelope({ codes: opts.codes ?? ['play:view', 'play:update'], tree: [] });
    if (p === 'protocol' && request.method === 'GET')
      return envelope({
        id: 8,
        title: version === T0 ? '玩法说明' : '别人改的',
        content: '<p>旧规则</p>',
        updatedAt: version,
        updatedBy: 'admin',
      });
    if (p === 'protocol') {
      if (opts.conflict) {
        version = T0 + 5000; // another manager saved first
        return envelope(null, 409, '该文案已被其他管理员修改，请刷新后再编辑');
      }
      return envelope({ ...body, updatedAt: T0 + 1000, updatedBy: 'admin' });
    }
    return envelope(null, 404, '接口不存在');
  });
  const view = renderAt(<ProtocolPage id={8} />, '/layout/descLayout/playLayout', makeStore(), [
    { path: '/layout/other', element: <p>别的页面</p> },
  ]);
  return { ...view, calls, of: (p: string) => calls.filter((c) => c.path === p) };
}

describe('ProtocolPage', () => {
  it('loads the text of its id and saves the edited title with the version it loaded', async () => {
    const { of, store } = setup();
    expect(await screen.findByRole('heading', { name: '玩法说明' })).toBeInTheDocument();
    expect(of('protocol')[0].query).toEqual({ id: '8' });
    expect(screen.getByText('最后修改：2026-11-20 10:30:00（admin）')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: '保存' });
    expect(save).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: '标题' }), { target: { value: '新玩法说明' } });
    expect(screen.getByText('有未保存的修改')).toBeInTheDocument();
    fireEvent.click(save);
    await waitFor(() => expect(of('protocol').filter((c) => c.body)).toHaveLength(1));
    expect(of('protocol').find((c) => c.body)!.body).toEqual({
      id: 8,
      title: '新玩法说明',
      content: '<p>旧规则</p>',
      updatedAt: T0,
    });
    await waitFor(() => expect(store.getState().toast.items.map((t) => t.msg)).toContain('保存成功'));
  });

  it('asks before leaving with unsaved changes; 取消 stays, 离开 goes', async () => {
    const { router } = setup();
    await screen.findByRole('heading', { name: '玩法说明' });
    fireEvent.change(screen.getByRole('textbox', { name: '标题' }), { target: { value: '改了' } });
    void router.navigate('/layout/other');
    expect(await screen.findByText(LEAVE_TEXT)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByText(LEAVE_TEXT)).toBeNull());
    expect(router.state.location.pathname).toBe('/layout/descLayout/playLayout');
    void router.navigate('/layout/other');
    fireEvent.click(await screen.findByRole('button', { name: '离开' }));
    expect(await screen.findByText('别的页面')).toBeInTheDocument();
  });

  it('keeps the edits when a save is refused because another manager saved first', async () => {
    setup({ conflict: true });
    await screen.findByRole('heading', { name: '玩法说明' });
    fireEvent.change(screen.getByRole('textbox', { name: '标题' }), { target: { value: '我的修改' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText(NEWER_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: '标题' })).toHaveValue('我的修改');
    expect(screen.getByText('有未保存的修改')).toBeInTheDocument();
  });

  it('is read-only without the update permission', async () => {
    setup({ codes: ['play:view'] });
    await screen.findByRole('heading', { name: '玩法说明' });
    expect(await screen.findByText('你只有查看权限')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
    expect(screen.getByRole('textbox', { name: '标题' })).toBeDisabled();
  });
});
