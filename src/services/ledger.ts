/**
 * Cache tags of the payment-method, transfer, bill and energy-change pages. A review refetches the
 * payment list; bills and transfers are read-only here and refetch when money moves elsewhere
 * (withdrawals, deposits and adjustments invalidate 'Bill'). Imported for its effect by these pages.
 */
import { api } from './generated/api';

const LIST = 'LIST' as const;

export const ledgerApi = api.enhanceEndpoints({
  endpoints: {
    listPaymentMethods: { providesTags: [{ type: 'Payment', id: LIST }] },
    paymentOpt: {
      // A 409 (someone else reviewed it) also means the list is stale.
      invalidatesTags: (_r, error) => (error?.code === 0 ? [] : [{ type: 'Payment', id: LIST }, 'Member']),
    },
    listTransfers: { providesTags: [{ type: 'Transfer', id: LIST }, 'Bill'] },
    getBillTypes: { keepUnusedDataFor: 3600 },
    listBills: { providesTags: [{ type: 'Bill', id: LIST }] },
    listEnergyChanges: { providesTags: [{ type: 'Bill', id: 'ENERGY' }] },
  },
});

export const {
  useListPaymentMethodsQuery,
  usePaymentOptMutation,
  useListTransfersQuery,
  useGetBillTypesQuery,
  useListBillsQuery,
  useListEnergyChangesQuery,
} = ledgerApi;
