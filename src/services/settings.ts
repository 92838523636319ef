/** 系统设置 and the LZ price: a save refetches both (the price history gains a point). */
import { api } from './generated/setting';
import { invalidates } from './tags';

export const settingsApi = api.enhanceEndpoints({
  addTagTypes: ['Setting', 'Price'],
  endpoints: {
    getSettings: { providesTags: ['Setting'] },
    getPrice: { providesTags: ['Price'] },
    saveSettings: { invalidatesTags: invalidates(['Setting', 'Price']) },
  },
});

export const { useGetSettingsQuery, useGetPriceQuery, useSaveSettingsMutation } = settingsApi;
