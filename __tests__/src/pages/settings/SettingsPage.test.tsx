import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import SettingsPage from '../../../../src/pages/settings/SettingsPage';
import { envelope, mockFetch } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const SETTINGS = {
  platform: { name: 'LZ 社区' },
  service: { wechat: 'kefu01', phone: '400-000-0000' },
  register: { open: true, inviteReward: '5' },
  price: { lz: '0.5' },
  app: { version: '1.0.0', downloadUrl: 'https://example.com/app' },
  maintenance: { on: false, message: '' },
  match: { payTimeoutMinutes: 30 },
  mall: { autoCompleteDays: 7 },
  updatedAt: null,
  updatedBy: '',
};

function setup(codes = ['setting:view', 'setting:update']) {
  const calls: Array<{ path: string; body: any }> = [];
  mockFetch(async (request) => {
    const p = new URL(request.url).pathname.replace('/v1/admin/', '');
    const body = request.method === 'POST' ? await request.json() : null;
    calls.push({ path: p, body });
    if (p === 'user/permissions') return envelope({ codes, tree: [] });
    if (p === 'setting' && !body) return envelope(SETTINGS);
    if (p === 'setting') return envelope({ ...SETTINGS, ...body, updatedAt: 1, updatedBy: 'admin' });
    if (p === 'price') return envelope({ now: '0.5', updatedAt: 1, updatedBy: 'admin', history: [] });
    return envelope(null, 404, '接口不存在');
  });
  const view = renderAt(<SettingsPage />, '/layout/settingLayout', makeStore());
  return { ...view, calls, posts: () => calls.filter((c) => c.path === 'setting' && c.body) };
}

describe('SettingsPage', () => {
  it('shows every group and saves only the groups that changed', async () => {
    const { posts, store } = setup();
    for (const g of ['平台信息', '客服', '注册与邀请', 'LZ 价格', 'App 版本', '维护模式', '撮合与商城'])
      expect(await screen.findByRole('region', { name: g })).toBeInTheDocument();
    const save = screen.getByRole('button', { name: '保存' });
    expect(save).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: '平台名称' }), { target: { value: '链社区' } });
    fireEvent.change(screen.getByRole('textbox', { name: '发货后自动完成（天）' }), { target: { value: '10' } });
    fireEvent.click(save);
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].body).toEqual({ platform: { name: '链社区' }, mall: { autoCompleteDays: 10 }, updatedAt: 0 });
    await waitFor(() => expect(store.getState().toast.items.map((t) => t.msg)).toContain('保存成功'));
  });

  it('checks each field as the server does, naming it, and sends nothing while one is wrong', async () => {
    const { posts } = setup();
    const version = await screen.findByRole('textbox', { name: 'App 版本号' });
    fireEvent.change(version, { target: { value: 'v2' } });
    fireEvent.change(screen.getByRole('textbox', { name: '撮合付款时限（分钟）' }), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('App 版本号格式应为 1.2.3')).toBeInTheDocument();
    expect(screen.getByText('请输入 5–1440 的整数')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);
  });

  it('asks for the maintenance message when maintenance mode is turned on', async () => {
    const { posts } = setup();
    const group = await screen.findByRole('region', { name: '维护模式' });
    fireEvent.click(within(group).getByRole('switch', { name: '维护模式' }));
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('开启维护模式时请填写维护公告')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);
  });

  it('is read-only without setting:update', async () => {
    setup(['setting:view']);
    expect(await screen.findByRole('textbox', { name: '平台名称' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
  });
});
