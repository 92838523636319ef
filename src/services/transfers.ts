/** The transfer module's endpoint: read-only here; it refetches when money moves elsewhere ('Bill'). */
import { api } from './generated/transfer';
import { providesList } from './tags';

export const transfersApi = api.enhanceEndpoints({
  addTagTypes: ['Transfer', 'Bill'],
  endpoints: { listTransfers: { providesTags: providesList('Transfer', 'Bill') } },
});

export const { useListTransfersQuery } = transfersApi;
