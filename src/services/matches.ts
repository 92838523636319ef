/**
 * The matches module's endpoints: the list and arbitration. An arbitrated match refetches its list
 * and, because LZ moved, the balances and bills other pages show.
 */
import { api } from './generated/match';
import { invalidates, LIST, MONEY_MOVED, providesList } from './tags';

export const matchesApi = api.enhanceEndpoints({
  addTagTypes: ['Match', ...MONEY_MOVED],
  endpoints: {
    listMatches: { providesTags: providesList('Match') },
    matchOpt: { invalidatesTags: invalidates([{ type: 'Match', id: LIST }, ...MONEY_MOVED]) },
  },
});

export const { useListMatchesQuery, useMatchOptMutation } = matchesApi;
