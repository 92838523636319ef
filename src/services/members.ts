/**
 * Cache tags of the member, zone and asset-query pages. A member change refetches the member list and,
 * because balances or zone counts may have moved, the asset query, bills and zones.
 * Imported for its effect by the pages that use these hooks.
 */
import { api } from './generated/api';

const LIST = 'LIST' as const;

export const membersApi = api.enhanceEndpoints({
  endpoints: {
    listMembers: { providesTags: [{ type: 'Member', id: LIST }] },
    createMember: {
      invalidatesTags: (_r, error) => (error ? [] : [{ type: 'Member', id: LIST }, 'Zone', 'Asset']),
    },
    memberOpt: {
      // A 409 (someone else changed the member) also means the list is stale.
      invalidatesTags: (_r, error) => (error?.code === 0 ? [] : ['Member', 'Zone', 'Asset', 'Bill']),
    },
    listZones: { providesTags: [{ type: 'Zone', id: LIST }] },
    zoneOpt: {
      invalidatesTags: (_r, error) => (error?.code === 0 ? [] : [{ type: 'Zone', id: LIST }, 'Member']),
    },
    listAssets: { providesTags: [{ type: 'Asset', id: LIST }] },
  },
});

export const {
  useListMembersQuery,
  useCreateMemberMutation,
  useMemberOptMutation,
  useListZonesQuery,
  useZoneOptMutation,
  useListAssetsQuery,
} = membersApi;
