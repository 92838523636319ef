import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ZonesPage from '../../../../src/pages/members/ZonesPage';
import { envelope } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';
import { fakeMembersApi } from './fakeMembersApi';
import type { Answer } from './fakeMembersApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/memberLayout/zoneLayout';

function setup(codes = ['zone:view', 'zone:opt'], path = PATH, answer?: Answer) {
  const api = fakeMembersApi({
    codes,
    answer: (c) => answer?.(c) ?? (c.path === 'zone/opt' ? envelope({ id: c.body.id ?? 3 }) : undefined),
  });
  return { ...api, ...renderAt(<ZonesPage />, path, makeStore()) };
}
const rowOf = (name: string) => screen.getByRole('cell', { name }).closest('tr') as HTMLElement;

describe('ZonesPage', () => {
  it('lists zones with leader, member count and status, sending the URL filters', async () => {
    const { of } = setup(undefined, `${PATH}?name=华&status=1`);
    await screen.findByRole('cell', { name: '华东一区' });
    expect(of('zone/list')[0].query).toEqual({ name: '华', status: '1', page: '1', size: '20' });
    expect(within(rowOf('华东一区')).getByText('10000000（老王）')).toBeInTheDocument();
    expect(within(rowOf('华东一区')).getByText('启用')).toBeInTheDocument();
    expect(within(rowOf('华南一区')).getByText('停用')).toBeInTheDocument();
    expect(within(rowOf('华东一区')).getByRole('button', { name: '停用' })).toBeInTheDocument();
    expect(within(rowOf('华南一区')).getByRole('button', { name: '启用' })).toBeInTheDocument();
  });

  it('creates a zone and edits one', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await screen.findByRole('cell', { name: '华东一区' });
    await u.click(screen.getByRole('button', { name: '新增专区' }));
    let dialog = await screen.findByRole('dialog', { name: '新增专区' });
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByText('专区名称不能为空')).toBeInTheDocument();
    await u.type(within(dialog).getByRole('textbox', { name: /专区名称/ }), '西南一区');
    await u.type(within(dialog).getByRole('textbox', { name: /负责人UID/ }), '123');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByText('负责人UID为8位数字')).toBeInTheDocument();
    await u.type(within(dialog).getByRole('textbox', { name: /负责人UID/ }), '45678');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('zone/opt')).toHaveLength(1));
    expect(of('zone/opt')[0].body).toEqual({ action: 'create', name: '西南一区', leaderUid: '12345678', sort: 0 });
    await waitFor(() => expect(store.getState().toast.items.map((t) => t.msg)).toContain('新增成功'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await u.click(within(rowOf('华东一区')).getByRole('button', { name: '编辑' }));
    dialog = await screen.findByRole('dialog', { name: '编辑专区' });
    expect(within(dialog).getByRole('textbox', { name: /专区名称/ })).toHaveValue('华东一区');
    const sort = within(dialog).getByRole('textbox', { name: /排序/ });
    await u.clear(sort);
    await u.type(sort, '9');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('zone/opt')).toHaveLength(2));
    expect(of('zone/opt')[1].body).toEqual({
      action: 'update',
      id: 1,
      name: '华东一区',
      leaderUid: '10000000',
      sort: 9,
    });
  });

  it('confirms disable and delete; a refusal is a toast and the list refreshes', async () => {
    const u = userEvent.setup();
    const { of, store } = setup(undefined, PATH, (c) =>
      c.path === 'zone/opt' && c.body.action === 'delete'
        ? envelope(null, 409, '该专区下还有会员，不能删除')
        : undefined,
    );
    await screen.findByRole('cell', { name: '华东一区' });
    await u.click(within(rowOf('华东一区')).getByRole('button', { name: '停用' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('确认停用专区 华东一区？停用后不能再分配会员到该专区');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('zone/opt')).toHaveLength(1));
    expect(of('zone/opt')[0].body).toEqual({ action: 'disable', id: 1 });
    await waitFor(() => expect(of('zone/list')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await u.click(within(rowOf('华东一区')).getByRole('button', { name: '删除' }));
    dialog = await screen.findByRole('dialog');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('zone/opt')).toHaveLength(2));
    expect(of('zone/opt')[1].body).toEqual({ action: 'delete', id: 1 });
    await waitFor(() => expect(store.getState().toast.items.map((t) => t.msg)).toContain('该专区下还有会员，不能删除'));
  });

  it('hides the actions without zone:opt', async () => {
    const { of } = setup(['zone:view']);
    await screen.findByRole('cell', { name: '华东一区' });
    await waitFor(() => expect(of('user/permissions')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: '新增专区' })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
  });
});
