/**
 * The bill and energy-change endpoints: read-only here; they refetch when money moves elsewhere
 * (withdrawals, deposits and adjustments invalidate 'Bill').
 */
import { api } from './generated/bill';
import { providesList } from './tags';

export const billsApi = api.enhanceEndpoints({
  addTagTypes: ['Bill'],
  endpoints: {
    getBillTypes: { keepUnusedDataFor: 3600 },
    listBills: { providesTags: providesList('Bill') },
    listEnergyChanges: { providesTags: [{ type: 'Bill', id: 'ENERGY' }] },
  },
});

export const { useGetBillTypesQuery, useListBillsQuery, useListEnergyChangesQuery } = billsApi;
