/**
 * 数据统计 and the welcome page's waiting counts. The waiting counts refetch when any of their lists
 * changes here (a review, a confirmation, an arbitration, a shipment) and poll every
 * WAITING_POLL_MS for what members do meanwhile (docs/decisions.md "Waiting counts").
 */
import { api } from './generated/stat';
import { LIST } from './tags';

/** How often the welcome page and the sidebar badges ask for the waiting counts. */
export const WAITING_POLL_MS = 30_000;

export const statsApi = api.enhanceEndpoints({
  addTagTypes: ['Withdraw', 'Deposit', 'Match', 'Order', 'Stat'],
  endpoints: {
    // Nothing invalidates it but 刷新 on its tab (the figures are of days past and the current one).
    getStat: { providesTags: ['Stat'] },
    getWelcome: {
      providesTags: [
        { type: 'Withdraw', id: LIST },
        { type: 'Deposit', id: LIST },
        { type: 'Match', id: LIST },
        { type: 'Order', id: LIST },
      ],
    },
  },
});

export const { useGetStatQuery, useGetWelcomeQuery } = statsApi;
