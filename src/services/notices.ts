/** Notices and the two texts: a notice change refetches the list; a saved text refetches that text. */
import { api as noticeApi } from './generated/notice';
import { api as protocolApi } from './generated/protocol';
import { invalidates, LIST, providesList } from './tags';

export const noticesApi = noticeApi.enhanceEndpoints({
  addTagTypes: ['Notice'],
  endpoints: {
    listNotices: { providesTags: providesList('Notice') },
    noticeOpt: { invalidatesTags: invalidates([{ type: 'Notice', id: LIST }]) },
  },
});

export const protocolsApi = protocolApi.enhanceEndpoints({
  addTagTypes: ['Protocol'],
  endpoints: {
    getProtocol: { providesTags: (_r, _e, arg) => [{ type: 'Protocol', id: arg.id }] },
    saveProtocol: {
      invalidatesTags: invalidates((arg: { body: { id: number } }) => [{ type: 'Protocol', id: arg.body.id }]),
    },
  },
});

export const { useListNoticesQuery, useNoticeOptMutation } = noticesApi;
export const { useGetProtocolQuery, useSaveProtocolMutation } = protocolsApi;
