/**
 * The pledge module's endpoints (records, releases, modes) with their cache tags. A saved mode
 * refetches the modes (and the record list's mode filter); the lists refetch when money moves
 * elsewhere ('Bill'), e.g. after the settlement job paid a day and another page refreshed.
 */
import { api } from './generated/pledge';
import { invalidates, LIST, providesList } from './tags';

export const pledgeApi = api.enhanceEndpoints({
  addTagTypes: ['Pledge', 'PledgeRelease', 'PledgeMode', 'Bill'],
  endpoints: {
    listPledges: { providesTags: providesList('Pledge', 'Bill') },
    listPledgeReleases: { providesTags: providesList('PledgeRelease', 'Bill') },
    listPledgeModes: { providesTags: providesList('PledgeMode') },
    savePledgeMode: { invalidatesTags: invalidates([{ type: 'PledgeMode', id: LIST }]) },
  },
});

export const { useListPledgesQuery, useListPledgeReleasesQuery, useListPledgeModesQuery, useSavePledgeModeMutation } =
  pledgeApi;
