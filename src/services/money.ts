/**
 * Cache tags of the deposit and withdrawal pages. A change to a record refetches the lists it shows
 * in, and, because money moved, the balances and bills other pages show (Asset, Member, Bill).
 * Imported for its effect by the pages that use these hooks.
 */
import { api } from './generated/api';

const LIST = 'LIST' as const;

export const moneyApi = api.enhanceEndpoints({
  endpoints: {
    listWithdrawals: { providesTags: [{ type: 'Withdraw', id: LIST }] },
    withdrawOpt: {
      invalidatesTags: (_r, error) =>
        error?.code === 0 ? [] : [{ type: 'Withdraw', id: LIST }, 'Asset', 'Member', 'Bill'],
    },
    withdrawBatch: {
      invalidatesTags: (_r, error) =>
        error?.code === 0 ? [] : [{ type: 'Withdraw', id: LIST }, 'Asset', 'Member', 'Bill'],
    },
    getWithdrawSetting: {
      providesTags: (_r, _e, arg) => [{ type: 'WithdrawSetting', id: arg.type }],
    },
    saveWithdrawSetting: {
      invalidatesTags: (_r, error, arg) => (error ? [] : [{ type: 'WithdrawSetting', id: arg.body.type }]),
    },
    saveWithdrawAccount: {
      invalidatesTags: (_r, error, arg) => (error ? [] : [{ type: 'WithdrawSetting', id: arg.body.type }]),
    },
    listDeposits: { providesTags: [{ type: 'Deposit', id: LIST }] },
    depositOpt: {
      // A 409 (someone else handled it) also means the list is stale.
      invalidatesTags: (_r, error) =>
        error?.code === 0 ? [] : [{ type: 'Deposit', id: LIST }, 'Asset', 'Member', 'Bill'],
    },
    getDepositSetting: { providesTags: ['DepositSetting'] },
    saveDepositSetting: { invalidatesTags: (_r, error) => (error ? [] : ['DepositSetting']) },
    listDepositAccounts: { providesTags: [{ type: 'DepositAccount', id: LIST }] },
    depositAccountOpt: {
      invalidatesTags: (_r, error) => (error?.code === 0 ? [] : [{ type: 'DepositAccount', id: LIST }]),
    },
  },
});

export const {
  useListWithdrawalsQuery,
  useWithdrawOptMutation,
  useWithdrawBatchMutation,
  useGetWithdrawSettingQuery,
  useSaveWithdrawSettingMutation,
  useSaveWithdrawAccountMutation,
  useListDepositsQuery,
  useDepositOptMutation,
  useGetDepositSettingQuery,
  useSaveDepositSettingMutation,
  useListDepositAccountsQuery,
  useDepositAccountOptMutation,
} = moneyApi;
