/**
 * An in-memory stand-in for the deposit and withdrawal routes, answered through mockFetch: enough
 * state for the pages to list, act and refresh, and a log of every request for the assertions.
 */
import type {
  GetDepositSettingApiResponse,
  ListDepositAccountsApiResponse,
  ListDepositsApiResponse,
} from '../../../../src/services/generated/deposit';
import type {
  GetWithdrawSettingApiResponse,
  ListWithdrawalsApiResponse,
} from '../../../../src/services/generated/withdraw';
import { envelope, mockFetch } from '../../mockFetch';

export type Withdraw = ListWithdrawalsApiResponse['list'][number];
export type Deposit = ListDepositsApiResponse['list'][number];
export type Account = ListDepositAccountsApiResponse['list'][number];

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
}

export const T0 = Date.UTC(2026, 10, 20, 2, 30, 0); // 2026-11-20 10:30:00 in Asia/Shanghai
export const TRC = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
export const ERC = '0x52908400098527886E0F7030069857D2E4169EE7';

export const ALL_CODES = [
  'withdraw:view',
  'withdraw:audit',
  'withdraw:pay',
  'withdraw:export',
  'extract:view',
  'extract:audit',
  'extract:pay',
  'extract:export',
  'withdrawSetting:view',
  'withdrawSetting:update',
  'deposit:view',
  'deposit:audit',
  'deposit:export',
  'depositSetting:update',
  'depositAccount:view',
  'depositAccount:opt',
];

function withdraw(id: number, type: 1 | 2, status: 0 | 1 | 2 | 3, amount: string): Withdraw {
  return {
    id,
    memberId: 100 + id,
    uid: String(10000000 + id),
    phone: `1380000${String(id).padStart(4, '0')}`,
    nickname: `会员${id}`,
    type,
    asset: type === 1 ? 'USDT' : 'LZ',
    amount,
    fee: '1',
    actual: String(Number(amount) - 1),
    chain: 'TRC20',
    address: TRC,
    status,
    txHash: status === 2 ? 'a'.repeat(64) : null,
    remark: status === 3 ? '地址有误' : '',
    auditorId: status === 0 ? null : 1,
    auditorName: status === 0 ? null : 'admin',
    auditedAt: status === 0 ? null : T0 + 3600_000,
    paidAt: status === 2 ? T0 + 7200_000 : null,
    createdAt: T0,
  };
}

export function withdrawals(): Withdraw[] {
  return [
    withdraw(1, 1, 0, '100'),
    withdraw(2, 1, 1, '250.5'),
    withdraw(3, 1, 2, '1000'),
    withdraw(4, 1, 3, '30'),
    withdraw(5, 1, 0, '60'),
    withdraw(6, 2, 0, '500'),
  ];
}

export function deposits(): Deposit[] {
  const d = (id: number, status: 0 | 1 | 2, amount: string): Deposit => ({
    id,
    memberId: 200 + id,
    uid: String(20000000 + id),
    phone: `1390000${String(id).padStart(4, '0')}`,
    nickname: `充值会员${id}`,
    chain: 'TRC20',
    fromAddress: TRC,
    toAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
    amount,
    txHash: `${id}`.padStart(64, 'b'),
    proofUrl: '',
    status,
    remark: status === 2 ? '未到账' : '',
    auditorId: status ? 1 : null,
    auditorName: status ? 'admin' : null,
    auditedAt: status ? T0 : null,
    createdAt: T0,
  });
  return [d(1, 0, '500'), d(2, 1, '1200.5'), d(3, 2, '80')];
}

export function accounts(): Account[] {
  return [
    { id: 1, chain: 'TRC20', address: TRC, qrUrl: '', status: 1, remark: '主地址', createdAt: T0, updatedAt: T0 },
    { id: 2, chain: 'ERC20', address: ERC, qrUrl: '', status: 0, remark: '', createdAt: T0, updatedAt: T0 },
  ];
}

export function withdrawSetting(type: 1 | 2): GetWithdrawSettingApiResponse {
  return {
    type,
    asset: type === 1 ? 'USDT' : 'LZ',
    open: true,
    min: type === 1 ? '10' : '100',
    max: type === 1 ? '50000' : '1000000',
    maxTimesPerDay: 3,
    feeRate: type === 1 ? '0.01' : '0.005',
    feeMin: '1',
    autoApproveMax: '0',
    openHours: '00:00-24:00',
    updatedAt: null,
    updatedBy: '',
    account: { chain: '', address: '', remark: '', updatedAt: null, updatedBy: '' },
  };
}

export interface FakeOptions {
  codes?: string[];
  /** Ids the batch refuses, with the message. */
  batchFailures?: Record<number, string>;
  /** An answer to force for one path (e.g. a 409 on withdraw/opt). */
  override?: Record<string, { code: number; msg: string }>;
}

