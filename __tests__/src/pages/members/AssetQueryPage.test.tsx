import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AssetQueryPage from '../../../../src/pages/members/AssetQueryPage';
import { envelope } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';
import { fakeMembersApi, T0 } from './fakeMembersApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/memberLayout/queryListLayout';
const row = (asset: string, available: string, frozen: string, total: string) => ({
  memberId: 1,
  uid: '10000001',
  phone: '13800000001',
  nickname: '张三',
  asset,
  available,
  frozen,
  total,
  updatedAt: T0,
});

function setup(path = PATH) {
  const api = fakeMembersApi({
    codes: ['query:view'],
    answer: (c) =>
      c.path === 'query/list'
        ? envelope({
            list: [row('USDT', '70', '30.5', '100.5'), row('LZ', '5.1234', '0', '5.1234')],
            total: 2,
            page: 1,
            size: 20,
            sum: [
              { asset: 'USDT', available: '70', frozen: '30.5', total: '100.5' },
              { asset: 'LZ', available: '5.1234', frozen: '0', total: '5.1234' },
            ],
          })
        : undefined,
  });
  return { ...api, ...renderAt(<AssetQueryPage />, path, makeStore()) };
}

describe('AssetQueryPage', () => {
  it('shows one row per member and asset with amounts in the asset’s places, and the sums per asset', async () => {
    const { of } = setup(`${PATH}?asset=USDT&minTotal=10&sort=total&order=desc`);
    await screen.findByRole('cell', { name: '100.50' });
    expect(of('query/list')[0].query).toEqual({
      asset: 'USDT',
      minTotal: '10',
      sort: 'total',
      order: 'desc',
      page: '1',
      size: '20',
    });
    const lz = screen.getAllByRole('cell', { name: '5.1234' })[0].closest('tr') as HTMLElement;
    expect(within(lz).getByText('LZ')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'USDT可用：70.00 USDT，USDT冻结：30.50 USDT，LZ可用：5.1234 LZ，LZ冻结：0.0000 LZ，共 2 条',
    );
  });

  it('filters by keyword and asset through the URL', async () => {
    const u = userEvent.setup();
    const { of, router } = setup();
    await screen.findByRole('cell', { name: '100.50' });
    await u.type(screen.getByRole('textbox', { name: '关键字' }), '张三');
    await u.click(screen.getByRole('combobox', { name: '币种' }));
    await u.click(await screen.findByRole('option', { name: 'LZ' }));
    await u.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(of('query/list').at(-1)?.query).toMatchObject({ keyword: '张三', asset: 'LZ' }));
    expect(decodeURIComponent(router.state.location.search)).toBe('?keyword=张三&asset=LZ');
  });
});
