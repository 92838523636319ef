/**
 * The members module's endpoints (members, zones, the asset query) with their cache tags. A member
 * change refetches the member list and, because balances or zone counts may have moved, the asset
 * query, bills and zones. Pages import their hooks from here.
 */
import { api as memberApi } from './generated/member';
import { api as assetApi } from './generated/query';
import { api as zoneApi } from './generated/zone';
import { invalidates, LIST, providesList } from './tags';

const TAGS = ['Member', 'Zone', 'Asset', 'Bill'] as const;

export const membersApi = memberApi.enhanceEndpoints({
  addTagTypes: TAGS,
  endpoints: {
    listMembers: { providesTags: providesList('Member') },
    createMember: { invalidatesTags: invalidates([{ type: 'Member', id: LIST }, 'Zone', 'Asset']) },
    memberOpt: { invalidatesTags: invalidates(['Member', 'Zone', 'Asset', 'Bill']) },
  },
});

export const zonesApi = zoneApi.enhanceEndpoints({
  addTagTypes: TAGS,
  endpoints: {
    listZones: { providesTags: providesList('Zone') },
    zoneOpt: { invalidatesTags: invalidates([{ type: 'Zone', id: LIST }, 'Member']) },
  },
});

export const assetsApi = assetApi.enhanceEndpoints({
  addTagTypes: TAGS,
  endpoints: { listAssets: { providesTags: providesList('Asset') } },
});

export const { useListMembersQuery, useCreateMemberMutation, useMemberOptMutation } = membersApi;
export const { useListZonesQuery, useZoneOptMutation } = zonesApi;
export const { useListAssetsQuery } = assetsApi;