export function fakeMoneyApi(opts: FakeOptions = {}) {
  const calls: Call[] = [];
  const state = {
    withdrawals: withdrawals(),
    deposits: deposits(),
    accounts: accounts(),
    withdrawSettings: { 1: withdrawSetting(1), 2: withdrawSetting(2) } as Record<number, GetWithdrawSettingApiResponse>,
    depositSetting: {
      open: true,
      min: '10',
      chains: ['TRC20', 'ERC20'],
      tips: '',
      updatedAt: null,
      updatedBy: '',
    } as GetDepositSettingApiResponse,
  };
  const move = (w: Withdraw, action: string, body: any): string | null => {
    if (action === 'approve' && w.status === 0) w.status = 1;
    else if (action === 'paid' && w.status === 1) {
      w.status = 2;
      w.txHash = body.txHash || null;
    } else if (action === 'reject' && (w.status === 0 || w.status === 1)) {
      w.status = 3;
      w.remark = body.remark;
    } else return '该提现已处理';
    return null;
  };
  const fetchMock = mockFetch(async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace('/v1/admin/', '');
    const query = Object.fromEntries(url.searchParams.entries());
    const body = request.method === 'POST' ? await request.json().catch(() => null) : null;
    calls.push({ method: request.method, path, query, body });
    const forced = opts.override?.[path];
    if (forced) return envelope(null, forced.code, forced.msg);
    switch (path) {
      case 'withdraw/export':
      case 'deposit/export':
        return new Response('\ufeffID\r\n', {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="export.csv"; filename*=UTF-8''${encodeURIComponent('记录.csv')}`,
          },
        });
      case 'user/permissions':
        return envelope({ codes: opts.codes ?? ALL_CODES, tree: [] });
      case 'withdraw/list': {
        let rows = state.withdrawals.filter((w) => w.type === Number(query.type));
        if (query.status !== undefined) rows = rows.filter((w) => w.status === Number(query.status));
        if (query.keyword) rows = rows.filter((w) => w.uid === query.keyword);
        const sum = rows.reduce((a, w) => a + Number(w.amount), 0);
        return envelope({
          list: rows,
          total: rows.length,
          page: Number(query.page ?? 1),
          size: Number(query.size ?? 20),
          sum: { amount: String(sum), fee: String(rows.length), count: rows.length },
        });
      }
      case 'withdraw/opt': {
        const w = state.withdrawals.find((x) => x.id === body.id);
        if (!w) return envelope(null, 404, '提现记录不存在');
        const err = move(w, body.action, body);
        return err ? envelope(null, 409, err) : envelope({ id: w.id, status: w.status });
      }
      case 'withdraw/opt/batch': {
        const succeeded: number[] = [];
        const failed: { id: number; msg: string }[] = [];
        for (const id of body.ids as number[]) {
          const w = state.withdrawals.find((x) => x.id === id);
          const err = opts.batchFailures?.[id] ?? (w ? move(w, body.action, body) : '提现记录不存在');
          if (err) failed.push({ id, msg: err });
          else succeeded.push(id);
        }
        return envelope({ succeeded, failed });
      }
      case 'withdraw/setting':
        if (request.method === 'GET') return envelope(state.withdrawSettings[Number(query.type)]);
        state.withdrawSettings[body.type] = {
          ...state.withdrawSettings[body.type],
          ...body,
          updatedAt: T0 + 1000,
          updatedBy: 'admin',
        };
        return envelope(state.withdrawSettings[body.type]);
      case 'withdraw/account': {
        const s = state.withdrawSettings[body.type];
        s.account = {
          chain: body.chain,
          address: body.address,
          remark: body.remark ?? '',
          updatedAt: T0 + 1000,
          updatedBy: 'admin',
        };
        return envelope(s);
      }
      case 'deposit/list': {
        let rows = state.deposits;
        if (query.status !== undefined) rows = rows.filter((d) => d.status === Number(query.status));
        if (query.chain) rows = rows.filter((d) => d.chain === query.chain);
        const sum = rows.reduce((a, d) => a + Number(d.amount), 0);
        return envelope({
          list: rows,
          total: rows.length,
          page: 1,
          size: 20,
          sum: { amount: String(sum), count: rows.length },
        });
      }
      case 'deposit/opt': {
        const d = state.deposits.find((x) => x.id === body.id);
        if (!d) return envelope(null, 404, '充值记录不存在');
        if (d.status !== 0) return envelope(null, 409, '该充值已处理');
        d.status = body.action === 'confirm' ? 1 : 2;
        d.remark = body.remark ?? '';
        return envelope({ id: d.id, status: d.status });
      }
      case 'deposit/setting':
        if (request.method === 'GET') return envelope(state.depositSetting);
        state.depositSetting = { ...body, updatedAt: T0 + 1000, updatedBy: 'admin' };
        return envelope(state.depositSetting);
      case 'deposit/account/list': {
        let rows = state.accounts;
        if (query.chain) rows = rows.filter((a) => a.chain === query.chain);
        return envelope({ list: rows, total: rows.length, page: 1, size: 20 });
      }
      case 'deposit/account/opt': {
        if (body.action === 'create') {
          const id = Math.max(0, ...state.accounts.map((a) => a.id)) + 1;
          state.accounts = [
            ...state.accounts,
            {
              id,
              chain: body.chain,
              address: body.address,
              qrUrl: body.qrUrl ?? '',
              status: body.status ?? 1,
              remark: body.remark ?? '',
              createdAt: T0,
              updatedAt: T0,
            },
          ];
          return envelope({ id });
        }
        const a = state.accounts.find((x) => x.id === body.id);
        if (!a) return envelope(null, 404, '收款地址不存在');
        if (body.action === 'delete') state.accounts = state.accounts.filter((x) => x.id !== body.id);
        else if (body.action === 'enable') a.status = 1;
        else if (body.action === 'disable') a.status = 0;
        else Object.assign(a, { chain: body.chain, address: body.address, remark: body.remark, qrUrl: body.qrUrl });
        return envelope({ id: a.id });
      }
      default:
        return envelope(null, 404, '接口不存在');
    }
  });
  const of = (path: string) => calls.filter((c) => c.path === path);
  return { calls, of, state, fetchMock };
}
