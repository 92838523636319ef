/**
 * The withdrawals module's endpoints (records, batch review, settings) with their cache tags. A
 * reviewed withdrawal refetches its list and, because money moved, the balances and bills other pages
 * show; a saved setting refetches the setting of its type.
 */
import { api } from './generated/withdraw';
import { invalidates, LIST, MONEY_MOVED, providesList } from './tags';

type SettingArg = { body: { type: number } };
const settingOfType = (arg: SettingArg) => [{ type: 'WithdrawSetting' as const, id: arg.body.type }];

export const withdrawalsApi = api.enhanceEndpoints({
  addTagTypes: ['Withdraw', 'WithdrawSetting', ...MONEY_MOVED],
  endpoints: {
    listWithdrawals: { providesTags: providesList('Withdraw') },
    withdrawOpt: { invalidatesTags: invalidates([{ type: 'Withdraw', id: LIST }, ...MONEY_MOVED]) },
    withdrawBatch: { invalidatesTags: invalidates([{ type: 'Withdraw', id: LIST }, ...MONEY_MOVED]) },
    getWithdrawSetting: { providesTags: (_r, _e, arg) => [{ type: 'WithdrawSetting', id: arg.type }] },
    saveWithdrawSetting: { invalidatesTags: invalidates(settingOfType) },
    saveWithdrawAccount: { invalidatesTags: invalidates(settingOfType) },
  },
});

export const {
  useListWithdrawalsQuery,
  useWithdrawOptMutation,
  useWithdrawBatchMutation,
  useGetWithdrawSettingQuery,
  useSaveWithdrawSettingMutation,
  useSaveWithdrawAccountMutation,
} = withdrawalsApi;
