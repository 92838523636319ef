/**
 * The second factor's endpoints (issue 15) with their cache tags: binding and unbinding change the
 * status the profile shows; each writes an op-log row.
 */
import { api } from './generated/auth';
import { invalidates } from './tags';

export const totpApi = api.enhanceEndpoints({
  addTagTypes: ['Totp', 'OpLog'],
  endpoints: {
    getTotpStatus: { providesTags: ['Totp'] },
    enableTotp: { invalidatesTags: invalidates(['Totp', 'OpLog']) },
    disableTotp: { invalidatesTags: invalidates(['Totp', 'OpLog']) },
    verifyTotp: { invalidatesTags: invalidates(['Totp', 'OpLog']) },
  },
});

export const {
  useGetTotpStatusQuery,
  useSetupTotpMutation,
  useEnableTotpMutation,
  useDisableTotpMutation,
  useVerifyTotpMutation,
} = totpApi;
