import { configure, screen } from '@testing-library/react';
import TransferListPage from '../../../../src/pages/transfers/TransferListPage';
import { envelope } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';
import { fakeLedgerApi, T0 } from './fakeLedgerApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

describe('TransferListPage', () => {
  it('lists transfers with both members and the per-asset sums of amount and fee', async () => {
    const { of } = fakeLedgerApi({
      codes: ['transfer:view'],
      answer: (c) =>
        c.path === 'transfer/list'
          ? envelope({
              list: [
                {
                  id: 9,
                  fromMemberId: 1,
                  fromUid: '10000001',
                  fromNickname: '王芳',
                  toMemberId: 2,
                  toUid: '10000002',
                  toNickname: '李娜',
                  asset: 'USDT',
                  amount: '100',
                  fee: '1',
                  createdAt: T0,
                },
              ],
              total: 1,
              page: 1,
              size: 20,
              sum: { count: 1, byAsset: [{ asset: 'USDT', amount: '100', fee: '1' }] },
            })
          : undefined,
    });
    renderAt(<TransferListPage />, '/layout/transferLayout?uid=10000001&asset=USDT', makeStore());
    expect(await screen.findByText('王芳')).toBeInTheDocument();
    expect(screen.getByText('李娜')).toBeInTheDocument();
    expect(of('transfer/list')[0].query).toMatchObject({ uid: '10000001', asset: 'USDT' });
    expect(await screen.findByText('USDT 合计金额：100.00 USDT，USDT 手续费：1.00 USDT，共 1 条')).toBeInTheDocument();
  });
});
