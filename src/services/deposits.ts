/**
 * The deposits module's endpoints (records, settings, collection accounts) with their cache tags. A
 * handled deposit refetches its list and, because money moved, the balances and bills other pages show.
 */
import { api } from './generated/deposit';
import { invalidates, LIST, MONEY_MOVED, providesList } from './tags';

export const depositsApi = api.enhanceEndpoints({
  addTagTypes: ['Deposit', 'DepositSetting', 'DepositAccount', ...MONEY_MOVED],
  endpoints: {
    listDeposits: { providesTags: providesList('Deposit') },
    depositOpt: { invalidatesTags: invalidates([{ type: 'Deposit', id: LIST }, ...MONEY_MOVED]) },
    getDepositSetting: { providesTags: ['DepositSetting'] },
    saveDepositSetting: { invalidatesTags: invalidates(['DepositSetting']) },
    listDepositAccounts: { providesTags: providesList('DepositAccount') },
    depositAccountOpt: { invalidatesTags: invalidates([{ type: 'DepositAccount', id: LIST }]) },
  },
});

export const {
  useListDepositsQuery,
  useDepositOptMutation,
  useGetDepositSettingQuery,
  useSaveDepositSettingMutation,
  useListDepositAccountsQuery,
  useDepositAccountOptMutation,
} = depositsApi;
